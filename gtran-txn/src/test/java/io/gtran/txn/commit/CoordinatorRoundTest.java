package io.gtran.txn.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
}
