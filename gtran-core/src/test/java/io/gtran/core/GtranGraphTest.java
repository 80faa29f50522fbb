package io.gtran.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.txn.common.Isolation;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;
import org.apache.tinkerpop.gremlin.structure.util.GraphFactory;
import org.apache.tinkerpop.gremlin.structure.util.TransactionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Opening a graph the ways users do (and one that fails to open), closing it, and the graph-level
 * API beyond the TinkerPop suites.
 */
class GtranGraphTest {

    @Test
    @Timeout(30)
    void graphFactoryOpensAGtranGraphFromGremlinGraph() throws Exception {
        Graph graph = GraphFactory.open(Map.of(Graph.GRAPH, GtranGraph.class.getName(), GtranGraph.ISOLATION, "SI",
                GtranGraph.VERTEX_HASH_INDEX, "name, code", GtranGraph.VERTEX_ORDERED_INDEX, "age"));
        try {
            GtranGraph gtran = (GtranGraph) graph;
            assertEquals(Isolation.SNAPSHOT, gtran.isolation());
            assertEquals(Map.of("name", "hash", "code", "hash", "age", "ordered"),
                    gtran.indexes().indexed(Vertex.class));
            assertTrue(graph.features().graph().supportsTransactions());
            assertFalse(graph.features().graph().supportsThreadedTransactions());
            graph.addVertex("name", "a");
            graph.tx().commit();
            assertTrue(graph.toString().contains("vertices:1"), graph.toString());
            assertTrue(gtran.stats().values().stream().anyMatch(v -> v > 0), "the engine counts its work: " + gtran.stats());
        } finally {
            graph.close();
        }
    }

    @Test
    @Timeout(30)
    void aClosedGraphRefusesWorkWithAClearError() {
        GtranGraph graph = GtranGraph.open();
        Vertex v = graph.addVertex();
        graph.tx().commit();
        graph.close();
        graph.close(); // closing twice is harmless
        assertTrue(graph.isClosed());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> graph.addVertex());
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> v.property("k", 1));
    }

    @Test
    @Timeout(30)
    void aKeyGivenTwiceToAddVertexMakesAMultiPropertyAndSingleReplaces() {
        GtranGraph graph = GtranGraph.open();
        try {
            GraphTraversalSource g = graph.traversal();
            Vertex v = graph.addVertex("name", "a", "name", "b", "age", 1);
            assertEquals(List.of("a", "b"), g.V(v).values("name").toList());
            v.property(VertexProperty.Cardinality.single, "name", "c");
            assertEquals(List.of("c"), g.V(v).values("name").toList());
            v.property(VertexProperty.Cardinality.set, "name", "c");
            v.property(VertexProperty.Cardinality.set, "name", "d");
            assertEquals(List.of("c", "d"), g.V(v).values("name").toList());
            VertexProperty<Object> d = v.properties("name").next();
            d.property("since", 2020);
            graph.tx().commit();
            assertEquals(2020, g.V(v).properties("name").hasValue("c").values("since").next());
            assertEquals(2, g.V(v).properties("name").id().dedup().count().next(), "each value keeps its own id");
        } finally {
            graph.close();
        }
    }

    @Test
    @Timeout(30)
    void aStaleVertexPropertyDoesNotActOnTheValueThatReplacedIt() {
        GtranGraph graph = GtranGraph.open();
        try {
            Vertex v = graph.addVertex();
            VertexProperty<String> old = v.property("name", "a");
            v.property("name", "b");
            assertThrows(IllegalStateException.class, () -> old.property("since", 2020));
            old.remove();
            assertEquals("b", v.value("name"), "removing the stale handle left the new value");
            VertexProperty<String> p1 = v.property(VertexProperty.Cardinality.list, "k", "a");
            p1.remove();
            v.property(VertexProperty.Cardinality.list, "k", "b");
            p1.remove();
            assertEquals(List.of("b"), graph.traversal().V(v).values("k").toList());
        } finally {
            graph.close();
        }
    }

    @Test
    @Timeout(60)
    void aFailedOpenLeavesNoThreadsBehind() {
        long before = gcThreads();
        for (int i = 0; i < 20; i++) {
            assertThrows(IllegalArgumentException.class,
                    () -> GtranGraph.open(TestGraphs.config(GtranGraph.VERTEX_HASH_INDEX, "name",
                            GtranGraph.VERTEX_ORDERED_INDEX, "name")));
        }
        assertEquals(before, gcThreads());
    }

    private static long gcThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("gtran-gc")).count();
    }

    @Test
    @Timeout(30)
    void aCommitAfterTheGraphClosedIsATransactionException() throws Exception {
        GtranGraph graph = GtranGraph.open();
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            Future<?> opened = other.submit(() -> graph.addVertex());
            opened.get();
            graph.close();
            Future<?> commit = other.submit(() -> graph.tx().commit());
            Exception e = assertThrows(Exception.class, commit::get);
            assertTrue(e.getCause() instanceof TransactionException, "a commit that cannot happen is a TransactionException: " + e);
        } finally {
            other.shutdownNow();
        }
    }
}
