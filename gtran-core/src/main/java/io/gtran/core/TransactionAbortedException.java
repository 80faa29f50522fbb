package io.gtran.core;

import io.gtran.txn.TransactionConflictException;
import org.apache.tinkerpop.gremlin.structure.util.TemporaryException;
import org.apache.tinkerpop.gremlin.structure.util.TransactionException;

/**
 * A gtran transaction was aborted by a conflict with another one; nothing it wrote remains and
 * the whole unit of work may be retried. It is a TinkerPop {@link TransactionException}, and a
 * {@link TemporaryException}, so Gremlin Server answers it with status 596 (retryable). The
 * message names the conflict; {@link #conflict()} gives its details.
 */
public final class TransactionAbortedException extends TransactionException implements TemporaryException {
    private static final long serialVersionUID = 1L;

    TransactionAbortedException(TransactionConflictException conflict) {
        super("transaction aborted, retry it: " + conflict.getMessage(), conflict);
    }

    /** The conflict: its kind, this and the other transaction, and the key they met on. */
    public TransactionConflictException conflict() {
        return (TransactionConflictException) getCause();
    }
}
