package io.gtran.lbv.gtran;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.lbv.LbvQuery;
import io.gtran.lbv.LbvSystem;
import io.gtran.lbv.Traffic;
import io.gtran.lbv.gremlin.GremlinSystemContract;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Gremlin system contract over gtran on two server processes started by deploy/gtran-cluster
 * (two clusters: the contract's read system and its write system), queried through gremlin-driver;
 * plus the nodes' message counts and the system's options. The contract's {@code @AfterAll} closes
 * both systems, which stops their processes.
 */
@Timeout(240)
class GtranProcessClusterLbvSystemTest extends GremlinSystemContract {
    @Override
    protected LbvSystem open() {
        return new GtranProcessClusterLbvSystem(Map.of("nodes", "2", "node-heap", "512m", "gremlinPool", "4",
                GtranProcessClusterLbvSystem.IDLE_SAMPLE_MS, "0"));
    }

    @Test
    void everyNodeReportsTheMessagesItSent() {
        GtranProcessClusterLbvSystem cluster = (GtranProcessClusterLbvSystem) reads;
        for (int k = 0; k < cluster.nodeCount(); k++) {
            Map<?, ?> status = cluster.status(k);
            assertEquals(List.of("node", "members", "in_contact", "lost", "group_leader", "group_term", "group_lost",
                    "clock_synced", "clock_master", "clock_epoch", "clock_lease_ms",
                    "clock_uncertainty_us", "clock_offset_ms", "watermark", "running", "participants", "commits", "aborts",
                    "messages", "bytes", "durability", "log_index", "log_durable", "snapshot_index", "snapshot_time"), List.copyOf(status.keySet()).stream().map(String::valueOf).toList());
            assertEquals(k, ((Number) status.get("node")).intValue());
        }
        Traffic before = reads.traffic();
        assertTrue(before.messages() > 0 && before.bytes() > before.messages(), "the load crossed nodes: " + before);
        for (long v = 0; v < 8; v++) { // vertices on both members, each query on the next node
            assertEquals(1, reads.execute(LbvQuery.Q14, vertex(v)));
        }
        Traffic sent = reads.traffic().since(before);
        assertTrue(sent.messages() > 0, "reads of the other member's vertices: " + sent);
        assertEquals("gtran-cluster", reads.name());
        assertEquals("serializable, 2 server process(es)", reads.isolation());
    }

    @Test
    void badOptionsAreRefusedNamingTheOption() {
        assertRefused("nodes=0", Map.of("nodes", "0"));
        assertRefused("nodes=17", Map.of("nodes", "17"));
        assertRefused("node-heap=lots", Map.of("node-heap", "lots"));
        assertRefused("gtran.fabric.nodes=", Map.of("gtran.fabric.nodes", "a:1"));
        assertRefused("unknown option", Map.of("link-latency-us", "20"));
        try (GtranProcessClusterLbvSystem noopt = new GtranProcessClusterLbvSystem(Map.of("opt", "off"))) {
            assertEquals("gtran-cluster-noopt", noopt.name());
            assertThrows(IllegalStateException.class, () -> noopt.execute(LbvQuery.Q14, vertex(0)), "not started before a load");
        }
    }

    private static void assertRefused(String part, Map<String, String> options) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new GtranProcessClusterLbvSystem(options));
        assertTrue(e.getMessage().contains(part), e.getMessage() + " lacks " + part);
    }
}
