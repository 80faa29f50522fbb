package io.gtran.lbv;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Graph500-style Kronecker (R-MAT) graph with labels and properties, after the labelled
 * property Kronecker graphs of the GDI paper (Besta et al., SC'23).
 *
 * <p>{@code 2^scale} vertices, the scale chosen so that the edge factor {@code edges / vertices}
 * is nearest 16 in log terms (between about 11 and 23), and exactly {@code targetEdges} edges:
 * each edge descends {@code scale} levels of the adjacency matrix with quadrant probabilities
 * A=0.57, B=0.19, C=0.19, D=0.05 (no per-level noise, unlike Graph500's reference code); vertex
 * numbers are then scrambled by an affine permutation so that hubs are not ids 0, 1, 2. Self-loops
 * and repeated (out, in) pairs are dropped and redrawn, so every edge is a distinct directed pair
 * ((u, v) and (v, u) may both occur). R-MAT leaves many vertices isolated; they are kept.
 *
 * <p>Vertex labels {@code v0..v3} and edge labels {@code e0..e2} by hash of the id; vertex
 * properties {@code ori_id}, {@code name} (unique), {@code value} (long); edge properties
 * {@code weight} (double in [0, 1)) and {@code creationDate} (epoch milliseconds, 2010–2012).
 */
final class KroneckerDataset implements Dataset {
    static final String NAME = "kronecker";

    static final double A = 0.57, B = 0.19, C = 0.19;
    private static final int EDGE_FACTOR = 16;
    private static final int MAX_SCALE = 30;
    private static final long DATE_START = 1_262_304_000_000L;
    private static final long DATE_SPAN = 3 * 365 * 86_400_000L;
    private static final List<String> VERTEX_LABELS = List.of("v0", "v1", "v2", "v3");
    private static final List<String> EDGE_LABELS = List.of("e0", "e1", "e2");
    private static final long SALT_PERMUTATION = 1, SALT_EDGES = 2, SALT_VERTEX = 3, SALT_EDGE = 4;

    private final long seed;
    private final int scale;
    private final long vertices;
    private final long edges;
    private final long multiplier;
    private final long offset;
    private final DatasetInfo info;

    KroneckerDataset(long targetEdges, long seed) {
        this.seed = seed;
        this.scale = scaleFor(targetEdges);
        this.vertices = 1L << scale;
        this.edges = targetEdges;
        this.multiplier = SplitMix64.hash(seed, SALT_PERMUTATION) | 1; // odd: a bijection mod 2^scale
        this.offset = SplitMix64.hash(seed, SALT_PERMUTATION, 1);
        this.info = new DatasetInfo(NAME + "-scale" + scale + "-e" + edges + "-s" + seed, vertices, edges, VERTEX_LABELS,
                EDGE_LABELS, List.of("ori_id", "name"), List.of("creationDate"), List.of("ori_id", "name", "value"),
                List.of("weight", "creationDate"), "ori_id");
    }

    /**
     * The scale whose edge factor is nearest 16 in log terms, raised until at most a quarter of all
     * directed pairs are needed (so the distinct-pair draws end quickly).
     */
    static int scaleFor(long targetEdges) {
        double ratio = Math.max(1.0, (double) targetEdges / EDGE_FACTOR);
        int scale = Math.max(1, (int) Math.round(StrictMath.log(ratio) / StrictMath.log(2.0)));
        while (scale < MAX_SCALE && (1L << scale) * ((1L << scale) - 1) / 4 < targetEdges) {
            scale++;
        }
        if ((1L << scale) * ((1L << scale) - 1) / 4 < targetEdges) {
            throw new IllegalArgumentException("targetEdges=" + targetEdges + " is above the kronecker dataset's limit");
        }
        return scale;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public DatasetInfo info() {
        return info;
    }

    int scale() {
        return scale;
    }

    @Override
    public String toString() {
        return "KroneckerDataset[scale=" + scale + ", edges=" + edges + ", seed=" + seed + "]";
    }

    @Override
    public void generate(GraphSink sink) {
        for (long v = 0; v < vertices; v++) {
            SplitMix64 r = SplitMix64.of(seed, SALT_VERTEX, v);
            long oriId = Datasets.oriId(seed, v);
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("ori_id", oriId);
            p.put("name", "k" + Long.toString(oriId, 36));
            p.put("value", r.nextLong(1_000_000));
            sink.vertex(v, r.pick(VERTEX_LABELS), p);
        }
        SplitMix64 r = SplitMix64.of(seed, SALT_EDGES);
        LongSet seen = new LongSet((int) Math.min(Integer.MAX_VALUE / 2, edges));
        for (long e = 0; e < edges; e++) {
            long out, in;
            int attempts = 0;
            do {
                if (attempts++ < 1000) {
                    long pair = rmat(r);
                    out = pair >>> 32;
                    in = pair & 0xFFFF_FFFFL;
                } else { // the skewed cells are full; any free pair will do
                    out = r.nextLong(vertices);
                    in = r.nextLong(vertices);
                }
            } while (out == in || !seen.add(out * vertices + in));
            SplitMix64 pr = SplitMix64.of(seed, SALT_EDGE, e);
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("weight", pr.nextDouble());
            p.put("creationDate", DATE_START + pr.nextLong(DATE_SPAN));
            sink.edge(e, permute(out), permute(in), pr.pick(EDGE_LABELS), p);
        }
    }

    /** One R-MAT descent: the (row, column) cell packed as {@code row << 32 | column}. */
    private long rmat(SplitMix64 r) {
        long row = 0;
        long column = 0;
        for (int level = 0; level < scale; level++) {
            double u = r.nextDouble();
            row <<= 1;
            column <<= 1;
            if (u < A) {
                continue; // top-left
            }
            if (u < A + B) {
                column |= 1; // top-right
            } else if (u < A + B + C) {
                row |= 1; // bottom-left
            } else {
                row |= 1; // bottom-right
                column |= 1;
            }
        }
        return row << 32 | column;
    }

    /** An affine permutation of {@code 0..2^scale-1}: odd multiplier, so a bijection. */
    private long permute(long v) {
        return (v * multiplier + offset) & (vertices - 1);
    }
}
