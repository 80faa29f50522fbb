package io.gtran.core;

import io.gtran.txn.Transaction;
import io.gtran.txn.common.TransactionConflictException;
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
 * <p>A conflict aborts the transaction: every write is undone, its locks go, and the caller gets a
 * {@link TransactionAbortedException} (a TinkerPop {@link TransactionException}, retryable) whose
 * message names the conflict (its cause is gtran's {@link TransactionConflictException}).
 * <ul>
 *   <li>Met at commit, the transaction is over (as a failed commit ends it in TinkerPop's
 *       TinkerTransaction): the thread has no open transaction, and the caller may retry the whole
 *       unit of work.
 *   <li>Met by a read or write while it runs, the thread's transaction stays, aborted, awaiting
 *       rollback: {@link #isOpen} answers true, and every later read, write, {@link #commit} or
 *       {@link #open} fails with "roll back before using it again" until {@link #rollback} (or
 *       {@link #close} with its default ROLLBACK behaviour) clears it, as Neo4j does. Without this
 *       a caller who went on after the error would have TinkerPop's AUTO mode open a new
 *       transaction underneath, and commit the second half of a unit of work whose first half was
 *       undone. A commit refused so leaves the transaction awaiting rollback too. Gremlin Server's
 *       own clean-ups (rollback when a sessionless request fails, a session's rollback request) run
 *       only while {@link #isOpen} is true, so they clear it.
 * </ul>
 *
 * <p>Iterators handed out by a transaction end (report no more elements) once it commits or
 * rolls back.
 *
 * <p>A transaction whose thread ends without committing or rolling it back is rolled back within
 * {@link #ORPHAN_SCAN_MILLIS} of the thread's end, by this graph's orphan reaper: its locks go and
 * none of its writes survive. Gremlin Server needs this: when a session's connection closes (the
 * client closed it, the network cut it, the client died) the session ends its thread without a
 * rollback and leaves "orphaned transactions" to the graph. The reaper runs no listeners
 * registered with {@code addTransactionListener}: those belong to the thread that ended. A
 * transaction awaiting rollback holds nothing, so it dies with its thread.
 *
 * <p>Listeners hear ROLLBACK once for a transaction a conflict aborted: from the commit that met
 * the conflict, or from the rollback that clears a transaction awaiting it.
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
    final class Scope implements TransactionScope {
        private final Transaction txn;
        /** The thread the transaction is bound to; only it touches the transaction while it lives. */
        private final Thread owner = Thread.currentThread();
        private final List<Runnable> undo = new ArrayList<>(0);
        /** The conflict that aborted this transaction while it ran; once set, it awaits rollback. */
        private TransactionConflictException abortedBy;
        /** Why a bulk write undid this transaction part-way ({@link #failedPartWay}); once set, it awaits rollback. */
        private RuntimeException failedBy;

        private Scope(Transaction txn) {
            this.txn = txn;
        }

        @Override
        public Transaction txn() {
            return txn;
        }

        /** Registers an action that reverts a change made outside the store, run if this transaction aborts. */
        void onAbort(Runnable action) {
            undo.add(action);
        }

        /**
         * The exception to throw for {@code e}, met while this transaction ran: a conflict (the
         * transaction is already aborted by then) becomes a {@link TransactionAbortedException} and
         * leaves the thread's transaction awaiting rollback; anything else is returned as is.
         */
        @Override
        public RuntimeException translate(RuntimeException e) {
            if (e instanceof TransactionConflictException conflict) {
                open.remove(this); // its locks went with the abort: nothing left for the orphan reaper
                revert();
                abortedBy = conflict;
                return TransactionAbortedException.whileRunning(conflict);
            }
            return e;
        }

        /**
         * A write of many elements ({@link GtranBulk#flush}, the bulk services) failed after writing
         * some: rolls the transaction back now and leaves it awaiting rollback, as a conflict does,
         * so that a caller who goes on cannot commit the rest of a unit of work whose first part was
         * undone. Returns {@code e}, to throw.
         */
        RuntimeException failedPartWay(RuntimeException e) {
            if (abortedBy != null || failedBy != null || !txn.isActive()) {
                return e; // undone already, and awaiting rollback
            }
            open.remove(this);
            try {
                txn.rollback();
            } catch (RuntimeException alsoFailed) {
                e.addSuppressed(alsoFailed);
            }
            revert();
            failedBy = e;
            return e;
        }

        /** Refuses a transaction that a conflict aborted, or that ended underneath, before any use. */
        private void requireRunning() {
            if (abortedBy != null) {
                throw TransactionAbortedException.awaitingRollback(abortedBy);
            }
            if (failedBy != null) {
                throw new TransactionException("a bulk write failed part-way (" + failedBy.getMessage()
                        + ") and its transaction was undone; roll back before using it again", failedBy);
            }
            if (!txn.isActive()) {
                // not through translate: a conflict that reached the caller untranslated; refuse as well
                throw new TransactionException("transaction " + txn + " ended underneath; roll back before using it again");
            }
        }

        private void revert() {
            for (int i = undo.size() - 1; i >= 0; i--) {
                undo.get(i).run();
            }
            undo.clear();
        }
    }

    /**
     * This thread's transaction, opened if none runs (AUTO mode), or the configured read-write
     * behaviour; refused with a {@link TransactionAbortedException} while it awaits rollback.
     */
    Scope scope() {
        graph.requireOpen();
        readWrite();
        Scope scope = current.get();
        if (scope == null) {
            // MANUAL read-write mode without an open transaction: readWrite() threw already; be safe
            throw org.apache.tinkerpop.gremlin.structure.Transaction.Exceptions.transactionMustBeOpenToReadWrite();
        }
        scope.requireRunning();
        return scope;
    }

    /** This thread's transaction, running or awaiting rollback, or null: opens none. */
    Scope currentScope() {
        return current.get();
    }

    /** Whether this thread has a transaction: running, or aborted by a conflict and awaiting rollback. */
    @Override
    public boolean isOpen() {
        return current.get() != null;
    }

    /** As TinkerPop's, but a transaction awaiting rollback says so rather than "already open". */
    @Override
    public void open() {
        Scope scope = current.get();
        if (scope != null) {
            scope.requireRunning();
        }
        super.open();
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
        scope.requireRunning(); // commits nothing of a transaction a conflict aborted, and leaves it awaiting rollback
        forget(scope);
        try {
            scope.txn.commit();
        } catch (TransactionConflictException conflict) {
            scope.revert();
            fireOnRollback();
            throw TransactionAbortedException.atCommit(conflict);
        } catch (io.gtran.txn.common.CommitOutcomeUnknownException unknown) {
            // Neither committed nor rolled back yet: the cluster decides it, alike everywhere. What it
            // changed outside the store stays (an index is a superset; a commit must keep it).
            throw new TransactionException(unknown.getMessage(), unknown);
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
}
