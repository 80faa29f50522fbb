package io.gtran.txn.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.txn.protocol.Outcome;
import io.gtran.txn.protocol.Vote;
import org.junit.jupiter.api.Test;

/** The coordinator's decision rules, one by one (the simulation runs them together). */
class CoordinatorRoundTest {
    @Test
    void commitsOnlyWhenEveryParticipantVotedYes() {
        CoordinatorRound round = new CoordinatorRound(new int[] {1, 2});
        assertNull(round.onVote(1, Vote.YES));
        assertEquals(Outcome.COMMIT, round.onVote(2, Vote.YES));
    }

    @Test
    void oneNoOrOneLostParticipantAborts() {
        CoordinatorRound no = new CoordinatorRound(new int[] {1, 2});
        assertEquals(Outcome.ABORT, no.onVote(2, Vote.NO));
        CoordinatorRound lost = new CoordinatorRound(new int[] {1, 2});
        lost.onVote(1, Vote.YES);
        assertEquals(Outcome.ABORT, lost.onLost(2));
        assertEquals(Outcome.ABORT, lost.onVote(2, Vote.YES), "a vote after the decision changes nothing");
    }

    @Test
    void abandoningBeforeVotesAbortsAndLaterYesVotesChangeNothing() {
        CoordinatorRound round = new CoordinatorRound(new int[] {1});
        assertEquals(Outcome.ABORT, round.abandon());
        assertEquals(Outcome.ABORT, round.onVote(1, Vote.YES));
        assertTrue(round.missing().isEmpty(), "nothing to ask once decided");
    }

    @Test
    void abandoningADecidedRoundKeepsItsDecision() {
        CoordinatorRound round = new CoordinatorRound(new int[] {1});
        round.onVote(1, Vote.YES);
        assertEquals(Outcome.COMMIT, round.abandon());
    }

    @Test
    void lateVotesAreAskedForAndAReportedDecisionIsAdopted() {
        CoordinatorRound round = new CoordinatorRound(new int[] {1, 2, 3});
        round.onVote(1, Vote.YES);
        assertEquals(java.util.Set.of(2, 3), round.missing());
        assertEquals(Outcome.COMMIT, round.onReport(new ParticipantRecord.Report(2, Vote.YES, Outcome.COMMIT)));
        assertTrue(round.missing().isEmpty());
    }

    @Test
    void aChangedVoteAndAnEmptyRoundAreRefused() {
        CoordinatorRound round = new CoordinatorRound(new int[] {1, 2});
        round.onVote(1, Vote.YES);
        assertThrows(IllegalStateException.class, () -> round.onVote(1, Vote.NO));
        assertThrows(IllegalArgumentException.class, () -> new CoordinatorRound(new int[0]));
    }

    /**
     * A participant lost while its vote is missing may have voted YES, and a recovery that hears
     * every YES commits: the round does not decide ABORT alone, even when the late YES comes, but
     * takes the outcome the quorum orders (which may be that recovery's COMMIT).
     */
    @Test
    void aParticipantLostBeforeItsVoteLeavesTheDecisionToTheQuorum() {
        CoordinatorRound round = new CoordinatorRound(new int[] {1, 2});
        round.onVote(1, Vote.YES);
        assertTrue(round.contest(2));
        assertFalse(round.contest(2), "contested once");
        assertNull(round.decision(), "no ABORT of its own");
        assertNull(round.onVote(2, Vote.YES), "no COMMIT either: the quorum may have ordered ABORT");
        assertTrue(round.contested());
        assertEquals(Outcome.COMMIT, round.adopt(Outcome.COMMIT), "a recovery's COMMIT ordered first");
        assertFalse(round.contested());
    }

    @Test
    void aNoStillAbortsAContestedRoundAndTheQuorumCannotSayOtherwise() {
        CoordinatorRound round = new CoordinatorRound(new int[] {1, 2});
        assertTrue(round.contest(2));
        assertEquals(Outcome.ABORT, round.onVote(1, Vote.NO));
        assertEquals(Outcome.ABORT, round.adopt(Outcome.ABORT));
        assertThrows(IllegalStateException.class, () -> round.adopt(Outcome.COMMIT));
    }

    @Test
    void aParticipantThatVotedOrADecidedRoundIsNotContested() {
        CoordinatorRound round = new CoordinatorRound(new int[] {1, 2});
        round.onVote(1, Vote.YES);
        assertFalse(round.contest(1), "its YES is known");
        assertFalse(round.contest(7), "not a participant");
        assertEquals(Outcome.COMMIT, round.onVote(2, Vote.YES));
        assertFalse(round.contest(2), "decided");
    }

    @Test
    void votesMissingPastTheTimeoutAreContestedOnce() {
        CoordinatorRound round = new CoordinatorRound(new int[] {1, 2, 3});
        round.onVote(2, Vote.YES);
        assertTrue(round.contestMissing());
        assertFalse(round.contestMissing(), "nothing newly missing");
        assertNull(round.onVote(1, Vote.YES));
        assertNull(round.onVote(3, Vote.YES));
        assertEquals(Outcome.ABORT, round.adopt(Outcome.ABORT), "the timeout's ABORT, ordered first");
    }
}
