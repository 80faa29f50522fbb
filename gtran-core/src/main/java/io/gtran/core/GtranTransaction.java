package io.gtran.core;

import io.gtran.txn.Transaction;
import io.gtran.txn.TransactionConflictException;
import java.util.ArrayList;
import java.util.List;
import org.apache.tinkerpop.gremlin.structure.util.AbstractThreadLocalTransaction;
import org.apache.tinkerpop.gremlin.structure.util.TransactionException;

/**
 * The TinkerPop face of gtran's MV-OCC transactions: one gtran-txn {@link Transaction} per
 * thread, opened on first use (TinkerPop's AUTO read-write mode) or by {@link #open}, at the
 * graph's isolation level. Gremlin Server relies on the binding to the calling thread.
 *
 * <p>A conflict, met while the transaction runs or at commit, aborts it: every write is undone,
 * the thread's transaction is gone, and the caller gets a {@link TransactionAbortedException} (a
 * TinkerPop {@link TransactionException}, retryable) whose message names the conflict (its cause
 * is gtran's {@link TransactionConflictException}). The caller may retry the whole transaction.
 *
 * <p>Iterators handed out by a transaction end (report no more elements) once it commits or
 * rolls back.
 */
final class GtranTransaction extends AbstractThreadLocalTransaction {
    private final GtranGraph graph;
    private final ThreadLocal<Scope> current = new ThreadLocal<>();

    GtranTransaction(GtranGraph graph) {
        super(graph);
        this.graph = graph;
    }

    /**
     * One thread's running transaction and what gtran-core must undo outside the store if it aborts
     * (external-id bindings).
     */
    final class Scope {
        private final Transaction txn;
        private final List<Runnable> undo = new ArrayList<>(0);

        private Scope(Transaction txn) {
            this.txn = txn;
        }

        Transaction txn() {
            return txn;
        }

        /** Registers an action that reverts a change made outside the store, run if this transaction aborts. */
        void onAbort(Runnable action) {
            undo.add(action);
        }

        /**
         * The exception to throw for {@code e}, met while this transaction ran: a conflict (the
         * transaction is already aborted by then) becomes a {@link TransactionException} and ends
         * the thread's transaction; anything else is returned as is.
         */
        RuntimeException translate(RuntimeException e) {
            if (e instanceof TransactionConflictException conflict) {
                ended(this);
                revert();
                fireOnRollback();
                return aborted(conflict);
            }
            return e;
        }

        private void revert() {
            for (int i = undo.size() - 1; i >= 0; i--) {
                undo.get(i).run();
            }
            undo.clear();
        }
    }

    /** This thread's transaction, opened if none runs (AUTO mode), or the configured read-write behaviour. */
    Scope scope() {
        graph.requireOpen();
        readWrite();
        Scope scope = current.get();
        if (scope == null) {
            // MANUAL read-write mode without an open transaction: readWrite() threw already; be safe
            throw org.apache.tinkerpop.gremlin.structure.Transaction.Exceptions.transactionMustBeOpenToReadWrite();
        }
        return scope;
    }

    @Override
    public boolean isOpen() {
        Scope scope = current.get();
        if (scope != null && !scope.txn.isActive()) {
            current.remove(); // ended underneath (aborted by a conflict met elsewhere)
            scope.revert();   // and what it changed outside the store goes too
            return false;
        }
        return scope != null;
    }

    @Override
    protected void doOpen() {
        graph.requireOpen();
        current.set(new Scope(graph.engine.begin(graph.isolation)));
    }

    @Override
    protected void doCommit() throws TransactionException {
        Scope scope = current.get();
        if (scope == null) {
            return;
        }
        current.remove();
        try {
            scope.txn.commit();
        } catch (TransactionConflictException conflict) {
            scope.revert();
            fireOnRollback();
            throw aborted(conflict);
        } catch (RuntimeException e) {
            try {
                scope.txn.rollback();
            } catch (RuntimeException alsoFailed) {
                e.addSuppressed(alsoFailed); // e.g. the graph was closed underneath
            }
            scope.revert();
            fireOnRollback();
            throw new TransactionException("commit failed, transaction rolled back: " + e, e);
        }
    }

    @Override
    protected void doRollback() throws TransactionException {
        Scope scope = current.get();
        if (scope == null) {
            return;
        }
        current.remove();
        try {
            scope.txn.rollback();
        } finally {
            scope.revert();
        }
    }

    private void ended(Scope scope) {
        if (current.get() == scope) {
            current.remove();
        }
    }

    private static TransactionException aborted(TransactionConflictException conflict) {
        return new TransactionAbortedException(conflict);
    }
}
