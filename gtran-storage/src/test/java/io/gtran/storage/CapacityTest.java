package io.gtran.storage;

import static io.gtran.storage.MvTupleDescriptor.NO_TUPLE;
import static io.gtran.storage.StoreTestSupport.adjacency;
import static io.gtran.storage.StoreTestSupport.config;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

/** Small limits: every pool runs dry with a StoreCapacityException naming its key, and a failed call leaves nothing. */
class CapacityTest {

    private static StoreCapacityException full(String key, Executable call) {
        StoreCapacityException e = assertThrows(StoreCapacityException.class, call);
        assertTrue(e.getMessage().contains(key), "message should name " + key + ": " + e.getMessage());
        return e;
    }

    @Test
    void vertexTableRunsDry() {
        try (GraphStore store = GraphStore.open(StoreConfig.from(Map.of(StoreConfig.VERTICES_MAX, 3)))) {
            int label = store.labels().intern("v");
            long a = store.addVertex(label, 1, 2);
            store.addVertex(label, 1, 2);
            store.addVertex(label, 1, 2);
            StoreCapacityException e = full(StoreConfig.VERTICES_MAX, () -> store.addVertex(label, 1, 2));
            assertTrue(e.getMessage().contains("pool=vertex-header") && e.getMessage().contains("capacity=3"), e.getMessage());
            assertEquals(3, store.vertices().count());
            assertEquals(4, store.vertices().slotLimit(), "3 vertices and the reserved slot 0");
            store.removeVertex(a);
            long again = store.addVertex(label, 1, 2);
            assertEquals(ElementIds.slot(a), ElementIds.slot(again));
            full(StoreConfig.VERTICES_MAX, () -> store.addVertex(label, 1, 2));
        }
    }

    @Test
    void edgeTableRunsDryWithoutTouchingAdjacency() {
        try (GraphStore store = GraphStore.open(StoreConfig.from(Map.of(StoreConfig.EDGES_MAX, 2)))) {
            int label = store.labels().intern("e");
            long a = store.addVertex(label, 1, 2);
            long b = store.addVertex(label, 1, 2);
            store.addEdge(a, b, label, 1, 2);
            long second = store.addEdge(b, a, label, 1, 2);
            List<StoreTestSupport.Cell> aBefore = adjacency(store, a);
            List<StoreTestSupport.Cell> bBefore = adjacency(store, b);
            Map<String, Long> before = store.liveSlots();
            full(StoreConfig.EDGES_MAX, () -> store.addEdge(a, b, label, 1, 2));
            full(StoreConfig.EDGES_MAX, () -> store.addEdge(a, a, label, 1, 2));
            assertEquals(2, store.edges().count());
            assertEquals(aBefore, adjacency(store, a));
            assertEquals(bBefore, adjacency(store, b));
            assertEquals(before, store.liveSlots());
            store.removeEdge(second);
            store.addEdge(a, a, label, 1, 2);
            assertEquals(2, store.edges().count());
        }
    }

    @Test
    void edgeRowsRunningDryOnTheInCellUndoTheOutCell() {
        try (GraphStore store = GraphStore.open(StoreConfig.from(Map.of(StoreConfig.EDGE_ROWS_MAX, 1)))) {
            int label = store.labels().intern("e");
            long a = store.addVertex(label, 1, 2);
            long b = store.addVertex(label, 1, 2);
            // The OUT cell takes the only row; the IN cell finds none.
            full(StoreConfig.EDGE_ROWS_MAX, () -> store.addEdge(a, b, label, 1, 2));
            assertEquals(0, store.edges().count());
            assertEquals(List.of(), adjacency(store, a));
            assertEquals(List.of(), adjacency(store, b));
            assertEquals(0L, store.liveSlots().get("edge-row"), "the OUT cell's row went back");
            assertEquals(0L, store.liveSlots().get("edge-header"));
            assertEquals(0, store.edgeRowCount(a));
            // The store still works within its limit: a self-loop needs one row for both cells.
            long loop = store.addEdge(a, a, label, 1, 2);
            assertEquals(2, adjacency(store, a).size());
            store.removeEdge(loop);
            store.removeVertex(a);
            store.removeVertex(b);
        }
    }

    @Test
    void edgeRowsRunningDryLeaveNoHalfEdge() {
        try (GraphStore store = GraphStore.open(StoreConfig.from(Map.of(StoreConfig.EDGE_ROWS_MAX, 3, StoreConfig.EDGE_ROW_CELLS, 2)))) {
            int label = store.labels().intern("e");
            long a = store.addVertex(label, 1, 2);
            long b = store.addVertex(label, 1, 2);
            long c = store.addVertex(label, 1, 2);
            long d = store.addVertex(label, 1, 2);
            store.addEdge(a, b, label, 1, 2); // a: row 1, b: row 2
            store.addEdge(a, c, label, 1, 2); // a's row is now full, c: row 3
            assertEquals(3L, store.liveSlots().get("edge-row"));
            long[] vertices = {a, b, c, d};
            Map<String, Long> live = store.liveSlots();
            List<List<StoreTestSupport.Cell>> before = List.of(adjacency(store, a), adjacency(store, b), adjacency(store, c),
                    adjacency(store, d));

            // OUT cell fails: a's row is full.
            full(StoreConfig.EDGE_ROWS_MAX, () -> store.addEdge(a, d, label, 1, 2));
            // OUT cell fits in b's row, IN cell fails: a's row is full; b's new cell must be taken back.
            full(StoreConfig.EDGE_ROWS_MAX, () -> store.addEdge(b, a, label, 1, 2));
            // OUT cell fails: d has no row yet.
            full(StoreConfig.EDGE_ROWS_MAX, () -> store.addEdge(d, b, label, 1, 2));

            for (int i = 0; i < vertices.length; i++) {
                assertEquals(before.get(i), adjacency(store, vertices[i]), "adjacency of vertex " + i);
            }
            assertEquals(2, store.edges().count());
            assertEquals(live, store.liveSlots());
            // Room in both lists: fine.
            long bc = store.addEdge(b, c, label, 1, 2);
            assertEquals(3, store.edges().count());
            store.removeEdge(bc);
        }
    }

    @Test
    void mvTuplesRunDryWithoutLeakingValues() {
        try (GraphStore store = GraphStore.open(StoreConfig.from(Map.of(StoreConfig.MV_TUPLES_MAX, 2)))) {
            int label = store.labels().intern("v");
            int key = store.propertyKeys().intern("k");
            long v = store.addVertex(label, 1, 2);
            store.vertices().addPropertyVersion(v, key, "first", 1, 2);
            int second = store.vertices().addPropertyVersion(v, key, "second", 2, 3);
            Map<String, Long> before = store.liveSlots();
            full(StoreConfig.MV_TUPLES_MAX, () -> store.vertices().addPropertyVersion(v, key, "third", 3, 4));
            full(StoreConfig.MV_TUPLES_MAX, () -> store.vertices().addPropertyVersion(v, key, 3, 3, 4));
            full(StoreConfig.MV_TUPLES_MAX, () -> store.vertices().addSerializedPropertyVersion(v, key, new byte[100_000], 3, 4));
            full(StoreConfig.MV_TUPLES_MAX, () -> store.mvStore().createVersion("direct", 1, 2, NO_TUPLE));
            assertEquals(before, store.liveSlots(), "the value stored before the tuple failed was freed");
            assertEquals(second, store.vertices().propertyVersion(v, key));
            assertEquals(1, store.freeVersionsOlderThan(second));
            store.vertices().addPropertyVersion(v, key, "third", 3, 4);
        }
    }

    @Test
    void propertyRowsRunDryAndTheNewVersionIsFreed() {
        try (GraphStore store = GraphStore.open(StoreConfig.from(Map.of(StoreConfig.PROPERTY_ROWS_MAX, 1,
                StoreConfig.VERTEX_PROPERTY_ROW_CELLS, 2, StoreConfig.EDGE_PROPERTY_ROW_CELLS, 2)))) {
            int label = store.labels().intern("v");
            int k0 = store.propertyKeys().intern("k0");
            int k1 = store.propertyKeys().intern("k1");
            int k2 = store.propertyKeys().intern("k2");
            long v = store.addVertex(label, 1, 2);
            store.vertices().addPropertyVersion(v, k0, "zero", 1, 2);
            store.vertices().addPropertyVersion(v, k2, "two", 1, 2);
            Map<String, Long> before = store.liveSlots();
            full(StoreConfig.PROPERTY_ROWS_MAX, () -> store.vertices().addPropertyVersion(v, k1, "one", 1, 2));
            assertEquals(before, store.liveSlots());
            assertEquals(NO_TUPLE, store.vertices().propertyVersion(v, k1));
            // A new version of an existing key needs no row.
            store.vertices().addPropertyVersion(v, k0, "zero again", 2, 3);
            // Edge properties have their own pool with the same limit.
            long e = store.addEdge(v, v, label, 1, 2);
            store.edges().addPropertyVersion(e, k0, 0, 1, 2);
            store.edges().addPropertyVersion(e, k1, 1, 1, 2);
            full(StoreConfig.PROPERTY_ROWS_MAX, () -> store.edges().addPropertyVersion(e, k2, 2, 1, 2));
            assertEquals(NO_TUPLE, store.edges().propertyVersion(e, k2));
        }
    }

    @Test
    void dictionariesRunDry() {
        try (GraphStore store = GraphStore.open(StoreConfig.from(Map.of(StoreConfig.LABELS_MAX, 2, StoreConfig.PROPERTY_KEYS_MAX, 1)))) {
            assertEquals(0, store.labels().intern("a"));
            assertEquals(1, store.labels().intern("b"));
            StoreCapacityException e = full(StoreConfig.LABELS_MAX, () -> store.labels().intern("c"));
            assertTrue(e.getMessage().contains("'c'"), e.getMessage());
            assertEquals(1, store.labels().intern("b"), "known strings still resolve");
            assertEquals(2, store.labels().size());
            assertEquals(Dictionary.ABSENT, store.labels().find("c"));
            store.propertyKeys().intern("k");
            full(StoreConfig.PROPERTY_KEYS_MAX, () -> store.propertyKeys().intern("k2"));
        }
    }

    @Test
    void valueRegionRunsDry() {
        // 64 bytes per size class: four 16-byte slots hold values of up to 12 bytes.
        try (GraphStore store = GraphStore.open(StoreConfig.from(Map.of(StoreConfig.VALUES_MAX_BYTES, 64)))) {
            MvStore mv = store.mvStore();
            for (int i = 0; i < 4; i++) {
                mv.createVersion("s" + i, 1, 2, NO_TUPLE);
            }
            long tuples = mv.liveVersions();
            full(StoreConfig.VALUES_MAX_BYTES, () -> mv.createVersion("s4", 1, 2, NO_TUPLE));
            assertEquals(tuples, mv.liveVersions(), "no tuple is taken when the value cannot be stored");
            assertEquals(4, mv.liveValues());
            // A larger value uses another size class, which still has room.
            mv.createVersion("a longer string value", 1, 2, NO_TUPLE);
            // Large values count against the same budget.
            full(StoreConfig.VALUES_MAX_BYTES, () -> mv.createVersion(new byte[70_000], 1, 2, NO_TUPLE));
            assertEquals(5, mv.liveValues());
            assertEquals(5, mv.liveVersions());
        }
    }

    /**
     * A failed call must leave the store as it was. When an edge's OUT cell lands in a full row
     * between full rows, the two rows are spread over three, taking a row; if the IN cell then finds
     * the pool empty, removing the OUT cell again leaves three rows none of which fits in a
     * neighbour, so the failed call kept the pool's last row and a later edge that fitted before
     * was refused.
     */
    @Test
    void anEdgeWhoseInCellFailsGivesBackTheRowItsOutCellTook() {
        try (GraphStore store = GraphStore.open(config(StoreConfig.EDGE_ROW_CELLS, 2, StoreConfig.EDGE_ROWS_MAX, 10))) {
            int label = store.labels().intern("e");
            long a = store.addVertex(label, 1, 2);
            long x1 = store.addVertex(label, 1, 2);
            long x2 = store.addVertex(label, 1, 2);
            long x3 = store.addVertex(label, 1, 2);
            long b = store.addVertex(label, 1, 2); // sorts between x3 and x4 in a's list
            long x4 = store.addVertex(label, 1, 2);
            long x5 = store.addVertex(label, 1, 2);
            long x6 = store.addVertex(label, 1, 2);
            for (long x : new long[] {x1, x2, x3, x4, x5, x6}) {
                store.addEdge(a, x, label, 1, 2); // a: 3 full rows; each x: 1 row; 1 row left
            }
            List<StoreTestSupport.Cell> aBefore = StoreTestSupport.adjacency(store, a);
            var before = store.liveSlots();

            // a's OUT cell spreads a's full middle row and full last row over three (the last free
            // row); b then has no row for its IN cell.
            try {
                store.addEdge(a, b, label, 1, 2);
                fail("the IN cell should not fit");
            } catch (StoreCapacityException expected) {
                // as intended
            }

            assertEquals(aBefore, StoreTestSupport.adjacency(store, a));
            assertEquals(List.of(), StoreTestSupport.adjacency(store, b));
            assertEquals(before, store.liveSlots(), "the failed edge gave back every slot it took");
            long fits = store.addEdge(b, ElementIds.vertexId(1, 1, 0), label, 1, 2); // needs the one free row
            assertTrue(store.edges().contains(fits));
        }
    }

    /**
     * The large-value budget was checked, then the buffer allocated and filled, and only then the
     * bytes counted: concurrent stores all passed the check and together went far past
     * {@code gtran.storage.values.max-bytes}.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void concurrentLargeValuesStayWithinTheCap() throws Exception {
        int size = 4 << 20;
        int threads = 8;
        try (GraphStore store = GraphStore.open(config(StoreConfig.VALUES_MAX_BYTES, 2L * size))) {
            MvStore mv = store.mvStore();
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                for (int round = 0; round < 20; round++) {
                    CountDownLatch start = new CountDownLatch(1);
                    List<Future<Integer>> futures = new ArrayList<>();
                    for (int t = 0; t < threads; t++) {
                        byte[] value = new byte[size];
                        futures.add(pool.submit(() -> {
                            start.await();
                            try {
                                return mv.createVersion(value, 1, 2, NO_TUPLE);
                            } catch (StoreCapacityException e) {
                                assertTrue(e.getMessage().contains(StoreConfig.VALUES_MAX_BYTES), e.getMessage());
                                return NO_TUPLE;
                            }
                        }));
                    }
                    start.countDown();
                    List<Integer> stored = new ArrayList<>();
                    for (Future<Integer> f : futures) {
                        int version = f.get(30, TimeUnit.SECONDS);
                        if (version != NO_TUPLE) {
                            stored.add(version);
                        }
                    }
                    assertTrue(stored.size() <= 2, "round " + round + ": " + stored.size() + " values of " + size
                            + " bytes under a cap of " + 2L * size);
                    assertTrue(store.reservedBytes().get("mv-kvs") <= 2L * size + (1 << 20), store.reservedBytes().toString());
                    for (int version : stored) {
                        mv.freeVersion(version);
                    }
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }
}
