package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.ClusterConfig;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.InJvmCluster;
import io.gtran.storage.ElementIds;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.clock.ClockConfig;
import io.gtran.txn.clock.ClockUnavailableException;
import io.gtran.txn.common.Isolation;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A node wired from configuration: which fabric it runs on, what it owns and closes, what it refuses. */
@Timeout(60)
class GtranNodeTest {
    /** Small pools, so each node costs little, plus {@code more} as key, value, ... */
    private static Map<String, Object> settings(Object... more) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(StoreConfig.CHUNK_BYTES, 1 << 16);
        settings.put(StoreConfig.EDGE_ROW_CHUNK_BYTES, 1 << 16);
        for (int i = 0; i < more.length; i += 2) {
            settings.put((String) more[i], more[i + 1]);
        }
        return settings;
    }

    /** Commits one vertex on {@code node}; returns its id. */
    private static long committedVertex(GtranNode node) {
        Transaction t = node.engine().begin(Isolation.SERIALIZABLE);
        long v = t.addVertex(node.store().labels().intern("person"));
        t.commit();
        return v;
    }

    @Test
    void aNodeOpenedFromSettingsRunsTransactionsAndClosesWhatItOwns() {
        GtranNode node = GtranNode.open(settings(StoreConfig.NODE_ID, 3));
        Fabric fabric = node.fabric();
        assertEquals(3, node.id());
        assertEquals(3, fabric.localNode());
        long v = committedVertex(node);
        assertEquals(3, ElementIds.node(v), "ids name their node");
        Transaction r = node.engine().begin(Isolation.SNAPSHOT);
        assertTrue(r.vertexExists(v));
        r.commit();
        node.close();
        node.close(); // idempotent
        assertTrue(node.isClosed());
        assertThrows(IllegalStateException.class, () -> node.engine().begin(Isolation.SERIALIZABLE), "engine closed");
        assertThrows(IllegalStateException.class, () -> fabric.register("after", 8), "fabric closed");
    }

    @Test
    void nodesJoinASharedClusterWhichOutlivesThem() {
        try (InJvmCluster cluster = new InJvmCluster()) {
            GtranNode n0 = GtranNode.join(cluster, settings(StoreConfig.NODE_ID, 0));
            GtranNode n1 = GtranNode.join(cluster, settings(StoreConfig.NODE_ID, 1));
            n0.fabric().register("probe", 8).writeLong(0, 42);
            assertEquals(42, n1.fabric().connect(0, "probe").readLong(0), "one cluster: node 1 reads node 0's region");
            long a = committedVertex(n0);
            long b = committedVertex(n1);
            assertEquals(0, ElementIds.node(a));
            assertEquals(1, ElementIds.node(b));
            assertThrows(IllegalStateException.class, () -> GtranNode.join(cluster, settings(StoreConfig.NODE_ID, 1)),
                    "node 1 is in the cluster already");
            n1.close();
            assertEquals(0, ElementIds.node(committedVertex(n0)), "node 0 works on");
            try (GtranNode n2 = GtranNode.join(cluster, settings(StoreConfig.NODE_ID, 2))) {
                assertEquals(2, ElementIds.node(committedVertex(n2)), "the cluster stays open for others");
            }
            n0.close();
        }
    }

    @Test
    void badSettingsFailTheOpenNamingTheKey() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> GtranNode.open(settings("gtran.storage.vertice.max", 10)));
        assertTrue(unknown.getMessage().contains("gtran.storage.vertice.max"), unknown.getMessage());
        try (InJvmCluster cluster = new InJvmCluster()) {
            IllegalArgumentException fabricKey = assertThrows(IllegalArgumentException.class,
                    () -> GtranNode.join(cluster, settings(ClusterConfig.TRANSPORT, "netty")));
            assertTrue(fabricKey.getMessage().contains(ClusterConfig.TRANSPORT), fabricKey.getMessage());
            GtranNode.join(cluster, settings()).close(); // nothing of the failed open is left in the cluster
        }
    }

    @Test
    void aGivenFabricOfAnotherNodeIsRefusedAndClosed() {
        try (InJvmCluster cluster = new InJvmCluster()) {
            Fabric fabric = cluster.join(2);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> GtranNode.open(fabric, settings(StoreConfig.NODE_ID, 1)));
            assertTrue(e.getMessage().contains("fabric node=2"), e.getMessage());
            assertThrows(IllegalStateException.class, () -> fabric.register("after", 8), "the node owned the fabric");
            try (GtranNode node = GtranNode.open(cluster.join(2), settings(StoreConfig.NODE_ID, 2))) {
                assertEquals(2, ElementIds.node(committedVertex(node)));
            }
        }
    }

    @Test
    void fabricSettingsStartTheTransportTheyName() {
        String nodes = "127.0.0.1:7100,127.0.0.1:7101";
        GtranNode node = GtranNode.open(settings(StoreConfig.NODE_ID, 1, ClusterConfig.TRANSPORT, LoopbackFabricProvider.NAME,
                ClusterConfig.NODES, nodes, ClockConfig.WAIT_LIMIT_MS, 200));
        Fabric fabric = node.fabric();
        assertEquals(1, fabric.localNode(), ClusterConfig.NODE + " defaults to the node id");
        assertEquals(List.of(0, 1), node.members().nodes(), "every node of " + ClusterConfig.NODES + " is a member");
        // The loopback transport has no node 0, the clock master: node 1's transactions cannot begin.
        ClockUnavailableException noMaster = assertThrows(ClockUnavailableException.class,
                () -> node.engine().begin(Isolation.SERIALIZABLE));
        assertTrue(noMaster.getMessage().contains("clock master 0"), noMaster.getMessage());
        assertEquals(0L, node.engine().stats().get("running"), "the failed begin gave its status entry back");
        node.close();
        assertThrows(IllegalStateException.class, () -> fabric.register("after", 8), "the node closed the fabric it started");
        try (GtranNode master = GtranNode.open(settings(ClusterConfig.TRANSPORT, LoopbackFabricProvider.NAME,
                ClusterConfig.NODES, nodes, ClockConfig.WAIT_LIMIT_MS, 200))) {
            // Node 0 is the clock master, but its lease needs the membership group, a majority of two: node 1 too.
            ClockUnavailableException noLease = assertThrows(ClockUnavailableException.class,
                    () -> master.engine().begin(Isolation.SERIALIZABLE));
            assertTrue(noLease.getMessage().contains("no lease of clock master 0"), noLease.getMessage());
        }

        IllegalArgumentException mismatch = assertThrows(IllegalArgumentException.class, () -> GtranNode.open(settings(
                StoreConfig.NODE_ID, 1, ClusterConfig.TRANSPORT, LoopbackFabricProvider.NAME, ClusterConfig.NODES, nodes,
                ClusterConfig.NODE, 0)));
        assertTrue(mismatch.getMessage().contains(StoreConfig.NODE_ID + "=1"), mismatch.getMessage());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> GtranNode.open(settings(
                ClusterConfig.TRANSPORT, "no-such-transport", ClusterConfig.NODES, nodes)));
        assertTrue(unknown.getMessage().contains("no-such-transport"), unknown.getMessage());
    }

    @Test
    void theFaultsControlKeyFailsTheOpenWhenTheHarnessIsNotOnTheClassPath() {
        // gtran-txn's tests run without gtran-check, where the one NodeFaults.Provider is.
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> GtranNode.open(settings(
                ClusterConfig.TRANSPORT, LoopbackFabricProvider.NAME, ClusterConfig.NODES, "127.0.0.1:7100",
                NodeFaults.CONTROL, "faults-0")));
        assertTrue(missing.getMessage().contains(NodeFaults.CONTROL + "=faults-0"), missing.getMessage());
        assertTrue(missing.getMessage().contains("gtran-check"), missing.getMessage());
    }

    @Test
    void aNodeCarriesOneGraphInItsLife() {
        GtranNode node = GtranNode.open(settings());
        node.claim("graph A");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> node.claim("graph B"));
        assertTrue(e.getMessage().contains("graph A"), e.getMessage());
        node.close();
        assertThrows(IllegalStateException.class, () -> node.claim("graph C"), "a closed node");
    }
}
