package io.gtran.txn.commit;

import io.gtran.txn.protocol.Outcome;
import io.gtran.txn.protocol.Vote;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The coordinator's side of one transaction's commit (docs/cluster-transactions.md, "Commit",
 * steps 3-4), for the participants other than the coordinator (the coordinator validated its own
 * part before sending VALIDATE, so its YES is implied). It decides only from final answers:
 * COMMIT when every participant voted YES (I1); ABORT on a NO, on a participant lost, or on a
 * decision a recovery already reached. When votes are late it does not guess: it asks the
 * missing participants for their frozen vote (the same fence a recovery uses, {@link
 * ParticipantRecord#recover}), so its decision is always the one a recovery would reach (I2).
 * Thread-safe.
 */
public final class CoordinatorRound {
    private final int[] participants;
    private final Map<Integer, Vote> votes = new HashMap<>();
    private final Set<Integer> lost = new HashSet<>();
    /** Participants lost while their vote was awaited: the decision is the quorum's ({@link #contest}). */
    private final Set<Integer> contested = new HashSet<>();
    private Outcome decision;

    public CoordinatorRound(int[] participants) {
        if (participants.length == 0) {
            throw new IllegalArgumentException("a commit round needs participants other than the coordinator");
        }
        this.participants = participants.clone();
    }

    public int[] participants() {
        return participants.clone();
    }

    /** A vote arrived (duplicates and votes after the decision are ignored). Returns the decision, if any. */
    public synchronized Outcome onVote(int node, Vote vote) {
        if (decision == null && isParticipant(node)) {
            Vote before = votes.putIfAbsent(node, vote);
            if (before != null && before != vote) {
                throw new IllegalStateException("node " + node + " changed its vote from " + before + " to " + vote);
            }
            decide();
        }
        return decision;
    }

    /**
     * A fenced participant's report (the answer to the coordinator's own RECOVER after a timeout).
     * One that holds no part ({@link ParticipantRecord.Report#forgotten}) cannot vote YES: while
     * this round runs, no later transaction of its slot exists for the participant to have seen,
     * so it never had a part, and a VALIDATE would find none.
     */
    public synchronized Outcome onReport(ParticipantRecord.Report report) {
        if (decision == null && isParticipant(report.node())) {
            if (report.forgotten()) {
                return onLost(report.node());
            }
            if (report.decision() != null) {
                decision = report.decision(); // a recovery decided already: the same rule, so adopt it
                return decision;
            }
            if (report.vote() != null) {
                onVote(report.node(), report.vote());
            }
        }
        return decision;
    }

    /** A participant is lost: it will never answer, so the transaction cannot commit. */
    public synchronized Outcome onLost(int node) {
        if (isParticipant(node)) {
            lost.add(node);
            decide();
        }
        return decision;
    }

    /**
     * The coordinator's own part failed before VALIDATE was sent (its vote is NO): the decision is
     * ABORT, which every participant reaches too (none of them can have been asked to vote).
     */
    public synchronized Outcome abandon() {
        if (decision == null) {
            decision = Outcome.ABORT;
        }
        return decision;
    }

    /**
     * {@code node}, whose vote this round may still lack, is lost after VALIDATE was sent: it may
     * have voted YES, and a recovery that hears every YES commits. The coordinator does not decide
     * ABORT on its own then: it proposes ABORT to the quorum, and this round takes the outcome the
     * quorum orders first ({@link #adopt}); a NO still decides ABORT at once (no recovery can commit
     * then). Returns whether the round is now contested for the first time on {@code node}'s
     * account (undecided, and {@code node} a participant without a vote here).
     */
    public synchronized boolean contest(int node) {
        if (decision != null || !isParticipant(node) || votes.containsKey(node)) {
            return false;
        }
        return contested.add(node);
    }

    /**
     * The votes stayed missing past the time a timeout allows: every participant without a vote is
     * contested as by {@link #contest}. Returns whether one was newly contested.
     */
    public synchronized boolean contestMissing() {
        boolean newly = false;
        if (decision == null) {
            for (int p : participants) {
                if (!votes.containsKey(p)) {
                    newly |= contested.add(p);
                }
            }
        }
        return newly;
    }

    /** Whether the round waits for the quorum's outcome. */
    public synchronized boolean contested() {
        return decision == null && !contested.isEmpty();
    }

    /** The quorum ordered {@code outcome} for this transaction: it is the decision, unless a NO decided before. */
    public synchronized Outcome adopt(Outcome outcome) {
        if (decision == null) {
            decision = outcome;
        } else if (decision != outcome) {
            throw new IllegalStateException("the quorum decided " + outcome + " for a round that decided " + decision + ": " + this);
        }
        return decision;
    }

    /** The votes are late: the participants to fence and ask for their frozen vote. */
    public synchronized Set<Integer> missing() {
        Set<Integer> missing = new HashSet<>();
        if (decision == null) {
            for (int p : participants) {
                if (!votes.containsKey(p) && !lost.contains(p)) {
                    missing.add(p);
                }
            }
        }
        return missing;
    }

    private void decide() {
        if (decision != null) {
            return;
        }
        if (votes.containsValue(Vote.NO) || !lost.isEmpty()) {
            decision = Outcome.ABORT;
        } else if (votes.size() == participants.length && contested.isEmpty()) {
            decision = Outcome.COMMIT;
        }
    }

    /** The decision, or null while it is pending; the client may be told it as soon as it is not null. */
    public synchronized Outcome decision() {
        return decision;
    }

    private boolean isParticipant(int node) {
        for (int p : participants) {
            if (p == node) {
                return true;
            }
        }
        return false;
    }

    @Override
    public synchronized String toString() {
        return "CoordinatorRound[participants=" + Arrays.toString(participants) + ", votes=" + votes + ", lost=" + lost
                + ", contested=" + contested + ", decision=" + decision + "]";
    }
}
