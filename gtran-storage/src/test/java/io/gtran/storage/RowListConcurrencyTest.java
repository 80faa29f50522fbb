package io.gtran.storage;

import static io.gtran.storage.MvTupleDescriptor.NO_TUPLE;
import static io.gtran.storage.StoreTestSupport.config;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Optimistic readers against a writer that inserts, removes and compacts the same list: every scan
 * must be strictly increasing, free of duplicates, and contain every cell present throughout it,
 * and a look-up must not spin on a row recycled under it.
 */
class RowListConcurrencyTest {
    private static final int READERS = 3;
    private static final int WRITER_OPS = 60_000;

    /** An edge cell's key, in the edge row-list's order. */
    record EdgeKey(long neighbour, int edgeSlot, int direction) {
    }

    /** OUT cells before IN cells, each by neighbour then edge slot. */
    private static final Comparator<EdgeKey> EDGE_ORDER = Comparator.comparingInt(EdgeKey::direction)
            .thenComparingLong(EdgeKey::neighbour)
            .thenComparing(EdgeKey::edgeSlot, Integer::compareUnsigned);

    private static EdgeKey key(EdgeCursor c) {
        return new EdgeKey(c.neighbour(), c.edgeSlot(), c.direction() == EdgeDirection.OUT ? 1 : 2);
    }

    @ParameterizedTest(name = "edge-row cells = {0}")
    @ValueSource(ints = {2, 5})
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void edgeScansStayOrderedAndCompleteWhileTheListChurns(int cells) throws Exception {
        // Small chunks: the row pool grows new chunks while readers follow links.
        try (GraphStore store = GraphStore.open(config(StoreConfig.EDGE_ROW_CELLS, cells, StoreConfig.CHUNK_BYTES, 4096,
                StoreConfig.EDGE_ROW_CHUNK_BYTES, 4096,
                StoreConfig.LOCK_STRIPES, 1))) {
            Random random = new Random(2024 + cells);
            int label = store.labels().intern("link");
            long hub = store.addVertex(label, 1, Long.MAX_VALUE);
            List<Long> stableNeighbours = new ArrayList<>();
            List<Long> churnNeighbours = new ArrayList<>();
            for (int i = 0; i < 180; i++) {
                // Interleaved ids: stable cells sit between churning ones in key order.
                (i % 3 == 0 ? stableNeighbours : churnNeighbours).add(store.addVertex(label, 1, Long.MAX_VALUE));
            }
            Set<EdgeKey> stable = new HashSet<>();
            for (long n : stableNeighbours) {
                long out = store.addEdge(hub, n, label, 1, Long.MAX_VALUE);
                stable.add(new EdgeKey(n, ElementIds.slot(out), 1));
                if (random.nextBoolean()) {
                    long in = store.addEdge(n, hub, label, 1, Long.MAX_VALUE);
                    stable.add(new EdgeKey(n, ElementIds.slot(in), 2));
                }
            }
            long loop = store.addEdge(hub, hub, label, 1, Long.MAX_VALUE);
            stable.add(new EdgeKey(hub, ElementIds.slot(loop), 1));
            stable.add(new EdgeKey(hub, ElementIds.slot(loop), 2));

            AtomicBoolean done = new AtomicBoolean();
            CountDownLatch readersRunning = new CountDownLatch(READERS);
            ExecutorService executor = Executors.newFixedThreadPool(READERS + 1);
            try {
                List<Future<int[]>> readers = new ArrayList<>();
                for (int r = 0; r < READERS; r++) {
                    readers.add(executor.submit(edgeReader(store, hub, stable, done, readersRunning)));
                }
                Future<List<Long>> writer = executor.submit(() -> {
                    try {
                        readersRunning.await();
                        return churnEdges(store, hub, label, churnNeighbours, random);
                    } finally {
                        done.set(true);
                    }
                });
                List<Long> churnLeft = writer.get(80, TimeUnit.SECONDS);
                int concurrentScans = 0;
                for (Future<int[]> f : readers) {
                    int[] counts = f.get(30, TimeUnit.SECONDS);
                    assertTrue(counts[0] >= 1);
                    concurrentScans += counts[1];
                }
                assertTrue(concurrentScans > 0, "no scan overlapped the writer");

                // Quiescent: the list holds exactly the stable cells and the churn survivors.
                TreeSet<EdgeKey> expected = new TreeSet<>(EDGE_ORDER);
                expected.addAll(stable);
                for (long e : churnLeft) {
                    long out = store.edgeOutVertex(e);
                    long in = store.edgeInVertex(e);
                    if (out == hub) {
                        expected.add(new EdgeKey(in, ElementIds.slot(e), 1));
                    }
                    if (in == hub) {
                        expected.add(new EdgeKey(out, ElementIds.slot(e), 2));
                    }
                }
                List<EdgeKey> actual = new ArrayList<>();
                EdgeCursor c = store.newEdgeCursor().open(hub, EdgeDirection.BOTH);
                while (c.next()) {
                    actual.add(key(c));
                }
                assertEquals(new ArrayList<>(expected), actual);
            } finally {
                executor.shutdownNow();
            }
        }
    }

    /** Adds, removes and compacts churn edges of {@code hub}; returns the churn edges still live. */
    private static List<Long> churnEdges(GraphStore store, long hub, int label, List<Long> churnNeighbours, Random random) {
        List<Long> live = new ArrayList<>();
        for (int op = 0; op < WRITER_OPS; op++) {
            int dice = random.nextInt(100);
            if (dice < 2) {
                store.compactEdges(hub);
            } else if (dice < 50 && live.size() < 150) {
                long n = churnNeighbours.get(random.nextInt(churnNeighbours.size()));
                long edge = switch (random.nextInt(5)) {
                    case 0 -> store.addEdge(n, hub, label, 1, Long.MAX_VALUE);
                    case 1 -> store.addEdge(hub, hub, label, 1, Long.MAX_VALUE);
                    default -> store.addEdge(hub, n, label, 1, Long.MAX_VALUE);
                };
                live.add(edge);
            } else if (!live.isEmpty()) {
                int i = random.nextInt(live.size());
                long edge = live.get(i);
                live.set(i, live.get(live.size() - 1));
                live.remove(live.size() - 1);
                store.removeEdge(edge);
            }
        }
        return live;
    }

    /** Scans until the writer is done (at least once); returns {scans, scans started while the writer ran}. */
    private static Callable<int[]> edgeReader(GraphStore store, long hub, Set<EdgeKey> stable, AtomicBoolean done,
            CountDownLatch running) {
        return () -> {
            running.countDown();
            EdgeCursor cursor = store.newEdgeCursor();
            int scans = 0;
            int concurrent = 0;
            while (true) {
                boolean writerActiveAtStart = !done.get();
                cursor.open(hub, EdgeDirection.BOTH, EdgeCursor.ANY_LABEL);
                Set<EdgeKey> seen = new HashSet<>();
                EdgeKey previous = null;
                while (cursor.next()) {
                    EdgeKey k = key(cursor);
                    if (previous != null && EDGE_ORDER.compare(previous, k) >= 0) {
                        fail("scan " + scans + " went from " + previous + " to " + k);
                    }
                    previous = k;
                    seen.add(k);
                }
                for (EdgeKey k : stable) {
                    if (!seen.contains(k)) {
                        fail("scan " + scans + " missed stable cell " + k);
                    }
                }
                scans++;
                if (writerActiveAtStart) {
                    concurrent++;
                }
                if (!writerActiveAtStart) {
                    return new int[] {scans, concurrent};
                }
            }
        };
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void propertyScansStayOrderedAndCompleteWhileKeysChurn() throws Exception {
        try (GraphStore store = GraphStore.open(config(StoreConfig.VERTEX_PROPERTY_ROW_CELLS, 3, StoreConfig.CHUNK_BYTES, 4096,
                StoreConfig.LOCK_STRIPES, 2))) {
            Random random = new Random(77);
            int label = store.labels().intern("v");
            long hub = store.addVertex(label, 1, Long.MAX_VALUE);
            int keys = 400;
            for (int k = 0; k < keys; k++) {
                store.propertyKeys().intern("key" + k);
            }
            Set<Integer> stable = new TreeSet<>();
            for (int k = 0; k < keys; k += 4) {
                stable.add(k);
                store.vertices().addPropertyVersion(hub, k, (long) k, 1, Long.MAX_VALUE);
            }
            int hubSlot = store.vertices.slotOf(hub);
            AtomicBoolean done = new AtomicBoolean();
            CountDownLatch readersRunning = new CountDownLatch(READERS);
            ExecutorService executor = Executors.newFixedThreadPool(READERS + 1);
            try {
                List<Future<Integer>> readers = new ArrayList<>();
                for (int r = 0; r < READERS; r++) {
                    readers.add(executor.submit(() -> {
                        readersRunning.countDown();
                        PropertyCursor cursor = store.vertices().newPropertyCursor();
                        int scans = 0;
                        boolean last;
                        do {
                            last = done.get();
                            cursor.open(hub);
                            int previous = -1;
                            Set<Integer> seen = new HashSet<>();
                            while (cursor.next()) {
                                int k = cursor.keyId();
                                assertTrue(k > previous, "scan " + scans + " went from key " + previous + " to " + k);
                                assertNotEquals(MvTupleDescriptor.NO_TUPLE, cursor.newestVersion());
                                previous = k;
                                seen.add(k);
                            }
                            assertTrue(seen.containsAll(stable), "scan " + scans + " missed a stable key");
                            int probe = 4 * spread(scans, keys / 4);
                            assertNotEquals(MvTupleDescriptor.NO_TUPLE, store.vertices().propertyVersion(hub, probe),
                                    "point look-up missed stable key " + probe);
                            scans++;
                        } while (!last);
                        return scans;
                    }));
                }
                Future<Set<Integer>> writer = executor.submit(() -> {
                    try {
                        readersRunning.await();
                        Set<Integer> present = new TreeSet<>(stable);
                        for (int op = 0; op < WRITER_OPS; op++) {
                            int dice = random.nextInt(100);
                            int k = random.nextInt(keys);
                            if (dice < 3) {
                                store.vertexPropertyLists.compact(store.vertices.headers, hubSlot,
                                        VertexHeaderDescriptor.PROPERTY_ROW_OFFSET);
                            } else if (stable.contains(k)) {
                                if (dice < 10) {
                                    store.vertices().addPropertyVersion(hub, k, "v" + op, op, Long.MAX_VALUE);
                                }
                            } else if (dice < 55) {
                                store.vertices().addPropertyVersion(hub, k, (long) op, op, Long.MAX_VALUE);
                                present.add(k);
                            } else {
                                assertEquals(present.remove(k), store.vertices().removeProperty(hub, k));
                            }
                        }
                        return present;
                    } finally {
                        done.set(true);
                    }
                });
                Set<Integer> present = writer.get(80, TimeUnit.SECONDS);
                for (Future<Integer> f : readers) {
                    assertTrue(f.get(30, TimeUnit.SECONDS) >= 1);
                }
                List<Integer> actual = new ArrayList<>();
                PropertyCursor cursor = store.vertices().newPropertyCursor().open(hub);
                while (cursor.next()) {
                    actual.add(cursor.keyId());
                }
                assertEquals(new ArrayList<>(present), actual);
            } finally {
                executor.shutdownNow();
            }
        }
    }

    /**
     * A freed row's link word holds the free-list link, (previous free head + 1). So when row s - 1
     * is freed just before row s, row s links to itself, and it keeps its count and cells. An
     * optimistic {@link PropertyRowLists#find} that followed a link into s before the writer's change
     * (it read the previous row's link earlier) then walks s -> s -> s ... and, since it checks
     * the stripe only after the walk, never notices the writer: it spins until s happens to be
     * reallocated, forever in a quiet store.
     *
     * <p>The test makes the real operations leave that self-linked row behind, then shows the
     * reader the one stale link it would have read before the merge (the previous row still
     * pointing at s), and finally completes the "writer" under the stripe lock. A reader that
     * bounds its walk retries and returns; one that does not never returns.
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void propertyLookupDoesNotSpinOnARecycledRowThatLinksToItself() throws Exception {
        try (GraphStore store = GraphStore.open(config(StoreConfig.VERTEX_PROPERTY_ROW_CELLS, 4))) {
            int label = store.labels().intern("v");
            int[] keys = new int[10];
            for (int i = 0; i < keys.length; i++) {
                keys[i] = store.propertyKeys().intern("k" + i);
            }
            long a = store.addVertex(label, 1, Long.MAX_VALUE);
            long b = store.addVertex(label, 1, Long.MAX_VALUE);
            int bSlot = store.vertices.slotOf(b);
            int aSlot = store.vertices.slotOf(a);
            PropertyRowLists lists = store.vertexPropertyLists;
            SlotPool rows = lists.rows;
            SlotPool owners = store.vertices.headers;
            int field = VertexHeaderDescriptor.PROPERTY_ROW_OFFSET;

            for (int k = 1; k <= 4; k++) {
                store.vertices().addPropertyVersion(b, keys[k], k, 1, Long.MAX_VALUE); // b's first row, full
            }
            store.vertices().addPropertyVersion(a, keys[1], 1, 1, Long.MAX_VALUE); // a's row: the next slot
            store.vertices().addPropertyVersion(b, keys[5], 5, 1, Long.MAX_VALUE); // b's second row: the slot after
            int bHead = owners.getInt(bSlot, field);
            int aRow = owners.getInt(aSlot, field);
            int s = lists.next(bHead);
            assertEquals(aRow + 1, s, "precondition: a's row is just below b's second row");

            // GC removes a's property (its row is freed), then one of b's: b's rows now fit in one,
            // so the second row is merged into the first and freed right after a's row.
            assertTrue(store.vertices().removeProperty(a, keys[1]));
            assertTrue(store.vertices().removeProperty(b, keys[1]));
            assertEquals(RowDescriptor.NO_ROW, lists.next(bHead));
            assertEquals(s, lists.next(s), "the free list left the recycled row linked to itself");
            assertEquals(1, lists.count(s), "and with its old count");

            // What a reader that read b's first row just before the merge sees: its link to s.
            int stripe = lists.locks.stripe(field, bSlot);
            rows.putInt(bHead, RowDescriptor.NEXT_OFFSET, s);
            ExecutorService executor = Executors.newSingleThreadExecutor();
            try {
                Future<Integer> reader = executor.submit(() -> store.vertices().propertyVersion(b, keys[9]));
                Thread.sleep(200); // real time: the reader (most likely) spins on the stale link meanwhile
                // The writer's change becomes visible: the link is gone and the stripe has moved on.
                long locked = lists.locks.lock(stripe);
                rows.putInt(bHead, RowDescriptor.NEXT_OFFSET, RowDescriptor.NO_ROW);
                lists.locks.unlock(stripe, locked);
                try {
                    assertEquals(NO_TUPLE, reader.get(10, TimeUnit.SECONDS));
                } catch (TimeoutException e) {
                    // Unstick the spinning reader (reusing the row zeroes its count) before failing.
                    store.vertices().addPropertyVersion(a, keys[2], 2, 1, Long.MAX_VALUE);
                    reader.get(10, TimeUnit.SECONDS);
                    fail("find() looped on a recycled row that links to itself and never revalidated");
                }
            } finally {
                executor.shutdownNow();
            }
            assertEquals(List.of(2L, 3L, 4L, 5L), List.of(keys[2], keys[3], keys[4], keys[5]).stream()
                    .map(k -> ((Number) store.mvStore().value(store.vertices().propertyVersion(b, k))).longValue()).toList());
        }
    }

    /** A cheap deterministic spread for the readers' probes (Random is not shared across threads). */
    private static int spread(int n, int bound) {
        return Math.floorMod(n * 0x9E3779B1, bound);
    }
}
