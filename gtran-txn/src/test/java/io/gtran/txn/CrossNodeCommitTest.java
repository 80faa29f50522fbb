package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
}
