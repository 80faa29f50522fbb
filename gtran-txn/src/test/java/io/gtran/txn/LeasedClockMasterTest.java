package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.InJvmCluster;
import io.gtran.txn.agent.HandHost;
import io.gtran.txn.clock.ClockSync;
import io.gtran.txn.clock.SyncedClock;
import io.gtran.txn.membership.HandLog;
import io.gtran.txn.membership.HandTime;
import io.gtran.txn.membership.MemberEntry;
import io.gtran.txn.membership.MemberGroup;
import io.gtran.txn.membership.MemberView;
import io.gtran.txn.protocol.TestMailboxes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link LeasedClockMaster} on one node of three, over a log the test applies by hand and time it
 * moves by hand (docs/cluster-transactions.md, "Time"): the master it follows and the lease it
 * holds are the log's; a new master proposes its first lease only once the old lease surely ended;
 * the rejoin handshake agrees on the log's master and lifts nothing.
 */
class LeasedClockMasterTest {
    private static final long LEASE_MS = 1_000;
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private final HandTime time = new HandTime();
    private final HandLog log = new HandLog();
    private final InJvmCluster cluster = new InJvmCluster();
    private final List<AutoCloseable> open = new ArrayList<>();
    private final HandHost host = new HandHost(time);
    private SyncedClock clock;

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
        cluster.close();
    }

    private LeasedClockMaster node(int self) {
        return node(self, List.of());
    }

    /** Node {@code self}, its log having applied {@code before} when its clock master starts. */
    private LeasedClockMaster node(int self, List<MemberEntry> before) {
        Fabric fabric = cluster.join(self);
        open.add(fabric);
        List<Integer> others = new ArrayList<>(List.of(0, 1, 2));
        others.remove(Integer.valueOf(self));
        MemberView view = new MemberView(self, others, 500, "members=test", time,
                (to, payload) -> CompletableFuture.completedFuture(null), Runnable::run, () -> 0L);
        MemberGroup group = new MemberGroup(view, self, List.of(0, 1, 2), log, 500);
        group.start();
        clock = new SyncedClock(self, time, SyncedClock.DEFAULT_DRIFT, TimeUnit.SECONDS.toNanos(1));
        ClockSync sync = new ClockSync(TestMailboxes.started(fabric, time), clock, time, Set.of(0, 1, 2), 1_000_000);
        open.add(sync);
        LeasedClockMaster master = new LeasedClockMaster(group, sync, clock, host, LEASE_MS, SyncedClock.DEFAULT_DRIFT);
        before.forEach(log::apply);
        master.start();
        return master;
    }

    private List<MemberEntry.Lease> leasesProposed() {
        return log.proposed.stream().filter(e -> e instanceof MemberEntry.Lease).map(e -> (MemberEntry.Lease) e).toList();
    }

    @Test
    void theFirstMasterLeasesAtOnceAndHandsOutNothingBefore() {
        node(0);
        assertTrue(clock.isMaster());
        assertEquals(Long.MIN_VALUE, clock.leaseEnd(), "no lease until the log applies one");
        host.agent().doWork(time.nanos());
        List<MemberEntry.Lease> leases = leasesProposed();
        assertEquals(1, leases.size(), log.proposed.toString());
        assertEquals(0, leases.get(0).node());
        assertEquals(0, leases.get(0).epoch());
        assertEquals(clock.masterMicros() + LEASE_MS * 1000, leases.get(0).untilMicros(), 1);
        log.apply(leases.get(0));
        assertEquals(leases.get(0).untilMicros(), clock.leaseEnd());
    }

    @Test
    void aNewMasterStartsAboveTheOldLeaseAndLeasesOnlyOnceItSurelyEnded() {
        node(1);
        long oldEnd = time.nanos() / 1000 + 5_000_000; // an old master's lease 5 s ahead of this node's clock
        log.apply(new MemberEntry.Lease(0, 0, oldEnd));
        assertFalse(clock.isMaster());
        assertEquals(oldEnd, clock.leaseEnd(), "a follower holds its master's lease");
        log.apply(new MemberEntry.Lost(0, 0, 2, 0));
        assertTrue(clock.isMaster());
        assertTrue(clock.masterMicros() > oldEnd, "starts above the handover: " + clock.masterMicros() + " <= " + oldEnd);
        assertEquals(Long.MIN_VALUE, clock.leaseEnd(), "no lease of its own yet");
        long wait = (long) Math.ceil(LEASE_MS * MS * (1 + SyncedClock.DEFAULT_DRIFT) / (1 - SyncedClock.DEFAULT_DRIFT));
        long changedAt = time.nanos();
        time.nanos = changedAt + wait - 1;
        host.agent().doWork(time.nanos());
        assertEquals(List.of(), leasesProposed(), "the old timescale may not have passed its lease end yet");
        time.nanos = changedAt + wait;
        host.agent().doWork(time.nanos());
        assertEquals(1, leasesProposed().size());
        assertEquals(new MemberEntry.Lease(1, 1, clock.masterMicros() + LEASE_MS * 1000), leasesProposed().get(0));
    }

    @Test
    void aNewMasterWhoseSamplesPutTheOldMasterPastItsLeaseLeasesAtOnce() {
        node(1);
        long reading = 1_764_000_000_000_000L;
        clock.addSample(time.nanos() - MS, time.nanos(), reading); // node 0's time, read 1 ms ago
        log.apply(new MemberEntry.Lease(0, 0, reading - 100_000)); // a lease that ended 100 ms before that reading
        log.apply(new MemberEntry.Lost(0, 0, 2, 0));
        host.agent().doWork(time.nanos());
        assertEquals(1, leasesProposed().size(), "the old timescale is surely past the handover");
    }

    @Test
    void aNewMasterWaitsOnlyUntilItsSamplesPutTheOldMasterPastItsLease() {
        node(1);
        long reading = 1_764_000_000_000_000L;
        clock.addSample(time.nanos() - MS, time.nanos(), reading);
        log.apply(new MemberEntry.Lease(0, 0, reading + 200_000)); // ends 200 ms after the reading
        long changedAt = time.nanos();
        log.apply(new MemberEntry.Lost(0, 0, 2, 0));
        time.nanos = changedAt + 150 * MS;
        host.agent().doWork(time.nanos());
        assertEquals(List.of(), leasesProposed(), "the old master's time may still be below its lease end");
        time.nanos = changedAt + 250 * MS; // past 200 ms / (1 - e), well short of a full lease
        host.agent().doWork(time.nanos());
        assertEquals(1, leasesProposed().size());
    }

    @Test
    void aFollowerProposesNoLeaseAndTakesOnlyItsMastersLease() {
        node(2);
        host.agent().doWork(time.nanos());
        assertEquals(List.of(), leasesProposed());
        log.apply(new MemberEntry.Lease(1, 0, 9_000)); // not the master's: the log refuses it
        assertEquals(Long.MIN_VALUE, clock.leaseEnd());
        log.apply(new MemberEntry.Lease(0, 0, 9_000));
        assertEquals(9_000, clock.leaseEnd());
    }

    @Test
    void aClockStartedAfterLeasesWereAppliedFollowsTheLogsMasterAndHoldsItsLease() {
        node(2, List.of(new MemberEntry.Lease(0, 0, 7_000), new MemberEntry.Lost(0, 0, 1, 0), new MemberEntry.Lease(1, 1, 9_000)));
        assertEquals(1, clock.masterNode());
        assertEquals(9_000, clock.leaseEnd());
    }

    @Test
    void theHandshakeAgreesOnTheLogsMasterOnlyAndLiftsNothing() {
        LeasedClockMaster master = node(2);
        assertTrue(master.agree(1, 0, 0));
        assertFalse(master.agree(1, 1, 1), "a newer epoch this node has not applied: wait for the log");
        assertFalse(master.agree(1, 0, 1));
        log.apply(new MemberEntry.Lost(0, 0, 1, 0));
        assertTrue(master.agree(1, 1, 1));
        assertEquals(1, master.master());
        assertEquals(1, master.epoch());
        long last = clock.current();
        master.readmitted(0, Long.MAX_VALUE >>> 2);
        assertEquals(last, clock.current(), "no lift to a rejoiner's fence");
    }
}
