package io.gtran.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.core.suites.InJvmClusterGraph;
import io.gtran.storage.StoreConfig;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.verification.ReadOnlyStrategy;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.util.TransactionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link GtranBulk}: edges added in bulk are the edges {@code addEdge} makes (ids, ends, mirrors,
 * properties), in a few requests per batch on a cluster; a batch that fails leaves nothing.
 */
@Timeout(60)
class GtranBulkTest {
    private static final int VERTICES = 30;
    private static final int EDGES = 60;

    private static GtranGraph cluster() {
        BaseConfiguration c = new BaseConfiguration();
        c.setProperty(InJvmClusterGraph.COORDINATOR_KEY, 0);
        return InJvmClusterGraph.open(c);
    }

    /** Operation requests any member sent another (see {@link ClusterQueries}). */
    private final LongAdder requests = new LongAdder();

    private GtranGraph countedCluster() {
        return ClusterQueries.open("batched", requests, ClusterQueries.REQUESTS);
    }

    /** Vertices "v0".. "v29", placed by their ids' hash over the three members. */
    private static void addVertices(GtranGraph graph) {
        GtranBulk bulk = graph.bulk();
        for (int i = 0; i < VERTICES; i++) {
            bulk.addVertex("v" + i, "person", Map.of("n", i));
        }
        graph.tx().commit();
    }

    private static int out(int i) {
        return i % VERTICES;
    }

    private static int in(int i) {
        return (i * 7 + 3) % VERTICES;
    }

    @Test
    void edgesAddedInBulkAreTheEdgesAddEdgeMakesInAFewRequests() {
        try (GtranGraph graph = countedCluster()) {
            addVertices(graph);
            long before = requests.sum();
            GtranBulk bulk = graph.bulk();
            for (int i = 0; i < EDGES; i++) {
                bulk.addEdge("b" + i, "v" + out(i), "v" + in(i), "knows", Map.of("w", i));
            }
            assertEquals(EDGES, bulk.queued());
            assertEquals(EDGES, bulk.flush());
            graph.tx().commit();
            long bulkRequests = requests.sum() - before;

            before = requests.sum();
            GraphTraversalSource g = graph.traversal();
            for (int i = 0; i < EDGES; i++) {
                Vertex from = g.V("v" + out(i)).next();
                from.addEdge("knows", g.V("v" + in(i)).next(), T.id, "s" + i, "w", i);
            }
            graph.tx().commit();
            long singleRequests = requests.sum() - before;

            for (int i = 0; i < EDGES; i++) {
                for (String prefix : new String[] {"b", "s"}) {
                    Edge e = g.E(prefix + i).next();
                    assertEquals(prefix + i, e.id());
                    assertEquals("v" + out(i), e.outVertex().id());
                    assertEquals("v" + in(i), e.inVertex().id());
                    assertEquals(i, (int) e.<Integer>value("w"));
                }
            }
            assertEquals(2L * EDGES, g.E().count().next());
            for (int v = 0; v < VERTICES; v++) { // the in-vertex's side (a mirror on another member) and the out-vertex's
                Map<String, Integer> want = new HashMap<>();
                for (int i = 0; i < EDGES; i++) {
                    if (in(i) == v) {
                        want.merge("in", 2, Integer::sum);
                    }
                    if (out(i) == v) {
                        want.merge("out", 2, Integer::sum);
                    }
                }
                assertEquals(want.getOrDefault("in", 0), g.V("v" + v).inE("knows").count().next().intValue(), "in of v" + v);
                assertEquals(want.getOrDefault("out", 0), g.V("v" + v).outE("knows").count().next().intValue(), "out of v" + v);
            }
            graph.tx().commit();
            // One by one, each edge with an end, its id or itself elsewhere asks that member, several
            // times; in bulk, each other member is asked once per kind of step: the ends' ids, the
            // edges, the mirrors, the claims and the bindings of the edges' ids, the properties.
            assertTrue(bulkRequests <= 6 * 2, "bulk sent " + bulkRequests + " requests, one by one " + singleRequests);
            assertTrue(singleRequests > EDGES, "one by one sent " + singleRequests + " requests");
        }
    }

    /**
     * Long ids make the claims and bindings of a batch's edges on one member more than one request's
     * worth of bytes (a {@code MANY} is cut at about 4 MiB as well as at 1,024 operations): each
     * edge still gets its own answer back.
     */
    @Test
    void edgesWhoseIdStepsFillSeveralRequestsEachGetTheirOwnAnswer() {
        BaseConfiguration c = new BaseConfiguration();
        c.setProperty(InJvmClusterGraph.COORDINATOR_KEY, 0);
        c.setProperty(StoreConfig.EXTERNAL_IDS_MAX, 400_000); // maps sized for 16-byte ids: room for 3 KB ones
        try (GtranGraph graph = InJvmClusterGraph.open(c)) {
            addVertices(graph);
            int edges = 2400; // about 800 per other member, each id step about 6 KB: more than 4 MiB
            String pad = "x".repeat(3000);
            GtranBulk bulk = graph.bulk();
            for (int i = 0; i < edges; i++) {
                bulk.addEdge(i + pad, "v" + out(i), "v" + in(i), "knows", null);
            }
            assertEquals(edges, bulk.flush());
            graph.tx().commit();
            GraphTraversalSource g = graph.traversal();
            for (int i = 0; i < edges; i += 7) {
                Edge e = g.E(i + pad).next();
                assertEquals(i + pad, e.id());
                assertEquals("v" + out(i), e.outVertex().id());
                assertEquals("v" + in(i), e.inVertex().id());
            }
            assertEquals((long) edges, g.E().count().next());
            graph.tx().commit();
        }
    }

    /**
     * A flush that fails undoes the whole transaction and leaves it awaiting rollback, so a caller
     * who goes on (a session that catches the error and commits) cannot commit the rest of a unit
     * of work whose first part was undone.
     */
    @Test
    void aFailedFlushUndoesTheTransactionAndRefusesItUntilRolledBack() {
        try (GtranGraph graph = cluster()) {
            addVertices(graph);
            graph.addVertex(T.id, "before", T.label, "person"); // written before the batch, in its transaction
            GtranBulk bulk = graph.bulk();
            bulk.addVertex("new", "person", null);
            bulk.addEdge("e1", "v1", "v2", "knows", null);
            bulk.addEdge("e2", "v3", "nobody", "knows", null);
            IllegalStateException e = assertThrows(IllegalStateException.class, bulk::flush);
            assertTrue(e.getMessage().contains("nobody") && e.getMessage().contains("e2"), e.getMessage());
            assertEquals(0, bulk.queued());
            assertTrue(graph.tx().isOpen(), "awaiting rollback");
            TransactionException refused = assertThrows(TransactionException.class, () -> graph.addVertex(T.id, "after"));
            assertTrue(refused.getMessage().contains("roll back"), refused.getMessage());
            assertThrows(TransactionException.class, () -> graph.tx().commit());
            graph.tx().rollback();
            GraphTraversalSource g = graph.traversal();
            for (String gone : new String[] {"before", "new", "after"}) {
                assertFalse(g.V(gone).hasNext(), gone);
            }
            assertEquals(0L, g.E().count().next());
            graph.tx().commit();
        }
    }

    @Test
    void aTakenEdgeIdFailsItsBatchAndLeavesTheEdgeThatHasIt() {
        try (GtranGraph graph = cluster()) {
            addVertices(graph);
            GtranBulk bulk = graph.bulk();
            for (int i = 0; i < 10; i++) {
                bulk.addEdge("e" + i, "v" + i, "v" + (i + 10), "knows", null);
            }
            bulk.flush();
            graph.tx().commit();

            bulk.addEdge("fresh", "v4", "v5", "knows", null);
            bulk.addEdge("e7", "v20", "v21", "other", null); // e7's id is taken
            IllegalArgumentException taken = assertThrows(IllegalArgumentException.class, bulk::flush);
            assertTrue(taken.getMessage().contains("e7"), taken.getMessage());
            graph.tx().rollback();

            bulk.addEdge("twice", "v1", "v2", "knows", null);
            bulk.addEdge("twice", "v3", "v4", "knows", null); // the same id twice in one batch
            assertThrows(IllegalArgumentException.class, bulk::flush);
            graph.tx().rollback();

            GraphTraversalSource g = graph.traversal();
            assertEquals(10L, g.E().count().next());
            assertEquals("knows", g.E("e7").next().label());
            assertEquals("v17", g.E("e7").next().inVertex().id());
            assertFalse(g.E("fresh").hasNext());
            assertFalse(g.E("twice").hasNext());
            graph.tx().commit();
        }
    }

    @Test
    void aBadEdgeIsRefusedWhenQueuedWithoutTouchingTheTransaction() {
        try (GtranGraph graph = cluster()) {
            addVertices(graph);
            GtranBulk bulk = graph.bulk();
            bulk.addVertex("new", "person", null);
            bulk.addEdge("good", "v1", "v2", "knows", null);
            assertThrows(UnsupportedOperationException.class, () -> bulk.addEdge(2.5f, "v1", "v2", "knows", null)); // no such id type
            assertThrows(IllegalArgumentException.class, () -> bulk.addEdge("e", "v1", null, "knows", null));
            assertThrows(IllegalArgumentException.class, () -> bulk.addEdge("e", "v1", "v2", "", null));
            Map<String, Object> reused = new HashMap<>(Map.of("w", 1));
            bulk.addEdge("kept", "v1", "v3", "knows", reused);
            reused.put("w", 2); // the caller's map, reused for the next row: the queued edge keeps its own
            assertEquals(2, bulk.queued());
            assertEquals(2, bulk.flush());
            graph.tx().commit();
            GraphTraversalSource g = graph.traversal();
            assertTrue(g.V("new").hasNext());
            assertEquals(1, (int) g.E("kept").<Integer>values("w").next());
            assertEquals(2L, g.E().count().next());
            graph.tx().commit();
        }
    }

    @Test
    void theBulkServicesLoadRowsFromAnyDriverAndRefuseBadRowsWholly() {
        try (GtranGraph graph = cluster()) {
            GraphTraversalSource g = graph.traversal();
            Object vertices = g.call("gtran.bulk.vertices", Map.of("rows", List.of(
                    Map.of("id", "a", "label", "person", "properties", Map.of("n", 1)),
                    Map.of("id", "b"),
                    Map.of("id", "c", "label", "person")))).next();
            assertEquals(Map.of("vertices", 3), vertices);
            Object edges = g.call("gtran.bulk.edges", Map.of("rows", List.of(
                    Map.of("id", "ab", "out", "a", "in", "b", "label", "knows", "properties", Map.of("w", 0.5d)),
                    Map.of("out", "c", "in", "a", "label", "knows")))).next();
            assertEquals(Map.of("edges", 2), edges);
            graph.tx().commit();
            assertEquals("vertex", g.V("b").label().next());
            assertEquals(1, (int) g.V("a").<Integer>values("n").next());
            assertEquals(0.5d, g.E("ab").values("w").next());
            assertEquals(List.of("c"), g.V("a").in("knows").id().toList());
            graph.tx().commit();

            g.call("gtran.bulk.vertices", Map.of("rows", List.of(Map.of("id", "d")))).next(); // in the same transaction as the refused
            IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> g.call("gtran.bulk.edges",
                    Map.of("rows", List.of(Map.of("out", "a", "in", "b", "label", "x"), Map.of("out", "a", "to", "b", "label", "x"))))
                    .next());
            assertTrue(unknown.getMessage().contains("row 1") && unknown.getMessage().contains("to"), unknown.getMessage());
            assertThrows(IllegalArgumentException.class, () -> g.call("gtran.bulk.vertices", Map.of("rows", "a")).next());
            assertThrows(IllegalArgumentException.class, () -> g.call("gtran.bulk.vertices", Map.of("rows", List.of(7))).next());
            assertThrows(IllegalArgumentException.class, () -> g.call("gtran.bulk.vertices",
                    Map.of("rows", List.of(Map.of("id", "e", "properties", "p")))).next());
            graph.tx().commit(); // rows refused before any was written leave the transaction as it was
            assertTrue(g.V("d").hasNext());
            assertEquals(2L, g.E().count().next());
            graph.tx().commit();

            g.call("gtran.bulk.vertices", Map.of("rows", List.of(Map.of("id", "f")))).next();
            assertThrows(IllegalStateException.class, () -> g.call("gtran.bulk.edges",
                    Map.of("rows", List.of(Map.of("out", "a", "in", "nobody", "label", "x")))).next());
            assertThrows(TransactionException.class, () -> graph.tx().commit(), "a batch that failed writing awaits rollback");
            graph.tx().rollback();
            assertFalse(g.V("f").hasNext());
            IllegalStateException readOnly = assertThrows(IllegalStateException.class, () -> g.withStrategies(ReadOnlyStrategy.instance())
                    .call("gtran.bulk.vertices", Map.of("rows", List.of(Map.of("id", "g")))).next());
            assertTrue(readOnly.getMessage().contains("read-only"), readOnly.getMessage());
            graph.tx().rollback();
        }
    }

    @Test
    void onOneNodeBulkEdgesTakeVerticesAndIdsAlike() {
        try (GtranGraph graph = GtranGraph.open(TestGraphs.config())) {
            Vertex a = graph.bulk().addVertex(1L, "person", Map.of("name", "a"));
            graph.bulk().addVertex(2L, "person", null);
            GtranBulk bulk = graph.bulk();
            bulk.addEdge(null, a, 2L, "knows", Map.of("w", 1.5d)); // an end as a vertex, an edge without an id
            bulk.addEdge("x", 2L, 1, "knows", null); // an Integer id names the Long one
            assertEquals(2, bulk.flush());
            graph.tx().commit();
            GraphTraversalSource g = graph.traversal();
            assertEquals(1.5d, g.V(1L).outE("knows").values("w").next());
            assertEquals(1L, g.E("x").next().inVertex().id());
            assertEquals(2L, g.E().count().next());
            graph.tx().commit();
        }
    }
}
