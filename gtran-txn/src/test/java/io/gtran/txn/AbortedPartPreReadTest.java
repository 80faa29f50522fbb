package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.storage.MvStore;
import io.gtran.txn.common.ConflictKey;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TxnWords;
import io.gtran.txn.local.RecentCommittedTable;
import io.gtran.txn.local.TxnStatus;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A participant undoes its part of a transaction X as soon as that part is aborted there (its
 * vote NO, or an early DECIDE ABORT), while X's status at its coordinator still says VALIDATING
 * with a commit time: for a moment, or for as long as the coordinator has not applied its
 * decision, X's new version begins at NEVER while the version it superseded still has X's id in
 * its end word. A reader whose snapshot is after X's commit time pre-reads X (optimistic pre-read:
 * "X's writes belong in my snapshot if it commits") and took that end word for X's commit time:
 * the old version ended, the new one never existed, and the property was not there at all (the
 * bank's "no visible balance", ClusterBankFaultsTest). X's entry in this node's RCT already says
 * ABORTED (the participant records it before it undoes a word), and that is the end word's answer:
 * the old version lives on.
 *
 * <p>The state is built by hand, word by word, as the participant's abort leaves it between its
 * two compare-and-sets (a thread preempted there keeps it so for milliseconds).
 */
@Timeout(60)
class AbortedPartPreReadTest {

    @Test
    void anEndWordOfAPartAbortedHereIsNotTakenForACommit() {
        try (ClusterNodes cluster = new ClusterNodes(ClusterNodes.IN_JVM, 3)) {
            GtranNode n1 = cluster.nodes[1];
            int label = n1.store().labels().intern("account");
            int balance = n1.store().propertyKeys().intern("balance");
            Transaction setup = n1.engine().begin(Isolation.SERIALIZABLE);
            long account = setup.addVertex(label);
            setup.setVertexProperty(account, balance, 90L);
            setup.commit();
            Transaction update = n1.engine().begin(Isolation.SERIALIZABLE);
            update.setVertexProperty(account, balance, 100L); // a full version, with an end word
            update.commit();
            MvStore versions = n1.store().mvStore();
            int old = n1.store().vertices().propertyVersion(account, balance);
            assertTrue(!MvStore.isBase(old) && versions.endTime(old) == TxnWords.INFINITY);

            // X, coordinated on node 0, VALIDATING with commit time ct.
            TransactionEngine e0 = cluster.engine(0);
            Transaction x = e0.begin(Isolation.SERIALIZABLE);
            long ct = e0.clock().next();
            assertTrue(e0.statusTable().move(x.id(), TxnStatus.EXECUTING, 0, TxnStatus.VALIDATING, ct));
            // Its part on node 1 wrote the balance: a new version, and the old one locked.
            int fresh = versions.createVersion(150L, x.id(), TxnWords.INFINITY, old);
            assertTrue(versions.compareAndSetEndTime(old, TxnWords.INFINITY, x.id()));
            assertTrue(n1.store().vertices().linkPropertyVersion(account, balance, old, fresh));
            // VALIDATE entered it in node 1's RCT; then the part was aborted there: entry ABORTED,
            // the new version's begin NEVER, and (not yet) the old version's end INFINITY again.
            TransactionEngine e1 = cluster.engine(1);
            RecentCommittedTable.Entry entry = e1.recentCommitted().enter(x.id(), ct, Set.of(ConflictKey.property(account, balance)));
            e1.recentCommitted().decide(entry, TxnStatus.ABORTED);
            assertTrue(versions.compareAndSetBeginTime(fresh, x.id(), TxnWords.NEVER));
            assertEquals(x.id(), versions.endTime(old));

            // Readers after ct, on node 1 and (through node 1) on node 2, see the old balance.
            for (int node : new int[] {1, 2}) {
                Transaction reader = cluster.begin(node, Isolation.SERIALIZABLE);
                assertTrue(reader.beginTime() > ct);
                int key = cluster.nodes[node].store().propertyKeys().intern("balance");
                assertEquals(100L, reader.vertexProperty(account, key), "a reader on node " + node
                        + " lost the balance: X's part there is aborted, so the old version has not ended");
                reader.rollback();
            }

            // The abort finishes; X is decided at its coordinator.
            assertTrue(versions.compareAndSetEndTime(old, x.id(), TxnWords.INFINITY));
            assertTrue(e0.statusTable().move(x.id(), TxnStatus.VALIDATING, ct, TxnStatus.ABORTED, ct));
        }
    }
}
