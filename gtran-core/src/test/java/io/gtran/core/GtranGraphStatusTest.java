package io.gtran.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.InJvmCluster;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.GtranNode;
import io.gtran.txn.QueryTraffic;
import io.gtran.txn.membership.Membership;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.commons.configuration2.BaseConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link GtranGraph#status}: a node alone, and a member of three that loses one. */
@Timeout(60)
class GtranGraphStatusTest {
    @Test
    void aNodeAloneIsItsOwnClockAndHasNoOneToLose() {
        try (GtranGraph graph = GtranGraph.open()) {
            graph.addVertex("person");
            graph.tx().commit();
            Map<String, Object> status = graph.status();
            assertEquals(List.of("node", "members", "in_contact", "lost", "group_leader", "group_term", "group_lost",
                    "clock_synced", "clock_master", "clock_epoch", "clock_lease_ms",
                    "clock_uncertainty_us", "clock_offset_ms", "watermark", "running", "participants", "commits", "aborts",
                    "messages", "bytes", "durability", "log_index", "log_durable", "snapshot_index", "snapshot_time"), List.copyOf(status.keySet()));
            assertEquals(0L, status.get("messages"), "a node alone sends nothing");
            assertEquals(List.of(0), status.get("members"));
            assertEquals(List.of(), status.get("lost"));
            assertEquals(true, status.get("clock_synced"));
            assertEquals(0L, status.get("clock_uncertainty_us"));
            assertEquals(1L, status.get("commits"));
            assertTrue((Long) status.get("watermark") > 0, status.toString());
        }
    }

    @Test
    void aClosedMemberIsReportedLostWithinTheLease() throws Exception {
        try (InJvmCluster cluster = new InJvmCluster()) {
            GtranNode[] nodes = new GtranNode[3];
            for (int i = 0; i < 3; i++) {
                nodes[i] = GtranNode.join(cluster, Map.of(StoreConfig.NODE_ID, i, Membership.NODES, "0,1,2",
                        StoreConfig.CHUNK_BYTES, 1 << 16, StoreConfig.EDGE_ROW_CHUNK_BYTES, 1 << 16));
            }
            try (GtranGraph graph = GtranGraph.open(nodes[1], new BaseConfiguration())) {
                Map<String, Object> up = await(graph, s -> s.get("in_contact").equals(List.of(0, 2))
                        && Boolean.TRUE.equals(s.get("clock_synced")));
                assertEquals(List.of(0, 1, 2), up.get("members"));
                assertEquals(List.of(), up.get("lost"));
                assertEquals(0, up.get("clock_master"));
                assertTrue((Long) up.get("clock_uncertainty_us") >= 0, up.toString());
                long closed = System.nanoTime();
                nodes[2].close();
                Map<String, Object> degraded = await(graph, s -> s.get("lost").equals(List.of(2)));
                assertEquals(List.of(0), degraded.get("in_contact"));
                long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closed);
                System.out.printf("STATUS closed->lost ms=%d: %s%n", millis, degraded);
                assertTrue(millis < 3 * io.gtran.txn.TxnConfig.LEASE_MS_DEFAULT, "lost after " + millis + " ms");
            } finally {
                for (GtranNode node : nodes) {
                    node.close();
                }
            }
        }
    }

    @Test
    void aMemberCountsTheOperationAndCommitMessagesItSends() throws Exception {
        try (InJvmCluster cluster = new InJvmCluster()) {
            GtranNode[] nodes = new GtranNode[2];
            for (int i = 0; i < 2; i++) {
                nodes[i] = GtranNode.open(new QueryTraffic(cluster.join(i)), Map.of(StoreConfig.NODE_ID, i,
                        Membership.NODES, "0,1", StoreConfig.CHUNK_BYTES, 1 << 16, StoreConfig.EDGE_ROW_CHUNK_BYTES, 1 << 16));
            }
            BaseConfiguration spread = new BaseConfiguration();
            spread.setProperty(GtranGraph.PLACEMENT, "spread");
            try (GtranGraph graph = GtranGraph.open(nodes[0], spread)) {
                await(graph, s -> s.get("in_contact").equals(List.of(1)) && Boolean.TRUE.equals(s.get("clock_synced")));
                Map<String, Object> before = graph.status();
                graph.addVertex("person"); // spread: one on each member
                graph.addVertex("person");
                graph.tx().commit();
                Map<String, Object> after = graph.status();
                long messages = (Long) after.get("messages") - (Long) before.get("messages");
                long bytes = (Long) after.get("bytes") - (Long) before.get("bytes");
                assertTrue(messages > 0 && bytes > messages, "a write on the other member: " + before + " -> " + after);
            } finally {
                for (GtranNode node : nodes) {
                    node.close();
                }
            }
        }
    }

    private static Map<String, Object> await(GtranGraph graph, Predicate<Map<String, Object>> condition)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Map<String, Object> status = graph.status();
        while (!condition.test(status)) {
            assertFalse(System.nanoTime() > deadline, "timed out at " + status);
            Thread.sleep(10);
            status = graph.status();
        }
        return status;
    }
}
