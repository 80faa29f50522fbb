package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.check.fabric.FaultPlan;
import io.gtran.txn.common.ConflictKey;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.local.ElementCounts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The GC watermark of a cluster of three nodes in one JVM ({@code gtran.cluster.nodes=0,1,2}): a
 * transaction running on one member keeps another member's GC from freeing what was superseded
 * after it began, and RCT entries from being pruned; a member never read, unreadable or lost holds
 * the watermark at its last value (0 before the first read). GC runs by hand here
 * ({@code gtran.txn.gc=false}, {@link TestCluster#pass}): a pass publishes the node's oldest begin
 * time, then reads the others'.
 */
@Timeout(60)
class ClusterWatermarkTest {
    private static final long SEED = Long.getLong("gtran.test.seed", 20261125L);

    private static TestCluster threeNodes(FaultPlan plan) {
        TestCluster c = new TestCluster(SEED, "0,1,2", plan, TxnConfig.GC, false);
        for (int n = 0; n < 3; n++) {
            c.join(n);
        }
        return c;
    }

    /** Creates a vertex with {@code key = value}; returns it. */
    private static long vertex(GtranNode node, int key, Object value) {
        Transaction t = node.engine().begin(Isolation.SERIALIZABLE);
        long v = t.addVertex(node.store().labels().intern("v"));
        t.setVertexProperty(v, key, value);
        t.commit();
        return v;
    }

    /** Sets {@code key = value} on {@code v}; returns the commit time, when the old version was superseded. */
    private static long update(GtranNode node, long v, int key, Object value) {
        Transaction t = node.engine().begin(Isolation.SERIALIZABLE);
        t.setVertexProperty(v, key, value);
        t.commit();
        return t.commitTime();
    }

    private static long freed(GtranNode node) {
        return node.engine().gc().stats().get("versions.freed");
    }

    /** Nodes in the chain of node's counter of all vertices: its deltas and its base. */
    private static int vertexCounterLength(GtranNode node) {
        int length = 0;
        for (ElementCounts.Delta d = node.engine().counts().find(ElementKind.VERTEX, ConflictKey.ANY_LABEL).head(); d != null;
                d = d.next) {
            length++;
        }
        return length;
    }

    private static long rctEntries(GtranNode node) {
        return node.engine().stats().get("rct.entries");
    }

    @Test
    void aTransactionOnAnotherMemberHoldsBackThisMembersGc() throws Exception {
        try (TestCluster c = threeNodes(null)) {
            c.check(() -> {
                GtranNode n0 = c.node(0);
                int key = n0.store().propertyKeys().intern("p");
                long v = vertex(n0, key, 1);
                update(n0, v, key, 2);
                c.passAll();
                long freedBefore = freed(n0);

                assertEquals(1, vertexCounterLength(n0), "the counter folded into its base");

                Transaction held = c.node(1).engine().begin(Isolation.SNAPSHOT);
                long superseded = update(n0, v, key, 3);
                assertTrue(superseded > held.beginTime(), "begun first, so an earlier time");
                vertex(n0, key, 4); // a delta of the vertex counter, committed after the held transaction began
                c.pass(2); // node 2 has published a time after the update: only node 1 holds back
                c.pass(1);
                c.pass(0);
                assertTrue(c.node(2).engine().clusterWatermark().published() > superseded);
                assertTrue(n0.engine().localWatermark() > superseded, "node 0's own watermark would let it go");
                assertTrue(n0.engine().lastWatermark() <= held.beginTime(), "the cluster's does not");
                assertEquals(freedBefore, freed(n0), "nothing superseded after the held transaction began is freed");
                assertTrue(rctEntries(n0) >= 1, "the update's RCT entry stays");
                assertEquals(2, vertexCounterLength(n0), "the new delta is not folded into the base");

                held.rollback();
                c.pass(1);
                c.pass(0);
                assertTrue(n0.engine().lastWatermark() > superseded);
                assertTrue(freed(n0) > freedBefore, "freed once the held transaction ended");
                assertEquals(0, rctEntries(n0), "RCT entries below the watermark are pruned");
                assertEquals(1, vertexCounterLength(n0), "folded");
                Transaction count = n0.engine().begin(Isolation.SNAPSHOT);
                assertEquals(2, count.countVertices((int) ConflictKey.ANY_LABEL));
                count.rollback();
            });
        }
    }

    @Test
    void aLostMemberHoldsTheWatermarkAtItsLastValueForGood() throws Exception {
        try (TestCluster c = threeNodes(null)) {
            c.check(() -> {
                GtranNode n0 = c.node(0);
                GtranNode n1 = c.node(1);
                c.passAll();
                Transaction held = c.node(2).engine().begin(Isolation.SNAPSHOT);
                c.pass(2);
                c.pass(1);
                c.pass(0);
                long last = n0.engine().clusterWatermark().lastRead(2);
                assertTrue(last > 0 && last <= held.beginTime(), "node 2 published its running transaction: " + last);
                assertEquals(last, n0.engine().lastWatermark());

                c.node(2).close(); // its fabric closes: nodes 0 and 1 are told it is lost
                assertTrue(n0.engine().clusterWatermark().isLost(2) && n1.engine().clusterWatermark().isLost(2));
                int key = n0.store().propertyKeys().intern("p");
                long v = vertex(n0, key, 0);
                long freedBefore = freed(n0);
                for (int round = 1; round <= 3; round++) {
                    long superseded = update(n0, v, key, round);
                    vertex(n1, n1.store().propertyKeys().intern("q"), round);
                    c.pass(1);
                    c.pass(0);
                    assertTrue(n0.engine().localWatermark() > superseded && n1.engine().localWatermark() > superseded);
                    assertEquals(last, n0.engine().lastWatermark(), "round " + round);
                    assertEquals(last, n1.engine().lastWatermark(), "round " + round);
                }
                assertEquals(freedBefore, freed(n0), "nothing superseded after node 2's last value is freed");
            });
        }
    }

    @Test
    void aMemberThatCannotBeReadHoldsTheWatermarkUntilItCanAgain() throws Exception {
        try (FaultPlan plan = new FaultPlan(SEED); TestCluster c = threeNodes(plan)) {
            c.check(() -> {
                GtranNode n0 = c.node(0);
                c.passAll();
                long before = n0.engine().clusterWatermark().lastRead(2);
                plan.links(0, 2).failRegionAccess(); // node 0's reads of node 2 fail; no loss is reported
                vertex(c.node(2), c.node(2).store().propertyKeys().intern("p"), 1);
                c.pass(2);
                c.pass(1);
                c.pass(0);
                assertTrue(c.node(2).engine().clusterWatermark().published() > before, "node 2 moved on");
                assertEquals(before, n0.engine().clusterWatermark().lastRead(2), "but node 0 cannot see it");
                assertFalse(n0.engine().clusterWatermark().isLost(2));
                assertTrue(n0.engine().lastWatermark() <= before);

                plan.links(0, 2).restoreRegionAccess();
                c.pass(0);
                assertTrue(n0.engine().clusterWatermark().lastRead(2) > before, "read again");
                assertTrue(n0.engine().lastWatermark() > before);
            });
        }
    }

    @Test
    void nothingIsCollectedUntilEveryMemberHasPublishedAndBeenRead() throws Exception {
        try (TestCluster c = new TestCluster(SEED, "0,1,2", null, TxnConfig.GC, false)) {
            GtranNode n0 = c.join(0);
            c.join(1);
            c.check(() -> {
                int key = n0.store().propertyKeys().intern("p");
                long v = vertex(n0, key, 1);
                update(n0, v, key, 2);
                c.passAll();
                assertEquals(0, n0.engine().lastWatermark(), "node 2 has not started: it counts as 0");
                assertEquals(0, freed(n0));

                c.join(2);
                c.pass(0);
                assertEquals(0, n0.engine().lastWatermark(), "node 2 started, but has not published yet");
                assertEquals(0, freed(n0));

                c.pass(2);
                c.pass(1);
                c.pass(0);
                assertTrue(n0.engine().lastWatermark() > 0);
                assertTrue(freed(n0) > 0, "every member read: the superseded version goes");
            });
        }
    }
}
