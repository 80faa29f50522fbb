package io.gtran.txn.common;

/**
 * The two kinds of value a begin/end time word of the store can hold, and how to tell them apart.
 *
 * <pre>
 *  timestamp       0 | 0 |              timestamp (62 bits)                        |
 *  transaction id  0 | 1 | node (10) |  status-table slot (20) |  sequence (32)   |
 *                 63  62  61       52  51                   32  31              0
 * </pre>
 *
 * Bit 62 alone decides: a transaction id can never be mistaken for a timestamp, and it names the
 * node that coordinates the transaction (whose status table holds its status) and the slot there.
 * Two timestamps are special: {@link #INFINITY} (a version not yet superseded) and {@link #NEVER}
 * (the begin time of an aborted version: visible to no one).
 */
public final class TxnWords {
    public static final long TXN_FLAG = 1L << 62;
    public static final int SEQUENCE_BITS = 32;
    public static final int SLOT_BITS = 20;
    public static final int NODE_BITS = 10;
    public static final int SLOT_SHIFT = SEQUENCE_BITS;
    public static final int NODE_SHIFT = SEQUENCE_BITS + SLOT_BITS;
    public static final long SEQUENCE_MASK = (1L << SEQUENCE_BITS) - 1;
    public static final int SLOT_MASK = (1 << SLOT_BITS) - 1;
    public static final int NODE_MASK = (1 << NODE_BITS) - 1;
    /** The largest number of status-table slots a node can have. */
    public static final int MAX_SLOTS = SLOT_MASK + 1;

    /** End time of a version nobody has superseded: later than every timestamp. */
    public static final long INFINITY = TXN_FLAG - 1;
    /** Begin time of an aborted version: it was never valid. */
    public static final long NEVER = Long.MIN_VALUE;

    private TxnWords() {
    }

    public static long txnId(int node, int slot, long sequence) {
        if (node < 0 || node > NODE_MASK) {
            throw new IllegalArgumentException("node out of range [0, " + NODE_MASK + "]: node=" + node);
        }
        if (slot < 0 || slot > SLOT_MASK) {
            throw new IllegalArgumentException("status-table slot out of range [0, " + SLOT_MASK + "]: slot=" + slot);
        }
        return TXN_FLAG | (long) node << NODE_SHIFT | (long) slot << SLOT_SHIFT | (sequence & SEQUENCE_MASK);
    }

    public static boolean isTxnId(long word) {
        return (word & TXN_FLAG) != 0 && word >= 0;
    }

    /** A commit or begin time, including {@link #INFINITY}; false for transaction ids and {@link #NEVER}. */
    public static boolean isTimestamp(long word) {
        return word >= 0 && (word & TXN_FLAG) == 0;
    }

    public static int node(long txnId) {
        return (int) (txnId >>> NODE_SHIFT) & NODE_MASK;
    }

    public static int slot(long txnId) {
        return (int) (txnId >>> SLOT_SHIFT) & SLOT_MASK;
    }

    public static long sequence(long txnId) {
        return txnId & SEQUENCE_MASK;
    }

    public static String toString(long word) {
        if (isTxnId(word)) {
            return "txn(" + node(word) + ":" + slot(word) + ":" + sequence(word) + ")";
        }
        if (word == INFINITY) {
            return "+inf";
        }
        if (word == NEVER) {
            return "never";
        }
        return Long.toString(word);
    }
}
