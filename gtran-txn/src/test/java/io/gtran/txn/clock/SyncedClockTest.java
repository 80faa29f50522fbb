package io.gtran.txn.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.txn.agent.TimeSource;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A clock master and two followers offset by +-100 ms and drifting by +-500 ppm, in simulated
 * time with random message delays (seeded; the seed is in every failure message): true time
 * (the master's) stays within each follower's [L, U]; timestamps taken one after another on any
 * nodes increase, across wall-clock jumps and a change of master; and without synchronisation the
 * same check fails (the negative control).
 */
class SyncedClockTest {
    private static final long MS = 1_000_000;
    private static final long LIMIT = 5_000 * MS;

    private static final class World {
        final long seed;
        final Random random;
        final SimulatedTime sim = new SimulatedTime(20_000);
        final SimulatedTime.Node[] times = {sim.node(0, 0), sim.node(100 * MS, 500e-6), sim.node(-100 * MS, -500e-6)};
        final SyncedClock[] clocks = new SyncedClock[3];
        int master = 0;

        World(long seed) {
            this(seed, true);
        }

        /** {@code uncertaintyWait} false: the followers' clocks hand out {@code U} without waiting for {@code L} to pass it. */
        World(long seed, boolean uncertaintyWait) {
            this.seed = seed;
            this.random = new Random(seed);
            for (int n = 0; n < 3; n++) {
                clocks[n] = uncertaintyWait || n == 0 ? new SyncedClock(n, times[n], SyncedClock.DEFAULT_DRIFT, LIMIT)
                        : SyncedClock.withoutUncertaintyWait(n, times[n], SyncedClock.DEFAULT_DRIFT, LIMIT);
            }
            clocks[0].becomeMaster();
            clocks[1].follow(0);
            clocks[2].follow(0);
        }

        /** One round trip from {@code n} to the master, delays 0-5 ms each way. */
        void sample(int n) {
            long send = times[n].at(sim.trueNanos());
            sim.advance(random.nextInt((int) (5 * MS)));
            long masterMicros = clocks[master].masterMicros();
            sim.advance(random.nextInt((int) (5 * MS)));
            clocks[n].addSample(send, times[n].at(sim.trueNanos()), masterMicros);
        }

        /** True time (the master's) is inside every follower's interval, read at one instant. */
        void checkIntervals(int round) {
            sim.freeze(true);
            try {
                long truth = clocks[master].masterMicros();
                for (int n = 0; n < 3; n++) {
                    Marzullo.Interval i = clocks[n].interval();
                    if (i != null) {
                        assertTrue(i.contains(truth), "seed=" + seed + " round=" + round + " node " + n + " interval [" + i.lo() + ", "
                                + i.hi() + "] misses true time " + truth);
                    }
                }
            } finally {
                sim.freeze(false);
            }
        }

        void run(int rounds, RealTimeOrder order, Runnable atHalf) {
            for (int round = 0; round < rounds; round++) {
                if (round == rounds / 2) {
                    atHalf.run();
                }
                sim.advance(random.nextInt((int) (2 * MS)));
                for (int n = 0; n < 3; n++) {
                    if (n != master && random.nextInt(10) == 0) {
                        sample(n);
                    }
                }
                checkIntervals(round);
                if (random.nextInt(50) == 0) {
                    for (int k = 0; k < 3; k++) {
                        int n = random.nextInt(3);
                        if (clocks[n].interval() != null) {
                            order.took(n, clocks[n].next());
                        }
                    }
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    @Timeout(120)
    void trueTimeStaysInsideEveryIntervalAndTimestampsFollowRealTime(long seed) {
        World world = new World(seed);
        RealTimeOrder order = new RealTimeOrder();
        world.run(10_000, order, () -> {
            for (SimulatedTime.Node time : world.times) {
                time.jumpWall(world.random.nextBoolean() ? 1_000_000 : -1_000_000); // an NTP step: not used after start
            }
        });
        assertEquals(List.of(), order.violations(), "seed=" + seed);
        assertEquals(0, world.clocks[1].resets() + world.clocks[2].resets(), "no sample contradicted the others: seed=" + seed);
    }

    @ParameterizedTest
    @ValueSource(longs = {4, 5})
    @Timeout(120)
    void aNewMasterContinuesTimeWithoutGoingBack(long seed) {
        World world = new World(seed);
        RealTimeOrder order = new RealTimeOrder();
        world.run(8_000, order, () -> {
            world.sim.freeze(true);
            long old = world.clocks[0].masterMicros();
            world.clocks[1].becomeMaster(); // node 0 is lost; the next smallest id takes over
            long taken = world.clocks[1].masterMicros();
            world.sim.freeze(false);
            assertTrue(taken >= old, "seed=" + seed + ": the new master starts at " + taken + ", below the old master's " + old);
            world.clocks[2].follow(1);
            world.clocks[0].follow(1);
            world.master = 1;
            assertNull(world.clocks[2].interval(), "samples of the old master are dropped");
        });
        assertEquals(List.of(), order.violations(), "seed=" + seed);
    }

    @Test
    @Timeout(60)
    void withoutSynchronisationSkewedClocksBreakRealTimeOrder() {
        SimulatedTime sim = new SimulatedTime(20_000);
        SyncedClock ahead = new SyncedClock(1, sim.node(100 * MS, 0), SyncedClock.DEFAULT_DRIFT, LIMIT);
        SyncedClock behind = new SyncedClock(2, sim.node(-100 * MS, 0), SyncedClock.DEFAULT_DRIFT, LIMIT);
        ahead.becomeMaster(); // each its own master: no synchronisation
        behind.becomeMaster();
        RealTimeOrder order = new RealTimeOrder();
        for (int k = 0; k < 10; k++) {
            order.took(1, ahead.next());
            order.took(2, behind.next());
        }
        assertFalse(order.violations().isEmpty(), "the check must catch a 200 ms skew");
    }

    /**
     * The same world with the followers' uncertainty wait off (gtran.clock.uncertainty-wait=false):
     * a follower's {@code U} is above the master's time, so a timestamp the master takes right
     * after can fall below it. Real-time order breaks: the wait is what keeps it.
     */
    @Test
    @Timeout(60)
    void withoutTheUncertaintyWaitTimestampsBreakRealTimeOrder() {
        World world = new World(1, false);
        RealTimeOrder order = new RealTimeOrder();
        world.run(10_000, order, () -> { });
        assertFalse(order.violations().isEmpty(), "seed=1: no timestamp out of real-time order without the wait");
    }

    /**
     * A member rejoins with a fence 500 ms above the cluster's timescale; master and follower each
     * lift to it when they re-admit it. The follower's samples predate the master's lift: a
     * timestamp from them (the fence plus one, once their bound passed it) would fall below the
     * ones the master gives after its lift, so it waits for a sample above the fence instead.
     */
    @Test
    void aFollowerLiftedToAFenceWaitsForItsMastersLiftedTime() {
        World world = new World(7);
        for (int k = 0; k < 5; k++) {
            world.sim.advance(MS);
            world.sample(1);
        }
        long fence = (world.clocks[0].masterMicros() + 500_000) << 10;
        world.clocks[0].atLeast(fence);
        world.clocks[1].atLeast(fence);
        world.sim.advance(3 * MS);
        long y = world.clocks[0].next();
        ClockUnavailableException e = assertThrows(ClockUnavailableException.class, () -> world.clocks[1].next(),
                "a timestamp from samples taken before the master's lift");
        assertTrue(e.getMessage().contains("no reading of clock master 0"), e.getMessage());
        world.sample(1);
        long x = world.clocks[1].next();
        assertTrue(x > y, "the follower gave " + x + " after the master gave " + y);
    }

    /**
     * The old master of a cut, ahead, follows the new one after the heal: its samples show the new
     * master's time before that master jumps above the fence it sent. A timestamp from them would
     * fall below one the master gives after its jump (ClockAfterHealTest saw that once).
     */
    @Test
    void aFollowerThatSentItsFenceWaitsForItsMastersJump() {
        World world = new World(11);
        world.clocks[1].becomeMaster(); // the old master of a cut, its oscillator 100 ms ahead
        long aheadTs = world.clocks[1].next();
        world.clocks[1].follow(0);
        for (int k = 0; k < 5; k++) {
            world.sim.advance(MS);
            world.sample(1); // the new master's time, before its jump
        }
        long fence = world.clocks[1].fenceSent();
        assertTrue(fence >= aheadTs);
        world.clocks[0].atLeast(fence); // the master re-admits node 1 and jumps above its fence
        long y = world.clocks[0].next();
        assertThrows(ClockUnavailableException.class, () -> world.clocks[1].next(),
                "a timestamp from samples taken before the master's jump");
        world.sample(1);
        long x = world.clocks[1].next();
        assertTrue(x > y, "the old master gave " + x + " after the new master gave " + y);
    }

    @Test
    void timestampsNameTheirNodeAndAreUnique() {
        SimulatedTime sim = new SimulatedTime(1);
        SyncedClock clock = new SyncedClock(7, sim.node(0, 0), SyncedClock.DEFAULT_DRIFT, LIMIT);
        clock.becomeMaster();
        long previous = 0;
        for (int k = 0; k < 1000; k++) {
            long ts = clock.next(); // several in one microsecond: each one above the last
            assertEquals(7, SyncedClock.node(ts));
            assertTrue(ts > previous);
            previous = ts;
        }
        assertEquals(previous, clock.current());
    }

    @Test
    @Timeout(30)
    void timestampsStayBelowBit62OfAVersionWord() {
        SimulatedTime.Node local = new SimulatedTime(0).node(0, 0);
        TimeSource nearTheEnd = new TimeSource() {
            @Override
            public long nanos() {
                return local.nanos();
            }

            @Override
            public long wallMicros() {
                return SyncedClock.MAX_MICROS - 1;
            }

            @Override
            public void pause(long nanos) {
                local.pause(nanos);
            }
        };
        SyncedClock clock = new SyncedClock(SyncedClock.MAX_NODE, nearTheEnd, SyncedClock.DEFAULT_DRIFT, LIMIT);
        clock.becomeMaster();
        for (int k = 0; k < 2; k++) {
            long ts = clock.next();
            assertTrue(io.gtran.txn.common.TxnWords.isTimestamp(ts) && ts < io.gtran.txn.common.TxnWords.INFINITY, Long.toHexString(ts));
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, clock::next);
        assertTrue(e.getMessage().contains("max=" + SyncedClock.MAX_MICROS), e.getMessage());
    }

    @Test
    @Timeout(30)
    void anInterruptedCallerStopsWaiting() {
        SyncedClock clock = new SyncedClock(3, new SimulatedTime(1).node(0, 0), SyncedClock.DEFAULT_DRIFT, LIMIT);
        clock.follow(0); // no sample will come
        Thread.currentThread().interrupt();
        try {
            ClockUnavailableException e = assertThrows(ClockUnavailableException.class, clock::next);
            assertTrue(e.getMessage().contains("interrupted"), e.getMessage());
            assertTrue(Thread.currentThread().isInterrupted(), "the interrupt status is kept");
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    @Timeout(30)
    void anUnsynchronisedClockFailsAfterItsWaitLimitNamingWhy() {
        SimulatedTime sim = new SimulatedTime(1_000_000);
        SyncedClock clock = new SyncedClock(3, sim.node(0, 0), SyncedClock.DEFAULT_DRIFT, 50 * MS);
        clock.follow(0);
        ClockUnavailableException e = assertThrows(ClockUnavailableException.class, clock::next);
        assertTrue(e.getMessage().contains("node 3") && e.getMessage().contains("clock master 0"), e.getMessage());
        assertThrows(IllegalStateException.class, clock::masterMicros);
        assertThrows(IllegalArgumentException.class, () -> new SyncedClock(SyncedClock.MAX_NODE + 1, sim.node(0, 0), 1e-3, 1));
        assertThrows(IllegalArgumentException.class, () -> new SyncedClock(0, sim.node(0, 0), -1, 1));
    }

    @Test
    void aSampleContradictingTheOthersReplacesThem() {
        SimulatedTime sim = new SimulatedTime(0);
        SimulatedTime.Node time = sim.node(0, 0);
        SyncedClock clock = new SyncedClock(1, time, SyncedClock.DEFAULT_DRIFT, LIMIT);
        clock.follow(0);
        clock.addSample(0, 1 * MS, 5_000);
        sim.advance(10 * MS);
        clock.addSample(10 * MS, 11 * MS, 15_000);
        assertEquals(0, clock.resets());
        sim.advance(10 * MS);
        clock.addSample(20 * MS, 21 * MS, 900_000); // the master stepped 875 ms ahead
        assertEquals(1, clock.resets());
        sim.advance(1 * MS); // to the reply's arrival
        Marzullo.Interval i = clock.interval();
        assertTrue(i.lo() >= 900_000 && i.contains(900_500), "follows the new reading: " + i);
    }
}
