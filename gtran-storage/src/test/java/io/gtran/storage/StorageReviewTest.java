package io.gtran.storage;

import static io.gtran.storage.MvTupleDescriptor.NO_TUPLE;
import static io.gtran.storage.StoreTestSupport.config;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Regression tests for defects found in a review of the concurrent core of the store. */
class StorageReviewTest {

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
                store.addVertexPropertyVersion(b, keys[k], k, 1, Long.MAX_VALUE); // b's first row, full
            }
            store.addVertexPropertyVersion(a, keys[1], 1, 1, Long.MAX_VALUE); // a's row: the next slot
            store.addVertexPropertyVersion(b, keys[5], 5, 1, Long.MAX_VALUE); // b's second row: the slot after
            int bHead = owners.getInt(bSlot, field);
            int aRow = owners.getInt(aSlot, field);
            int s = lists.next(bHead);
            assertEquals(aRow + 1, s, "precondition: a's row is just below b's second row");

            // GC removes a's property (its row is freed), then one of b's: b's rows now fit in one,
            // so the second row is merged into the first and freed right after a's row.
            assertTrue(store.removeVertexProperty(a, keys[1]));
            assertTrue(store.removeVertexProperty(b, keys[1]));
            assertEquals(RowDescriptor.NO_ROW, lists.next(bHead));
            assertEquals(s, lists.next(s), "the free list left the recycled row linked to itself");
            assertEquals(1, lists.count(s), "and with its old count");

            // What a reader that read b's first row just before the merge sees: its link to s.
            int stripe = lists.locks.stripe(field, bSlot);
            rows.putInt(bHead, RowDescriptor.NEXT_OFFSET, s);
            ExecutorService executor = Executors.newSingleThreadExecutor();
            try {
                Future<Integer> reader = executor.submit(() -> store.vertexPropertyVersion(b, keys[9]));
                Thread.sleep(200);
                // The writer's change becomes visible: the link is gone and the stripe has moved on.
                long locked = lists.locks.lock(stripe);
                rows.putInt(bHead, RowDescriptor.NEXT_OFFSET, RowDescriptor.NO_ROW);
                lists.locks.unlock(stripe, locked);
                try {
                    assertEquals(NO_TUPLE, reader.get(10, TimeUnit.SECONDS));
                } catch (TimeoutException e) {
                    // Unstick the spinning reader (reusing the row zeroes its count) before failing.
                    store.addVertexPropertyVersion(a, keys[2], 2, 1, Long.MAX_VALUE);
                    reader.get(10, TimeUnit.SECONDS);
                    fail("find() looped on a recycled row that links to itself and never revalidated");
                }
            } finally {
                executor.shutdownNow();
            }
            assertEquals(List.of(2L, 3L, 4L, 5L), List.of(keys[2], keys[3], keys[4], keys[5]).stream()
                    .map(k -> ((Number) store.mvStore().value(store.vertexPropertyVersion(b, k))).longValue()).toList());
        }
    }

    /**
     * {@link GraphStore#compactAllEdges} promises that a second pass over a compacted store moves
     * nothing. But a run never straddles a chunk: a list that does not fit in what is left of the
     * current chunk starts on the next one, and the next pass, expecting it right after the previous
     * list, moved it again (and every list after it), growing the row pool on every pass.
     */
    @Test
    void aSecondCompactionPassMovesNothingWhenAListStartedOnANewChunk() {
        // 4 KiB chunks of 72-byte rows: 32 rows a chunk.
        try (GraphStore store = GraphStore.open(config(StoreConfig.EDGE_ROW_CELLS, 4, StoreConfig.CHUNK_BYTES, 4096,
                StoreConfig.EDGE_ROW_CHUNK_BYTES, 4096))) {
            int label = store.labels().intern("l");
            long[] hubs = new long[4];
            for (int i = 0; i < hubs.length; i++) {
                hubs[i] = store.addVertex(label, 1, Long.MAX_VALUE);
            }
            // Round robin, so the hubs' rows interleave; 48 cells = 12 rows each; neighbours on node 1.
            for (int n = 0; n < 48; n++) {
                for (long hub : hubs) {
                    store.addEdge(hub, ElementIds.vertexId(1, 1, n), label, 1, Long.MAX_VALUE);
                }
            }
            store.compactAllEdges();
            List<List<Integer>> laidOut = chains(store, hubs);
            int highWater = store.edgeLists.rows.highWater();

            store.compactAllEdges();

            assertEquals(laidOut, chains(store, hubs), "a compacted store is left where it is");
            assertEquals(highWater, store.edgeLists.rows.highWater(), "no fresh rows taken by a pass that has nothing to do");
        }
    }

    /**
     * {@link GraphStore#vertexIdAtSlot} is for full scans and promises a live vertex's id or
     * {@link ElementIds#NONE}. While a reused slot is being created (allocated, id not yet
     * published) or removed, its id word holds the previous element's dead marker, and the scan
     * was handed that negative value as if it were an id.
     */
    @Test
    void fullScansNeverSeeADeadMarkerWhileASlotIsReused() {
        try (GraphStore store = GraphStore.open(StoreConfig.defaults())) {
            int label = store.labels().intern("v");
            long v = store.addVertex(label, 1, Long.MAX_VALUE);
            long w = store.addVertex(label, 1, Long.MAX_VALUE);
            long e = store.addEdge(v, w, label, 1, Long.MAX_VALUE);
            int vSlot = ElementIds.slot(v);
            int eSlot = ElementIds.slot(e);
            store.removeEdge(e);
            store.removeVertex(v);

            // A concurrent addVertex / addEdge that has taken the slots and not yet published the ids.
            long pendingVertex = store.vertices.allocateId();
            long pendingEdge = store.edges.allocateId();
            assertEquals(vSlot, ElementIds.slot(pendingVertex));
            assertEquals(eSlot, ElementIds.slot(pendingEdge));
            assertEquals(ElementIds.NONE, store.vertexIdAtSlot(vSlot), "a vertex being created is not live yet");
            assertEquals(ElementIds.NONE, store.edgeIdAtSlot(eSlot), "an edge being created is not live yet");
            assertFalse(store.containsVertex(pendingVertex));

            store.vertices.publishId(vSlot, pendingVertex);
            store.edges.publishId(eSlot, pendingEdge);
            assertEquals(pendingVertex, store.vertexIdAtSlot(vSlot));
            assertEquals(pendingEdge, store.edgeIdAtSlot(eSlot));
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
            assertTrue(store.containsEdge(fits));
        }
    }

    private static List<List<Integer>> chains(GraphStore store, long[] vertices) {
        List<List<Integer>> out = new ArrayList<>();
        for (long v : vertices) {
            List<Integer> chain = new ArrayList<>();
            for (int row = store.vertices.headers.getInt(store.vertices.slotOf(v), VertexHeaderDescriptor.EDGE_ROW_OFFSET);
                 row != RowDescriptor.NO_ROW; row = store.edgeLists.next(row)) {
                chain.add(row);
            }
            out.add(chain);
        }
        return out;
    }
}
