package io.gtran.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.core.suites.InJvmClusterGraph;
import io.gtran.storage.ElementIds;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.util.TemporaryException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * User-supplied ids on a 3-node in-JVM cluster, where a user's {@code Long} id may equal the
 * internal id of a header on another member than the one that binds it.
 */
@Timeout(60)
class GtranClusterUserIdsTest {
    /** Vertex ids a user gives to place a vertex on a member: that member's slot-1 vertex id. */
    private static final long ON_NODE_0 = ElementIds.vertexId(0, 0, 1);
    private static final long ON_NODE_1 = ElementIds.vertexId(1, 0, 1);

    private static GtranGraph open() {
        BaseConfiguration c = new BaseConfiguration();
        c.setProperty(InJvmClusterGraph.COORDINATOR_KEY, 0);
        return InJvmClusterGraph.open(c);
    }

    /**
     * An edge from node 0 to node 1 lives on node 0 and leaves a mirror on node 1, an edge header
     * whose local id (node 1's first edge slot, 4102) never leaves node 1. No element is known by
     * that number, so a user may give it to an edge that lives on node 1 (LBV remote load: "Edge
     * with id already exists: 4102" on every retry).
     */
    @Test
    void theLocalIdOfAMirrorIsFreeForAUsersEdge() {
        try (GtranGraph graph = open()) {
            Vertex a = graph.addVertex(T.id, ON_NODE_0);
            Vertex b = graph.addVertex(T.id, ON_NODE_1);
            a.addEdge("x", b); // lives on node 0; its mirror takes node 1's first edge slot
            graph.tx().commit();
            long mirror = ElementIds.edgeId(1, 0, 1);
            assertEquals(4102L, mirror);
            assertFalse(graph.edges(mirror).hasNext(), "a mirror's id names no edge");

            Edge e = b.addEdge("y", a, T.id, mirror); // lives on node 1, with the mirror
            graph.tx().commit();
            assertEquals(mirror, e.id());
            assertEquals("y", graph.edges(mirror).next().label());
            assertEquals(2L, graph.traversal().E().count().next());
        }
    }

    /**
     * An edge lives with its out-vertex, and its user id is bound there; a number may name an edge
     * of another member. Node 1's edge 4102, made without an id, is known by 4102, so an edge on
     * node 0 cannot take that id.
     */
    @Test
    void aUsersEdgeIdThatAnotherMembersEdgeIsKnownByIsRefused() {
        try (GtranGraph graph = open()) {
            Vertex a = graph.addVertex(T.id, ON_NODE_0);
            Vertex b = graph.addVertex(T.id, ON_NODE_1);
            Edge known = b.addEdge("x", b); // lives on node 1, known by its internal id
            graph.tx().commit();
            long id = (Long) known.id();
            assertEquals(1, ElementIds.node(id));

            assertThrows(IllegalArgumentException.class, () -> a.addEdge("y", a, T.id, id)); // would live on node 0
            graph.tx().commit();
            assertEquals("x", graph.edges(id).next().label());
            assertEquals(1L, graph.traversal().E().count().next());
        }
    }

    /**
     * The reverse: once an edge on node 0 is known by user id 4102, node 1 must not hand out its
     * edge 4102 to an edge made without an id, which no one could then find by its id.
     */
    @Test
    void anEdgeMadeWithoutAnIdNeverShowsAnIdAUserGaveAnotherMembersEdge() {
        try (GtranGraph graph = open()) {
            Vertex a = graph.addVertex(T.id, ON_NODE_0);
            Vertex b = graph.addVertex(T.id, ON_NODE_1);
            long id = ElementIds.edgeId(1, 0, 1); // node 1's first edge
            a.addEdge("y", a, T.id, id); // lives on node 0
            graph.tx().commit();

            Edge made = b.addEdge("x", b); // lives on node 1
            graph.tx().commit();
            assertNotEquals(id, made.id());
            assertEquals("y", graph.edges(id).next().label());
            assertEquals("x", graph.edges(made.id()).next().label());
        }
    }

    /**
     * The LBV remote load in small: batches on several threads at once, each one transaction that
     * adds edges between vertices of all three nodes, half with a user id that is some member's
     * internal edge id (of an edge, of a mirror, or of one yet to be made), half without. Every
     * edge is found by the id it shows and no two show the same id; a user's id is refused only
     * if an edge made without an id is known by it, and such a refusal holds on a retry.
     */
    @Test
    @Timeout(120)
    void concurrentBatchesOfNumbersThatAreInternalIdsGiveEveryIdOneEdge() throws Exception {
        long seed = System.nanoTime();
        java.util.Random random = new java.util.Random(seed);
        int threads = 4;
        int batches = 24;
        int perBatch = 20;
        java.util.List<Long> numbers = new java.util.ArrayList<>();
        for (int slot = 1; slot <= batches * perBatch / 3; slot++) {
            for (int node = 0; node < 3; node++) {
                numbers.add(ElementIds.edgeId(node, 0, slot));
            }
        }
        java.util.Collections.shuffle(numbers, random);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        try (GtranGraph graph = open()) {
            long[] vertexIds = new long[12];
            for (int i = 0; i < vertexIds.length; i++) {
                vertexIds[i] = ElementIds.vertexId(i % 3, 0, 1 + i / 3); // four on each node
                graph.addVertex(T.id, vertexIds[i]);
            }
            graph.tx().commit();
            java.util.Map<Object, String> shown = new java.util.concurrent.ConcurrentHashMap<>(); // id -> name
            java.util.Set<Long> refused = java.util.concurrent.ConcurrentHashMap.newKeySet();
            java.util.List<java.util.concurrent.Future<?>> sent = new java.util.ArrayList<>();
            for (int b = 0; b < batches; b++) {
                int batch = b;
                long batchSeed = random.nextLong();
                java.util.List<Long> given = numbers.subList(batch * perBatch / 2, (batch + 1) * perBatch / 2);
                sent.add(pool.submit(() -> {
                    for (int attempt = 1; ; attempt++) {
                        java.util.Random r = new java.util.Random(batchSeed);
                        java.util.Map<Object, String> made = new java.util.HashMap<>();
                        java.util.Set<Long> refusedNow = new java.util.HashSet<>();
                        try {
                            for (int i = 0; i < perBatch; i++) {
                                Vertex out = graph.vertices(vertexIds[r.nextInt(vertexIds.length)]).next();
                                Vertex in = graph.vertices(vertexIds[r.nextInt(vertexIds.length)]).next();
                                String name = batch + "/" + i;
                                if (i % 2 == 0) {
                                    made.put(out.addEdge("e", in, "name", name).id(), name);
                                    continue;
                                }
                                long id = given.get(i / 2);
                                try {
                                    made.put(out.addEdge("e", in, T.id, id, "name", name).id(), name);
                                } catch (IllegalArgumentException taken) {
                                    refusedNow.add(id);
                                }
                            }
                            graph.tx().commit();
                            shown.putAll(made);
                            refused.addAll(refusedNow);
                            return null;
                        } catch (RuntimeException e) {
                            graph.tx().rollback();
                            if (!(e instanceof TemporaryException) || attempt >= 50) {
                                throw e;
                            }
                        }
                    }
                }));
            }
            for (java.util.concurrent.Future<?> f : sent) {
                f.get(100, java.util.concurrent.TimeUnit.SECONDS);
            }
            String why = "seed=" + seed;
            assertEquals((long) shown.size(), graph.traversal().E().count().next(), why);
            java.util.Map<Object, Long> byId = new java.util.HashMap<>();
            graph.edges().forEachRemaining(e -> byId.merge(e.id(), 1L, Long::sum));
            byId.forEach((id, n) -> assertEquals(1L, n, "edges showing id " + id + "; " + why));
            shown.forEach((id, name) -> assertEquals(name, graph.edges(id).next().value("name"), "id " + id + "; " + why));
            for (long id : refused) {
                assertTrue(graph.edges(id).hasNext(), "user id " + id + " refused, yet no edge is known by it; " + why);
                Edge known = graph.edges(id).next();
                assertEquals(id, known.id(), why);
                assertEquals(0, Integer.parseInt(known.<String>value("name").split("/")[1]) % 2,
                        "user id " + id + " refused for an edge made with a user id; " + why);
                Vertex v = graph.vertices(vertexIds[0]).next();
                assertThrows(IllegalArgumentException.class, () -> v.addEdge("e", v, T.id, id), "a retry; " + why);
                graph.tx().rollback();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Issue 35, scenario 7: an edge's user id is bound where the edge lives, so edges on two
     * members could both be known by {@code "E1"}, and {@code g.E("E1")} answered either. The id is
     * claimed at its home first: the second edge is refused; once the first is deleted the id is
     * free again, on any member.
     */
    @Test
    void anEdgesUserIdNamesOneEdgeAcrossTheMembers() {
        BaseConfiguration c = new BaseConfiguration();
        c.setProperty(InJvmClusterGraph.COORDINATOR_KEY, 0);
        c.setProperty(io.gtran.txn.TxnConfig.GC, false); // node 0 keeps the deleted edge's binding: a look-up must pass it by
        try (GtranGraph graph = InJvmClusterGraph.open(c)) {
            Vertex a = graph.addVertex(T.id, ON_NODE_0);
            Vertex b = graph.addVertex(T.id, ON_NODE_1);
            Edge first = a.addEdge("x", a, T.id, "E1"); // lives on node 0
            graph.tx().commit();

            assertThrows(IllegalArgumentException.class, () -> b.addEdge("y", b, T.id, "E1")); // would live on node 1
            graph.tx().commit();
            assertEquals(1L, graph.traversal().E("E1").count().next());
            assertEquals("x", graph.traversal().E("E1").label().next());

            graph.edges(first.id()).next().remove();
            graph.tx().commit();
            b.addEdge("y", b, T.id, "E1");
            graph.tx().commit();
            assertEquals("y", graph.traversal().E("E1").label().next());
            assertEquals(1L, graph.traversal().E().count().next());
        }
    }

    /** Two transactions binding one edge id on two members at once: one commits, never both. */
    @Test
    void twoTransactionsGivingOneIdToEdgesOnTwoMembersDoNotBothCommit() throws Exception {
        try (GtranGraph graph = open()) {
            graph.addVertex(T.id, ON_NODE_0);
            graph.addVertex(T.id, ON_NODE_1);
            graph.tx().commit();
            java.util.concurrent.CyclicBarrier bothBound = new java.util.concurrent.CyclicBarrier(2);
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
            try {
                java.util.List<java.util.concurrent.Future<Boolean>> tries = new java.util.ArrayList<>();
                for (long on : new long[] {ON_NODE_0, ON_NODE_1}) {
                    tries.add(pool.submit(() -> {
                        try {
                            Vertex v = graph.vertices(on).next();
                            v.addEdge("e", v, T.id, "E2");
                            try {
                                bothBound.await(10, java.util.concurrent.TimeUnit.SECONDS);
                            } catch (java.util.concurrent.BrokenBarrierException | java.util.concurrent.TimeoutException otherRefused) {
                                // the other was refused or aborted at once, or has not bound in 10 s (a loaded
                                // machine): commit alone; the check below is that both never commit
                            }
                            graph.tx().commit();
                            return true;
                        } catch (RuntimeException refusedOrConflict) {
                            bothBound.reset();
                            graph.tx().rollback();
                            return false;
                        }
                    }));
                }
                int committed = 0;
                for (java.util.concurrent.Future<Boolean> t : tries) {
                    committed += t.get(30, java.util.concurrent.TimeUnit.SECONDS) ? 1 : 0;
                }
                assertTrue(committed <= 1, "both committed an edge known by E2");
                assertEquals((long) committed, graph.traversal().E("E2").count().next());
            } finally {
                pool.shutdownNow();
            }
        }
    }
}
