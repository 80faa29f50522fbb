package io.gtran.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.InJvmCluster;
import io.gtran.storage.ElementIds;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.GtranNode;
import io.gtran.txn.common.Isolation;
import java.util.List;
import java.util.Map;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Graphs opened on nodes: two nodes of one in-JVM cluster, a graph on each. What a graph on a
 * node can do today: everything a single-node graph does, on its own node's elements, whose ids
 * name that node. What it cannot do yet (transactions across nodes come later): see, look up or
 * link to another node's elements; its transactions and its clock are its node's alone.
 */
@Timeout(60)
class GtranNodesTest {
    private final InJvmCluster cluster = new InJvmCluster();
    private final GtranNode node0 = GtranNode.join(cluster, Map.of(StoreConfig.NODE_ID, 0));
    private final GtranNode node1 = GtranNode.join(cluster, Map.of(StoreConfig.NODE_ID, 1));

    @AfterEach
    void close() {
        node1.close();
        node0.close();
        cluster.close();
    }

    @Test
    void eachNodesGraphWorksOnItsOwnNodeAndItsIdsNameIt() {
        try (GtranGraph g0 = GtranGraph.open(node0, TestGraphs.config());
             GtranGraph g1 = GtranGraph.open(node1, TestGraphs.config(GtranGraph.ISOLATION, "SI"))) {
            assertEquals(Isolation.SNAPSHOT, g1.isolation(), "each graph its own settings");
            long[] ids0 = social(g0.traversal(), "zero");
            long[] ids1 = social(g1.traversal(), "one");
            for (long id : ids0) {
                assertEquals(0, ElementIds.node(id), "an id of node 0's graph: " + ElementIds.toString(id));
            }
            for (long id : ids1) {
                assertEquals(1, ElementIds.node(id), "an id of node 1's graph: " + ElementIds.toString(id));
            }
            assertEquals(List.of("zero-b"), g0.traversal().V().has("name", "zero-a").out("knows").values("name").toList());
            assertEquals(List.of("one-b"), g1.traversal().V().has("name", "one-a").out("knows").values("name").toList());
            assertEquals(2L, g0.traversal().V().count().next());
            assertEquals(2L, g1.traversal().V().count().next());
            assertEquals("one-a", g1.traversal().V(ids1[0]).values("name").next(), "look-up by id on its own node");
            g0.tx().commit();
            g1.tx().commit();
            assertTrue(g0.stats().get("commits") > 0 && g1.stats().get("commits") > 0, "each node's engine did the work");
        }
    }

    @Test
    void aGraphOnOneNodeNeitherFindsNorLinksAnotherNodesElements() {
        try (GtranGraph g0 = GtranGraph.open(node0, TestGraphs.config());
             GtranGraph g1 = GtranGraph.open(node1, TestGraphs.config())) {
            Vertex a = g0.addVertex(T.label, "person", "name", "a");
            Vertex named = g0.addVertex(T.id, "shared-name", "name", "named");
            g0.tx().commit();
            assertFalse(g1.vertices(a.id()).hasNext(), "node 1 does not find node 0's vertex by its id");
            assertFalse(g1.vertices("shared-name").hasNext(), "nor by a user-supplied id");
            assertEquals(0L, g1.traversal().V().count().next(), "nor in a scan");
            Vertex b = g1.addVertex(T.id, "shared-name", "name", "b"); // user ids are per node today
            assertThrows(IllegalStateException.class, () -> b.addEdge("knows", a), "an edge to another node's vertex");
            g1.tx().rollback();
            g0.tx().rollback();
            assertEquals("named", g0.vertices("shared-name").next().value("name"));
            g0.tx().rollback();
            assertEquals(0, ElementIds.node((Long) a.id()));
        }
    }

    @Test
    void closingAGraphLeavesItsNodeOpenAndANodeCarriesOneGraph() {
        GtranGraph g = GtranGraph.open(node1, TestGraphs.config());
        g.addVertex("name", "kept");
        g.tx().commit();
        assertThrows(IllegalStateException.class, () -> GtranGraph.open(node1, TestGraphs.config()), "one graph per node");
        g.close();
        assertFalse(node1.isClosed(), "the caller's node stays open");
        assertEquals(1, node1.store().vertices().count(), "with what the graph wrote");
        assertThrows(IllegalStateException.class, () -> GtranGraph.open(node1, TestGraphs.config()),
                "not again after the first closed: its indexes were the graph's");
    }

    @Test
    void aGraphOnAGivenNodeRefusesTheNodesSettings() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> GtranGraph.open(node0, TestGraphs.config(StoreConfig.VERTICES_MAX, "10")));
        assertTrue(e.getMessage().contains(StoreConfig.VERTICES_MAX), e.getMessage());
        GtranGraph.open(node0, TestGraphs.config()).close(); // the refused open did not claim the node
    }

    @Test
    void aGraphOpenedFromConfigurationOwnsItsNode() {
        GtranGraph g = GtranGraph.open(TestGraphs.config(StoreConfig.NODE_ID, "5"));
        GtranNode own = g.node();
        assertEquals(5, own.id());
        Vertex v = g.addVertex();
        g.tx().commit();
        assertEquals(5, ElementIds.node((Long) v.id()));
        g.close();
        assertTrue(own.isClosed(), "the graph closed the node it opened");
    }

    /** Adds {prefix}-a knows {prefix}-b; returns the ids of a, b and the edge. */
    private static long[] social(GraphTraversalSource g, String prefix) {
        Vertex a = g.addV("person").property("name", prefix + "-a").next();
        Vertex b = g.addV("person").property("name", prefix + "-b").next();
        Edge e = g.addE("knows").from(a).to(b).next();
        g.tx().commit();
        return new long[] {(Long) a.id(), (Long) b.id(), (Long) e.id()};
    }
}
