package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.InJvmCluster;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.membership.Membership;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A node whose cluster description differs from a running member's refuses to join, saying how. */
@Timeout(60)
class ClusterDescriptionTest {
    private static Map<String, Object> settings(int node, String members, Object... extra) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(StoreConfig.NODE_ID, node);
        settings.put(StoreConfig.CHUNK_BYTES, 1 << 16);
        settings.put(StoreConfig.EDGE_ROW_CHUNK_BYTES, 1 << 16);
        settings.put(Membership.NODES, members);
        for (int i = 0; i < extra.length; i += 2) {
            settings.put((String) extra[i], extra[i + 1]);
        }
        return settings;
    }

    @Test
    void aNodeWithOtherMembersRefusesToJoinNamingBothDescriptions() {
        try (InJvmCluster cluster = new InJvmCluster();
                GtranNode first = GtranNode.join(cluster, settings(0, "0,1,2"))) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> GtranNode.join(cluster, settings(1, "0,1")));
            assertTrue(e.getMessage().contains("node 0 describes the cluster differently")
                    && e.getMessage().contains("members=[0, 1, 2]") && e.getMessage().contains("members=[0, 1]"), e.getMessage());
            // The running member goes on serving.
            Transaction t = first.engine().begin(Isolation.SERIALIZABLE);
            t.addVertex(first.store().labels().intern("x"));
            t.commit();
        }
    }

    @Test
    void aNodeWithAnotherLeaseRefusesToJoin() {
        try (InJvmCluster cluster = new InJvmCluster();
                GtranNode first = GtranNode.join(cluster, settings(0, "0,1"))) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> GtranNode.join(cluster, settings(1, "0,1", TxnConfig.LEASE_MS, 900)));
            assertTrue(e.getMessage().contains(TxnConfig.LEASE_MS + "=900"), e.getMessage());
        }
    }
}
