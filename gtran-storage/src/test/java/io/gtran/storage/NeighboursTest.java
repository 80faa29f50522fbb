package io.gtran.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link GraphStore#neighbours}: the bulk adjacency read, against the cursor and under a concurrent writer. */
class NeighboursTest {
    /**
     * Every direction and label, against the cursor; with one edge-row chunk, and with 4 KiB
     * chunks before and after compaction, so lists cross chunks (the bulk read follows rows by
     * address within each chunk).
     */
    @ParameterizedTest
    @CsvSource({"1048576,false", "4096,false", "4096,true"})
    void matchesTheCursorForEveryDirectionAndLabel(int edgeRowChunkBytes, boolean compact) {
        try (GraphStore store = GraphStore.open(StoreTestSupport.config(StoreConfig.EDGE_ROW_CELLS, 3,
                StoreConfig.EDGE_ROW_CHUNK_BYTES, edgeRowChunkBytes))) {
            int[] labels = {store.labels().intern("a"), store.labels().intern("b")};
            Random random = new Random(23);
            long[] vertices = new long[30];
            for (int i = 0; i < vertices.length; i++) {
                vertices[i] = store.addVertex(labels[0], 1, Long.MAX_VALUE);
            }
            for (int i = 0; i < 400; i++) {
                store.addEdge(vertices[random.nextInt(30)], vertices[random.nextInt(30)], labels[random.nextInt(2)], 1, Long.MAX_VALUE);
            }
            if (compact) {
                store.compactAllEdges();
            }
            long[] out = new long[512];
            EdgeCursor cursor = store.newEdgeCursor();
            for (long v : vertices) {
                for (EdgeDirection direction : EdgeDirection.values()) {
                    for (int label : new int[] {EdgeCursor.ANY_LABEL, labels[0], labels[1]}) {
                        List<Long> expected = new ArrayList<>();
                        cursor.open(v, direction, label);
                        while (cursor.next()) {
                            expected.add(cursor.neighbour());
                        }
                        int n = store.neighbours(v, direction, label, out);
                        assertEquals(expected.size(), n, direction + " label " + label);
                        for (int i = 0; i < n; i++) {
                            assertEquals(expected.get(i), out[i], direction + " label " + label + " at " + i);
                        }
                    }
                }
            }
        }
    }

    @Test
    void aShortArrayGetsThePrefixAndTheCountNeeded() {
        try (GraphStore store = GraphStore.open(StoreTestSupport.config(StoreConfig.EDGE_ROW_CELLS, 16))) {
            int l = store.labels().intern("l");
            long hub = store.addVertex(l, 1, Long.MAX_VALUE);
            long[] targets = new long[20];
            for (int i = 0; i < targets.length; i++) {
                targets[i] = store.addVertex(l, 1, Long.MAX_VALUE);
                store.addEdge(hub, targets[i], l, 1, Long.MAX_VALUE);
            }
            assertEquals(2, store.edgeRowCount(hub), "20 cells take two 16-cell rows");
            // Arrays ending inside the first row, at or past its end (a row the read copies whole), inside the second.
            for (int length : new int[] {5, 8, 16, 18, 20}) {
                long[] shorter = new long[length];
                assertEquals(20, store.neighbours(hub, EdgeDirection.OUT, EdgeCursor.ANY_LABEL, shorter), "length " + length);
                assertArrayEquals(Arrays.copyOf(targets, length), shorter, "targets were created in id order");
            }
            long[] small = new long[5];
            assertEquals(0, store.neighbours(hub, EdgeDirection.IN, EdgeCursor.ANY_LABEL, small));
            assertThrows(UnknownElementException.class, () -> store.neighbours(12345L, EdgeDirection.OUT, EdgeCursor.ANY_LABEL, small));
        }
    }

    /**
     * A writer churns a hub's adjacency (inserts, removals, relocations) while a reader takes
     * snapshots: each must be sorted and hold every neighbour that was present throughout.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void snapshotsStayConsistentUnderAConcurrentWriter() throws Exception {
        // 4 KiB edge-row chunks: relocation moves the hub's rows across chunks under the reader.
        try (GraphStore store = GraphStore.open(StoreTestSupport.config(StoreConfig.EDGE_ROW_CELLS, 4,
                StoreConfig.EDGE_ROW_CHUNK_BYTES, 4096))) {
            int l = store.labels().intern("l");
            long hub = store.addVertex(l, 1, Long.MAX_VALUE);
            long[] stable = new long[50];
            for (int i = 0; i < stable.length; i++) {
                stable[i] = store.addVertex(l, 1, Long.MAX_VALUE);
                store.addEdge(hub, stable[i], l, 1, Long.MAX_VALUE);
            }
            long[] churn = new long[200];
            for (int i = 0; i < churn.length; i++) {
                churn[i] = store.addVertex(l, 1, Long.MAX_VALUE);
            }
            AtomicBoolean done = new AtomicBoolean();
            ExecutorService executor = Executors.newFixedThreadPool(2);
            try {
                Future<Integer> writer = executor.submit(() -> {
                    Random random = new Random(31);
                    List<Long> live = new ArrayList<>();
                    for (int op = 0; op < 40_000; op++) {
                        if (!live.isEmpty() && random.nextInt(3) == 0) {
                            store.removeEdge(live.remove(random.nextInt(live.size())));
                        } else if (random.nextInt(50) == 0) {
                            store.compactEdges(hub);
                        } else {
                            live.add(store.addEdge(hub, churn[random.nextInt(churn.length)], l, 1, Long.MAX_VALUE));
                        }
                    }
                    done.set(true);
                    return live.size();
                });
                Future<Integer> reader = executor.submit(() -> {
                    long[] out = new long[1024];
                    int snapshots = 0;
                    while (!done.get() || snapshots == 0) {
                        int n = store.neighbours(hub, EdgeDirection.OUT, EdgeCursor.ANY_LABEL, out);
                        if (n > out.length) {
                            out = new long[n * 2];
                            continue;
                        }
                        for (int i = 1; i < n; i++) {
                            if (out[i - 1] > out[i]) {
                                throw new AssertionError("snapshot out of order at " + i + " of " + n + ": "
                                        + ElementIds.toString(out[i - 1]) + " before " + ElementIds.toString(out[i]));
                            }
                        }
                        long[] seen = Arrays.copyOf(out, n);
                        for (long s : stable) {
                            if (Arrays.binarySearch(seen, s) < 0) {
                                throw new AssertionError("stable neighbour missing from a snapshot: " + ElementIds.toString(s));
                            }
                        }
                        snapshots++;
                    }
                    return snapshots;
                });
                int left = writer.get();
                assertTrue(reader.get() > 0);
                long[] out = new long[1024];
                assertEquals(stable.length + left, store.neighbours(hub, EdgeDirection.OUT, EdgeCursor.ANY_LABEL, out));
            } finally {
                executor.shutdownNow();
            }
        }
    }

    /**
     * compactAllEdges splits every list into a front part (OUT cells) and a back part (IN cells)
     * in two regions, reusing old rows for the back part on the way; a writer churns edges among
     * the same vertices meanwhile. Every OUT, IN and BOTH snapshot a reader takes must be sorted
     * (BOTH: OUT neighbours, then IN) and hold the stable neighbours.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void snapshotsStayConsistentWhileTheWholeStoreIsCompacted() throws Exception {
        try (GraphStore store = GraphStore.open(StoreTestSupport.config(StoreConfig.EDGE_ROW_CELLS, 4,
                StoreConfig.EDGE_ROW_CHUNK_BYTES, 4096))) {
            int l = store.labels().intern("l");
            long[] vertices = new long[40];
            for (int i = 0; i < vertices.length; i++) {
                vertices[i] = store.addVertex(l, 1, Long.MAX_VALUE);
            }
            // Stable edges: i -> i+1 and i -> i+2, so every vertex has two OUT and two IN neighbours.
            int n = vertices.length;
            for (int i = 0; i < n; i++) {
                store.addEdge(vertices[i], vertices[(i + 1) % n], l, 1, Long.MAX_VALUE);
                store.addEdge(vertices[i], vertices[(i + 2) % n], l, 1, Long.MAX_VALUE);
            }
            AtomicBoolean done = new AtomicBoolean();
            ExecutorService executor = Executors.newFixedThreadPool(3);
            try {
                Future<?> writer = executor.submit(() -> {
                    Random random = new Random(37);
                    List<Long> live = new ArrayList<>();
                    for (int op = 0; op < 30_000; op++) {
                        if (!live.isEmpty() && random.nextInt(3) == 0) {
                            store.removeEdge(live.remove(random.nextInt(live.size())));
                        } else {
                            live.add(store.addEdge(vertices[random.nextInt(n)], vertices[random.nextInt(n)], l, 1, Long.MAX_VALUE));
                        }
                    }
                    done.set(true);
                    return null;
                });
                Future<Integer> compactor = executor.submit(() -> {
                    int passes = 0;
                    while (!done.get() || passes == 0) {
                        store.compactAllEdges();
                        passes++;
                    }
                    return passes;
                });
                Future<Integer> reader = executor.submit(() -> {
                    long[] out = new long[4096];
                    int snapshots = 0;
                    while (!done.get() || snapshots == 0) {
                        for (int i = 0; i < n; i++) {
                            long[] stableOut = {vertices[(i + 1) % n], vertices[(i + 2) % n]};
                            long[] stableIn = {vertices[(i + n - 1) % n], vertices[(i + n - 2) % n]};
                            long[] outs = snapshot(store, vertices[i], EdgeDirection.OUT, out);
                            long[] ins = snapshot(store, vertices[i], EdgeDirection.IN, out);
                            long[] both = snapshot(store, vertices[i], EdgeDirection.BOTH, out);
                            checkSnapshot(outs, stableOut, "OUT of vertex " + i);
                            checkSnapshot(ins, stableIn, "IN of vertex " + i);
                            // BOTH: the OUT neighbours sorted, then the IN ones sorted; at most one descent.
                            int descents = 0;
                            for (int k = 1; k < both.length; k++) {
                                descents += both[k - 1] > both[k] ? 1 : 0;
                            }
                            if (descents > 1) {
                                throw new AssertionError("BOTH of vertex " + i + " is not two sorted runs: " + Arrays.toString(both));
                            }
                            for (long s : new long[] {stableOut[0], stableOut[1], stableIn[0], stableIn[1]}) {
                                if (Arrays.stream(both).noneMatch(b -> b == s)) {
                                    throw new AssertionError("BOTH of vertex " + i + ": stable neighbour missing: " + ElementIds.toString(s));
                                }
                            }
                        }
                        snapshots++;
                    }
                    return snapshots;
                });
                writer.get();
                assertTrue(compactor.get() > 0);
                assertTrue(reader.get() > 0);
            } finally {
                executor.shutdownNow();
            }
            // Quiet now: one more pass lays everything out, and the cursor agrees with the bulk read.
            store.compactAllEdges();
            long[] out = new long[4096];
            EdgeCursor cursor = store.newEdgeCursor();
            for (long v : vertices) {
                for (EdgeDirection direction : EdgeDirection.values()) {
                    List<Long> expected = new ArrayList<>();
                    cursor.open(v, direction, EdgeCursor.ANY_LABEL);
                    while (cursor.next()) {
                        expected.add(cursor.neighbour());
                    }
                    int got = store.neighbours(v, direction, EdgeCursor.ANY_LABEL, out);
                    assertEquals(expected, Arrays.stream(Arrays.copyOf(out, got)).boxed().toList(), direction.toString());
                }
            }
        }
    }

    private static long[] snapshot(GraphStore store, long vertex, EdgeDirection direction, long[] out) {
        int n = store.neighbours(vertex, direction, EdgeCursor.ANY_LABEL, out);
        if (n > out.length) {
            throw new AssertionError("more neighbours than the test allows for: " + n);
        }
        return Arrays.copyOf(out, n);
    }

    /** Sorted, and holding every stable neighbour. */
    private static void checkSnapshot(long[] seen, long[] stable, String what) {
        for (int i = 1; i < seen.length; i++) {
            if (seen[i - 1] > seen[i]) {
                throw new AssertionError(what + ": out of order at " + i + " of " + seen.length);
            }
        }
        for (long s : stable) {
            if (Arrays.binarySearch(seen, s) < 0) {
                throw new AssertionError(what + ": stable neighbour missing: " + ElementIds.toString(s));
            }
        }
    }
}
