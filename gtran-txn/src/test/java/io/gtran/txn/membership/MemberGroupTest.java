package io.gtran.txn.membership;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.txn.protocol.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A node's part of the membership group, over a log the test commits by hand; no thread runs. */
class MemberGroupTest {
    private static final long LEASE_MS = 500;
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private final HandTime time = new HandTime();

    private final HandLog log = new HandLog();
    private final List<Integer> reportedLost = new ArrayList<>();
    private MemberView view;

    private MemberGroup group(int self) {
        return group(self, List.of(0, 1, 2));
    }

    private MemberGroup group(int self, List<Integer> members) {
        List<Integer> others = new ArrayList<>(members);
        others.remove(Integer.valueOf(self));
        view = new MemberView(self, others, LEASE_MS, "members=test", time,
                (to, payload) -> CompletableFuture.completedFuture(null), Runnable::run, () -> 42);
        view.onLoss((peer, reason) -> reportedLost.add(peer));
        MemberGroup group = new MemberGroup(view, self, members, log, LEASE_MS);
        group.start();
        return group;
    }

    @Test
    void aLossIsActedOnOnlyOnceItsEntryIsApplied() {
        MemberGroup group = group(0);
        time.nanos += 2 * LEASE_MS * MS; // node 1 not heard for two leases
        assertFalse(group.mayActOnLossOf(1), "proposed, not applied");
        assertEquals(List.of(new MemberEntry.Lost(1, 0, 0, 0)), log.proposed);
        assertFalse(group.mayActOnLossOf(1));
        log.apply(log.proposed.get(0));
        assertTrue(group.mayActOnLossOf(1));
        assertTrue(reportedLost.contains(1), "the view counts it lost");
    }

    @Test
    void ofTwoEndsProposingEachOthersLossOnlyTheFirstActs() {
        MemberGroup group = group(1);
        time.nanos += 2 * LEASE_MS * MS;
        assertFalse(group.mayActOnLossOf(0));
        log.apply(new MemberEntry.Lost(1, 0, 0, 0)); // node 0's proposal came first
        log.apply(log.proposed.get(0)); // this node's own: its proposer is lost by now
        assertTrue(group.countsLost(1));
        assertFalse(group.countsLost(0));
        assertFalse(group.mayActOnLossOf(0), "a node the log counts lost decides nothing");
        assertFalse(group.mayActOnLossOf(2));
        assertFalse(reportedLost.contains(0));
    }

    @Test
    void aMemberHeardAgainIsNotProposedLost() {
        MemberGroup group = group(0);
        time.nanos += 2 * LEASE_MS * MS;
        view.heard(1, time.nanos - MS); // a message of node 1 a millisecond ago
        assertFalse(group.mayActOnLossOf(1));
        assertTrue(log.proposed.isEmpty(), "the cut healed before the group decided: the handshake takes it back");
    }

    @Test
    void aLossAppliedWhileThisNodeWasOutIsActedOnWhenItIsBack() {
        MemberGroup group = group(0, List.of(0, 1, 2, 3, 4)); // of three, the second loss would leave one up
        log.apply(new MemberEntry.Lost(0, 0, 1, 0));
        log.apply(new MemberEntry.Lost(2, 0, 1, 0));
        assertFalse(reportedLost.contains(2), "out: it acts on nothing");
        log.apply(new MemberEntry.Back(0, 0, 1, 0));
        assertTrue(reportedLost.contains(2));
        assertTrue(group.mayActOnLossOf(2));
    }

    @Test
    void theFirstOutcomeOrderedGoesToTheCommitLayerOnEveryMemberLostOrNot() {
        MemberGroup group = group(0);
        List<String> told = new ArrayList<>();
        group.onOutcome((txn, outcome) -> told.add(txn + "=" + outcome));
        log.apply(new MemberEntry.Lost(0, 0, 1, 0)); // counted lost: it still learns outcomes
        group.proposeOutcome(7, Outcome.ABORT, (txn, outcome) -> told.add("at once"));
        assertEquals(List.of(new MemberEntry.Decided(7, Outcome.ABORT)), log.proposed);
        log.apply(new MemberEntry.Decided(7, Outcome.COMMIT)); // a recovery's, ordered first
        log.apply(new MemberEntry.Decided(7, Outcome.ABORT));
        assertEquals(List.of("7=COMMIT"), told);
        group.proposeOutcome(7, Outcome.ABORT, (txn, outcome) -> told.add("again " + outcome));
        assertEquals(List.of("7=COMMIT", "again COMMIT"), told, "asked again after it was applied: the applied one");
    }

    @Test
    void aMemberReadmittedHereIsProposedBackByTheAgent() {
        MemberGroup group = group(0);
        log.apply(new MemberEntry.Lost(1, 0, 2, 0));
        assertTrue(reportedLost.contains(1));
        group.agent().doWork(time.nanos);
        assertTrue(log.proposed.isEmpty(), "the view still counts it lost: no handshake yet");
    }

    @Test
    void theClockListenerHearsTheMasterAsAppliedThenEachChangeAndLeaseInLogOrder() {
        MemberGroup group = group(2, List.of(0, 1, 2, 3, 4)); // of three, the second loss would leave one up
        log.apply(new MemberEntry.Lease(0, 0, 1_000));
        List<String> heard = new ArrayList<>();
        group.onMaster(new MemberGroup.MasterListener() {
            @Override
            public void changed(MemberGroup.Mastership now) {
                heard.add("changed " + now);
            }

            @Override
            public void leased(MemberGroup.Mastership now) {
                heard.add("leased " + now);
            }
        });
        log.apply(new MemberEntry.Lease(0, 0, 2_000));
        log.apply(new MemberEntry.Lost(1, 0, 2, 0)); // not the master: no change
        log.apply(new MemberEntry.Lost(0, 0, 2, 0));
        log.apply(new MemberEntry.Lease(0, 0, 3_000)); // the old master's renewal, ordered after its loss: nothing
        group.proposeLease(1, 2_500);
        assertEquals(new MemberEntry.Lease(2, 1, 2_500), log.proposed.get(log.proposed.size() - 1), "proposed under its own id");
        log.apply(new MemberEntry.Lease(2, 1, 2_500));
        assertEquals(List.of(
                "changed " + new MemberGroup.Mastership(0, 0, 1_000, Long.MIN_VALUE),
                "leased " + new MemberGroup.Mastership(0, 0, 1_000, Long.MIN_VALUE),
                "leased " + new MemberGroup.Mastership(0, 0, 2_000, Long.MIN_VALUE),
                "changed " + new MemberGroup.Mastership(2, 1, Long.MIN_VALUE, 2_000),
                "leased " + new MemberGroup.Mastership(2, 1, 2_500, 2_000)), heard);
    }

    @Test
    void aLeaseIsProposedOnlyOnceTheOneBeforeIsAnswered() {
        MemberGroup group = group(0);
        group.proposeLease(0, 1_000);
        assertEquals(List.of(new MemberEntry.Lease(0, 0, 1_000)), log.proposed, "proposed at once");
        group.proposeLease(0, 2_000);
        assertEquals(1, log.proposed.size(), "the first is under way");
        log.answers.get(0).completeExceptionally(new IllegalStateException("no leader"));
        group.proposeLease(0, 3_000);
        assertEquals(new MemberEntry.Lease(0, 0, 3_000), log.proposed.get(1));
    }
}
