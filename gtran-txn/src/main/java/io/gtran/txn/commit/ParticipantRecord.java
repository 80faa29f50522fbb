package io.gtran.txn.commit;

import io.gtran.txn.protocol.Outcome;
import io.gtran.txn.protocol.Vote;
import java.util.Arrays;
import java.util.function.Supplier;

/**
 * One participant's record of one transaction's commit (docs/cluster-transactions.md): its vote,
 * once given, its fence, and the decision once known. Every method is idempotent: a retried
 * VALIDATE gets the vote already given, a repeated DECIDE is acknowledged again, a second recovery
 * reads the same frozen vote. Thread-safe.
 */
public final class ParticipantRecord {
    /**
     * What a participant tells a recovery: its vote (null if none) and the decision it holds (null
     * if none); or, {@code forgotten}, that it holds no part and cannot say ({@link SlotSequences}).
     */
    public record Report(int node, Vote vote, Outcome decision, boolean forgotten) {
        public Report(int node, Vote vote, Outcome decision) {
            this(node, vote, decision, false);
        }

        /** The report of a participant that forgot the transaction, or never had a part of it. */
        public static Report forgottenAt(int node) {
            return new Report(node, null, null, true);
        }
    }

    private final int node;
    private int[] participants; // known once VALIDATE or RECOVER named them
    private Vote vote;
    /** Volatile: read without the lock ({@link #decision}), which a validation in progress holds for long. */
    private volatile Outcome decision;
    private boolean fenced;

    public ParticipantRecord(int node) {
        this.node = node;
    }

    /** Whether operations of the transaction may still run here: not fenced, not voted, not decided. */
    public synchronized boolean acceptsOperations() {
        return !fenced && vote == null && decision == null;
    }

    /**
     * VALIDATE: the vote, from {@code validation} the first time (unless fenced first: then NO). A
     * participant that holds a decision answers with it (YES for a commit: it can only have
     * committed if every vote was YES).
     */
    public synchronized Vote validate(int[] allParticipants, Supplier<Vote> validation) {
        learn(allParticipants);
        if (decision != null) {
            return decision == Outcome.COMMIT ? Vote.YES : Vote.NO;
        }
        if (vote == null) {
            vote = fenced ? Vote.NO : validation.get();
        }
        return vote;
    }

    /**
     * A restart found this node's YES vote in its log without a decision: the vote holds, and the
     * record is fenced (no operation of the transaction may run here any more).
     */
    public synchronized void restoreYes(int[] allParticipants) {
        learn(allParticipants);
        vote = Vote.YES;
        fenced = true;
    }

    /** RECOVER: fences the record (a participant that had not voted now holds NO) and reports it. */
    public synchronized Report recover(int[] allParticipants) {
        learn(allParticipants);
        fenced = true;
        if (vote == null && decision == null) {
            vote = Vote.NO;
        }
        return new Report(node, vote, decision);
    }

    /**
     * DECIDE: records the outcome (idempotent) and fences the record.
     *
     * @throws IllegalStateException if a different outcome was recorded: the protocol's agreement broke
     */
    public synchronized void decide(Outcome outcome) {
        if (decision != null && decision != outcome) {
            throw new IllegalStateException("conflicting decisions at node " + node + ": had " + decision + ", told " + outcome);
        }
        if (outcome == Outcome.COMMIT && vote != Vote.YES) {
            throw new IllegalStateException("told to commit at node " + node + " without a YES vote: vote=" + vote);
        }
        decision = outcome;
        fenced = true;
    }

    /** The coordinator is lost before VALIDATE reached this participant: it cannot have committed. */
    public synchronized Outcome abandonIfUnvalidated() {
        if (participants == null && decision == null) {
            fenced = true;
            vote = vote == null ? Vote.NO : vote;
            decision = Outcome.ABORT;
        }
        return decision;
    }

    private void learn(int[] allParticipants) {
        if (participants == null && allParticipants != null) {
            participants = allParticipants.clone();
        }
    }

    public synchronized int[] participants() {
        return participants == null ? null : participants.clone();
    }

    public synchronized Vote vote() {
        return vote;
    }

    /** The decision, or null; never waits (the lock may be held by a validation in progress). */
    public Outcome decision() {
        return decision;
    }

    public int node() {
        return node;
    }

    @Override
    public synchronized String toString() {
        return "ParticipantRecord[node=" + node + ", participants=" + Arrays.toString(participants) + ", vote=" + vote
                + ", decision=" + decision + (fenced ? ", fenced" : "") + "]";
    }
}
