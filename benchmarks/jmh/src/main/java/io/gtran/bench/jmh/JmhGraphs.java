package io.gtran.bench.jmh;

import io.gtran.storage.ElementIds;
import io.gtran.storage.GraphStore;
import java.util.Random;

/**
 * Deterministic graph generation for the JMH benchmarks (private to this package, so that
 * benchmark inputs do not change when other generators do).
 *
 * <p>Edges are power-law-ish: the source is {@code (int) (n * r * r)} for a uniform {@code r} in
 * [0, 1), which piles out-edges onto low vertex ids: vertex v's expected out-degree is about
 * {@code m / (2 sqrt(v n))}, so vertex 0 gets about {@code m / sqrt(n)} (3,162 for n = 10^5,
 * m = 10^6) while the median vertex gets a few; the target is uniform. The same seed always
 * gives the same edges, labels and order.
 */
final class JmhGraphs {
    static final long SEED = 0x6A7A_2024L;

    private JmhGraphs() {
    }

    /** An edge list: parallel arrays of source, target and label index, in generation order. */
    record EdgeList(int vertices, int[] source, int[] target, int[] label) {
        int size() {
            return source.length;
        }
    }

    /** {@code edges} edges over {@code vertices} vertices with labels uniform in [0, labels). */
    static EdgeList powerLaw(int vertices, int edges, int labels, long seed) {
        if (vertices <= 0 || edges < 0 || labels <= 0) {
            throw new IllegalArgumentException("vertices=" + vertices + " edges=" + edges + " labels=" + labels);
        }
        Random random = new Random(seed);
        int[] source = new int[edges];
        int[] target = new int[edges];
        int[] label = new int[edges];
        for (int i = 0; i < edges; i++) {
            double r = random.nextDouble();
            source[i] = Math.min(vertices - 1, (int) (vertices * r * r));
            target[i] = random.nextInt(vertices);
            label[i] = labels == 1 ? 0 : random.nextInt(labels);
        }
        return new EdgeList(vertices, source, target, label);
    }

    /** {@code count} indexes uniform in [0, bound), for random-access benchmarks. */
    static int[] randomIndexes(int count, int bound, long seed) {
        Random random = new Random(seed);
        int[] out = new int[count];
        for (int i = 0; i < count; i++) {
            out[i] = random.nextInt(bound);
        }
        return out;
    }

    /** Out-edge CSR of an edge list: offsets (vertices + 1), targets and labels in source order. */
    static final class Csr {
        final int[] offsets;
        final int[] targets;
        final int[] labels;

        Csr(EdgeList list) {
            int n = list.vertices();
            int m = list.size();
            offsets = new int[n + 1];
            for (int s : list.source()) {
                offsets[s + 1]++;
            }
            for (int v = 0; v < n; v++) {
                offsets[v + 1] += offsets[v];
            }
            int[] fill = new int[n];
            System.arraycopy(offsets, 0, fill, 0, n);
            targets = new int[m];
            labels = new int[m];
            for (int i = 0; i < m; i++) {
                int at = fill[list.source()[i]]++;
                targets[at] = list.target()[i];
                labels[at] = list.label()[i];
            }
        }

        /**
         * Sum of every vertex's out-neighbour ids, vertex by vertex: the CSR side of the adjacency
         * benchmarks. The inner loop is the plain one C2 vectorises.
         */
        long sumOfOutNeighbours() {
            int[] off = offsets;
            int[] tgt = targets;
            long sum = 0;
            for (int v = 0, n = off.length - 1; v < n; v++) {
                for (int i = off[v], end = off[v + 1]; i < end; i++) {
                    sum += tgt[i];
                }
            }
            return sum;
        }
    }

    /**
     * Creates {@code vertices} vertices in a fresh store and returns their ids, index i being the
     * generator's vertex i. In a fresh store vertex i lands in header slot i + 1 (slot 0 is never
     * used); this is checked, since the scan checksums rely on it.
     */
    static long[] addVertices(GraphStore store, int vertices, int label) {
        long[] ids = new long[vertices];
        for (int i = 0; i < vertices; i++) {
            ids[i] = store.addVertex(label, 1L, Long.MAX_VALUE);
            if (ElementIds.slot(ids[i]) != i + 1) {
                throw new IllegalStateException("vertex " + i + " did not land in slot " + (i + 1) + ": " + ElementIds.toString(ids[i]));
            }
        }
        return ids;
    }
}
