package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.Fabric;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.local.TxnStatus;
import io.gtran.txn.protocol.Outcome;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * SR validation at a node against another node's writer that has not entered the RCT there (its
 * VALIDATE has not come) reads the writer's status at its coordinator. When that coordinator is
 * lost, the majority settles the writer's part here (aborts it: VALIDATE never came) a lease after
 * the loss; validation must then go on with what this node holds, not keep asking the lost
 * coordinator until gtran.txn.dependency-wait-ms runs out and abort. Found by
 * ClusterBankFaultsTest (node 0 killed): survivors validating against node 0's writers stalled
 * for the whole dependency wait, and every transaction waiting on them with them. The second case
 * is the same wait for a validation dependency (optimistic validation) on such a writer.
 */
@Timeout(60)
class UnenteredWriterOfLostCoordinatorTest {
    private static final int DEPENDENCY_WAIT_MS = 10_000;

    @Test
    void validationGoesOnOnceTheLostCoordinatorsWriterIsSettledHere() throws Exception {
        Fabric[] started = ClusterNodes.IN_JVM.start(3);
        CrashingFabric[] fabrics = new CrashingFabric[3];
        GtranNode[] nodes = new GtranNode[3];
        try {
            for (int i = 0; i < 3; i++) {
                fabrics[i] = new CrashingFabric(started[i]);
                nodes[i] = GtranNode.open(fabrics[i], settings(i));
            }
            int label = nodes[1].store().labels().intern("item");
            int value = nodes[1].store().propertyKeys().intern("value");
            Transaction setup = nodes[1].engine().begin(Isolation.SERIALIZABLE);
            long x = setup.addVertex(label);
            long y = setup.addVertex(label);
            setup.setVertexProperty(x, value, 0L);
            setup.setVertexProperty(y, value, 0L);
            setup.commit();

            // W, coordinated on node 0, writes x on node 1: an unentered writer there.
            GtranNode n0 = nodes[0];
            Transaction w = n0.engine().begin(Isolation.SERIALIZABLE);
            w.setVertexProperty(x, n0.store().propertyKeys().intern("value"), 1L);
            // T, on node 1 alone, writes y and validates at SR: it must look at W.
            Transaction t = nodes[1].engine().begin(Isolation.SERIALIZABLE);
            t.setVertexProperty(y, value, 1L);

            fabrics[0].crash(); // W's status can no longer be read; node 1 and 2 are a majority
            fabrics[0].awaitCrashed(); // the crash closes the fabric on a thread of its own: a read before it would see W EXECUTING
            long start = System.nanoTime();
            t.commit();
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals(Outcome.ABORT, nodes[1].engine().clusterParts().messenger().decisionHere(w.id()),
                    "node 1 settled W's part when node 0 was lost");
            assertTrue(tookMs < DEPENDENCY_WAIT_MS / 2, "T waited " + tookMs + " ms to validate against W, which node 1 had"
                    + " aborted a lease after node 0's loss (gtran.txn.dependency-wait-ms=" + DEPENDENCY_WAIT_MS + ")");

            Transaction read = nodes[1].engine().begin(Isolation.SERIALIZABLE);
            assertEquals(0L, read.vertexProperty(x, value), "W's write was undone");
            assertEquals(1L, read.vertexProperty(y, value));
            read.commit();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (!StoreTxnWords.find(nodes[1].store()).isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(10); // the abort's last words may still be being undone
            }
            assertNull(nullIfEmpty(StoreTxnWords.find(nodes[1].store())), "no word on node 1 names a transaction");
        } finally {
            for (GtranNode node : nodes) {
                if (node != null) {
                    node.close();
                }
            }
        }
    }

    /**
     * The same writer found VALIDATING in this transaction's window, in conflict with what it read:
     * with optimistic validation this transaction commits only if the writer aborts, and waits for
     * its outcome. Once node 1 has aborted the writer's part (its coordinator lost), that is the
     * outcome; the lost coordinator is not asked until the wait runs out.
     */
    @Test
    void aValidationDependencyOnTheLostCoordinatorsWriterEndsOnceItIsSettledHere() throws Exception {
        Fabric[] started = ClusterNodes.IN_JVM.start(3);
        CrashingFabric[] fabrics = new CrashingFabric[3];
        GtranNode[] nodes = new GtranNode[3];
        try {
            for (int i = 0; i < 3; i++) {
                fabrics[i] = new CrashingFabric(started[i]);
                nodes[i] = GtranNode.open(fabrics[i], settings(i));
            }
            int label = nodes[1].store().labels().intern("item");
            int value = nodes[1].store().propertyKeys().intern("value");
            Transaction setup = nodes[1].engine().begin(Isolation.SERIALIZABLE);
            long x = setup.addVertex(label);
            long y = setup.addVertex(label);
            setup.setVertexProperty(x, value, 0L);
            setup.setVertexProperty(y, value, 0L);
            setup.commit();

            // T, on node 1, reads x and writes y.
            Transaction t = nodes[1].engine().begin(Isolation.SERIALIZABLE);
            assertEquals(0L, t.vertexProperty(x, value));
            t.setVertexProperty(y, value, 1L);
            // W, coordinated on node 0, writes x on node 1 and takes a commit time after T's begin time;
            // its VALIDATE has not reached node 1.
            TransactionEngine e0 = nodes[0].engine();
            Transaction w = e0.begin(Isolation.SERIALIZABLE);
            w.setVertexProperty(x, nodes[0].store().propertyKeys().intern("value"), 1L);
            long ct = e0.clock().next();
            assertTrue(e0.statusTable().move(w.id(), TxnStatus.EXECUTING, 0, TxnStatus.VALIDATING, ct));

            // T's validation finds W validating in its window: T commits only if W aborts, and waits.
            java.util.concurrent.CompletableFuture<Long> committed = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                long start = System.nanoTime();
                t.commit();
                return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            });
            Thread.sleep(300); // real time: a commit that did not wait would be done by now
            assertTrue(!committed.isDone(), "T waits for W's outcome");
            fabrics[0].crash(); // node 1 and 2 are a majority: node 1 aborts W's part a lease later
            long tookMs = committed.get(DEPENDENCY_WAIT_MS * 2L, TimeUnit.MILLISECONDS);
            assertEquals(Outcome.ABORT, nodes[1].engine().clusterParts().messenger().decisionHere(w.id()));
            assertTrue(tookMs < DEPENDENCY_WAIT_MS / 2, "T waited " + tookMs + " ms for W's outcome, which node 1 had"
                    + " settled a lease after node 0's loss (gtran.txn.dependency-wait-ms=" + DEPENDENCY_WAIT_MS + ")");
            Transaction read = nodes[1].engine().begin(Isolation.SERIALIZABLE);
            assertEquals(0L, read.vertexProperty(x, value), "W's write was undone");
            assertEquals(1L, read.vertexProperty(y, value), "T committed");
            read.commit();
        } finally {
            for (GtranNode node : nodes) {
                if (node != null) {
                    node.close();
                }
            }
        }
    }

    private static Object nullIfEmpty(java.util.List<String> words) {
        return words.isEmpty() ? null : words;
    }

    private static Map<String, Object> settings(int node) {
        return ClusterNodes.settings(node, "0,1,2", TxnConfig.DEPENDENCY_WAIT_MS, DEPENDENCY_WAIT_MS);
    }
}
