package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.txn.common.CommitOutcomeUnknownException;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.protocol.Outcome;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Commits of transactions with parts on other nodes, where the list-append history check over
 * three nodes found trouble:
 * <ul>
 *   <li>Validation against another node's writer that is still executing must not wait for it:
 *       its commit time will be above ours. Status word 0 is EXECUTING, and was once taken for "not
 *       read yet", so every SR commit on a node where another node's transaction had written and
 *       was still running waited gtran.txn.dependency-wait-ms and aborted.
 *   <li>A participant still validating (waiting for a transaction it pre-read) must go on receiving
 *       commit messages: a DECIDE or RECOVER for the part it validates once blocked the node's
 *       commit receiver on the part's lock, so no other transaction's VALIDATE or DECIDE got through
 *       until the validation gave up.
 *   <li>A commit whose outcome is unknown is the protocol's to decide: a rollback afterwards (as
 *       try-with-resources' close does) must not abort the coordinator's part while the other
 *       parts commit.
 * </ul>
 */
class CrossNodeCommitTest {
    private static final Isolation SR = Isolation.SERIALIZABLE;

    @Test
    @Timeout(60)
    void anExecutingWriterFromAnotherNodeDoesNotHoldUpValidation() throws Exception {
        try (ClusterNodes c = new ClusterNodes(ClusterNodes.IN_JVM, 2, TxnConfig.DEPENDENCY_WAIT_MS, 3_000)) {
            int label = c.engine(0).store().labels().intern("item");
            int value = c.engine(0).store().propertyKeys().intern("value");
            Transaction setup = c.begin(0, SR);
            long a = setup.addVertex(label);
            long b = setup.addVertex(label);
            setup.setVertexProperty(a, value, 0L);
            setup.setVertexProperty(b, value, 0L);
            setup.commit();

            // W: coordinated by node 1, writes a (on node 0) there and goes on executing.
            Transaction w = c.begin(1, SR);
            int value1 = c.engine(1).store().propertyKeys().intern("value");
            w.setVertexProperty(a, value1, 1L);

            // T: node 0's own transaction, reads and writes b; validation looks at W (unentered here).
            Transaction t = c.begin(0, SR);
            t.setVertexProperty(b, value, (Long) t.vertexProperty(b, value) + 1);
            long start = System.nanoTime();
            t.commit(); // aborted with DEPENDENCY_TIMEOUT after 3 s when EXECUTING was taken for "unread"
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(ms < 2_000, "the commit waited " + ms + " ms for an executing writer of another node");
            w.commit();

            Transaction r = c.begin(0, SR);
            assertEquals(1L, r.vertexProperty(a, value));
            assertEquals(1L, r.vertexProperty(b, value));
            r.commit();
        }
    }

    @Test
    @Timeout(60)
    void aValidatingParticipantStillReceivesOtherTransactionsDecisions() throws Exception {
        try (ClusterNodes c = new ClusterNodes(ClusterNodes.IN_JVM, 3, TxnConfig.DEPENDENCY_WAIT_MS, 8_000)) {
            int label = c.engine(0).store().labels().intern("item");
            int value = c.engine(0).store().propertyKeys().intern("value");
            Transaction setup = c.begin(0, SR);
            long x1 = setup.addVertex(1, label); // read by T while X validates
            long y1 = setup.addVertex(1, label); // written by T
            long z2 = setup.addVertex(2, label); // T's part on node 2, which votes NO
            long u1 = setup.addVertex(1, label); // written by U, which node 1 must be able to commit meanwhile
            for (long v : new long[] {x1, y1, z2, u1}) {
                setup.setVertexProperty(v, value, 0L);
            }
            setup.commit();
            int value1 = c.engine(1).store().propertyKeys().intern("value");

            // X: node 1's own, holding VALIDATING with x1 written.
            Transaction x = c.begin(1, SR);
            x.setVertexProperty(x1, value1, 1L);
            CommitProtocol held = new CommitProtocol(x);
            assertTrue(held.prepare());

            // T: reads x1 at node 1 (pre-reads X: its vote there waits for X), writes y1, and reads z2
            // at node 2, where V then writes z2 and commits first, so node 2 votes NO.
            Transaction t = c.begin(0, SR);
            assertEquals(1L, t.vertexProperty(x1, value)); // X's version, pending X's commit
            t.setVertexProperty(y1, value, 1L);
            assertEquals(0L, t.vertexProperty(z2, value));
            Transaction v = c.begin(2, SR);
            int value2 = c.engine(2).store().propertyKeys().intern("value");
            v.setVertexProperty(z2, value2, 1L);
            v.commit();

            Thread committer = new Thread(() -> {
                try {
                    t.commit();
                } catch (RuntimeException expected) {
                    // aborted: node 2 votes NO
                }
            });
            committer.start();
            // Node 1 validates T, waiting for X; node 2 votes NO; the DECIDE ABORT reaches node 1.
            long decided = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (c.engine(1).clusterParts().messenger().decisionHere(t.id()) != Outcome.ABORT) {
                assertTrue(System.nanoTime() < decided, "node 1 never held T's ABORT: " + t);
                Thread.sleep(5);
            }

            // U: another transaction of node 0 with a part on node 1 only, which must commit now.
            Transaction u = c.begin(0, SR);
            u.setVertexProperty(u1, value, 1L);
            long start = System.nanoTime();
            u.commit();
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(ms < 3_000, "node 1 took " + ms + " ms to commit U while validating T");

            held.decide();
            committer.join(20_000);
            assertTrue(!t.isActive() && !t.isCommitted(), "T aborted (node 2 voted NO): " + t);
        }
    }

    @Test
    @Timeout(60)
    void aRollbackAfterAnUnknownOutcomeLeavesTheDecisionToTheProtocol() throws Exception {
        try (ClusterNodes c = new ClusterNodes(ClusterNodes.IN_JVM, 2, TxnConfig.REMOTE_TIMEOUT_MS, 200)) {
            int label = c.engine(0).store().labels().intern("item");
            int value = c.engine(0).store().propertyKeys().intern("value");
            Transaction setup = c.begin(0, SR);
            long x1 = setup.addVertex(1, label);
            long y1 = setup.addVertex(1, label);
            setup.setVertexProperty(x1, value, 0L);
            setup.setVertexProperty(y1, value, 0L);
            setup.commit();
            int value1 = c.engine(1).store().propertyKeys().intern("value");

            // X holds VALIDATING on node 1; T pre-reads it there, so node 1's vote for T waits for X,
            // past the 2 x 200 ms the commit waits for votes: T's outcome is unknown.
            Transaction x = c.begin(1, SR);
            x.setVertexProperty(x1, value1, 1L);
            CommitProtocol held = new CommitProtocol(x);
            assertTrue(held.prepare());
            Transaction t = c.begin(0, SR);
            assertEquals(1L, t.vertexProperty(x1, value));
            long here = t.addVertex(label);
            t.setVertexProperty(here, value, 1L);
            t.setVertexProperty(y1, value, 1L);
            assertThrows(CommitOutcomeUnknownException.class, t::commit);
            t.rollback(); // as close() does: must not decide anything
            held.decide(); // X commits, node 1 votes YES: the protocol commits T

            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (t.isActive() && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertTrue(t.isCommitted(), "every part voted YES, so T committed: " + t);
            Transaction r = c.begin(0, SR);
            assertTrue(r.vertexExists(here), "T's vertex on node 0");
            assertEquals(1L, r.vertexProperty(here, value));
            assertEquals(1L, r.vertexProperty(y1, value), "T's write on node 1");
            r.commit();
        }
    }
}
