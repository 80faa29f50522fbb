package io.gtran.txn.local;

/**
 * A transaction's life, as its status-table entry shows it to every node. Legal changes:
 *
 * <pre>
 *  EXECUTING --commit()--&gt; VALIDATING --&gt; COMMITTED
 *      |                       |
 *      +-------&gt; ABORTED &lt;-----+
 * </pre>
 */
public enum TxnStatus {
    EXECUTING(0), VALIDATING(1), COMMITTED(2), ABORTED(3);

    public final int code;

    TxnStatus(int code) {
        this.code = code;
    }

    public static TxnStatus ofCode(int code) {
        return values()[code];
    }

    /** Whether the owner may move an entry from this status to {@code next}. */
    public boolean canMoveTo(TxnStatus next) {
        switch (this) {
            case EXECUTING:
                return next == VALIDATING || next == ABORTED;
            case VALIDATING:
                return next == VALIDATING || next == COMMITTED || next == ABORTED;
            default:
                return false; // COMMITTED and ABORTED are final
        }
    }

    /** Still able to commit: its writes lock what they wrote. */
    public boolean isLive() {
        return this == EXECUTING || this == VALIDATING;
    }
}
