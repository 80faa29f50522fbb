package io.gtran.core;

import io.gtran.txn.common.TransactionConflictException;
import org.apache.tinkerpop.gremlin.structure.util.TemporaryException;
import org.apache.tinkerpop.gremlin.structure.util.TransactionException;

/**
 * A gtran transaction was aborted by a conflict with another one; nothing it wrote remains and
 * the whole unit of work may be retried. It is a TinkerPop {@link TransactionException}, and a
 * {@link TemporaryException}, so Gremlin Server answers it with status 596 (retryable). The
 * message names the conflict and says what to do; {@link #conflict()} gives its details.
 *
 * <p>The conflict is not this exception's cause but a suppressed exception (its stack trace is
 * printed all the same): Gremlin Server's script engine ({@code GremlinExecutor}) fails a script
 * with the root cause of what it threw, and a root cause of gtran-txn's {@link
 * TransactionConflictException}, which knows nothing of TinkerPop, would reach script clients as
 * status 597 with the wrong advice; this exception as the root reaches them as a 596, as traversals
 * sent as bytecode do.
 *
 * <p>Three messages, one per moment the caller meets the abort:
 * <ul>
 *   <li>at commit ({@link #atCommit}): the transaction is over; retry it;
 *   <li>while it ran ({@link #whileRunning}): the thread's transaction now awaits rollback; roll
 *       back, then retry;
 *   <li>on any later read, write or commit of that transaction ({@link #awaitingRollback}): "roll
 *       back before using it again".
 * </ul>
 */
public final class TransactionAbortedException extends TransactionException implements TemporaryException {
    private static final long serialVersionUID = 1L;

    private final TransactionConflictException conflict;

    private TransactionAbortedException(String message, TransactionConflictException conflict) {
        super(message);
        this.conflict = conflict;
        addSuppressed(conflict);
    }

    /** The commit met {@code conflict}: the transaction is rolled back and over. */
    static TransactionAbortedException atCommit(TransactionConflictException conflict) {
        return new TransactionAbortedException("transaction aborted, retry it: " + conflict.getMessage(), conflict);
    }

    /** A read or write met {@code conflict}: the transaction is rolled back and awaits the caller's rollback. */
    static TransactionAbortedException whileRunning(TransactionConflictException conflict) {
        return new TransactionAbortedException("transaction aborted by a conflict (" + conflict.reason()
                + "); roll back, then retry the whole transaction", conflict);
    }

    /** A read, write or commit of a transaction that {@code conflict} aborted earlier and that was not rolled back yet. */
    static TransactionAbortedException awaitingRollback(TransactionConflictException conflict) {
        return new TransactionAbortedException("transaction aborted by a conflict (" + conflict.reason()
                + "); roll back before using it again", conflict);
    }

    /** The conflict: its kind, this and the other transaction, and the key they met on. */
    public TransactionConflictException conflict() {
        return conflict;
    }
}
