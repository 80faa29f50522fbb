package io.gtran.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;
import org.apache.tinkerpop.gremlin.structure.util.TransactionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Defects a code review found, each with the test that would have caught it. */
class GtranReviewFindingsTest {

    private static GtranGraph open(Object... settings) {
        BaseConfiguration c = new BaseConfiguration();
        for (int i = 0; i < settings.length; i += 2) {
            c.setProperty((String) settings[i], settings[i + 1]);
        }
        return GtranGraph.open(c);
    }

    @Test
    @Timeout(30)
    void anAddWithATakenIdLeavesNoElementBehind() {
        GtranGraph graph = open();
        try {
            Vertex x = graph.addVertex(T.id, "x");
            x.addEdge("e", x, T.id, "e1");
            graph.tx().commit();
            assertThrows(IllegalArgumentException.class, () -> graph.addVertex(T.id, "x"));
            assertThrows(IllegalArgumentException.class, () -> x.addEdge("e", x, T.id, "e1"));
            graph.tx().commit();
            GraphTraversalSource g = graph.traversal();
            assertEquals(List.of("x"), g.V().id().toList());
            assertEquals(List.of("e1"), g.E().id().toList());
        } finally {
            graph.close();
        }
    }

    @Test
    @Timeout(30)
    void aUserIdEqualToAnotherTransactionsNewInternalIdIsRefused() throws Exception {
        GtranGraph graph = open(GtranGraph.ISOLATION, "SNAPSHOT");
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            graph.addVertex(T.id, "warm"); // the external-id map exists
            graph.tx().commit();
            Object generated = other.submit(() -> graph.addVertex().id()).get(); // not committed
            assertThrows(RuntimeException.class, () -> graph.addVertex(T.id, generated),
                    "the number names a vertex another transaction is creating");
            graph.tx().rollback();
            other.submit(() -> graph.tx().commit()).get();
            assertEquals(1L, graph.traversal().V(generated).count().next());
        } finally {
            other.shutdownNow();
            graph.close();
        }
    }

    @Test
    @Timeout(30)
    void aStaleVertexPropertyDoesNotActOnTheValueThatReplacedIt() {
        GtranGraph graph = open();
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
    @Timeout(30)
    void indexLookUpsOfNullsAndCollectionsMatchAScan() {
        GtranGraph indexed = open(GtranGraph.ALLOW_NULL_PROPERTY_VALUES, true, GtranGraph.VERTEX_HASH_INDEX, "k",
                GtranGraph.VERTEX_ORDERED_INDEX, "o");
        try {
            GraphTraversalSource g = indexed.traversal();
            g.addV().property("k", null).property("o", null).iterate();
            g.addV().property("k", List.of(1)).property("o", List.of(1)).iterate();
            List<List<Integer>> colliding = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                List<Integer> l = List.of(i, 31 * (31 - i)); // equal hashCodes, different lists
                colliding.add(l);
                g.addV().property("o", l).iterate();
            }
            indexed.tx().commit();
            assertEquals(1L, g.V().has("k", (Object) null).count().next());
            assertEquals(1L, g.V().has("o", (Object) null).count().next());
            assertEquals(1L, g.V().has("k", List.of(1L)).count().next(), "Gremlin finds [1] equal to [1L]");
            assertEquals(1L, g.V().has("o", List.of(1L)).count().next());
            for (List<Integer> l : colliding) {
                assertEquals(1L, g.V().has("o", new ArrayList<>(l)).count().next(), "ordered index finds " + l);
            }
        } finally {
            indexed.close();
        }
    }

    @Test
    @Timeout(30)
    void anIndexThatCouldNotBeFilledIsNotUsed() throws Exception {
        GtranGraph graph = open();
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            graph.addVertex("name", "marko");
            graph.tx().commit();
            other.submit(() -> graph.vertices().hasNext()).get(); // another thread's transaction stays open
            graph.indexes.createWaitMillis = 200;
            assertThrows(IllegalStateException.class, () -> graph.indexes().create(Vertex.class, "name", Indexes.Type.HASH));
            assertTrue(graph.indexes().indexed(Vertex.class).isEmpty(), "the failed index is gone");
            assertEquals(1L, graph.traversal().V().has("name", "marko").count().next());
            graph.tx().rollback();
            other.submit(() -> graph.tx().rollback()).get();
            graph.indexes().create(Vertex.class, "name", Indexes.Type.HASH);
            assertEquals(1L, graph.traversal().V().has("name", "marko").count().next());
        } finally {
            other.shutdownNow();
            graph.close();
        }
    }

    @Test
    @Timeout(60)
    void aFailedOpenLeavesNoThreadsBehind() {
        long before = gcThreads();
        for (int i = 0; i < 20; i++) {
            assertThrows(IllegalArgumentException.class,
                    () -> open(GtranGraph.VERTEX_HASH_INDEX, "name", GtranGraph.VERTEX_ORDERED_INDEX, "name"));
        }
        assertEquals(before, gcThreads());
    }

    private static long gcThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("gtran-gc")).count();
    }

    @Test
    @Timeout(30)
    void anInternalIdWrittenAsAStringFindsItsVertexAfterUserIdsExist() {
        GtranGraph graph = open();
        try {
            Object internal = graph.addVertex().id();
            graph.addVertex(T.id, "named");
            graph.tx().commit();
            assertTrue(graph.vertices(String.valueOf(internal)).hasNext());
            assertFalse(graph.vertices("no-such-id").hasNext());
        } finally {
            graph.close();
        }
    }

    @Test
    @Timeout(30)
    void aCommitAfterTheGraphClosedIsATransactionException() throws Exception {
        GtranGraph graph = open();
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

    @Test
    @Timeout(30)
    void aLabelLookUpIsValidatedAgainstAConcurrentCreationAtSerializable() throws Exception {
        for (String isolation : List.of("SERIALIZABLE", "SNAPSHOT")) {
            GtranGraph graph = open(GtranGraph.ISOLATION, isolation);
            ExecutorService other = Executors.newSingleThreadExecutor();
            try {
                Vertex a = graph.addVertex(T.label, "x");
                a.addEdge("e", a);
                graph.addVertex(T.label, "y");
                graph.tx().commit();
                GraphTraversalSource g = graph.traversal();
                assertEquals(1L, g.V().hasLabel("x").count().next());
                assertEquals(1L, g.E().hasLabel("e").count().next());
                assertTrue(g.V().hasLabel("x").explain().toString().contains("index=label"));
                graph.addVertex(T.label, "y"); // this transaction writes, so at SR its reads are validated
                other.submit(() -> {
                    Vertex b = graph.addVertex(T.label, "x");
                    b.addEdge("e", b);
                    graph.tx().commit();
                }).get();
                if (isolation.equals("SERIALIZABLE")) {
                    assertThrows(TransactionException.class, () -> graph.tx().commit(), "a phantom in the label scan");
                } else {
                    graph.tx().commit(); // snapshot isolation does not validate reads
                }
                assertEquals(2L, g.V().hasLabel("x").count().next());
                assertEquals(2L, g.E().hasLabel("e").count().next());
                graph.tx().rollback();
            } finally {
                other.shutdownNow();
                graph.close();
            }
        }
    }

    @Test
    @Timeout(60)
    void indexEntriesOfElementsGcFreedAreDroppedByTheNextLookUp() throws Exception {
        GtranGraph graph = open(GtranGraph.VERTEX_HASH_INDEX, "name");
        try {
            GraphTraversalSource g = graph.traversal();
            List<Object> ids = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                ids.add(graph.addVertex("name", "x").id());
            }
            graph.tx().commit();
            PropertyIndex index = graph.indexes().index(Vertex.class, "name");
            assertEquals(10, index.entryCount());
            g.V(ids.toArray()).drop().iterate();
            graph.tx().commit();
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (graph.store.vertexCount() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(20); // GC frees the removed vertices once no transaction can see them
            }
            assertEquals(0, graph.store.vertexCount(), "GC freed the removed vertices");
            assertEquals(0L, g.V().has("name", "x").count().next());
            graph.tx().commit();
            assertEquals(0, index.entryCount(), "the look-up dropped the entries of freed vertices");
        } finally {
            graph.close();
        }
    }
}
