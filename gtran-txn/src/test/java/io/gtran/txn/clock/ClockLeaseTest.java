package io.gtran.txn.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The clock master's lease (docs/cluster-transactions.md, "Time"): where the membership group names
 * the master, a clock hands out a timestamp only while the master's time is surely below the lease
 * the log granted, and a new master starts above the old lease once the old timescale has surely
 * passed it. Issue 35's scenario 4 (the old master cut off with a minority, its oscillator fast)
 * keeps real-time order with the lease and breaks it without.
 */
class ClockLeaseTest {
    private static final long MS = 1_000_000;
    private static final long LIMIT = 500 * MS;
    private static final double E = SyncedClock.DEFAULT_DRIFT;

    @Test
    void aMasterWithoutALeaseHandsOutNothingAndStopsWhereItsLeaseEnds() {
        SimulatedTime sim = new SimulatedTime(20_000);
        SyncedClock master = new SyncedClock(0, sim.node(0, 0), E, LIMIT);
        master.handOver(0, Long.MIN_VALUE);
        ClockUnavailableException none = assertThrows(ClockUnavailableException.class, master::next);
        assertTrue(none.getMessage().contains("lease end=none"), none.getMessage());
        long end = master.masterMicros() + 100_000;
        master.leaseUntil(end);
        long last = 0;
        try {
            while (true) {
                last = master.next();
            }
        } catch (ClockUnavailableException expired) {
            assertTrue(expired.getMessage().contains("no lease of clock master 0"), expired.getMessage());
        }
        assertTrue(last > 0, "timestamps within the lease");
        assertTrue(SyncedClock.micros(last) < end, "a timestamp at or above the lease end: " + SyncedClock.micros(last));
    }

    @Test
    void aFollowerStopsOnceTheMastersTimeMayHaveReachedTheLease() {
        SimulatedTime sim = new SimulatedTime(20_000);
        SyncedClock master = new SyncedClock(0, sim.node(0, 0), E, LIMIT);
        SimulatedTime.Node followerTime = sim.node(50 * MS, 0);
        SyncedClock follower = new SyncedClock(1, followerTime, E, LIMIT);
        master.handOver(0, Long.MIN_VALUE);
        follower.handOver(0, Long.MIN_VALUE);
        sample(sim, followerTime, follower, master, 1 * MS);
        assertThrows(ClockUnavailableException.class, follower::next, "samples but no lease");
        long end = master.masterMicros() + 200_000;
        master.leaseUntil(end);
        follower.leaseUntil(end);
        long last = 0;
        try {
            while (true) {
                last = follower.next();
                sim.advance(10 * MS);
            }
        } catch (ClockUnavailableException expired) {
            assertTrue(expired.getMessage().contains("lease end=" + end), expired.getMessage());
        }
        assertTrue(SyncedClock.micros(last) < end && last > 0, "last timestamp " + SyncedClock.micros(last) + ", lease end " + end);
        assertTrue(master.masterMicros() >= end - 20_000, "the follower stopped only near the lease end");
    }

    @Test
    void aNewMasterStartsAboveTheHandover() {
        SimulatedTime sim = new SimulatedTime(20_000);
        SyncedClock clock = new SyncedClock(1, sim.node(-300 * MS, 0), E, LIMIT);
        long handover = SimulatedTime.EPOCH_MICROS + 1_000_000;
        clock.handOver(1, handover);
        assertTrue(clock.masterMicros() > handover, clock.masterMicros() + " <= " + handover);
    }

    @Test
    @Timeout(60)
    void anOldMasterCutOffStopsAtItsLeaseAndTheNewOneStartsAboveItInRealTimeOrder() {
        for (long seed = 1; seed <= 5; seed++) {
            CutOffMaster world = new CutOffMaster(seed, Rule.LEASE);
            assertEquals(List.of(), world.run(), "seed=" + seed);
            assertTrue(world.oldMasterAfterCut > 0 && world.newSideAfterChange > 0, "seed=" + seed + ": both sides issued: "
                    + world.oldMasterAfterCut + ", " + world.newSideAfterChange);
        }
    }

    @Test
    @Timeout(60)
    void withoutTheLeaseTheOldMastersFastClockBreaksRealTimeOrder() {
        assertFalse(new CutOffMaster(1, Rule.NONE).run().isEmpty(), "seed=1: the check must see the two masters overlap");
    }

    @Test
    @Timeout(60)
    void aNewMasterThatLeasesBeforeTheOldLeaseSurelyEndedBreaksRealTimeOrder() {
        assertFalse(new CutOffMaster(1, Rule.LEASE_AT_ONCE).run().isEmpty(),
                "seed=1: the old master's last timestamps fall below the new side's earlier ones");
    }

    private enum Rule {
        /** As {@code LeasedClockMaster}: leases, and the new master's first one after the handover wait. */
        LEASE,
        /** Leases, but the new master leases as soon as it takes over. */
        LEASE_AT_ONCE,
        /** The rule before the group: no lease, the new master takes over at once and the old goes on. */
        NONE
    }

    /**
     * Nodes 0 (master, oscillator 450 ppm fast), 1 (450 ppm slow) and 2 (no two further apart
     * than the drift bound e, 1000 ppm); a 2 s lease renewed every 500 ms. At 1 s node 0 is cut
     * off with a minority: it renews nothing and nobody samples it. At 1.7 s nodes 1 and 2 apply
     * its loss: node 1 is master. With the lease (as {@code
     * LeasedClockMaster} does it) every clock is handed over at once and node 1 leases only after
     * {@code lease (1 + e) / (1 - e)}; without it (the rule before the group) node 1 takes over at
     * once and node 0 goes on. A client takes timestamps one after another on nodes 0, 1 and 2 in turn for
     * 12 s of true time.
     */
    private static final class CutOffMaster {
        private static final long LEASE_MICROS = 2_000_000;
        final long seed;
        final boolean leased;
        final Rule rule;
        int oldMasterAfterCut;
        int newSideAfterChange;
        final Random random;
        final SimulatedTime sim = new SimulatedTime(20_000);
        final SimulatedTime.Node[] times = {sim.node(0, 450e-6), sim.node(70 * MS, -450e-6), sim.node(-40 * MS, 150e-6)};
        final SyncedClock[] clocks = new SyncedClock[3];
        int master = 0;
        boolean cut;
        long firstLeaseAt = Long.MAX_VALUE; // node 1's local time

        CutOffMaster(long seed, Rule rule) {
            this.seed = seed;
            this.rule = rule;
            this.leased = rule != Rule.NONE;
            this.random = new Random(seed);
            for (int n = 0; n < 3; n++) {
                clocks[n] = new SyncedClock(n, times[n], E, LIMIT);
                if (leased) {
                    clocks[n].handOver(0, Long.MIN_VALUE);
                } else {
                    clocks[n].follow(0);
                }
            }
        }

        List<String> run() {
            RealTimeOrder order = new RealTimeOrder();
            long nextRenewal = 0;
            boolean changed = false;
            long steps = 0;
            while (sim.trueNanos() < 12_000 * MS) {
                sim.advance(random.nextInt((int) (3 * MS)));
                long now = sim.trueNanos();
                if (!cut && now >= 1_000 * MS) {
                    cut = true;
                }
                if (!changed && now >= 1_700 * MS) {
                    changed = true;
                    changeMaster();
                }
                if (leased && now >= nextRenewal) {
                    renew();
                    nextRenewal = now + 500 * MS;
                }
                for (int n = 0; n < 3; n++) {
                    if (n != master && reachable(n) && random.nextInt(4) == 0) {
                        sample(sim, times[n], clocks[n], clocks[master], random.nextInt((int) (2 * MS)));
                    }
                }
                int n = (int) (steps++ % 3); // each node in turn
                try {
                    order.took(n, clocks[n].next());
                    oldMasterAfterCut += cut && n == 0 ? 1 : 0;
                    newSideAfterChange += changed && n != 0 ? 1 : 0;
                } catch (ClockUnavailableException stopped) {
                    // no lease, or the master out of reach: this begin fails, as a client would see it
                }
            }
            return order.violations();
        }

        /** Whether node {@code n} and the master it follows are on the same side of the cut. */
        private boolean reachable(int n) {
            return !cut || (n != 0 && master != 0);
        }

        private void changeMaster() {
            long handover = leased ? lastLease : Long.MIN_VALUE;
            master = 1;
            for (int n = 1; n < 3; n++) {
                if (leased) {
                    clocks[n].handOver(1, handover);
                } else {
                    clocks[n].follow(1);
                }
            }
            long wait = rule == Rule.LEASE ? (long) Math.ceil(LEASE_MICROS * 1000 * (1 + E) / (1 - E)) : 0;
            firstLeaseAt = times[1].at(sim.trueNanos()) + wait;
        }

        private long lastLease = Long.MIN_VALUE;

        /** The master proposes a lease; it is applied on the members on its side of the cut. */
        private void renew() {
            if (master == 0 && cut) {
                return; // cut off from the group's majority: its proposal never commits
            }
            if (master == 1 && times[1].at(sim.trueNanos()) < firstLeaseAt) {
                return; // the old timescale may not have passed the handover yet
            }
            long until = clocks[master].masterMicros() + LEASE_MICROS;
            lastLease = until;
            for (int n = 0; n < 3; n++) {
                if (n == master || reachable(n)) {
                    clocks[n].leaseUntil(until);
                }
            }
        }
    }

    /** One round trip from {@code follower} to {@code master}, {@code delay} each way. */
    private static void sample(SimulatedTime sim, SimulatedTime.Node time, SyncedClock follower, SyncedClock master, long delay) {
        long send = time.at(sim.trueNanos());
        sim.advance(delay);
        long reading = master.masterMicros();
        sim.advance(delay);
        follower.addSample(send, time.at(sim.trueNanos()), reading);
    }
}
