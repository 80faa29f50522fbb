package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.check.fabric.FaultPlan;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.protocol.Family;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An operation's request is sent again only when it may have been lost (docs/cluster-transactions.md,
 * "Execution"): its delivery failed, or it is late; not while a slow link still carries it.
 */
class OperationResendTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void aRequestIsSentAgainOnlyWhenItsDeliveryFailedOrItIsLate() {
        CompletableFuture<Void> failed = CompletableFuture.failedFuture(new IllegalStateException("dropped"));
        CompletableFuture<Void> delivered = CompletableFuture.completedFuture(null);
        CompletableFuture<Void> delivering = new CompletableFuture<>();
        assertTrue(ClusterParts.mayBeLost(failed, 20 * MS));
        assertFalse(ClusterParts.mayBeLost(delivered, 20 * MS));
        assertFalse(ClusterParts.mayBeLost(delivering, 319 * MS));
        assertTrue(ClusterParts.mayBeLost(delivered, 320 * MS));
        assertTrue(ClusterParts.mayBeLost(delivering, 320 * MS));
    }

    /** Each request crosses a link that takes 100 ms: the first look, after 20 ms, finds it still on its way. */
    @Test
    void aReadOverASlowLinkSendsEachRequestOnce() throws Exception {
        MessageTally[] fromNode0 = new MessageTally[1];
        try (FaultPlan plan = new FaultPlan(1);
             ClusterNodes c = new ClusterNodes(ClusterNodes.IN_JVM, 2, fabric -> {
                 MessageTally tally = new MessageTally(plan.wrap(fabric));
                 if (fabric.localNode() == 0) {
                     fromNode0[0] = tally;
                 }
                 return tally;
             })) {
            int key = c.engine(1).store().propertyKeys().intern("n");
            Transaction w = c.begin(1, Isolation.SERIALIZABLE);
            long v = w.addVertex(1, c.engine(1).store().labels().intern("item"));
            w.setVertexProperty(v, key, 7L);
            w.commit();
            plan.links(0, 1).delay(Duration.ofMillis(100));
            fromNode0[0].reset();
            Transaction r = c.begin(0, Isolation.SERIALIZABLE);
            assertEquals(7L, r.vertexProperty(v, c.engine(0).store().propertyKeys().intern("n")));
            r.commit();
            Map<String, Integer> sent = fromNode0[0].sent(Family.OPS);
            assertFalse(sent.isEmpty(), "no operation crossed to node 1");
            assertEquals(fromNode0[0].distinct(Family.OPS), sent, "a request was sent more than once");
        }
    }
}
