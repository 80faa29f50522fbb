package io.gtran.txn.commit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.txn.protocol.Outcome;
import io.gtran.txn.protocol.Vote;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A participant's vote is given once, a fence freezes it, and decisions never conflict; the recovery rule. */
class ParticipantRecordTest {
    private static final int[] PARTS = {1, 2};

    @Test
    void aVoteIsGivenOnceAndRepeatedToRetries() {
        ParticipantRecord record = new ParticipantRecord(1);
        AtomicInteger validations = new AtomicInteger();
        assertTrue(record.acceptsOperations());
        assertEquals(Vote.YES, record.validate(PARTS, () -> {
            validations.incrementAndGet();
            return Vote.YES;
        }));
        assertEquals(Vote.YES, record.validate(PARTS, () -> Vote.NO), "a retried VALIDATE gets the vote already given");
        assertEquals(1, validations.get());
        assertFalse(record.acceptsOperations(), "no operation runs after the vote");
        assertArrayEquals(PARTS, record.participants());
    }

    @Test
    void aFenceFreezesAMissingVoteAsNo() {
        ParticipantRecord record = new ParticipantRecord(2);
        assertEquals(new ParticipantRecord.Report(2, Vote.NO, null), record.recover(PARTS));
        assertArrayEquals(PARTS, record.participants(), "a recovery names the participants: enough to recover in turn");
        assertEquals(2, record.node());
        assertEquals(Vote.NO, record.validate(PARTS, () -> Vote.YES), "a VALIDATE after the fence cannot vote YES");
        ParticipantRecord voted = new ParticipantRecord(1);
        voted.validate(PARTS, () -> Vote.YES);
        assertEquals(new ParticipantRecord.Report(1, Vote.YES, null), voted.recover(PARTS), "a vote given before the fence stands");
        assertEquals(new ParticipantRecord.Report(1, Vote.YES, null), voted.recover(PARTS), "recovering twice reads the same");
    }

    @Test
    void decisionsAreIdempotentAndNeverConflict() {
        ParticipantRecord record = new ParticipantRecord(1);
        IllegalStateException noVote = assertThrows(IllegalStateException.class, () -> record.decide(Outcome.COMMIT));
        assertTrue(noVote.getMessage().contains("without a YES vote"), noVote.getMessage());
        record.validate(PARTS, () -> Vote.YES);
        record.decide(Outcome.COMMIT);
        record.decide(Outcome.COMMIT);
        IllegalStateException conflict = assertThrows(IllegalStateException.class, () -> record.decide(Outcome.ABORT));
        assertTrue(conflict.getMessage().contains("had COMMIT, told ABORT"), conflict.getMessage());
        assertEquals(Vote.YES, record.validate(PARTS, () -> Vote.NO), "a decided participant answers with its decision");
        assertEquals(Outcome.COMMIT, record.recover(PARTS).decision());
    }

    @Test
    void aParticipantThatNeverGotValidateAbortsWhenTheCoordinatorIsLost() {
        ParticipantRecord record = new ParticipantRecord(1);
        assertEquals(Outcome.ABORT, record.abandonIfUnvalidated());
        assertEquals(Vote.NO, record.vote(), "abandoned: its vote is NO, for any recovery that asks");
        assertEquals(new ParticipantRecord.Report(1, Vote.NO, Outcome.ABORT), record.recover(PARTS));
        assertEquals(Vote.NO, record.validate(PARTS, () -> Vote.YES));
        ParticipantRecord validated = new ParticipantRecord(2);
        validated.validate(PARTS, () -> Vote.YES);
        assertNull(validated.abandonIfUnvalidated(), "one that voted waits for a recovery instead");
    }

    @Test
    void recoveryCommitsOnlyOnEveryVoteYesOrAHeldCommit() {
        ParticipantRecord.Report yes1 = new ParticipantRecord.Report(1, Vote.YES, null);
        ParticipantRecord.Report yes2 = new ParticipantRecord.Report(2, Vote.YES, null);
        ParticipantRecord.Report no2 = new ParticipantRecord.Report(2, Vote.NO, null);
        assertEquals(Outcome.COMMIT, Recovery.outcome(List.of(yes1, yes2), 2));
        assertEquals(Outcome.ABORT, Recovery.outcome(List.of(yes1, no2), 2));
        assertNull(Recovery.outcome(List.of(yes1), 2), "a missing vote is never presumed: it may be a YES");
        assertEquals(Outcome.COMMIT, Recovery.outcome(List.of(new ParticipantRecord.Report(1, Vote.YES, Outcome.COMMIT)), 2),
                "a decision someone holds wins");
        assertEquals(Outcome.ABORT, Recovery.outcome(List.of(yes1, new ParticipantRecord.Report(2, Vote.YES, Outcome.ABORT)), 2));
        assertThrows(IllegalStateException.class, () -> Recovery.outcome(List.of(new ParticipantRecord.Report(1, Vote.YES, Outcome.COMMIT),
                new ParticipantRecord.Report(2, Vote.YES, Outcome.ABORT)), 2));
    }

    @Test
    void aNoKnownDecidesAbortWithoutWaitingAndOnlyACommitFromVotesGoesToTheQuorum() {
        ParticipantRecord.Report yes1 = new ParticipantRecord.Report(1, Vote.YES, null);
        ParticipantRecord.Report no2 = new ParticipantRecord.Report(2, Vote.NO, null);
        assertEquals(Outcome.ABORT, Recovery.outcome(List.of(no2), 3), "a NO: the coordinator cannot have committed");
        assertTrue(Recovery.fromVotes(List.of(yes1, new ParticipantRecord.Report(2, Vote.YES, null))),
                "every YES: the coordinator may have aborted on a loss, so the quorum orders it");
        assertFalse(Recovery.fromVotes(List.of(yes1, new ParticipantRecord.Report(2, Vote.YES, Outcome.COMMIT))),
                "a decision someone holds is the coordinator's or the quorum's already");
    }

    @Test
    void aParticipantThatForgotDecidesNothingUnlessAnotherHoldsTheDecision() {
        ParticipantRecord.Report yes1 = new ParticipantRecord.Report(1, Vote.YES, null);
        ParticipantRecord.Report forgot2 = ParticipantRecord.Report.forgottenAt(2);
        assertNull(Recovery.outcome(List.of(yes1, forgot2), 2), "it may have voted YES and applied a COMMIT: no presumed NO");
        assertEquals(Outcome.COMMIT, Recovery.outcome(List.of(new ParticipantRecord.Report(1, Vote.YES, Outcome.COMMIT), forgot2), 2));
        assertEquals(Outcome.ABORT, Recovery.outcome(List.of(new ParticipantRecord.Report(1, Vote.NO, Outcome.ABORT), forgot2), 2));

        CoordinatorRound round = new CoordinatorRound(new int[] {1, 2});
        round.onVote(1, Vote.YES);
        assertEquals(Outcome.ABORT, round.onReport(forgot2), "in a round that runs, it never had a part: no YES can come");
    }

    @Test
    void theCoordinatorDecidesOnlyFromFinalAnswers() {
        CoordinatorRound round = new CoordinatorRound(new int[] {1, 2, 3});
        assertNull(round.onVote(1, Vote.YES));
        assertNull(round.onVote(9, Vote.NO), "a stranger's vote is ignored");
        assertEquals(java.util.Set.of(2, 3), round.missing());
        assertNull(round.onReport(new ParticipantRecord.Report(2, Vote.YES, null)), "a frozen YES counts as the vote");
        assertEquals(Outcome.COMMIT, round.onVote(3, Vote.YES));
        assertEquals(Outcome.COMMIT, round.onVote(3, Vote.YES));
        assertEquals(java.util.Set.of(), round.missing());

        CoordinatorRound aborted = new CoordinatorRound(new int[] {1, 2});
        assertEquals(Outcome.ABORT, aborted.onReport(new ParticipantRecord.Report(2, Vote.NO, null)), "a fenced missing vote is NO");
        CoordinatorRound lost = new CoordinatorRound(new int[] {1, 2});
        lost.onVote(1, Vote.YES);
        assertEquals(Outcome.ABORT, lost.onLost(2));
        CoordinatorRound recovered = new CoordinatorRound(new int[] {1, 2});
        assertEquals(Outcome.COMMIT, recovered.onReport(new ParticipantRecord.Report(1, Vote.YES, Outcome.COMMIT)));
        assertThrows(IllegalArgumentException.class, () -> new CoordinatorRound(new int[0]));
    }
}
