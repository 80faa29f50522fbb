package io.gtran.txn.local;

import io.gtran.txn.common.TxnWords;

/**
 * Layout of one Transaction Status Table entry in the node's registered status region. Other
 * nodes read entries one-sidedly; only the owning node writes them.
 *
 * <pre>
 *   0                   8                   16                  24                  32
 *   +-------------------+-------------------+-------------------+-------------------+
 *   | transaction id    | status word       | begin time        | (reserved)        |
 *   +-------------------+-------------------+-------------------+-------------------+
 *
 *   status word:  status (2) | commit time (62 bits)
 *                63       62  61                    0
 * </pre>
 *
 * The transaction id word is 0 while the entry is free; a reader checks it before and after
 * reading the status word, so an entry reused by a newer transaction is never mistaken for the
 * one the reader asked about. The begin-time word publishes the begin time of the running
 * transaction for the GC watermark: while it is being taken (which may wait out the clock's
 * uncertainty), a floor below it, marked announcing ({@link #announcing}: the floor's complement,
 * a negative word); {@link #INACTIVE} when the entry is free.
 *
 * <p>The commit time field is as wide as a timestamp in a version word ({@link TxnWords}: 62
 * bits), so it holds every timestamp a clock hands out; a synchronised clock's
 * ({@code micros << 10 | node}) passed 2^60 in 2005. {@link #PENDING_COMMIT_TIME} is legal only
 * with VALIDATING, so no status word is -1, which {@link StatusTable#GONE} uses.
 */
public final class StatusTableDescriptor {
    public static final int TXN_ID_OFFSET = 0;
    public static final int STATUS_OFFSET = TXN_ID_OFFSET + Long.BYTES;
    public static final int BEGIN_TIME_OFFSET = STATUS_OFFSET + Long.BYTES;
    public static final int RESERVED_OFFSET = BEGIN_TIME_OFFSET + Long.BYTES;
    public static final int LENGTH = RESERVED_OFFSET + Long.BYTES;

    public static final int STATUS_SHIFT = 62;
    public static final long COMMIT_TIME_MASK = (1L << STATUS_SHIFT) - 1;
    /** The commit time of a transaction that is taking one: VALIDATING only. */
    public static final long PENDING_COMMIT_TIME = COMMIT_TIME_MASK;
    /** Begin-time word of a free entry: ignored by the watermark. */
    public static final long INACTIVE = TxnWords.INFINITY;

    private StatusTableDescriptor() {
    }

    /**
     * The begin-time word of an entry whose transaction is taking its begin time, which will be
     * above {@code floor} (a timestamp, at least 0): the watermark counts the floor.
     */
    public static long announcing(long floor) {
        if (floor < 0) {
            throw new IllegalArgumentException("a floor is a timestamp, not " + floor);
        }
        return ~floor;
    }

    /** Whether begin-time word {@code word} is an {@link #announcing} one. */
    public static boolean isAnnouncing(long word) {
        return word < 0;
    }

    /** The floor an {@link #announcing} word holds; a published begin time is its own. */
    public static long floorOf(long word) {
        return word < 0 ? ~word : word;
    }

    public static long statusWord(TxnStatus status, long commitTime) {
        if (commitTime < 0 || commitTime > COMMIT_TIME_MASK) {
            throw new IllegalArgumentException("commit time out of range: commitTime=" + commitTime);
        }
        if (commitTime == PENDING_COMMIT_TIME && status != TxnStatus.VALIDATING) {
            throw new IllegalArgumentException("a pending commit time belongs to VALIDATING: status=" + status);
        }
        return (long) status.code << STATUS_SHIFT | commitTime;
    }

    public static TxnStatus status(long statusWord) {
        return TxnStatus.ofCode((int) (statusWord >>> STATUS_SHIFT) & 3);
    }

    public static long commitTime(long statusWord) {
        return statusWord & COMMIT_TIME_MASK;
    }

    public static long offset(int slot) {
        return (long) slot * LENGTH;
    }
}
