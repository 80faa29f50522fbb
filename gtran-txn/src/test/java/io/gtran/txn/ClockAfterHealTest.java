package io.gtran.txn;

import static io.gtran.txn.TestCluster.await;
import static io.gtran.txn.TestCluster.ms;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gtran.check.fabric.FaultPlan;
import io.gtran.txn.agent.TimeSource;
import io.gtran.txn.clock.ClockUnavailableException;
import io.gtran.txn.common.Isolation;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The clock across a partition that cuts the clock master off with a minority, then heals
 * (docs/cluster-transactions.md, "Time"). Three nodes in one JVM, node 0 (the first master) cut
 * from nodes 1 and 2: node 1 takes over on its side, node 0 goes on as master of its own. While
 * cut off, the two timescales drift apart: one master's oscillator runs ahead by 5 ms every 20 ms
 * (the divergence a partition of minutes gives at the drift bound, in two seconds). After the
 * heal, once every member has re-admitted the others, begin times taken one after another on any
 * node increase, and exceed every timestamp either side took while cut off.
 *
 * <p>Without the old master following the new one (it takes the role back), node 0's timescale,
 * behind, gives begin times below those node 1 gave while cut off; without the lift above each
 * other's fence, node 1's timescale stays below what node 0 gave while cut off, ahead.
 */
@Timeout(120)
class ClockAfterHealTest {
    private static final long SEED = 20261129L;
    private static final int LEASE_MS = 200;
    /** Long enough for both timescales to drift a millisecond apart. */
    private static final long CUT_MS = 2_000;

    @ParameterizedTest(name = "node {0} runs ahead while cut off")
    @ValueSource(ints = {1, 0})
    void afterAHealEveryTimestampFollowsTheOnesTakenBefore(int ahead) throws Exception {
        Jumping[] times = {
            new Jumping(TestCluster.skewed(0, 200e-6)),
            new Jumping(TestCluster.skewed(ms(1), -200e-6)),
            new Jumping(TestCluster.skewed(-ms(1), 0)),
        };
        try (FaultPlan plan = new FaultPlan(SEED);
                TestCluster c = new TestCluster(SEED, "0,1,2", plan, TxnConfig.LEASE_MS, LEASE_MS)) {
            for (int n = 0; n < 3; n++) {
                c.join(n, times[n]);
            }
            c.check(() -> {
                awaitAllInContact(c);
                plan.partition(Set.of(0), Set.of(1, 2));
                await(() -> c.node(1).clockState().master() == 1 && c.node(2).clockState().master() == 1, 10_000,
                        "node 1 takes over as master of its side");
                long before = Long.MIN_VALUE; // the largest timestamp either side took while cut off
                long cutEnds = System.nanoTime() + ms(CUT_MS);
                while (System.nanoTime() < cutEnds) {
                    for (int n = 0; n < 3; n++) {
                        before = Math.max(before, begin(c.node(n)));
                    }
                    times[ahead].jump += ms(5);
                    Thread.sleep(20);
                }
                plan.heal();
                awaitAllInContact(c);
                await(() -> c.node(0).clockState().master() == c.node(1).clockState().master()
                        && c.node(2).clockState().master() == c.node(1).clockState().master(), 10_000, "one master again");
                List<String> violations = new ArrayList<>();
                long last = before;
                for (int k = 0; k < 300; k++) {
                    // The master that was behind goes first: waiting out nothing, it shows a missing protection at once.
                    int n = (k + 1 - ahead) % 3;
                    long ts = begin(c.node(n));
                    if (ts <= last) {
                        violations.add("step " + k + ": node " + n + " gave " + ts + " after " + last
                                + (last == before ? " (taken while cut off)" : ""));
                    }
                    last = Math.max(last, ts);
                }
                assertEquals(List.of(), violations, "timestamps out of real-time order after the heal");
                assertEquals(1, c.node(0).clockState().master(), "the old master follows the new one");
            });
        }
    }

    /** A node's time, which the test moves forward in steps. */
    private static final class Jumping implements TimeSource {
        private final TimeSource base;
        volatile long jump;

        Jumping(TimeSource base) {
            this.base = base;
        }

        @Override
        public long nanos() {
            return base.nanos() + jump;
        }

        @Override
        public long wallMicros() {
            return base.wallMicros() + jump / 1000;
        }

        @Override
        public void pause(long nanos) {
            base.pause(nanos);
        }
    }

    /** A begin time on {@code node}; a side whose clock cannot give one (none here) fails the test. */
    private static long begin(GtranNode node) {
        try {
            Transaction t = node.engine().begin(Isolation.SNAPSHOT);
            t.rollback();
            return t.beginTime();
        } catch (ClockUnavailableException e) {
            throw new AssertionError("node " + node.id() + " has no clock: " + e.getMessage(), e);
        }
    }

    private static void awaitAllInContact(TestCluster c) throws InterruptedException {
        await(() -> {
            for (int n = 0; n < 3; n++) {
                if (c.node(n).engine().membersInContact().size() != 2) {
                    return false;
                }
            }
            return true;
        }, 20_000, "every member in contact with every other");
    }
}
