package io.gtran.bench;

import java.util.Random;

/**
 * A deterministic property graph with power-law degrees (Chung-Lu: both endpoints of an edge are
 * drawn with probability proportional to {@code (i + 1)^-exponent}), a few labels and a few
 * properties per element. The same seed and sizes always give the same graph, so every system
 * in a comparison loads exactly the same data.
 *
 * <p>Vertices: label one of {@link #VERTEX_LABELS}; properties {@code name} (String),
 * {@code age} (int), {@code score} (double). Edges: label one of {@link #EDGE_LABELS};
 * properties {@code weight} (double), {@code since} (int). Self-loops are redrawn.
 */
public final class PowerLawGraph {
    public static final String[] VERTEX_LABELS = {"person", "post", "forum"};
    public static final String[] EDGE_LABELS = {"knows", "likes", "replyOf"};
    public static final double DEFAULT_EXPONENT = 0.8;

    public final int vertices;
    public final int edges;
    public final long seed;
    /** Per vertex: index into {@link #VERTEX_LABELS}. */
    public final byte[] vertexLabel;
    public final int[] age;
    public final double[] score;
    /** Per edge: out-vertex index, in-vertex index, index into {@link #EDGE_LABELS}. */
    public final int[] edgeOut;
    public final int[] edgeIn;
    public final byte[] edgeLabel;
    public final double[] weight;
    public final int[] since;

    private PowerLawGraph(int vertices, int edges, long seed, double exponent) {
        if (vertices < 2) {
            throw new IllegalArgumentException("vertices must be at least 2: vertices=" + vertices);
        }
        if (edges < 0) {
            throw new IllegalArgumentException("edges must not be negative: edges=" + edges);
        }
        this.vertices = vertices;
        this.edges = edges;
        this.seed = seed;
        Random random = new Random(seed);
        vertexLabel = new byte[vertices];
        age = new int[vertices];
        score = new double[vertices];
        for (int i = 0; i < vertices; i++) {
            vertexLabel[i] = (byte) random.nextInt(VERTEX_LABELS.length);
            age[i] = 18 + random.nextInt(60);
            score[i] = random.nextDouble() * 100;
        }
        double[] cumulative = new double[vertices];
        double total = 0;
        for (int i = 0; i < vertices; i++) {
            total += Math.pow(i + 1, -exponent);
            cumulative[i] = total;
        }
        // Shuffle which vertex gets which weight, so hubs are spread over the id space.
        int[] permutation = new int[vertices];
        for (int i = 0; i < vertices; i++) {
            permutation[i] = i;
        }
        for (int i = vertices - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = permutation[i];
            permutation[i] = permutation[j];
            permutation[j] = t;
        }
        edgeOut = new int[edges];
        edgeIn = new int[edges];
        edgeLabel = new byte[edges];
        weight = new double[edges];
        since = new int[edges];
        for (int e = 0; e < edges; e++) {
            int out = permutation[draw(cumulative, total, random)];
            int in;
            do {
                in = permutation[draw(cumulative, total, random)];
            } while (in == out);
            edgeOut[e] = out;
            edgeIn[e] = in;
            edgeLabel[e] = (byte) random.nextInt(EDGE_LABELS.length);
            weight[e] = random.nextDouble();
            since[e] = 2000 + random.nextInt(25);
        }
    }

    public static PowerLawGraph generate(int vertices, int edges, long seed) {
        return new PowerLawGraph(vertices, edges, seed, DEFAULT_EXPONENT);
    }

    /** The {@code name} property of vertex {@code i}; built on demand so the graph itself holds no strings. */
    public String name(int i) {
        return VERTEX_LABELS[vertexLabel[i]] + "-" + i;
    }

    /** Largest out+in degree, to show the skew. */
    public int maxDegree() {
        int[] degree = new int[vertices];
        int max = 0;
        for (int e = 0; e < edges; e++) {
            max = Math.max(max, ++degree[edgeOut[e]]);
            max = Math.max(max, ++degree[edgeIn[e]]);
        }
        return max;
    }

    private static int draw(double[] cumulative, double total, Random random) {
        double x = random.nextDouble() * total;
        int lo = 0;
        int hi = cumulative.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cumulative[mid] < x) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
