package io.gtran.txn.durable;

/** A record could not be written to a node's log; the transaction it belonged to did not commit. */
public final class LogWriteException extends RuntimeException {
    public LogWriteException(String message, Throwable cause) {
        super(message, cause);
    }
}
