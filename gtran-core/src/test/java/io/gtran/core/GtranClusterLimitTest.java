package io.gtran.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.InJvmCluster;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.GtranNode;
import io.gtran.txn.membership.Membership;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A {@code limit()} met early leaves the rest of the cluster alone: a scan asks the other members
 * a page at a time and only when it needs them, and vertex steps under a limit start with small
 * batches. Three nodes, each with a graph of its own that loads its vertices locally: node 0 holds
 * one vertex, nodes 1 and 2 hold 200 each, every vertex of node 1 with an edge to one of node 2.
 * Requests are the operations node 0 (the coordinator) runs on the other nodes ({@code remote.calls}).
 */
@Timeout(60)
class GtranClusterLimitTest {
    private final InJvmCluster cluster = new InJvmCluster();
    private final List<GtranNode> nodes = new ArrayList<>();
    private final List<GtranGraph> graphs = new ArrayList<>();

    @BeforeEach
    void load() {
        for (int i = 0; i < 3; i++) {
            nodes.add(GtranNode.open(cluster.join(i), Map.of(StoreConfig.NODE_ID, i, Membership.NODES, "0,1,2",
                    StoreConfig.CHUNK_BYTES, 1 << 16, StoreConfig.EDGE_ROW_CHUNK_BYTES, 1 << 16)));
        }
        for (GtranNode node : nodes) {
            graphs.add(GtranGraph.open(node, new BaseConfiguration())); // placement local: each loads its own
        }
        graphs.get(0).addVertex("lone");
        graphs.get(0).tx().commit();
        List<Object> targets = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            targets.add(graphs.get(2).addVertex("target").id());
        }
        graphs.get(2).tx().commit();
        for (int i = 0; i < 200; i++) {
            Vertex source = graphs.get(1).addVertex("source");
            source.addEdge("to", graphs.get(1).vertices(targets.get(i)).next());
        }
        graphs.get(1).tx().commit();
    }

    @AfterEach
    void close() {
        graphs.forEach(GtranGraph::close);
        nodes.forEach(GtranNode::close);
        cluster.close();
    }

    /** The operations node 0 ran on other nodes for {@code traversal} (requests; a resend of one is not counted). */
    private long requests(Runnable traversal) {
        long before = graphs.get(0).stats().get("remote.calls");
        traversal.run();
        graphs.get(0).tx().rollback();
        return graphs.get(0).stats().get("remote.calls") - before;
    }

    @Test
    void aScanAsksTheOtherMembersOnlyAsFarAsALimitNeeds() {
        GraphTraversalSource g = graphs.get(0).traversal();
        // limit() pulls one traverser past its last before it stops: here, from the next member's first page
        assertEquals(1, requests(() -> assertEquals(1, g.V().limit(1).toList().size())), "one page of the next member");
        assertEquals(1, requests(() -> assertEquals(60, g.V().limit(60).toList().size())), "still the first page");
        long all = requests(() -> assertEquals(401, g.V().toList().size()));
        assertTrue(all >= 4, "every member, in growing pages: " + all);
        assertEquals(List.of("lone", "source", "source"), g.V().limit(3).label().toList());
        assertEquals(2, requests(() -> assertEquals(1, g.V().hasLabel("source").limit(1).toList().size())),
                "a label too: node 1's first page, and its labels read ahead for the hasLabel filter; node 2 is not asked");
        assertEquals(200, g.V().hasLabel("target").toList().size());
        graphs.get(0).tx().rollback();
    }

    @Test
    void aHopUnderALimitReadsASmallFirstBatch() {
        GraphTraversalSource g = graphs.get(0).traversal();
        long limited = requests(() -> assertEquals(1, g.V().out("to").limit(1).toList().size()));
        // a page of node 1's vertices, their edges (one request to node 1), the result's id at node 2
        assertTrue(limited <= 3, "a small first batch: " + limited);
        long whole = requests(() -> assertEquals(200, g.V().out("to").toList().size()));
        assertTrue(whole > limited, "without a limit the batches are full: " + whole + " vs " + limited);
        assertEquals(200L, g.V().out("to").dedup().count().next());
        graphs.get(0).tx().rollback();
    }

    @Test
    void profileShowsTheOtherNodesAScanAndACountAskedAndTheirRequests() {
        GraphTraversalSource g = graphs.get(0).traversal();
        org.apache.tinkerpop.gremlin.process.traversal.util.TraversalMetrics scan = g.V().limit(60).profile().next();
        assertEquals("[1]", scan.getMetrics(0).getAnnotation("remoteNodes"), scan.toString());
        assertEquals(1L, scan.getMetrics(0).getCount("remoteRequests"), scan.toString());
        org.apache.tinkerpop.gremlin.process.traversal.util.TraversalMetrics count = g.V().count().profile().next();
        assertEquals("[1, 2]", count.getMetrics(0).getAnnotation("remoteNodes"), count.toString());
        assertEquals(2L, count.getMetrics(0).getCount("remoteRequests"), count.toString());
        graphs.get(0).tx().rollback();
    }
}
