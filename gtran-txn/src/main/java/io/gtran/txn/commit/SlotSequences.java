package io.gtran.txn.commit;

import io.gtran.txn.common.TxnWords;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The highest transaction sequence a node has seen in each status slot of each coordinator
 * (docs/cluster-transactions.md, "Forgetting a decided part"). A coordinator gives a slot to its
 * next transaction only once the last one's round is over, so a message about a transaction at or
 * below what was seen in its slot, for which this node holds no part, is about one it forgot (or
 * one that never reached it while a later one did): never a new one to vote on. At most one entry
 * per slot of each coordinator. Thread-safe.
 *
 * <p>Sequences are 32 bits wide and never wrap (a coordinator retires a slot whose sequences are
 * used up: {@code StatusTable}); a coordinator restarted without its data starts them again, so its
 * entries are dropped ({@link #restarted}).
 */
final class SlotSequences {
    private final Map<Long, Long> highest = new ConcurrentHashMap<>();

    private static long slotOf(long txn) {
        return txn & ~TxnWords.SEQUENCE_MASK;
    }

    /** Notes that a message about {@code txn} made a part of it here. */
    void saw(long txn) {
        highest.merge(slotOf(txn), TxnWords.sequence(txn), Math::max);
    }

    /** Whether {@code txn}'s slot has been seen here at its sequence or a later one. */
    boolean seenSince(long txn) {
        Long seen = highest.get(slotOf(txn));
        return seen != null && seen >= TxnWords.sequence(txn);
    }

    /** The highest sequence seen here in {@code txn}'s slot, or -1. */
    long highestSeen(long txn) {
        Long seen = highest.get(slotOf(txn));
        return seen == null ? -1 : seen;
    }

    /** Whether a later transaction of {@code txn}'s slot has been seen here. */
    boolean laterSeen(long txn) {
        Long seen = highest.get(slotOf(txn));
        return seen != null && seen > TxnWords.sequence(txn);
    }

    /** {@code node} restarted: its sequences start again, so what was seen of its old ones says nothing. */
    void restarted(int node) {
        highest.keySet().removeIf(slot -> TxnWords.node(slot) == node);
    }
}
