package io.gtran.txn.common;


/**
 * A transaction was aborted by concurrency control. Nothing it wrote is visible to anyone; it may
 * be retried. The message names the conflict kind, this transaction, the other transaction where
 * there is one, and the item concerned (property keys and labels by name).
 */
public final class TransactionConflictException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ConflictKind kind;
    private final long transaction;
    private final long otherTransaction;
    private final transient ConflictKey key;
    private final String reason;
    private final String on;
    private final String detail;

    /** {@code on} describes {@code key} for the message (property keys and labels by name), or is null. */
    public TransactionConflictException(ConflictKind kind, long transaction, long otherTransaction, ConflictKey key, String on,
            String detail) {
        super("transaction aborted: " + reason(kind, transaction, otherTransaction, on, detail) + "; retry the transaction");
        this.reason = reason(kind, transaction, otherTransaction, on, detail);
        this.on = on;
        this.detail = detail;
        this.kind = kind;
        this.transaction = transaction;
        this.otherTransaction = otherTransaction;
        this.key = key;
    }

    private static String reason(ConflictKind kind, long transaction, long other, String on, String detail) {
        StringBuilder b = new StringBuilder("conflict=").append(kind)
                .append(" txn=").append(TxnWords.toString(transaction));
        if (other != 0) {
            b.append(" other=").append(TxnWords.toString(other));
        }
        if (on != null) {
            b.append(" on=").append(on);
        }
        if (detail != null) {
            b.append(" (").append(detail).append(')');
        }
        return b.toString();
    }

    /**
     * The conflict without the advice around it, for a layer above that words its own: {@code
     * conflict=KIND txn=... other=... on=... (detail)}, as in the message.
     */
    public String reason() {
        return reason;
    }

    public ConflictKind kind() {
        return kind;
    }

    public long transaction() {
        return transaction;
    }

    /** The transaction it conflicted with, or 0 if none is known. */
    public long otherTransaction() {
        return otherTransaction;
    }

    /** The item, described, or null (for sending the conflict to another node). */
    public String on() {
        return on;
    }

    /** The detail, or null. */
    public String detail() {
        return detail;
    }

    /** The item the conflict was on, or null. */
    public ConflictKey key() {
        return key;
    }
}
