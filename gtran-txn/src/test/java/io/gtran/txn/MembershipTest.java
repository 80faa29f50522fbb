package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.ClusterConfig;
import io.gtran.rdma.InJvmCluster;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.clock.ClockConfig;
import io.gtran.txn.membership.Membership;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A node's cluster members and clock settings: where they come from, and bad values refused at
 * open with the key and the value named, leaving nothing behind in the cluster.
 */
@Timeout(60)
class MembershipTest {
    private static Map<String, Object> settings(Object... more) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(StoreConfig.CHUNK_BYTES, 1 << 16);
        settings.put(StoreConfig.EDGE_ROW_CHUNK_BYTES, 1 << 16);
        for (int i = 0; i < more.length; i += 2) {
            settings.put((String) more[i], more[i + 1]);
        }
        return settings;
    }

    private static void assertNames(IllegalArgumentException e, String... parts) {
        for (String part : parts) {
            assertTrue(e.getMessage().contains(part), "'" + part + "' not in: " + e.getMessage());
        }
    }

    @Test
    void membersComeFromTheSettingsAndDefaultToThisNodeAlone() {
        assertEquals(List.of(3), Membership.from(Map.of(), 3).nodes());
        assertTrue(Membership.from(Map.of(), 3).isSingle());
        Membership m = Membership.from(Map.of(Membership.NODES, " 2, 0 ,1"), 1);
        assertEquals(List.of(0, 1, 2), m.nodes(), "ascending, spaces allowed");
        assertEquals(List.of(0, 2), m.others());
        assertEquals(1, m.self());
        assertEquals(List.of(0, 1), Membership.from(Map.of(Membership.NODES, List.of(1, "0")), 0).nodes(), "a list, as commons-configuration gives");
        assertEquals(List.of(5), Membership.from(Map.of(Membership.NODES, 5), 5).nodes(), "a single number");
        try (InJvmCluster cluster = new InJvmCluster();
                GtranNode node = GtranNode.join(cluster, settings(StoreConfig.NODE_ID, 1, Membership.NODES, "0,1,2",
                        ClockConfig.WAIT_LIMIT_MS, 100))) {
            assertEquals(List.of(0, 1, 2), node.members().nodes());
            assertEquals(node.members(), node.engine().members());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "0,,1", "0,one", "0;1", "0,1,1", "0,1024", "-1,0", "1,2"})
    void badMemberListsAreRefusedNamingTheKeyAndValue(String value) {
        try (InJvmCluster cluster = new InJvmCluster()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> GtranNode.join(cluster, settings(StoreConfig.NODE_ID, 0, Membership.NODES, value)));
            assertNames(e, Membership.NODES + "=" + value);
            GtranNode.join(cluster, settings(StoreConfig.NODE_ID, 0)).close(); // nothing of the failed open is left
        }
    }

    @Test
    void eachKindOfBadListSaysWhatIsWrong() {
        assertNames(assertThrows(IllegalArgumentException.class, () -> Membership.from(Map.of(Membership.NODES, "0,1,1"), 0)),
                "node 1 twice");
        assertNames(assertThrows(IllegalArgumentException.class, () -> Membership.from(Map.of(Membership.NODES, "0,1024"), 0)),
                "outside [0, 1023]", "1024");
        assertNames(assertThrows(IllegalArgumentException.class, () -> Membership.from(Map.of(Membership.NODES, "1,2"), 0)),
                "must include this node", StoreConfig.NODE_ID + "=0");
        assertNames(assertThrows(IllegalArgumentException.class, () -> Membership.from(Map.of(Membership.NODES, "0,x"), 0)),
                "node ids separated by commas");
        assertNames(assertThrows(IllegalArgumentException.class, () -> Membership.from(Map.of("gtran.cluster.node", "0"), 0)),
                "unknown configuration key: gtran.cluster.node=0");
    }

    @Test
    void aNodeOfItsOwnClusterCannotHaveOtherMembers() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> GtranNode.open(settings(Membership.NODES, "0,1")));
        assertNames(e, Membership.NODES + "=0,1", "GtranNode.join");
        GtranNode.open(settings(Membership.NODES, "0")).close(); // itself alone is fine
    }

    @Test
    void aNetworkedNodesMembersAreTheFabricsNodes() {
        String nodes = "127.0.0.1:7100,127.0.0.1:7101,127.0.0.1:7102";
        try (GtranNode node = GtranNode.open(settings(ClusterConfig.TRANSPORT, LoopbackFabricProvider.NAME,
                ClusterConfig.NODES, nodes, Membership.NODES, "2,1,0"))) {
            assertEquals(List.of(0, 1, 2), node.members().nodes(), "the same ids may be given again");
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GtranNode.open(settings(
                ClusterConfig.TRANSPORT, LoopbackFabricProvider.NAME, ClusterConfig.NODES, nodes, Membership.NODES, "0,1")));
        assertNames(e, Membership.NODES + "=0,1", ClusterConfig.NODES, "0,1,2");
    }

    @Test
    void badClockSettingsAreRefusedNamingTheKeyAndValue() {
        try (InJvmCluster cluster = new InJvmCluster()) {
            Object[][] bad = {
                {ClockConfig.SYNC_INTERVAL_MS, 0}, {ClockConfig.SYNC_INTERVAL_MS, "often"}, {ClockConfig.DRIFT_PPM, -1},
                {ClockConfig.DRIFT_PPM, 100_000}, {ClockConfig.WAIT_LIMIT_MS, 0}, {"gtran.clock.drift", 5},
            };
            for (Object[] kv : bad) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GtranNode.join(cluster,
                        settings(Membership.NODES, "0,1", kv[0], kv[1])), kv[0] + "=" + kv[1]);
                assertNames(e, kv[0] + "=" + kv[1]);
            }
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ClockConfig.from(
                    Map.of(ClockConfig.SYNC_INTERVAL_MS, 50, ClockConfig.WAIT_LIMIT_MS, 50)));
            assertNames(e, ClockConfig.WAIT_LIMIT_MS + "=50", ClockConfig.SYNC_INTERVAL_MS + "=50");
            assertEquals(1e-3, ClockConfig.defaults().drift());
            assertEquals(10, ClockConfig.defaults().syncIntervalMs());
        }
    }
}
