package io.gtran.txn.commit;

import io.gtran.txn.protocol.Outcome;
import io.gtran.txn.protocol.Vote;
import java.util.Collection;

/**
 * The outcome a recovery reaches from the participants' reports (docs/cluster-transactions.md,
 * "Recovery when the coordinator is lost"), from votes that are known, never from one that is
 * missing: a decision any of them holds; else ABORT on a NO (the coordinator cannot have
 * committed); else COMMIT once every participant reported YES, which the recovery proposes to the
 * quorum ({@link #fromVotes}), because the coordinator may have aborted on a participant's loss
 * meanwhile; else none yet: a participant that has not answered (lost, cut off, crashed) or that
 * forgot the transaction ({@link ParticipantRecord.Report#forgotten}) may have voted YES, so the
 * recovery waits for it or for the decision.
 */
public final class Recovery {
    private Recovery() {
    }

    /**
     * @param reports one report per participant that answered
     * @param participants how many participants the transaction has
     * @return the outcome, or null while it cannot be known from the reports
     * @throws IllegalStateException if two reports hold different decisions
     */
    public static Outcome outcome(Collection<ParticipantRecord.Report> reports, int participants) {
        Outcome held = null;
        int yes = 0;
        for (ParticipantRecord.Report report : reports) {
            if (report.decision() != null) {
                if (held != null && held != report.decision()) {
                    throw new IllegalStateException("participants hold different decisions: " + reports);
                }
                held = report.decision();
            }
            if (report.vote() == Vote.YES) {
                yes++;
            }
        }
        if (held != null) {
            return held;
        }
        for (ParticipantRecord.Report report : reports) {
            if (report.vote() == Vote.NO) {
                return Outcome.ABORT;
            }
        }
        // A forgotten or missing report may hide a YES and a COMMIT applied: wait for someone who knows.
        return yes == participants && reports.size() == participants ? Outcome.COMMIT : null;
    }

    /**
     * Whether {@link #outcome} of {@code reports} is a COMMIT derived from the votes, not one a
     * participant holds: the recovery then proposes it to the quorum, and takes what it orders.
     */
    public static boolean fromVotes(Collection<ParticipantRecord.Report> reports) {
        for (ParticipantRecord.Report report : reports) {
            if (report.decision() != null) {
                return false;
            }
        }
        return true;
    }
}
