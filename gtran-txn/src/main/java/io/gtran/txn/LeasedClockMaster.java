package io.gtran.txn;

import io.gtran.txn.agent.Agent;
import io.gtran.txn.agent.AgentHandle;
import io.gtran.txn.agent.AgentHost;
import io.gtran.txn.clock.ClockSync;
import io.gtran.txn.clock.Marzullo;
import io.gtran.txn.clock.SyncedClock;
import io.gtran.txn.membership.MemberGroup;
import io.gtran.txn.membership.MemberView;
import java.util.concurrent.TimeUnit;

/**
 * The clock master of a node whose losses the membership group decides: the log names the master
 * and its lease (docs/cluster-transactions.md, "Time"), and this connects it to the node's clock.
 * Where no group decides, {@link MajorityClockMaster} takes its place.
 * <ul>
 *   <li>Every member follows the master the log names, in its epoch ({@link ClockSync#install},
 *       {@link SyncedClock#handOver}), and hands out a timestamp only while the master's time is
 *       surely below the lease end the log holds for it. A master or follower cut off from the
 *       group learns no newer lease, so it stops at the last one.</li>
 *   <li>The master proposes {@code Lease(self, epoch, now + lease)} every quarter of a lease.</li>
 *   <li>A new master starts its timescale above the earlier masters' lease end, and proposes its
 *       first lease only once the old master's time has surely passed that end: the old lease was
 *       proposed at old time {@code end - lease} before the change was applied here, and the old
 *       clock advances at least {@code 1 - e} per unit of true time, this one at most {@code 1 + e},
 *       so {@code lease (1 + e) / (1 - e)} of local time after the change suffices; less if this
 *       node's samples of the old master already bound its time above that end (the common case,
 *       where a loss takes longer to decide than a lease to run out). No member following the old
 *       timescale hands out a timestamp after that, none on the new one before.</li>
 *   <li>At a rejoin handshake the two sides only check that they follow the same master in the same
 *       epoch (the log brings both there); neither lifts its clock to the other's fence.</li>
 * </ul>
 */
public final class LeasedClockMaster implements MemberGroup.MasterListener, MemberView.RejoinClock, AutoCloseable {
    private final int self;
    private final MemberGroup group;
    private final ClockSync sync;
    private final SyncedClock clock;
    private final long leaseMicros;
    private final long handoverWaitNanos;
    private final long renewNanos;
    private final double drift;
    private final AgentHost host;
    private AgentHandle renewer;
    /** The epoch this node became master in and when it may first lease; guarded by this. */
    private long masterEpoch = -1;
    private long firstLeaseAt;
    /** The last lease applied: its master, epoch and end; guarded by this. */
    private int leasedMaster = -1;
    private long leasedEpoch = -1;
    private long leasedEnd = Long.MIN_VALUE;

    /**
     * The clock master of {@code clock}'s node as {@code group}'s log names it; its lease renewed on
     * an agent of {@code host}, {@code leaseMillis} ahead, for oscillators apart by at most {@code drift}.
     */
    public LeasedClockMaster(MemberGroup group, ClockSync sync, SyncedClock clock, AgentHost host, long leaseMillis, double drift) {
        this.self = clock.node();
        this.group = group;
        this.sync = sync;
        this.clock = clock;
        this.host = host;
        this.leaseMicros = TimeUnit.MILLISECONDS.toMicros(leaseMillis);
        this.handoverWaitNanos = (long) Math.ceil(TimeUnit.MILLISECONDS.toNanos(leaseMillis) * (1 + drift) / (1 - drift));
        this.renewNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(1, leaseMillis / 4));
        this.drift = drift;
    }

    /** Starts following the log's master and renewing this node's lease while it is master. */
    public void start() {
        group.onMaster(this);
        renewer = host.start(new Renewer());
    }

    @Override
    public void changed(MemberGroup.Mastership now) {
        long wait = now.master() == self ? handoverWait(now) : 0; // read before the handover drops the old samples
        sync.install(now.master(), now.epoch());
        clock.handOver(now.master(), now.handover());
        synchronized (this) {
            if (now.master() == self) {
                masterEpoch = now.epoch();
                firstLeaseAt = host.time().nanos() + wait;
            }
        }
    }

    /**
     * How long this node, the new master, waits before its first lease: none after no lease; else a
     * full {@code lease (1 + e) / (1 - e)}, unless the master of the epoch just ended held the lease
     * that ends at the handover and this node's samples of its time already bound it above that end
     * (or will within less): the old timescale has then surely passed it. Only that epoch's
     * timescale is left to pass: its master leased only after every earlier one had passed theirs.
     */
    private long handoverWait(MemberGroup.Mastership now) {
        if (now.handover() == Long.MIN_VALUE) {
            return 0;
        }
        Marzullo.Interval old;
        synchronized (this) {
            boolean lastEpochHeldIt = leasedEpoch == now.epoch() - 1 && leasedEnd == now.handover()
                    && leasedMaster == clock.masterNode();
            old = lastEpochHeldIt ? clock.interval() : null;
        }
        if (old == null) {
            return handoverWaitNanos;
        }
        long behind = now.handover() + 1 - old.lo(); // microseconds the old master's time may still be below the end
        return behind <= 0 ? 0 : Math.min(handoverWaitNanos, (long) Math.ceil(behind * 1000 / (1 - drift)));
    }

    @Override
    public void leased(MemberGroup.Mastership now) {
        synchronized (this) {
            leasedMaster = now.master();
            leasedEpoch = now.epoch();
            leasedEnd = now.leaseEnd();
        }
        if (now.master() == clock.masterNode()) {
            clock.leaseUntil(now.leaseEnd());
        }
    }

    /** Every quarter of a lease: the master proposes its lease's extension. */
    private final class Renewer implements Agent {
        @Override
        public long doWork(long nowNanos) {
            MemberGroup.Mastership now = group.mastership();
            boolean due;
            synchronized (LeasedClockMaster.this) {
                due = now.master() == self && masterEpoch == now.epoch() && nowNanos - firstLeaseAt >= 0;
            }
            if (due) {
                try {
                    group.proposeLease(now.epoch(), clock.masterMicros() + leaseMicros);
                } catch (IllegalStateException changedMeanwhile) {
                    // no longer master: the log moved the role on since it was read
                }
            }
            return nowNanos + renewNanos;
        }

        @Override
        public String roleName() {
            return "clock-lease-" + self;
        }
    }

    @Override
    public int master() {
        return sync.master();
    }

    @Override
    public long epoch() {
        return sync.epoch();
    }

    /** The log, not the handshake, names the master: both sides agree once both applied as far. */
    @Override
    public boolean agree(int member, int master, long epoch) {
        return master == sync.master() && epoch == sync.epoch();
    }

    /**
     * Nothing to lift: every timestamp {@code member} handed out on the current timescale was below
     * the master's time when handed out (it waited until {@code L} passed it, within the lease), and
     * every one of an earlier epoch is below the handover, so the fence is below the master's time
     * already. Lifting the master above a follower's fence ({@code U}, above the master's time by
     * its uncertainty) would move its timescale past what other followers' samples bound: the
     * simulator found their timestamps then falling below the master's.
     */
    @Override
    public void readmitted(int member, long fence) {
    }

    @Override
    public void close() {
        if (renewer != null) {
            renewer.close(TimeUnit.SECONDS.toMillis(5));
        }
    }
}
