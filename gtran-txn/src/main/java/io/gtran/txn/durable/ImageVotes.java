package io.gtran.txn.durable;

import io.gtran.txn.common.TxnWords;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The votes and decisions of cross-node transactions in a replayed log (docs/durability.md,
 * "Nodes of a cluster", restart): a Vote's changes go into the {@link StoreImage} at once, with
 * what takes them back; a Decision COMMIT keeps them, an ABORT takes them back. Votes left without
 * a decision are in doubt until {@link #settle}d. Decisions of transactions this node
 * coordinated that a Released record does not follow are owed to their participants.
 */
public final class ImageVotes {
    /** A vote in doubt: its transaction, commit time, the other participants and what takes its changes back. */
    public record InDoubt(long txn, long commitTime, int[] participants, List<Runnable> undo) {
    }

    private final StoreImage image;
    private final Map<Long, InDoubt> inDoubt = new LinkedHashMap<>();
    private final Map<Long, RedoRecord.Pending> owed = new LinkedHashMap<>();
    /** Transactions whose vote and decision the log holds after the snapshot: whether each committed. */
    private final Map<Long, Boolean> decided = new HashMap<>();
    private long skipped;
    private long highestSequence;

    ImageVotes(StoreImage image) {
        this.image = image;
    }

    void apply(RedoRecord record) {
        if (record instanceof RedoRecord.Vote vote) {
            noteSequence(vote.txn());
            if (vote.commitTime() <= image.skipThrough()) {
                skipped++; // decided before the snapshot's cut, and in it if it committed
                return;
            }
            if (inDoubt.containsKey(vote.txn())) {
                throw new IllegalArgumentException("txn " + vote.txn() + " has two votes in the log");
            }
            List<Runnable> undo = new ArrayList<>();
            for (RedoRecord.Op op : vote.ops()) {
                image.apply(op, vote.commitTime(), undo);
            }
            inDoubt.put(vote.txn(), new InDoubt(vote.txn(), vote.commitTime(), vote.participants(), undo));
        } else if (record instanceof RedoRecord.Decision decision) {
            InDoubt held = inDoubt.get(decision.txn());
            if (held != null) {
                settle(decision.txn(), decision.commit());
                decided.put(decision.txn(), decision.commit());
                if (coordinated(decision.txn())) {
                    owed.put(decision.txn(), new RedoRecord.Pending(decision.txn(), held.commitTime(), held.participants(),
                            decision.commit()));
                }
            } // else its vote is in the snapshot, with the decision's effect
        } else if (record instanceof RedoRecord.Released released) {
            owed.remove(released.txn());
        } else if (record instanceof RedoRecord.Pending pending) {
            noteSequence(pending.txn());
            owed.put(pending.txn(), pending);
        } else if (record instanceof RedoRecord.SequenceCeiling ceiling) {
            highestSequence = Math.max(highestSequence, ceiling.ceiling()); // no id at or above it was given (C5')
        } else {
            throw new IllegalArgumentException("not a vote or decision record: " + record);
        }
    }

    /**
     * Applies the outcome of a vote in doubt: its changes stay (commit) or are taken back.
     *
     * @throws IllegalArgumentException if {@code txn} has no vote in doubt
     */
    public void settle(long txn, boolean commit) {
        InDoubt held = inDoubt.remove(txn);
        if (held == null) {
            throw new IllegalArgumentException("txn " + txn + " has no vote in doubt here");
        }
        if (!commit) {
            List<Runnable> undo = new ArrayList<>(held.undo());
            Collections.reverse(undo);
            undo.forEach(Runnable::run);
        }
    }

    /**
     * The transactions whose vote and decision the log holds (after the snapshot), and whether each
     * committed: a member that restarts answers a recovery of one of them with its decision, never
     * with a fresh NO.
     */
    public Map<Long, Boolean> decided() {
        return Collections.unmodifiableMap(decided);
    }

    /** The votes without a decision, in log order. */
    public List<InDoubt> inDoubt() {
        return List.copyOf(inDoubt.values());
    }

    /** Decisions of transactions this node coordinated that may not have reached every participant. */
    public List<RedoRecord.Pending> owed() {
        return List.copyOf(owed.values());
    }

    /**
     * The highest sequence of a transaction this node coordinated that the log names, or the last
     * sequence ceiling it logged if that is higher (C5'), or 0.
     */
    public long highestSequence() {
        return highestSequence;
    }

    long skipped() {
        return skipped;
    }

    private boolean coordinated(long txn) {
        return TxnWords.node(txn) == image.nodeId();
    }

    private void noteSequence(long txn) {
        if (coordinated(txn)) {
            highestSequence = Math.max(highestSequence, TxnWords.sequence(txn));
        }
    }
}
