package io.gtran.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.gtran.core.suites.InJvmClusterGraph;
import io.gtran.storage.ElementIds;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
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
}
