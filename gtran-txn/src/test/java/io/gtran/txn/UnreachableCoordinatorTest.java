package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.InJvmCluster;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import io.gtran.txn.common.TxnWords;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A version whose word names a transaction of another node is decided by that node's status table.
 * When that node cannot be reached, the reader waits gtran.txn.dependency-wait-ms, then aborts
 * naming the transaction and its node: it neither sees nor skips the version on a guess, and no
 * transport exception reaches the caller.
 */
class UnreachableCoordinatorTest {

    @Test
    @Timeout(30)
    void aReaderThatCannotReachAWritersCoordinatorAbortsAfterTheWaitNamingIt() {
        try (InJvmCluster cluster = new InJvmCluster();
             GtranNode n0 = GtranNode.join(cluster, Map.of(StoreConfig.NODE_ID, 0));
             GtranNode n1 = GtranNode.join(cluster, Map.of(StoreConfig.NODE_ID, 1, TxnConfig.DEPENDENCY_WAIT_MS, 300))) {
            Transaction writer = n0.engine().begin(Isolation.SERIALIZABLE);
            int label = n1.store().labels().intern("v");
            // What a participant write on node 1 for node 0's transaction leaves: its id in the begin word.
            long vertex = n1.store().addVertex(label, writer.id(), TxnWords.INFINITY);

            Transaction before = n1.engine().begin(Isolation.SERIALIZABLE);
            assertFalse(before.vertexExists(vertex), "a vertex its executing creator has not committed is invisible");
            before.rollback();

            n0.close(); // the writer's coordinator is gone
            Transaction reader = n1.engine().begin(Isolation.SERIALIZABLE);
            long start = System.nanoTime();
            TransactionConflictException e = assertThrows(TransactionConflictException.class, () -> reader.vertexExists(vertex));
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals(ConflictKind.COORDINATOR_UNREACHABLE, e.kind());
            assertTrue(e.getMessage().contains("node 0") && e.getMessage().contains(TxnWords.toString(writer.id())), e.getMessage());
            assertTrue(waited >= 300 && waited < 10_000, "waited the configured 300 ms, not for ever: " + waited + " ms");
            assertThrows(IllegalStateException.class, () -> reader.vertexExists(vertex), "the reader is aborted");
        }
    }

    @Test
    @Timeout(30)
    void aReaderWaitingOnAnUnreachableCoordinatorSeesTheWordOnceARecoveryRewritesIt() throws Exception {
        try (InJvmCluster cluster = new InJvmCluster();
             GtranNode n0 = GtranNode.join(cluster, Map.of(StoreConfig.NODE_ID, 0));
             GtranNode n1 = GtranNode.join(cluster, Map.of(StoreConfig.NODE_ID, 1, TxnConfig.DEPENDENCY_WAIT_MS, 5_000))) {
            Transaction writer = n0.engine().begin(Isolation.SERIALIZABLE);
            int label = n1.store().labels().intern("v");
            long vertex = n1.store().addVertex(label, writer.id(), TxnWords.INFINITY);
            long committedAt = n1.engine().clock().next(); // before the reader begins: the reader's snapshot holds it
            n0.close();
            Transaction reader = n1.engine().begin(Isolation.SERIALIZABLE);
            java.util.concurrent.ExecutorService thread = java.util.concurrent.Executors.newSingleThreadExecutor();
            try {
                java.util.concurrent.Future<Boolean> seen = thread.submit(() -> reader.vertexExists(vertex));
                Thread.sleep(200); // the reader is waiting on node 0
                assertFalse(seen.isDone(), "it waits rather than guess");
                // A recovery decided COMMIT and stamps the commit time over the writer's id.
                assertTrue(n1.store().vertices().compareAndSetBeginTime(vertex, writer.id(), committedAt));
                assertTrue(seen.get(5, TimeUnit.SECONDS), "it reads the word again and sees the committed vertex");
            } finally {
                thread.shutdownNow();
            }
        }
    }
}
