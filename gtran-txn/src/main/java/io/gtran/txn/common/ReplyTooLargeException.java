package io.gtran.txn.common;

/**
 * Another member's answer to an operation would not fit in one message (the fabric's {@code
 * MAX_TRANSFER_BYTES}, 16 MiB): for example the properties of an element that together hold more.
 * The operation read but changed nothing there; what asked may ask for less at a time (a batch
 * split in two, one property at a time).
 */
public final class ReplyTooLargeException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public ReplyTooLargeException(String message) {
        super(message);
    }
}
