package io.gtran.txn;

import static io.gtran.txn.TestCluster.ms;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.txn.agent.TimeSource;
import io.gtran.txn.clock.LocalClock;
import io.gtran.txn.clock.SyncedClock;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TxnWords;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The engine's clock in a cluster of three nodes in one JVM whose local clocks are offset by up to
 * 100 ms and drift by up to 500 ppm: begin and commit times taken one after another (each call
 * starting after the previous returned), on whichever node, increase, and name the node that
 * issued them. The same sequence of the nodes' own wall clocks does not increase: without the
 * synchronised clock the check would fail.
 */
class ClusterClockTest {
    private static final long SEED = Long.getLong("gtran.test.seed", 20261125L);

    @Test
    @Timeout(60)
    void beginAndCommitTimesFollowRealTimeAcrossSkewedNodes() throws Exception {
        Random random = new Random(SEED);
        TimeSource[] times = {
            TestCluster.skewed(ms(100), -500e-6),
            TestCluster.skewed(-ms(100), 500e-6),
            TestCluster.skewed(ms(random.nextInt(201) - 100), (random.nextInt(1001) - 500) * 1e-6),
        };
        try (TestCluster c = new TestCluster(SEED, "0,1,2", null)) {
            for (int n = 0; n < 3; n++) {
                c.join(n, times[n]);
            }
            c.check(() -> {
                for (int n = 0; n < 3; n++) {
                    assertSame(SyncedClock.class, c.node(n).engine().clock().getClass(), "node " + n + " of three");
                }
                List<String> violations = new ArrayList<>();
                long last = Long.MIN_VALUE;
                long lastWall = Long.MIN_VALUE;
                int wallViolations = 0;
                int commits = 0;
                for (int k = 0; k < 300; k++) {
                    int n = random.nextInt(3);
                    GtranNode node = c.node(n);
                    long wall = times[n].wallMicros(); // what the node would take without synchronisation
                    wallViolations += wall <= lastWall ? 1 : 0;
                    lastWall = Math.max(lastWall, wall);
                    Transaction t = node.engine().begin(k % 2 == 0 ? Isolation.SERIALIZABLE : Isolation.SNAPSHOT);
                    List<Long> taken = new ArrayList<>(List.of(t.beginTime()));
                    if (random.nextBoolean()) {
                        t.addVertex(node.store().labels().intern("v"));
                        t.commit();
                        taken.add(t.commitTime());
                        commits++;
                    } else {
                        t.rollback();
                    }
                    for (long ts : taken) {
                        assertEquals(n, SyncedClock.node(ts), "a timestamp names the node that issued it: " + ts);
                        if (ts <= last) {
                            violations.add("step " + k + ": node " + n + " gave " + ts + " after " + last);
                        }
                        last = Math.max(last, ts);
                    }
                }
                assertEquals(List.of(), violations, "timestamps out of real-time order");
                assertTrue(commits > 100, "commits=" + commits);
                assertTrue(wallViolations > 0, "the nodes' own clocks are skewed enough to break the order");
                assertTrue(TxnWords.isTimestamp(last) && last < TxnWords.INFINITY);
            });
        }
    }

    @Test
    @Timeout(60)
    void aNodeAloneKeepsItsLocalClock() throws Exception {
        try (TestCluster c = new TestCluster(SEED, "1", null)) {
            GtranNode node = c.join(1);
            c.check(() -> {
                assertSame(LocalClock.class, node.engine().clock().getClass());
                assertTrue(node.members().isSingle());
                long before = System.currentTimeMillis() * 1000;
                Transaction t = node.engine().begin(Isolation.SERIALIZABLE);
                long after = System.currentTimeMillis() * 1000;
                assertTrue(t.beginTime() >= before && t.beginTime() <= after + 1000,
                        "plain microseconds since the epoch: " + t.beginTime());
                t.rollback();
                node.fabric().openMailbox(io.gtran.txn.protocol.NodeMailbox.NAME).close(); // nothing receives: no clock sync, no parts
                assertFalse(node.engine().clusterWatermark().othersMin() < Long.MAX_VALUE, "no other member to read");
            });
        }
    }
}
