package io.gtran.txn.commit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.check.fabric.FaultPlan;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.InJvmCluster;
import io.gtran.txn.common.TxnWords;
import io.gtran.txn.protocol.Outcome;
import io.gtran.txn.protocol.TestMailboxes;
import io.gtran.txn.protocol.Vote;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * When a {@link CommitMessenger} acts on a reported loss: not without a majority, but as soon as
 * it has one again; and a re-admission never undoes a loss reported after the member's rejoin
 * message arrived (it may be that member's last word before it died).
 */
@Timeout(30)
class CommitMessengerLossTest {
    private static final Participant NOBODY = new Participant();

    private static final class Participant implements CommitMessenger.Participant {
        @Override
        public Vote validate(long txn, long commitTime, int[] participants) {
            return Vote.NO;
        }

        @Override
        public void apply(long txn, Outcome outcome, long commitTime) {
        }
    }

    @Test
    void aLossReportedWithoutAMajorityIsActedOnOnceTheMajorityIsBack() throws Exception {
        AtomicBoolean majority = new AtomicBoolean(false);
        try (InJvmCluster cluster = new InJvmCluster(); FaultPlan plan = new FaultPlan(1)) {
            Fabric f0 = plan.wrap(cluster.join(0));
            plan.wrap(cluster.join(1));
            plan.wrap(cluster.join(2));
            try (CommitMessenger m = toldOfLosses(f0, new CommitMessenger(TestMailboxes.started(f0), NOBODY, 1_000, 10, peer -> majority.get(), 0))) {
                plan.partition(Set.of(0), Set.of(1));
                Thread.sleep(200); // real time: a loss acted on without a majority would be by now (ticks of 10 ms)
                assertFalse(m.countsLost(1), "no majority: the loss is left to the majority");
                majority.set(true);
                await(() -> m.countsLost(1), "the loss is acted on once node 0 hears from a majority again");
            }
        }
    }

    @Test
    void aLossReportedAfterTheRejoinMessageArrivedIsNotUndoneByTheReadmission() throws Exception {
        afterACutOfNodeOneHealed((m, plan) -> {
            long rejoinHeard = System.nanoTime();
            Thread.sleep(5); // real time: the next report's clock reading comes after rejoinHeard
            plan.partition(Set.of(0), Set.of(1)); // reported again after its rejoin message arrived
            Thread.sleep(200); // real time: the report reaches the listeners on the fabric's thread
            assertFalse(m.readmit(1, rejoinHeard, () -> true, () -> { }), "a rejoin heard before the latest loss report re-admits nothing");
            assertTrue(m.countsLost(1));
            assertTrue(m.readmit(1, System.nanoTime(), () -> true, () -> { }), "a rejoin heard after it does");
            assertFalse(m.countsLost(1));
        });
    }

    @Test
    void aRepeatedRejoinAfterTheReadmissionLeavesTheMembersNewTransactionsAlone() throws Exception {
        afterACutOfNodeOneHealed((m, plan) -> {
            assertTrue(m.readmit(1, System.nanoTime(), () -> true, () -> { }), "node 1 re-admitted");
            long fresh = TxnWords.txnId(1, 0, 1); // node 1's first transaction after it, not validated yet
            m.open(fresh);
            assertTrue(m.settledWith(1), "an unvalidated part of node 1's is fenced at a re-admission, so it counts as settled");
            assertTrue(m.acceptsOperations(fresh), "asking whether this node is settled fences nothing");
            assertFalse(m.readmit(1, System.nanoTime(), () -> false, () -> { }),
                    "a repeated rejoin message of a member the view no longer counts lost re-admits nothing");
            assertTrue(m.acceptsOperations(fresh), "and fences nothing of its new transactions");
        });
    }

    private interface AfterHeal {
        void run(CommitMessenger m, FaultPlan plan) throws Exception;
    }

    /** Node 0's messenger of three nodes, once it counts node 1 lost after a cut between them and the cut healed. */
    private static void afterACutOfNodeOneHealed(AfterHeal body) throws Exception {
        try (InJvmCluster cluster = new InJvmCluster(); FaultPlan plan = new FaultPlan(1)) {
            Fabric f0 = plan.wrap(cluster.join(0));
            plan.wrap(cluster.join(1));
            plan.wrap(cluster.join(2));
            try (CommitMessenger m = toldOfLosses(f0, new CommitMessenger(TestMailboxes.started(f0), NOBODY, 1_000, 10))) {
                plan.partition(Set.of(0), Set.of(1));
                await(() -> m.countsLost(1), "node 1 counted lost");
                plan.heal();
                body.run(m, plan);
            }
        }
    }

    /** Stands in for the node's member view, which tells the messenger of each loss the fabric reports. */
    private static CommitMessenger toldOfLosses(Fabric fabric, CommitMessenger messenger) {
        fabric.onPeerLost((peer, reason) -> messenger.lossReported(peer));
        return messenger;
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting until " + what);
            Thread.sleep(5);
        }
    }
}
