package io.gtran.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * User-supplied ids beside generated ones: an add with a taken id leaves nothing behind, a number
 * equal to an id another transaction is creating is refused, and a generated id written as a
 * string still finds its vertex once user ids exist.
 */
class GtranUserIdsTest {
    @Test
    @Timeout(30)
    void anAddWithATakenIdLeavesNoElementBehind() {
        GtranGraph graph = GtranGraph.open();
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
        GtranGraph graph = GtranGraph.open(TestGraphs.config(GtranGraph.ISOLATION, "SNAPSHOT"));
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
    void anInternalIdWrittenAsAStringFindsItsVertexAfterUserIdsExist() {
        GtranGraph graph = GtranGraph.open();
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
}
