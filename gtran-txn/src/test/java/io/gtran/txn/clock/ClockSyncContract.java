package io.gtran.txn.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.check.fabric.FaultPlan;
import io.gtran.rdma.Fabric;
import io.gtran.txn.agent.TimeSource;
import io.gtran.txn.protocol.TestMailboxes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Written once, run over each transport (in-JVM, Netty on loopback): three nodes, their clocks offset by up to 100 ms and drifting by 500 ppm, kept in
 * step by {@link ClockSync} over the in-JVM fabric: timestamps taken one after another on any
 * nodes increase, also after the clock master is lost and the next node takes over.
 */
abstract class ClockSyncContract {
    /** Nodes 0..n-1 of a fresh cluster of this transport; each is closed by the test. */
    protected abstract Fabric[] startNodes(int n) throws Exception;

    private static final long MS = 1_000_000;

    /** The JVM's clock seen through an offset and a drift. */
    private static TimeSource skewed(long offsetNanos, double drift) {
        long start = System.nanoTime();
        return new TimeSource() {
            @Override
            public long nanos() {
                return start + offsetNanos + (long) ((System.nanoTime() - start) * (1 + drift));
            }

            @Override
            public long wallMicros() {
                return System.currentTimeMillis() * 1000 + offsetNanos / 1000;
            }

            @Override
            public void pause(long nanos) {
                TimeSource.SYSTEM.pause(nanos);
            }
        };
    }

    /** Node {@code n}'s clock (of three): offset by up to 100 ms, drifting by up to 500 ppm. */
    private static TimeSource nodeTime(int n) {
        long[] offsets = {0, 100 * MS, -100 * MS};
        double[] drifts = {500e-6, -500e-6, 300e-6};
        return skewed(offsets[n], drifts[n]);
    }

    /** Stands in for the node's member view, which tells a clock sync of each loss the fabric reports. */
    private static ClockSync toldOfLosses(Fabric fabric, ClockSync sync) {
        fabric.onPeerLost((node, reason) -> sync.lost(node));
        return sync;
    }

    @Test
    @Timeout(60)
    void timestampsFollowRealTimeAcrossNodesAndAChangeOfMaster() throws Exception {
        long seed = 20261125L;
        Random random = new Random(seed);
        Fabric[] started = startNodes(3);
        try {
            List<Fabric> fabrics = new ArrayList<>();
            List<SyncedClock> clocks = new ArrayList<>();
            List<ClockSync> syncs = new ArrayList<>();
            try {
                for (int n = 0; n < 3; n++) {
                    TimeSource time = nodeTime(n);
                    Fabric fabric = started[n];
                    SyncedClock clock = new SyncedClock(n, time, SyncedClock.DEFAULT_DRIFT, 5_000 * MS);
                    fabrics.add(fabric);
                    clocks.add(clock);
                    syncs.add(toldOfLosses(fabric, new ClockSync(TestMailboxes.started(fabric, time), clock, time, Set.of(0, 1, 2), 5)));
                }
                assertTrue(clocks.get(0).isMaster(), "the smallest id is the first master");
                RealTimeOrder order = new RealTimeOrder();
                for (int k = 0; k < 300; k++) {
                    int n = random.nextInt(3);
                    order.took(n, clocks.get(n).next()); // waits for the first sample where needed
                }
                assertEquals(List.of(), order.violations(), "seed=" + seed);

                long before = clocks.get(1).next();
                syncs.get(0).close();
                fabrics.get(0).close(); // node 0 is lost: node 1 takes over
                long deadline = System.nanoTime() + 10_000 * MS;
                while (!clocks.get(1).isMaster() || clocks.get(2).masterNode() != 1) {
                    assertTrue(System.nanoTime() < deadline, "node 1 did not take over: " + clocks);
                    Thread.sleep(1);
                }
                order.took(1, before);
                for (int k = 0; k < 300; k++) {
                    int n = 1 + random.nextInt(2);
                    order.took(n, clocks.get(n).next());
                }
                assertEquals(List.of(), order.violations(), "seed=" + seed + " after the change of master");
            } finally {
                syncs.forEach(ClockSync::close);
            }
        } finally {
            for (Fabric fabric : started) {
                fabric.close();
            }
        }
    }

    /**
     * Issue 35, scenario 5: the one link between node 2 and the clock master, node 0, is cut where
     * the group's log names the master ({@link ClockSync#install}). Node 2 follows node 0 through
     * node 1: its uncertainty stays a few round trips wide, where without the relay it grows by
     * twice the drift bound (2 ms a second) for as long as the cut lasts; timestamps taken one
     * after another on random nodes keep real-time order.
     */
    @Test
    @Timeout(60)
    void aNodeCutOffFromTheMasterOnlyFollowsItThroughAnotherMember() throws Exception {
        long seed = 20261129L;
        Random random = new Random(seed);
        Fabric[] started = startNodes(3);
        List<ClockSync> syncs = new ArrayList<>();
        try (FaultPlan plan = new FaultPlan(seed)) {
            SyncedClock[] clocks = new SyncedClock[3];
            for (int n = 0; n < 3; n++) {
                TimeSource time = nodeTime(n);
                clocks[n] = new SyncedClock(n, time, SyncedClock.DEFAULT_DRIFT, 5_000 * MS);
                clocks[n].handOver(0, Long.MIN_VALUE); // as the log names it: node 0 in epoch 0
                Fabric wrapped = plan.wrap(started[n]);
                ClockSync sync = new ClockSync(TestMailboxes.started(wrapped, time), clocks[n], time, Set.of(0, 1, 2), 5);
                sync.install(0, 0);
                syncs.add(sync);
            }
            long leaseEnd = clocks[0].masterMicros() + 3_600_000_000L;
            for (SyncedClock clock : clocks) {
                clock.leaseUntil(leaseEnd);
            }
            RealTimeOrder order = new RealTimeOrder();
            for (int k = 0; k < 30; k++) {
                order.took(k % 3, clocks[k % 3].next()); // waits for the first sample where needed
            }
            plan.partition(Set.of(0), Set.of(2));
            long cutUntil = System.nanoTime() + 2_500 * MS;
            int onNode2 = 0;
            while (System.nanoTime() - cutUntil < 0) {
                int n = random.nextInt(3);
                order.took(n, clocks[n].next());
                onNode2 += n == 2 ? 1 : 0;
            }
            Marzullo.Interval known = clocks[2].interval();
            long uncertainty = known.hi() - known.lo();
            assertEquals(List.of(), order.violations(), "seed=" + seed);
            assertTrue(onNode2 > 0, "node 2 took no timestamp while cut off from the master");
            assertTrue(uncertainty < 2_000, "node 2's uncertainty after 2.5 s cut off from the master: " + uncertainty
                    + " us (it follows it through node 1; without that, at least 5,000)");
        } finally {
            syncs.forEach(ClockSync::close);
            for (Fabric fabric : started) {
                fabric.close();
            }
        }
    }

    /**
     * Round trips longer than the sync interval: every message between the two nodes takes 20 ms
     * each way, and the follower asks every 5 ms. Each reply is matched with its own request's send
     * time, so the follower still synchronises (matched only with the last request sent, no reply
     * ever was, and the follower's clock gave no timestamp).
     */
    @Test
    @Timeout(60)
    void roundTripsLongerThanTheSyncIntervalStillSynchronise() throws Exception {
        Fabric[] started = startNodes(2);
        List<ClockSync> syncs = new ArrayList<>();
        try (FaultPlan plan = new FaultPlan(1)) {
            plan.links(Set.of(0, 1), Set.of(0, 1)).delay(Duration.ofMillis(20));
            SyncedClock[] clocks = new SyncedClock[2];
            for (int n = 0; n < 2; n++) {
                clocks[n] = new SyncedClock(n, TimeSource.SYSTEM, SyncedClock.DEFAULT_DRIFT, 10_000 * MS);
                Fabric wrapped = plan.wrap(started[n]);
                syncs.add(toldOfLosses(wrapped, new ClockSync(TestMailboxes.started(wrapped), clocks[n], TimeSource.SYSTEM, Set.of(0, 1), 5)));
            }
            long first = clocks[0].next();
            long second = clocks[1].next(); // ClockUnavailableException after 10 s without a sample
            assertTrue(second > first, "timestamps in real-time order: " + first + " then " + second);
            RealTimeOrder order = new RealTimeOrder();
            for (int k = 0; k < 50; k++) {
                int n = k % 2;
                order.took(n, clocks[n].next());
            }
            assertEquals(List.of(), order.violations());
        } finally {
            syncs.forEach(ClockSync::close);
            for (Fabric fabric : started) {
                fabric.close();
            }
        }
    }
}
