package io.gtran.txn.clock;

import io.gtran.txn.agent.TimeSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One node's clock in a cluster, synchronised with a clock master the FaRMv2 way (see
 * docs/cluster-transactions.md, "Time"). The cluster's timescale is the master's clock, in
 * microseconds. Each other node keeps samples of round trips to the master ({@link #addSample}):
 * a master reading {@code M} taken between local times {@code send} and {@code recv} bounds the
 * master's time at a later local time {@code t} to
 * {@code [M + (t - recv)(1 - e), M + (t - send)(1 + e)]}, for the drift bound {@code e} (a round
 * trip to a member relaying the master gives an interval for {@code M}: {@link #addRelayedSample});
 * {@link Marzullo} combines the samples into {@link #interval()} {@code [L, U]}.
 *
 * <p>{@link #next()} is FaRMv2's {@code get_ts}: {@code ts = max(U, last + 1)}, then wait until
 * {@code L > ts}. So a timestamp returned before another {@code next()} starts (on any node) is the
 * smaller one: commit order agrees with real-time order. A timestamp is {@code ts << 10 | node},
 * unique across the cluster.
 */
public class SyncedClock implements Clock {
    public static final int NODE_BITS = 10;
    public static final int MAX_NODE = (1 << NODE_BITS) - 1;
    /** Default bound on a local oscillator's drift: 1000 parts per million. */
    public static final double DEFAULT_DRIFT = 1e-3;
    /**
     * The largest microseconds a timestamp carries: {@code MAX_MICROS << 10 | MAX_NODE} stays below
     * {@link io.gtran.txn.common.TxnWords#INFINITY}, so a timestamp is never taken for a transaction id
     * (bit 62) or for "not yet superseded". About the year 2112 on the epoch's timescale.
     */
    public static final long MAX_MICROS = (io.gtran.txn.common.TxnWords.TXN_FLAG >>> NODE_BITS) - 2;
    /** Samples kept; older ones only widen the interval. */
    static final int MAX_SAMPLES = 8;

    private final int node;
    private final TimeSource time;
    private final double drift;
    private final long waitLimitNanos;

    /** The master's time was in {@code [masterLo, masterHi]} between local times {@code sendNanos} and {@code recvNanos}. */
    private record Sample(long sendNanos, long recvNanos, long masterLo, long masterHi) {
    }

    // All guarded by this.
    private final ArrayDeque<Sample> samples = new ArrayDeque<>();
    private boolean master;
    private int masterNode = -1;
    private long baseMicros;
    private long baseNanos;
    private long lastMicros;
    /** How many timestamps {@link #reserve} took; guarded by this. */
    private long reserved;
    /** Callers inside {@link #next()}, waiting for a reading or for their uncertainty to pass. */
    private final AtomicInteger waiters = new AtomicInteger();
    private long resets;
    /**
     * A fence this follower was lifted to that its master's time was not surely above: samples
     * at or below it were taken before the master's own lift and are ignored; MIN_VALUE if none.
     */
    private long liftMicros = Long.MIN_VALUE;
    /** An upper bound on the old master's time, kept when its samples are dropped; MIN_VALUE if none. */
    private long floorMicros = Long.MIN_VALUE;
    private long floorNanos;
    /**
     * The lease on the timescale followed: a timestamp is handed out only while the master's time is
     * surely below it ({@link #handOver}, {@link #leaseUntil}). MAX_VALUE where no lease is kept
     * (clusters whose master is chosen without the membership group).
     */
    private long leaseEnd = Long.MAX_VALUE;
    /** Counts changes of the timescale followed: a timestamp is handed out on the one it was taken on. */
    private long timescale;

    /**
     * A clock that is not yet synchronised: {@link #next()} waits until it is master or has a sample.
     *
     * @param waitLimitNanos how long {@link #next()} waits for synchronisation or uncertainty before it fails
     */
    public SyncedClock(int node, TimeSource time, double drift, long waitLimitNanos) {
        if (node < 0 || node > MAX_NODE) {
            throw new IllegalArgumentException("node out of range: node=" + node + " max=" + MAX_NODE);
        }
        if (!(drift >= 0 && drift < 0.1)) {
            throw new IllegalArgumentException("drift bound must be in [0, 0.1): drift=" + drift);
        }
        this.node = node;
        this.time = time;
        this.drift = drift;
        this.waitLimitNanos = waitLimitNanos;
    }

    public int node() {
        return node;
    }

    /**
     * Makes this node the clock master. Its timescale continues from above anything it knew or
     * handed out (its {@code U}, its last timestamp), so time never goes backwards across a change
     * of master; a first master with no samples starts from its wall clock.
     */
    public synchronized void becomeMaster() {
        long now = time.nanos();
        long start;
        if (master) {
            start = masterMicros(now);
        } else {
            keepFloor(now);
            start = floorMicros != Long.MIN_VALUE ? floorNow(now) : time.wallMicros();
        }
        baseMicros = Math.max(start, lastMicros + 1);
        baseNanos = now;
        if (!master) {
            timescale++;
        }
        master = true;
        masterNode = node;
        samples.clear();
        liftMicros = Long.MIN_VALUE;
    }

    /** Follows {@code masterNode}'s timescale: samples of any earlier master are dropped. */
    public synchronized void follow(int masterNode) {
        if (masterNode == node) {
            becomeMaster();
            return;
        }
        long now = time.nanos();
        if (master || this.masterNode != masterNode) {
            timescale++;
        }
        if (master) {
            floorMicros = masterMicros(now);
            floorNanos = now;
            samples.clear();
        } else if (this.masterNode != masterNode) {
            keepFloor(now);
            samples.clear();
            liftMicros = Long.MIN_VALUE; // a lift awaited from the old master says nothing of the new one
        }
        master = false;
        this.masterNode = masterNode;
    }

    /**
     * Follows {@code masterNode}, which the membership group's log made master over earlier masters
     * whose leases ended at {@code handoverMicros} (MIN_VALUE: none) on their timescales; no
     * timestamp is handed out until {@link #leaseUntil} grants the new master's lease. On the new
     * master itself, its timescale starts above the handover (and above what {@link #becomeMaster}
     * starts from). See docs/cluster-transactions.md, "Time".
     */
    public synchronized void handOver(int masterNode, long handoverMicros) {
        if (masterNode == node && handoverMicros != Long.MIN_VALUE) {
            lastMicros = Math.max(lastMicros, handoverMicros);
        }
        follow(masterNode);
        leaseEnd = Long.MIN_VALUE;
    }

    /** The master followed may issue timestamps while its time is below {@code untilMicros}. */
    public synchronized void leaseUntil(long untilMicros) {
        leaseEnd = Math.max(leaseEnd, untilMicros);
    }

    /** The lease end on the timescale followed, in microseconds; MIN_VALUE: none yet; MAX_VALUE: no lease kept. */
    public synchronized long leaseEnd() {
        return leaseEnd;
    }

    /**
     * Keeps every later timestamp of this clock above {@code timestamp}, one another member issued
     * or may have issued (its fence at a rejoin, see {@link ClockSync#readmitted}). The master moves
     * its timescale forward, so its followers' samples carry the lift. A follower raises the last
     * timestamp it handed out; unless its samples put the master's time surely above the fence,
     * they may predate the master's lift, after which the master's time is above what they bound:
     * they are dropped, and {@link #next()} waits for a sample above the fence, so a timestamp
     * here still exceeds every one the master gave after its lift.
     */
    public synchronized void atLeast(long timestamp) {
        long micros = micros(timestamp);
        long now = time.nanos();
        if (master) {
            if (masterMicros(now) <= micros) {
                baseMicros = micros + 1;
                baseNanos = now;
            }
            return;
        }
        lastMicros = Math.max(lastMicros, micros);
        Marzullo.Interval held = followerInterval(now);
        if (held == null || held.lo() <= micros) {
            samples.clear();
            liftMicros = Math.max(liftMicros, micros);
        }
    }

    /** The old master's time now at the most, from the floor kept when its samples were dropped. */
    private long floorNow(long nanos) {
        return floorMicros + microsUp((nanos - floorNanos) * (1 + drift));
    }

    /** Remembers the samples' upper bound before they are dropped. */
    private void keepFloor(long now) {
        Marzullo.Interval known = followerInterval(now);
        if (known != null) {
            floorMicros = known.hi();
            floorNanos = now;
        }
    }

    public synchronized boolean isMaster() {
        return master;
    }

    /** The node whose timescale this clock follows, or -1 before the first {@link #follow}. */
    public synchronized int masterNode() {
        return masterNode;
    }

    /** The master's time now, in microseconds: only on the master. */
    public synchronized long masterMicros() {
        if (!master) {
            throw new IllegalStateException("not the clock master: node=" + node + " master=" + masterNode);
        }
        return masterMicros(time.nanos());
    }

    private long masterMicros(long nanos) {
        return baseMicros + (nanos - baseNanos) / 1000;
    }

    /**
     * Adds a round trip to the master: a reading {@code masterMicros} taken between local times
     * {@code sendNanos} and {@code recvNanos}. A sample that contradicts what the clock holds means
     * the local clock or the master's stepped: the older samples are dropped (counted in {@link #resets}).
     */
    public synchronized void addSample(long sendNanos, long recvNanos, long masterMicros) {
        add(sendNanos, recvNanos, masterMicros, masterMicros);
    }

    /**
     * Adds a round trip to another member that follows {@code relayedMaster} on the timescale
     * this clock follows: its interval {@code [loMicros, hiMicros]} of the master's time, taken
     * between local times {@code sendNanos} and {@code recvNanos}. It bounds the master's time as
     * a reading of the master itself does, only wider (docs/cluster-transactions.md, "Time").
     * Ignored if this clock is master or follows another master.
     */
    public synchronized void addRelayedSample(int relayedMaster, long sendNanos, long recvNanos, long loMicros, long hiMicros) {
        if (loMicros > hiMicros) {
            throw new IllegalArgumentException("relayed interval is empty: [" + loMicros + ", " + hiMicros + "]");
        }
        if (relayedMaster == masterNode) {
            add(sendNanos, recvNanos, loMicros, hiMicros);
        }
    }

    private void add(long sendNanos, long recvNanos, long lo, long hi) {
        if (master) {
            return; // a late reply from before this node became master
        }
        if (recvNanos < sendNanos) {
            throw new IllegalArgumentException("sample received before it was sent: send=" + sendNanos + " recv=" + recvNanos);
        }
        if (lo <= liftMicros) {
            return; // perhaps read before the master lifted its time above a fence this node was lifted to
        }
        liftMicros = Long.MIN_VALUE;
        if (!samples.isEmpty()) {
            Marzullo.Interval held = followerInterval(recvNanos);
            long latest = hi + microsUp((recvNanos - sendNanos) * (1 + drift));
            if (held == null || held.hi() < lo || held.lo() > latest) {
                samples.clear();
                resets++;
            }
        }
        samples.addLast(new Sample(sendNanos, recvNanos, lo, hi));
        if (samples.size() > MAX_SAMPLES) {
            samples.removeFirst();
        }
    }

    /** How many times samples were dropped because a new one contradicted them. */
    public synchronized long resets() {
        return resets;
    }

    /** {@code [L, U]}: where the master's time is now; null while unsynchronised. */
    public synchronized Marzullo.Interval interval() {
        long now = time.nanos();
        if (master) {
            long t = masterMicros(now);
            return new Marzullo.Interval(t, t, 1);
        }
        return followerInterval(now);
    }

    private Marzullo.Interval followerInterval(long now) {
        if (samples.isEmpty()) {
            return null;
        }
        List<Marzullo.Interval> bounds = new ArrayList<>(samples.size());
        for (Sample s : samples) {
            long lo = s.masterLo + microsDown((now - s.recvNanos) * (1 - drift));
            long hi = s.masterHi + microsUp((now - s.sendNanos) * (1 + drift));
            bounds.add(new Marzullo.Interval(lo, Math.max(lo, hi), 1));
        }
        return Marzullo.best(bounds);
    }

    private static long microsDown(double nanos) {
        return (long) Math.floor(nanos / 1000);
    }

    private static long microsUp(double nanos) {
        return (long) Math.ceil(nanos / 1000);
    }

    /**
     * A fresh timestamp, after waiting out the clock's uncertainty.
     *
     * @throws ClockUnavailableException if the clock is not synchronised, or its uncertainty does
     *                                   not pass, within the wait limit
     */
    @Override
    public long next() {
        waiters.incrementAndGet();
        try {
            return nextTimestamp();
        } finally {
            waiters.decrementAndGet();
        }
    }

    private long nextTimestamp() {
        long deadline = time.nanos() + waitLimitNanos;
        while (true) {
            Reservation taken;
            String why;
            synchronized (this) {
                taken = reserve();
                why = taken == null ? unavailable() : null;
            }
            if (taken == null) {
                pause(deadline, 1000, why); // no timestamp to take now: none is spent
                continue;
            }
            awaitPassed(taken.micros(), deadline);
            String refused = refusal(taken.timescale());
            if (refused == null) {
                return timestamp(taken.micros());
            }
            pause(deadline, 1000, refused);
        }
    }

    /** A timestamp taken, not yet handed out: its microseconds and the timescale it was taken on. */
    public record Reservation(long micros, long timescale) {
    }

    /**
     * {@link #next()} in two halves, for a caller that must not wait (the simulator): takes a
     * timestamp ({@code U} now, above the last), or returns null if none can be taken now (no
     * reading of the master, no lease). Hand it out ({@link #timestamp}) once {@link #passed}.
     */
    public synchronized Reservation reserve() {
        if (unavailable() != null) {
            return null;
        }
        long ts = Math.max(interval().hi(), lastMicros + 1);
        if (ts > MAX_MICROS) {
            throw new IllegalStateException("timestamp out of range: micros=" + ts + " max=" + MAX_MICROS
                    + " (it would reach bit 62 of a version word)");
        }
        lastMicros = ts;
        reserved++;
        return new Reservation(ts, timescale);
    }

    /** How many timestamps this clock has taken so far: {@link ClockSync} paces its requests by the rate. */
    public synchronized long timestampsTaken() {
        return reserved;
    }

    /** Whether a caller is waiting in {@link #next()} now: {@link ClockSync} then asks every interval. */
    public boolean timestampAwaited() {
        return waiters.get() > 0;
    }

    /** Whether {@code taken} may be handed out now: {@code L} passed it, on its timescale, within the lease. */
    public synchronized boolean passed(Reservation taken) {
        Marzullo.Interval now = interval();
        return now != null && now.lo() > taken.micros() && refusal(taken.timescale()) == null;
    }

    /** The timestamp of microseconds {@code micros} on this node. */
    public long timestamp(long micros) {
        return micros << NODE_BITS | node;
    }

    /** Why no timestamp can be taken now, or null. */
    private synchronized String unavailable() {
        return interval() == null ? "no reading of clock master " + masterNode + " yet" : refusal(timescale);
    }

    /**
     * Why a timestamp taken on timescale {@code scale} may not be handed out now, or null: the
     * timescale changed meanwhile (a later master's timestamps may already be out), or the master's
     * time may have reached its lease end (a later master may start there).
     */
    private synchronized String refusal(long scale) {
        if (scale != timescale) {
            return "the clock master changed while the timestamp was taken";
        }
        if (leaseEnd == Long.MAX_VALUE) {
            return null;
        }
        Marzullo.Interval now = interval();
        if (now == null) {
            return "lost the clock master's timescale while waiting";
        }
        return now.hi() < leaseEnd ? null : "no lease of clock master " + masterNode + " covers its time now: interval=["
                + now.lo() + ", " + now.hi() + "] lease end=" + (leaseEnd == Long.MIN_VALUE ? "none" : leaseEnd);
    }

    /**
     * A clock that hands out timestamps without waiting out their uncertainty: one may exceed the
     * master's time when it is given, and a later one on another node fall below it, breaking
     * real-time order. Only to show that the history checker's real-time check finds that
     * ({@link ClockConfig#UNCERTAINTY_WAIT} off); never for data.
     */
    public static SyncedClock withoutUncertaintyWait(int node, TimeSource time, double drift, long waitLimitNanos) {
        return new SyncedClock(node, time, drift, waitLimitNanos) {
            @Override
            void awaitPassed(long ts, long deadline) {
                // no wait: the point of this clock
            }
        };
    }

    /** Waits until {@code L} passes {@code ts}: from then on, every node's {@code U} is above it (real-time order). */
    void awaitPassed(long ts, long deadline) {
        while (true) {
            Marzullo.Interval now = interval();
            if (now != null && now.lo() > ts) {
                return;
            }
            pause(deadline, now == null ? 1000 : ts + 1 - now.lo(), now == null ? "lost the clock master's timescale while waiting"
                    : "uncertainty did not pass: ts=" + ts + " interval=[" + now.lo() + ", " + now.hi() + "]");
        }
    }

    /**
     * Waits about {@code micros} of local time, or less. An interrupted caller stops waiting (its
     * interrupt status kept): a thread being shut down, such as the GC's, does not sit out the
     * wait limit.
     */
    private void pause(long deadline, long micros, String why) {
        if (time.nanos() - deadline > 0) {
            throw new ClockUnavailableException("clock of node " + node + " unavailable after "
                    + waitLimitNanos / 1_000_000 + " ms: " + why);
        }
        if (Thread.currentThread().isInterrupted()) {
            throw new ClockUnavailableException("clock of node " + node + ": interrupted while waiting: " + why);
        }
        time.pause(micros * 1000);
    }

    @Override
    public synchronized long current() {
        return lastMicros << NODE_BITS | node;
    }

    /**
     * The larger of the last timestamp handed out and the upper bound {@code U} of the master's time
     * (the master's time itself on the master): no member following this timescale has taken a
     * timestamp above it, since each waits until {@code L} passes its timestamp.
     */
    @Override
    public synchronized long fence() {
        Marzullo.Interval now = interval();
        long bound = lastMicros;
        if (now != null) {
            bound = Math.max(bound, now.hi());
        } else if (floorMicros != Long.MIN_VALUE) {
            bound = Math.max(bound, floorNow(time.nanos()));
        }
        return bound << NODE_BITS | node;
    }

    /**
     * The fence sent in the rejoin handshake. A follower lifts itself to it at once ({@link
     * #atLeast}): the member it goes to keeps its time above it, and if that member is this
     * clock's master, its time may jump up to the fence when it re-admits this node. Samples taken
     * before that jump bound the master's time below what it hands out after it, and a timestamp
     * from them (this node's last one being up to the fence) could fall below one the master gave
     * after its jump; so they are dropped, and {@link #next()} waits for a sample above the fence.
     * Costs a follower about one uncertainty wait and one sync per handshake message it sends.
     */
    @Override
    public synchronized long fenceSent() {
        long fence = fence();
        if (!master) {
            atLeast(fence);
        }
        return fence;
    }

    /** The microseconds of a timestamp from {@link #next()}. */
    public static long micros(long timestamp) {
        return timestamp >>> NODE_BITS;
    }

    /** The node that issued a timestamp from {@link #next()}. */
    public static int node(long timestamp) {
        return (int) (timestamp & MAX_NODE);
    }

    @Override
    public synchronized String toString() {
        Marzullo.Interval i = interval();
        return "SyncedClock[node=" + node + (master ? ", master" : ", master=" + masterNode) + ", samples=" + samples.size()
                + (leaseEnd == Long.MAX_VALUE ? "" : ", lease end=" + leaseEnd)
                + (i == null ? ", unsynchronised" : ", interval=[" + i.lo() + ", " + i.hi() + "]") + "]";
    }
}
