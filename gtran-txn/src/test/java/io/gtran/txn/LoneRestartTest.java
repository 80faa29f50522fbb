package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.InJvmCluster;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TxnWords;
import io.gtran.txn.durable.Durability;
import io.gtran.txn.local.StatusTable;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A member with a data directory stopped and started again on it while the others run
 * (docs/durability.md, "A member restarted alone"): taken back, its data there, and its new
 * transaction ids above every id its old process gave, logged or not, also when it restarts from
 * a snapshot (C5').
 */
@Timeout(120)
class LoneRestartTest {
    @TempDir
    Path dir;

    private Map<String, Object> settings(int node) {
        return ClusterNodes.settings(node, "0,1,2", TxnConfig.REMOTE_TIMEOUT_MS, 1000, Durability.DIRECTORY,
                dir.resolve("node-" + node).toString(), Durability.SNAPSHOT_RECORDS, 0);
    }

    @Test
    void aMemberRestartedOnItsDataIsTakenBackAndGivesNewIdsAboveItsOldOnes() throws Exception {
        InJvmCluster cluster = new InJvmCluster();
        GtranNode[] nodes = new GtranNode[3];
        try {
            for (int i = 0; i < 3; i++) {
                nodes[i] = GtranNode.join(cluster, settings(i));
            }
            for (GtranNode node : nodes) {
                node.awaitMembers(30_000);
            }
            int label = nodes[0].store().labels().intern("item");
            Transaction made = nodes[0].engine().begin(Isolation.SERIALIZABLE);
            long there = made.addVertex(1, label);
            made.commit();
            // Transactions that log nothing: one status slot taken again and again, its sequence rising.
            long highest = 0;
            for (int i = 0; i < 3 * (int) StatusTable.CEILING_STEP / 1024; i++) {
                Transaction read = nodes[0].engine().begin(Isolation.SERIALIZABLE);
                highest = Math.max(highest, TxnWords.sequence(read.id()));
                read.rollback();
            }
            assertTrue(nodes[0].engine().snapshot().isPresent()); // the ceiling records before it are not replayed

            nodes[0].close();
            nodes[0] = GtranNode.join(cluster, settings(0));
            for (GtranNode node : nodes) {
                node.awaitMembers(30_000); // taken back by both, and both by it
            }
            assertEquals(Set.of(1, 2), nodes[0].engine().membersInContact());

            Transaction next = nodes[0].engine().begin(Isolation.SERIALIZABLE);
            assertTrue(TxnWords.sequence(next.id()) > highest, "a new id " + TxnWords.toString(next.id())
                    + " at or below the old process's highest sequence " + highest);
            assertEquals(label, next.vertexLabel(there), "the vertex it made before on node 1");
            long added = next.addVertex(2, label);
            next.commit();
            for (GtranNode reader : nodes) {
                Transaction read = reader.engine().begin(Isolation.SERIALIZABLE);
                assertEquals(label, read.vertexLabel(added), "node " + reader.id());
                read.commit();
            }
        } finally {
            for (GtranNode node : nodes) {
                if (node != null) {
                    node.close();
                }
            }
            cluster.close();
        }
    }
}
