package io.gtran.core;

import io.gtran.txn.Transaction;
import io.gtran.txn.TransactionConflictException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.apache.tinkerpop.gremlin.structure.util.AbstractThreadLocalTransaction;
import org.apache.tinkerpop.gremlin.structure.util.TransactionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 *
 * <p>A transaction whose thread ends without committing or rolling it back is rolled back within
 * {@link #ORPHAN_SCAN_MILLIS} of the thread's end, by this graph's orphan reaper: its locks go and
 * none of its writes survive. Gremlin Server needs this: when a session's connection closes (the
 * client closed it, the network cut it, the client died) the session ends its thread without a
 * rollback and leaves "orphaned transactions" to the graph. The reaper runs no listeners
 * registered with {@code addTransactionListener}: those belong to the thread that ended.
 */
final class GtranTransaction extends AbstractThreadLocalTransaction {
    /** How often the orphan reaper looks for open transactions whose thread has ended. */
    static final long ORPHAN_SCAN_MILLIS = 100;
    private static final Logger LOG = LoggerFactory.getLogger(GtranTransaction.class);

    private final GtranGraph graph;
    private final ThreadLocal<Scope> current = new ThreadLocal<>();
    /** Every open transaction, whatever its thread: what the orphan reaper scans. */
    private final Set<Scope> open = ConcurrentHashMap.newKeySet();
    private final LongAdder orphansRolledBack = new LongAdder();
    private final ScheduledExecutorService reaper;

    GtranTransaction(GtranGraph graph) {
        super(graph);
        this.graph = graph;
        this.reaper = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread t = new Thread(task, "gtran-orphan-reaper");
            t.setDaemon(true);
            return t;
        });
        reaper.scheduleWithFixedDelay(this::rollBackOrphans, ORPHAN_SCAN_MILLIS, ORPHAN_SCAN_MILLIS, TimeUnit.MILLISECONDS);
    }

    /**
     * One thread's running transaction and what gtran-core must undo outside the store if it aborts
     * (external-id bindings).
     */
    final class Scope {
        private final Transaction txn;
        /** The thread the transaction is bound to; only it touches the transaction while it lives. */
        private final Thread owner = Thread.currentThread();
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
            forget(scope);    // ended underneath (aborted by a conflict met elsewhere)
            scope.revert();   // and what it changed outside the store goes too
            return false;
        }
        return scope != null;
    }

    @Override
    protected void doOpen() {
        graph.requireOpen();
        Scope scope = new Scope(graph.engine.begin(graph.isolation));
        current.set(scope);
        open.add(scope);
    }

    @Override
    protected void doCommit() throws TransactionException {
        Scope scope = current.get();
        if (scope == null) {
            return;
        }
        forget(scope);
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
        forget(scope);
        try {
            scope.txn.rollback();
        } finally {
            scope.revert();
        }
    }

    private void ended(Scope scope) {
        open.remove(scope);
        if (current.get() == scope) {
            current.remove();
        }
    }

    /** This thread's transaction {@code scope} is over: neither the thread nor the reaper holds it any more. */
    private void forget(Scope scope) {
        current.remove();
        open.remove(scope);
    }

    /**
     * Rolls back every open transaction whose thread has ended, and undoes what it changed outside
     * the store. Needs no lock: a thread's last action happens-before another thread finds it dead
     * ({@link Thread#isAlive()}, JLS 17.4.4), after which nothing else touches the transaction.
     */
    void rollBackOrphans() {
        for (Scope scope : open) {
            if (scope.owner.isAlive()) {
                continue; // its thread may still commit or roll it back
            }
            if (!open.remove(scope)) {
                continue; // gone since the iteration saw it
            }
            // Nothing may escape: an exception would cancel the scheduled reaper for good.
            try {
                try {
                    if (scope.txn.isActive()) { // not so if a conflict aborted it before its thread ended
                        scope.txn.rollback();
                        orphansRolledBack.increment();
                    }
                    LOG.debug("rolled back {}: its thread {} ended with the transaction open", scope.txn, scope.owner.getName());
                } finally {
                    scope.revert();
                }
            } catch (RuntimeException e) {
                LOG.warn("could not roll back {} left open by the ended thread {}", scope.txn, scope.owner.getName(), e);
            }
        }
    }

    /** How many transactions the orphan reaper has rolled back. */
    long orphansRolledBack() {
        return orphansRolledBack.sum();
    }

    /** Stops the orphan reaper, waiting for a rollback it is running; before the graph frees the store. */
    void stopReaper() {
        reaper.shutdownNow();
        try {
            if (!reaper.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warn("the orphan reaper did not stop within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static TransactionException aborted(TransactionConflictException conflict) {
        return new TransactionAbortedException(conflict);
    }
}
