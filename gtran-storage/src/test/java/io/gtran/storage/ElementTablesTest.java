package io.gtran.storage;

import static io.gtran.storage.StoreTestSupport.config;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

/** Vertex and edge tables: ids carry the node and a generation; stale, foreign and malformed ids are refused. */
class ElementTablesTest {

    private static UnknownElementException unknown(Executable call) {
        return assertThrows(UnknownElementException.class, call);
    }

    @Test
    void idsCarryTheNodeAndStartAtTheFirstGenerationOfTheirKind() {
        try (GraphStore store = GraphStore.open(config(StoreConfig.NODE_ID, 7))) {
            int label = store.labels().intern("person");
            Set<Integer> slots = new HashSet<>();
            for (int i = 0; i < 10; i++) {
                long v = store.addVertex(label, 100 + i, Long.MAX_VALUE);
                assertEquals(7, ElementIds.node(v));
                assertEquals(0, ElementIds.generation(v));
                assertFalse(ElementIds.isEdge(v));
                assertTrue(slots.add(ElementIds.slot(v)));
                assertTrue(store.vertices().contains(v));
                assertEquals(label, store.vertices().label(v));
                assertEquals(100 + i, store.vertices().beginTime(v));
                assertEquals(Long.MAX_VALUE, store.vertices().endTime(v));
            }
            long a = store.vertices().idAtSlot(1); // slot 0 is never handed out
            long b = store.vertices().idAtSlot(2);
            long e = store.addEdge(a, b, label, 5, 6);
            assertEquals(7, ElementIds.node(e));
            assertEquals(0, ElementIds.generation(e));
            assertTrue(ElementIds.isEdge(e));
            assertFalse(store.vertices().contains(e), "an edge id never names a vertex");
            assertFalse(store.edges().contains(a), "a vertex id never names an edge");
            assertEquals(a, store.edgeOutVertex(e));
            assertEquals(b, store.edgeInVertex(e));
            assertEquals(label, store.edges().label(e));
            assertEquals(5, store.edges().beginTime(e));
            assertEquals(6, store.edges().endTime(e));
            assertEquals(7, store.nodeId());
        }
    }

    @Test
    void staleVertexIdsAreRefusedEvenAfterTheSlotIsReused() {
        try (GraphStore store = GraphStore.open(StoreConfig.defaults())) {
            int label = store.labels().intern("v");
            long first = store.addVertex(label, 1, 2);
            long stale = first;
            for (int round = 1; round <= 5; round++) {
                store.removeVertex(stale);
                assertFalse(store.vertices().contains(stale));
                long removed = stale;
                UnknownElementException e = unknown(() -> store.vertices().label(removed));
                assertTrue(e.getMessage().contains(ElementIds.toString(removed)) && e.getMessage().contains("removed or never created"),
                        e.getMessage());
                long reused = store.addVertex(label, 3, 4);
                assertEquals(ElementIds.slot(first), ElementIds.slot(reused), "the freed slot is reused");
                assertEquals(round, ElementIds.generation(reused), "each reuse bumps the generation");
                assertNotEquals(removed, reused);
                // The old id names the reused slot but not the new element.
                assertFalse(store.vertices().contains(removed));
                unknown(() -> store.vertices().beginTime(removed));
                unknown(() -> store.vertices().compareAndSetEndTime(removed, 4, 9));
                unknown(() -> store.newEdgeCursor().open(removed, EdgeDirection.BOTH));
                unknown(() -> store.vertices().newPropertyCursor().open(removed));
                unknown(() -> store.removeVertex(removed));
                unknown(() -> store.addEdge(removed, reused, label, 1, 2));
                assertEquals(4, store.vertices().endTime(reused), "the refused CAS did not touch the new element");
                assertTrue(store.vertices().contains(reused));
                stale = reused;
            }
            assertEquals(1, store.vertices().count());
        }
    }

    @Test
    void staleEdgeIdsAreRefusedEvenAfterTheSlotIsReused() {
        try (GraphStore store = GraphStore.open(StoreConfig.defaults())) {
            int label = store.labels().intern("e");
            store.propertyKeys().intern("weight");
            long a = store.addVertex(label, 1, 2);
            long b = store.addVertex(label, 1, 2);
            long edge = store.addEdge(a, b, label, 1, 2);
            store.removeEdge(edge);
            assertFalse(store.edges().contains(edge));
            long reused = store.addEdge(b, a, label, 1, 2);
            assertEquals(ElementIds.slot(edge), ElementIds.slot(reused));
            assertEquals(1, ElementIds.generation(reused));
            assertTrue(ElementIds.isEdge(reused));
            UnknownElementException e = unknown(() -> store.edgeOutVertex(edge));
            assertTrue(e.getMessage().contains("edge") && e.getMessage().contains(ElementIds.toString(edge)), e.getMessage());
            unknown(() -> store.edges().label(edge));
            unknown(() -> store.edges().compareAndSetBeginTime(edge, 1, 5));
            unknown(() -> store.removeEdge(edge));
            unknown(() -> store.edges().addPropertyVersion(edge, 0, 1, 1, 2));
            unknown(() -> store.edges().propertyVersion(edge, 0));
            unknown(() -> store.edges().newPropertyCursor().open(edge));
            assertEquals(1, store.edges().beginTime(reused));
            assertEquals(b, store.edgeOutVertex(reused));
            assertEquals(1, store.edges().count());
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void staleIdsStayRefusedWhileTheirSlotIsReusedConcurrently() throws Exception {
        try (GraphStore store = GraphStore.open(StoreConfig.defaults())) {
            int label = store.labels().intern("v");
            AtomicLong lastRemoved = new AtomicLong(ElementIds.NONE);
            AtomicBoolean done = new AtomicBoolean();
            CountDownLatch readersRunning = new CountDownLatch(2);
            ExecutorService executor = Executors.newFixedThreadPool(3);
            try {
                // One slot recycled over and over: each new vertex reuses the slot of the id just removed.
                Future<Integer> writer = executor.submit(() -> {
                    try {
                        readersRunning.await();
                        int generation = 0;
                        for (int i = 0; i < 300_000; i++) {
                            long v = store.addVertex(label, i, Long.MAX_VALUE);
                            generation = ElementIds.generation(v);
                            store.removeVertex(v);
                            lastRemoved.set(v);
                        }
                        return generation;
                    } finally {
                        done.set(true);
                    }
                });
                List<Future<Long>> readers = new ArrayList<>();
                for (int r = 0; r < 2; r++) {
                    readers.add(executor.submit(() -> {
                        readersRunning.countDown();
                        long accepted = 0;
                        while (!done.get()) {
                            long stale = lastRemoved.get();
                            if (stale != ElementIds.NONE && store.vertices().contains(stale)) {
                                accepted++;
                            }
                        }
                        return accepted;
                    }));
                }
                assertTrue(writer.get(50, TimeUnit.SECONDS) > 1);
                for (Future<Long> reader : readers) {
                    assertEquals(0L, reader.get(10, TimeUnit.SECONDS), "times a removed id was accepted while its slot was reused");
                }
            } finally {
                executor.shutdownNow();
            }
        }
    }

    @Test
    void anotherNodesIdsAreRefusedNamingBothNodes() {
        try (GraphStore node0 = GraphStore.open(config(StoreConfig.NODE_ID, 0));
             GraphStore node5 = GraphStore.open(config(StoreConfig.NODE_ID, 5))) {
            int label0 = node0.labels().intern("v");
            int label5 = node5.labels().intern("v");
            long local = node0.addVertex(label0, 1, 2);
            long foreign = node5.addVertex(label5, 1, 2);
            assertEquals(ElementIds.slot(local), ElementIds.slot(foreign), "same slot, same generation, different node");
            assertFalse(node0.vertices().contains(foreign));
            UnknownElementException e = unknown(() -> node0.vertices().label(foreign));
            assertTrue(e.getMessage().contains("on node 0") && e.getMessage().contains("belongs to node 5"), e.getMessage());
            long foreignEdge = node5.addEdge(foreign, foreign, label5, 1, 2);
            UnknownElementException edgeError = unknown(() -> node0.edges().label(foreignEdge));
            assertTrue(edgeError.getMessage().contains("on node 0") && edgeError.getMessage().contains("belongs to node 5"),
                    edgeError.getMessage());
            // Two endpoints elsewhere: nothing to store here.
            UnknownElementException noEndpoint = unknown(() -> node0.addEdge(foreign, foreign, label0, 1, 2));
            assertTrue(noEndpoint.getMessage().contains("node 0"), noEndpoint.getMessage());
            assertEquals(0, node0.edges().count());
        }
    }

    @Test
    void malformedIdsAreRefused() {
        try (GraphStore store = GraphStore.open(StoreConfig.defaults())) {
            int label = store.labels().intern("v");
            long v = store.addVertex(label, 1, 2);
            long kindless = v & ~(long) ElementIds.KIND_MASK;
            long tooLarge = v | ElementIds.LIMIT;
            for (long bad : new long[] {0L, -1L, Long.MIN_VALUE, -v, kindless, tooLarge}) {
                assertFalse(store.vertices().contains(bad));
                assertFalse(store.edges().contains(bad));
                UnknownElementException e = unknown(() -> store.vertices().label(bad));
                assertTrue(e.getMessage().contains("id=" + bad) && e.getMessage().contains("not a gtran element id"), e.getMessage());
                unknown(() -> store.edges().label(bad));
                unknown(() -> store.addEdge(v, bad, label, 1, 2));
                unknown(() -> store.addEdge(bad, v, label, 1, 2));
            }
            // A never-issued, well-formed id.
            unknown(() -> store.vertices().label(ElementIds.vertexId(0, 1, 12345)));
            unknown(() -> store.vertices().label(ElementIds.vertexId(0, 4, ElementIds.slot(v))));
            assertEquals(0, store.edges().count());
            assertEquals(List.of(), StoreTestSupport.adjacency(store, v));
        }
    }

    @Test
    void headerTimesAreCasTargets() {
        try (GraphStore store = GraphStore.open(StoreConfig.defaults())) {
            int label = store.labels().intern("v");
            long v = store.addVertex(label, -7, Long.MAX_VALUE);
            assertFalse(store.vertices().compareAndSetBeginTime(v, 0, 1));
            assertTrue(store.vertices().compareAndSetBeginTime(v, -7, 10));
            assertTrue(store.vertices().compareAndSetEndTime(v, Long.MAX_VALUE, 20));
            assertFalse(store.vertices().compareAndSetEndTime(v, Long.MAX_VALUE, 30));
            assertEquals(10, store.vertices().beginTime(v));
            assertEquals(20, store.vertices().endTime(v));
            long e = store.addEdge(v, v, label, 3, Long.MIN_VALUE);
            assertTrue(store.edges().compareAndSetBeginTime(e, 3, 4));
            assertFalse(store.edges().compareAndSetBeginTime(e, 3, 5));
            assertTrue(store.edges().compareAndSetEndTime(e, Long.MIN_VALUE, 6));
            assertEquals(4, store.edges().beginTime(e));
            assertEquals(6, store.edges().endTime(e));
            // Other header fields are untouched by the CAS words around them.
            assertEquals(label, store.vertices().label(v));
            assertEquals(label, store.edges().label(e));
            assertEquals(v, store.edgeOutVertex(e));
            assertEquals(v, store.edgeInVertex(e));
        }
    }

    @Test
    void aSlotWhoseGenerationIsSpentIsRetiredSoNoIdRepeats() {
        StoreConfig config = StoreConfig.defaults();
        try (VertexTable table = new VertexTable(config)) {
            long id = table.create(0, 1, 2);
            int slot = ElementIds.slot(id);
            assertEquals(1, slot, "slot 0 is never handed out");
            table.free(slot);
            long reused = table.create(0, 1, 2);
            assertEquals(slot, ElementIds.slot(reused));
            assertEquals(1, ElementIds.generation(reused), "each reuse bumps the generation");
            // Pretend the slot has been reused until its generation field is spent.
            long last = ElementIds.vertexId(0, ElementIds.MAX_GENERATION, slot);
            table.publishId(slot, last);
            assertEquals(slot, table.slotOf(last));
            table.free(slot);
            assertEquals(0, table.live());
            assertEquals(2, table.retired(), "slot 0 and the spent slot");
            long next = table.create(0, 1, 2);
            assertEquals(2, ElementIds.slot(next), "the spent slot is not handed out again");
            assertEquals(0, ElementIds.generation(next));
            assertFalse(table.contains(last));
            assertFalse(table.contains(ElementIds.vertexId(0, 0, slot)), "the spent slot's first id stays dead");
            assertTrue(table.contains(next));
            assertEquals(1, table.live());
        }
    }

    @Test
    void fullScansSeeExactlyTheLiveElements() {
        try (GraphStore store = GraphStore.open(StoreConfig.defaults())) {
            int label = store.labels().intern("v");
            List<Long> vertices = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                vertices.add(store.addVertex(label, 1, 2));
            }
            long e1 = store.addEdge(vertices.get(0), vertices.get(1), label, 1, 2);
            long e2 = store.addEdge(vertices.get(1), vertices.get(2), label, 1, 2);
            store.removeEdge(e1);
            for (int i = 5; i < 20; i += 3) {
                store.removeVertex(vertices.get(i));
            }
            Set<Long> expected = new HashSet<>(vertices);
            for (int i = 5; i < 20; i += 3) {
                expected.remove(vertices.get(i));
            }
            Set<Long> scanned = new HashSet<>();
            for (int slot = 0; slot < store.vertices().slotLimit(); slot++) {
                long id = store.vertices().idAtSlot(slot);
                if (id != ElementIds.NONE) {
                    assertTrue(scanned.add(id));
                }
            }
            assertEquals(expected, scanned);
            assertEquals(expected.size(), store.vertices().count());
            assertEquals(21, store.vertices().slotLimit(), "20 vertices and the reserved slot 0");
            assertEquals(ElementIds.NONE, store.vertices().idAtSlot(-1));
            assertEquals(ElementIds.NONE, store.vertices().idAtSlot(21));
            assertEquals(ElementIds.NONE, store.vertices().idAtSlot(0), "the reserved slot holds no element");
            assertEquals(3, store.edges().slotLimit());
            assertEquals(ElementIds.NONE, store.edges().idAtSlot(ElementIds.slot(e1)));
            assertEquals(e2, store.edges().idAtSlot(ElementIds.slot(e2)));
        }
    }

    /**
     * {@link ElementTable#idAtSlot} is for full scans and promises a live vertex's id or
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
            assertEquals(ElementIds.NONE, store.vertices().idAtSlot(vSlot), "a vertex being created is not live yet");
            assertEquals(ElementIds.NONE, store.edges().idAtSlot(eSlot), "an edge being created is not live yet");
            assertFalse(store.vertices().contains(pendingVertex));

            store.vertices.publishId(vSlot, pendingVertex);
            store.edges.publishId(eSlot, pendingEdge);
            assertEquals(pendingVertex, store.vertices().idAtSlot(vSlot));
            assertEquals(pendingEdge, store.edges().idAtSlot(eSlot));
        }
    }
}
