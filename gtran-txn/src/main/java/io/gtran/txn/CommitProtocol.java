package io.gtran.txn;

import static io.gtran.storage.MvTupleDescriptor.NO_TUPLE;
import static io.gtran.txn.TxnWords.INFINITY;
import static io.gtran.txn.TxnWords.NEVER;

import io.gtran.storage.GraphStore;
import io.gtran.storage.MvStore;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The end of a transaction: validation, dependency waits, the commit decision and the commit or
 * abort phase that rewrites every word the transaction wrote. See {@link Transaction#commit} for
 * the steps.
 */
final class CommitProtocol {
    private static final Logger LOG = LoggerFactory.getLogger(CommitProtocol.class);

    private final Transaction txn;
    private final TransactionEngine engine;
    private final GraphStore store;
    private final MvStore versions;
    private final StatusTable statusTable;
    private final RecentCommittedTable recentCommitted;
    private final GarbageCollector gc;
    /** Validating transactions this one conflicted with (optimistic validation): they must abort. */
    private final List<RecentCommittedTable.Entry> mustAbort = new ArrayList<>();

    CommitProtocol(Transaction txn) {
        this.txn = txn;
        this.engine = txn.engine;
        this.store = txn.store;
        this.versions = store.mvStore();
        this.statusTable = engine.statusTable();
        this.recentCommitted = engine.recentCommitted();
        this.gc = engine.gc();
    }

    /** Steps 1 to 7 of {@link Transaction#commit}. */
    void commit() {
        if (prepare()) {
            decide();
        }
    }

    /**
     * Steps 1 to 3: a read-only transaction finishes here (returns false); any other takes its
     * commit time, becomes VALIDATING and validates (returns true, ready for {@link #decide}).
     * Between the two, other transactions see it validating, which is what optimistic pre-read and
     * optimistic validation are about (tests hold a transaction here to exercise them).
     */
    boolean prepare() {
        // 1. Read-only: one snapshot, serializable at its begin time once what it pre-read commits.
        if (txn.isReadOnly()) {
            awaitPreReadDependencies();
            statusTable.release(txn.id());
            txn.markCommitted(txn.beginTime());
            engine.countCommit();
            return false;
        }
        int node = store.nodeId();
        for (int owner : txn.writes.nodes()) {
            if (owner != node) {
                throw new UnsupportedOperationException("transaction wrote on node " + owner
                        + "; distributed commit arrives with the cluster transport");
            }
        }
        // Count deltas go in before the commit time is taken: see ElementCounts.
        txn.publishCounts();
        // 2. Commit time and RCT entry in one step; then the status says VALIDATING.
        long pending = StatusTableDescriptor.PENDING_COMMIT_TIME;
        if (!statusTable.move(txn.id(), TxnStatus.EXECUTING, 0, TxnStatus.VALIDATING, pending)) {
            throw new IllegalStateException("status of " + txn + " changed under its owner");
        }
        RecentCommittedTable.Entry entry;
        try {
            entry = recentCommitted.register(txn.id(), txn.writes.of(node), engine.clock());
        } catch (RuntimeException clockUnavailable) {
            abort(); // VALIDATING with no commit time: readers wait on it until it is decided
            throw clockUnavailable;
        }
        txn.registered = entry;
        if (!statusTable.move(txn.id(), TxnStatus.VALIDATING, pending, TxnStatus.VALIDATING, entry.commitTime)) {
            throw new IllegalStateException("status of " + txn + " changed under its owner");
        }
        // 3. Validation of reads and scans (SR).
        if (txn.isolation() == Isolation.SERIALIZABLE && engine.config().validation) {
            validate(entry, mustAbort);
        }
        return true;
    }

    /** Steps 4 to 7, after {@link #prepare}: dependencies, the decision, the commit phase. */
    void decide() {
        RecentCommittedTable.Entry entry = txn.registered;
        long commitTime = entry.commitTime;
        // 4. Dependencies.
        awaitPreReadDependencies();
        for (RecentCommittedTable.Entry other : mustAbort) {
            if (txn.awaitOutcome(other, null) == TxnStatus.COMMITTED) {
                throw txn.conflict(ConflictKind.VALIDATION_DEPENDENCY_COMMITTED, other.txnId, null,
                        "it wrote what this transaction read and committed first, at " + other.commitTime);
            }
        }
        // 5. The decision.
        if (!statusTable.move(txn.id(), TxnStatus.VALIDATING, commitTime, TxnStatus.COMMITTED, commitTime)) {
            throw new IllegalStateException("status of " + txn + " changed under its owner");
        }
        recentCommitted.decide(entry, TxnStatus.COMMITTED);
        txn.markCommitted(commitTime);
        engine.countCommit();
        // 6. Commit phase: stamp the commit time, hand superseded versions to GC.
        stamp(commitTime);
        // 7. The status entry is no longer needed: no word names this transaction any more.
        statusTable.release(txn.id());
        gc.help();
    }

    private void validate(RecentCommittedTable.Entry self, List<RecentCommittedTable.Entry> mustAbort) {
        long commitTime = self.commitTime;
        boolean complete;
        try {
            complete = recentCommitted.awaitRegisteredBelow(commitTime, engine.config().dependencyWaitMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            complete = false;
        }
        if (!complete) {
            throw txn.conflict(ConflictKind.DEPENDENCY_TIMEOUT, 0, null,
                    "commit times below " + commitTime + " did not all register in time");
        }
        int node = store.nodeId();
        for (RecentCommittedTable.Entry other : recentCommitted.between(txn.beginTime(), commitTime)) {
            if (other.txnId == txn.id() || other.outcome() == TxnStatus.ABORTED) {
                continue; // ourselves, or a transaction whose writes never happened
            }
            ConflictKey common = txn.reads.firstCommon(node, other.writes);
            // A version we read around while its writer executed: that writer committed (or is
            // validating) inside our window, so what we read is stale even if no key says so.
            boolean readAround = txn.skippedWriters.contains(other.txnId);
            if (common == null && !readAround) {
                continue;
            }
            String detail = common == null ? "it committed a version this transaction read around" : "it wrote what this transaction read";
            if (other.outcome() == TxnStatus.COMMITTED) {
                throw txn.conflict(ConflictKind.READ_WRITE, other.txnId, common, detail + ", committing at " + other.commitTime);
            }
            if (!engine.config().optimisticValidation) {
                throw txn.conflict(ConflictKind.READ_WRITE, other.txnId, common, detail + " and is validating");
            }
            mustAbort.add(other); // optimistic validation: commit only if it aborts
        }
    }

    private void awaitPreReadDependencies() {
        for (RecentCommittedTable.Entry other : txn.preReadDependencies) {
            if (txn.awaitOutcome(other, null) == TxnStatus.ABORTED) {
                throw txn.conflict(ConflictKind.PRE_READ_DEPENDENCY_ABORTED, other.txnId, null,
                        "this transaction read its writes while it validated");
            }
        }
    }

    /** Commit phase: our id becomes the commit time in every word we wrote. */
    private void stamp(long commitTime) {
        long id = txn.id();
        WriteLog log = txn.log;
        for (WriteLog.ElementWrite w : log.created) {
            check(w.kind().table(store).compareAndSetBeginTime(w.element(), id, commitTime), w);
        }
        for (WriteLog.ElementWrite w : log.ended) {
            check(w.kind().table(store).compareAndSetEndTime(w.element(), id, commitTime), w);
            gc.deadElement(w.kind(), w.element(), commitTime);
        }
        for (ElementCounts.Delta d : txn.publishedCounts) {
            d.word = commitTime;
        }
        for (WriteLog.PropertyWrite w : log.propertyWrites()) {
            if (w.newVersion != NO_TUPLE && !MvStore.isBase(w.newVersion)) {
                check(versions.compareAndSetBeginTime(w.newVersion, id, commitTime), w.kind, w.element);
                if (w.newVersionEnded) {
                    check(versions.compareAndSetEndTime(w.newVersion, id, commitTime), w.kind, w.element);
                    gc.obsoleteVersions(w.kind, w.element, w.key, commitTime);
                }
            }
            if (w.oldVersion != NO_TUPLE) {
                check(versions.compareAndSetEndTime(w.oldVersion, id, commitTime), w.kind, w.element);
                gc.obsoleteVersions(w.kind, w.element, w.key, commitTime);
            } else if (!w.newVersionEnded && w.newVersion != NO_TUPLE && !MvStore.isBase(w.newVersion)
                    && versions.older(w.newVersion) != NO_TUPLE) {
                // A re-creation on top of a removed version: we locked nothing, but the removed
                // version is obsolete from now on. The removal's own item cannot free it if it ran
                // while our version was unstamped above it (it frees only below it), so ask again.
                gc.obsoleteVersions(w.kind, w.element, w.key, commitTime);
            }
        }
        retire();
    }

    /**
     * Aborts: status ABORTED first (the decision every reader consults), then every word we wrote
     * is undone: our versions' begin times become NEVER, the end times we locked INFINITY again.
     */
    void abort() {
        long id = txn.id();
        RecentCommittedTable.Entry entry = txn.registered;
        long pending = StatusTableDescriptor.PENDING_COMMIT_TIME;
        boolean moved = entry == null
                ? statusTable.move(id, TxnStatus.EXECUTING, 0, TxnStatus.ABORTED, 0)
                        // or it failed to take its commit time (the clock gave none)
                        || statusTable.move(id, TxnStatus.VALIDATING, pending, TxnStatus.ABORTED, 0)
                : statusTable.move(id, TxnStatus.VALIDATING, entry.commitTime, TxnStatus.ABORTED, entry.commitTime);
        if (!moved) {
            throw new IllegalStateException("status of " + txn + " changed under its owner");
        }
        if (entry != null) {
            recentCommitted.decide(entry, TxnStatus.ABORTED);
        }
        txn.markAborted();
        WriteLog log = txn.log;
        for (WriteLog.PropertyWrite w : log.propertyWrites()) {
            if (w.newVersion != NO_TUPLE && !MvStore.isBase(w.newVersion)) {
                check(versions.compareAndSetBeginTime(w.newVersion, id, NEVER), w.kind, w.element);
                if (w.newVersionEnded) {
                    versions.compareAndSetEndTime(w.newVersion, id, INFINITY); // no stale id left behind
                }
                gc.abortedVersion(w.kind, w.element, w.key, w.newVersion);
            }
            if (w.oldVersion != NO_TUPLE) {
                // May fail, rightly: once we are ABORTED another writer may take over the lock.
                versions.compareAndSetEndTime(w.oldVersion, id, INFINITY);
            }
        }
        for (WriteLog.ElementWrite w : log.ended) {
            w.kind().table(store).compareAndSetEndTime(w.element(), id, INFINITY); // likewise
        }
        long now = engine.gcTime();
        for (WriteLog.ElementWrite w : log.created) {
            check(w.kind().table(store).compareAndSetBeginTime(w.element(), id, NEVER), w);
            gc.deadElement(w.kind(), w.element(), now);
        }
        for (ElementCounts.Delta d : txn.publishedCounts) {
            d.word = NEVER;
        }
        retire();
        statusTable.release(id);
        txn.runAbortActions(); // last, as the layer above undid its own changes after a rollback
    }

    private void retire() {
        if (txn.log.retired.isEmpty()) {
            return;
        }
        // Every reader that might still hold these began before now.
        long now = engine.gcTime();
        for (int version : txn.log.retired) {
            gc.retiredVersion(version, now);
        }
    }

    private void check(boolean stamped, WriteLog.ElementWrite w) {
        check(stamped, w.kind(), w.element());
    }

    private void check(boolean stamped, ElementKind kind, long element) {
        if (!stamped) {
            // A word holding our id can only be changed by us: this is a bug, not a conflict.
            LOG.error("{} could not rewrite a word it wrote on {} {}", txn, kind.display(), io.gtran.storage.ElementIds.toString(element));
        }
    }
}
