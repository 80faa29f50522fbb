package io.gtran.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.core.suites.InJvmClusterGraph;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.__;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A graph on one node of a 3-node in-JVM cluster: elements on every member, one graph. */
@Timeout(60)
public class GtranClusterGraphTest {
    private static GtranGraph open() {
        BaseConfiguration c = new BaseConfiguration();
        c.setProperty(GtranGraph.PLACEMENT, "spread");
        return InJvmClusterGraph.open(c);
    }

    @Test
    void aUserIdTakenTwiceInOneTransactionIsRefused() {
        try (GtranGraph graph = open()) {
            for (Object id : new Object[] {1L, "1", java.util.UUID.randomUUID(), 4097L}) {
                Vertex first = graph.addVertex(T.id, id, "name", "marko");
                assertEquals(id, first.id());
                assertThrows(IllegalArgumentException.class, () -> graph.addVertex(T.id, id, "name", "marko"), "id " + id);
                graph.tx().commit();
                assertThrows(IllegalArgumentException.class, () -> graph.addVertex(T.id, id), "id " + id + " once committed");
                graph.tx().rollback();
            }
        }
    }

    @Test
    void theModernGraphReadsTheSameFromEveryCoordinator() {
        for (int round = 0; round < 3; round++) {
            try (GtranGraph graph = open()) {
                GraphTraversalSource g = graph.traversal();
                Vertex marko = g.addV("person").property(T.id, 1).property("name", "marko").next();
                Vertex vadas = g.addV("person").property(T.id, 2).property("name", "vadas").next();
                Vertex lop = g.addV("software").property(T.id, 3).property("name", "lop").next();
                g.addE("knows").from(marko).to(vadas).property("weight", 0.5).iterate();
                g.addE("created").from(marko).to(lop).property("weight", 0.4).iterate();
                graph.tx().commit();
                assertEquals(3L, g.V().count().next());
                assertEquals(2L, g.E().count().next());
                assertEquals(java.util.List.of("lop", "vadas"), g.V(1).out().values("name").order().toList());
                assertEquals(java.util.List.of("marko"), g.V(3).in("created").values("name").toList());
                assertEquals(1, g.V().hasLabel("software").toList().size());
                assertEquals(2, g.V(1).outE().toList().size());
                g.V(2).drop().iterate();
                graph.tx().commit();
                assertEquals(1L, g.E().count().next());
                assertEquals(java.util.List.of("lop"), g.V(1).out().values("name").toList());
                graph.tx().commit();
            }
        }
    }

    /** Runs {@code read} then a write in one transaction on worker a, a conflicting commit on b, then a's commit. */
    public static Throwable raced(GtranGraph graph, java.util.function.Consumer<GraphTraversalSource> read,
                                   java.util.function.Consumer<GraphTraversalSource> concurrent) throws Exception {
        java.util.concurrent.ExecutorService ea = java.util.concurrent.Executors.newSingleThreadExecutor();
        java.util.concurrent.ExecutorService eb = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            Worker a = new Worker(ea);
            Worker b = new Worker(eb);
            GraphTraversalSource g = graph.traversal();
            a.run(() -> {
                read.accept(g);
                g.addV("marker").iterate();
                return null;
            });
            b.run(() -> {
                concurrent.accept(g);
                graph.tx().commit();
                return null;
            });
            try {
                a.run(() -> {
                    graph.tx().commit();
                    return null;
                });
                return null;
            } catch (Exception e) {
                a.run(() -> {
                    graph.tx().rollback();
                    return null;
                });
                return e;
            }
        } finally {
            ea.shutdownNow();
            eb.shutdownNow();
        }
    }

    public static GtranGraph open(String isolation) {
        BaseConfiguration c = new BaseConfiguration();
        c.setProperty(GtranGraph.PLACEMENT, "spread");
        c.setProperty(GtranGraph.ISOLATION, isolation);
        return InJvmClusterGraph.open(c);
    }

    @Test
    void aLabelScanAbortsAtSrWhenAnotherNodeGainsAVertexOfTheLabel() throws Exception {
        for (String isolation : new String[] {"SR", "SI"}) {
            try (GtranGraph graph = open(isolation)) {
                GraphTraversalSource g = graph.traversal();
                for (int i = 0; i < 3; i++) {
                    g.addV("item").iterate(); // one on each member
                }
                graph.tx().commit();
                for (int round = 0; round < 3; round++) { // spread placement: each member gains one in turn
                    Throwable aborted = raced(graph, s -> s.V().hasLabel("item").toList(), s -> s.addV("item").iterate());
                    if (isolation.equals("SR")) {
                        assertTrue(aborted instanceof TransactionAbortedException, "SR, round " + round + ": " + aborted);
                    } else {
                        assertEquals(null, aborted, "SI validates no reads");
                    }
                }
            }
        }
    }

    @Test
    void anAdjacencyReadAbortsAtSrWhenAnEdgeIsAddedOnAnotherNode() throws Exception {
        for (String isolation : new String[] {"SR", "SI"}) {
            try (GtranGraph graph = open(isolation)) {
                GraphTraversalSource g = graph.traversal();
                Object hub = g.addV("hub").property(T.id, "hub").next().id();
                Object[] spokes = new Object[3];
                for (int i = 0; i < 3; i++) {
                    spokes[i] = g.addV("spoke").next().id();
                }
                graph.tx().commit();
                for (int round = 0; round < 3; round++) {
                    Object spoke = spokes[round];
                    Throwable aborted = raced(graph, s -> s.V("hub").in("to").toList(),
                            s -> s.V(spoke).addE("to").to(__.V("hub")).iterate());
                    if (isolation.equals("SR")) {
                        assertTrue(aborted instanceof TransactionAbortedException, "SR, round " + round + ": " + aborted);
                    } else {
                        assertEquals(null, aborted, "SI validates no reads");
                    }
                }
                assertEquals(3L, g.V("hub").in("to").count().next());
                graph.tx().commit();
            }
        }
    }

    @Test
    void aPropertyReadAheadAbortsAtSrWhenAnotherTransactionChangesIt() throws Exception {
        for (String isolation : new String[] {"SR", "SI"}) {
            try (GtranGraph graph = open(isolation)) {
                GraphTraversalSource g = graph.traversal();
                Vertex hub = g.addV("hub").property(T.id, "hub").next();
                for (int i = 0; i < 3; i++) {
                    hub.addEdge("to", g.addV("spoke").property(T.id, "s" + i).property("age", i).next()); // one on each member
                }
                graph.tx().commit();
                for (int round = 0; round < 3; round++) {
                    String spoke = "s" + round;
                    int age = 10 + round;
                    Throwable aborted = raced(graph, s -> assertEquals(3, s.V("hub").out().values("age").toList().size()),
                            s -> s.V(spoke).property("age", age).iterate());
                    if (isolation.equals("SR")) {
                        assertTrue(aborted instanceof TransactionAbortedException, "SR, " + spoke + ": " + aborted);
                    } else {
                        assertEquals(null, aborted, "SI validates no reads");
                    }
                }
                graph.tx().rollback();
            }
        }
    }

    @Test
    void readTraversalsHopInBatchesAndWritingOnesElementAtATime() {
        try (GtranGraph graph = open("SR")) {
            GraphTraversalSource g = graph.traversal();
            String reading = g.V().out("knows").inE().explain().toString();
            assertTrue(reading.contains("batched"), reading);
            String writing = g.V().out("knows").property("seen", true).explain().toString();
            assertTrue(!writing.contains("batched"), "a traversal that writes keeps the lazy vertex steps: " + writing);
            BaseConfiguration element = new BaseConfiguration();
            element.setProperty(GtranGraph.EXECUTION, "element");
            try (GtranGraph lazy = InJvmClusterGraph.open(element)) {
                String plain = lazy.traversal().V().out().explain().toString();
                assertTrue(!plain.contains("batched"), plain);
            }
            graph.tx().rollback();
        }
    }

    @Test
    void badClusterSettingsAndDeclaredIndexesAreRefusedNamingTheKey() {
        for (String[] bad : new String[][] {{GtranGraph.EXECUTION, "fast"}, {GtranGraph.PLACEMENT, "random"},
                {GtranGraph.VERTEX_HASH_INDEX, "name"}}) {
            BaseConfiguration c = new BaseConfiguration();
            c.setProperty(bad[0], bad[1]);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> InJvmClusterGraph.open(c).close());
            assertTrue(e.getMessage().contains(bad[0].startsWith("gtran.index") ? "gtran.index.create" : bad[0]), e.getMessage());
        }
    }

    @Test
    void profileShowsTheNodesABatchedHopAskedAndItsRequests() {
        try (GtranGraph graph = open("SR")) {
            GraphTraversalSource g = graph.traversal();
            Vertex hub = g.addV("hub").next();
            for (int i = 0; i < 6; i++) {
                Vertex spoke = g.addV("spoke").next(); // spread: on every member in turn
                g.V(hub).addE("to").to(spoke).iterate();
            }
            graph.tx().commit();
            org.apache.tinkerpop.gremlin.process.traversal.util.TraversalMetrics metrics =
                    g.V().hasLabel("spoke").in("to").out("to").profile().next();
            String shown = metrics.toString();
            boolean asked = metrics.getMetrics().stream().anyMatch(m -> "[0, 1, 2]".equals(m.getAnnotation("nodes")));
            assertTrue(asked, "a hop from vertices on every member asks every member: " + shown);
            boolean counted = metrics.getMetrics().stream().anyMatch(m -> m.getCount("remoteRequests") != null
                    && m.getCount("remoteRequests") > 0);
            assertTrue(counted, shown);
            graph.tx().rollback();
        }
    }
}
