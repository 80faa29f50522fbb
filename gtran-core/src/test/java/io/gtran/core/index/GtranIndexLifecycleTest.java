package io.gtran.core.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.core.GtranGraph;
import io.gtran.core.TestGraphs;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An index over its life beside transactions and GC: one that could not be filled is dropped and
 * not used, and the entries of elements GC freed are dropped by the next look-up.
 */
class GtranIndexLifecycleTest {
    @Test
    @Timeout(30)
    void anIndexThatCouldNotBeFilledIsNotUsed() throws Exception {
        GtranGraph graph = GtranGraph.open();
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            graph.addVertex("name", "marko");
            graph.tx().commit();
            other.submit(() -> graph.vertices().hasNext()).get(); // another thread's transaction stays open
            graph.indexes().createWaitMillis = 200;
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
    void indexEntriesOfElementsGcFreedAreDroppedByTheNextLookUp() throws Exception {
        GtranGraph graph = GtranGraph.open(TestGraphs.config(GtranGraph.VERTEX_HASH_INDEX, "name"));
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
            while (graph.node().store().vertices().count() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(20); // GC frees the removed vertices once no transaction can see them
            }
            assertEquals(0, graph.node().store().vertices().count(), "GC freed the removed vertices");
            assertEquals(0L, g.V().has("name", "x").count().next());
            graph.tx().commit();
            assertEquals(0, index.entryCount(), "the look-up dropped the entries of freed vertices");
        } finally {
            graph.close();
        }
    }
}
