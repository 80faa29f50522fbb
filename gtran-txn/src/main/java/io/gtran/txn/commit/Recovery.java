package io.gtran.txn.commit;

import io.gtran.txn.protocol.Outcome;
import io.gtran.txn.protocol.Vote;
import java.util.Collection;

/**
 * The outcome a recovery reaches from the participants' reports, once every participant is fenced
 * (docs/cluster-transactions.md, "Recovery when the coordinator is lost"): a decision any of them
 * holds; else COMMIT only if every participant reported a YES vote; else ABORT. By the protocol's
 * invariants (the coordinator commits only on all YES; it aborts only on a NO or after fencing
 * every participant whose vote it lacked) this is the outcome the coordinator reached or would
 * have reached. A participant that forgot the transaction ({@link ParticipantRecord.Report#forgotten})
 * says nothing of its vote: without a decision from another participant, there is no outcome
 * yet, never a presumed one.
 */
public final class Recovery {
    private Recovery() {
    }

    /**
     * @param reports one report per participant that answered
     * @param participants how many participants the transaction has; a missing report (a lost
     *                     participant) counts as no YES
     * @return the outcome, or null if a participant forgot the transaction and none holds a decision
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
            if (report.forgotten()) {
                return null; // it may have voted YES and applied a COMMIT: wait for someone who knows
            }
        }
        return yes == participants && reports.size() == participants ? Outcome.COMMIT : Outcome.ABORT;
    }
}
