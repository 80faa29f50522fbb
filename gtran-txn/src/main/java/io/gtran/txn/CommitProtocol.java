package io.gtran.txn;

import static io.gtran.storage.MvTupleDescriptor.NO_TUPLE;
import static io.gtran.txn.common.TxnWords.INFINITY;
import static io.gtran.txn.common.TxnWords.NEVER;

import io.gtran.rdma.RegionAccessException;
import io.gtran.rdma.UnknownRegionException;
import io.gtran.storage.GraphStore;
import io.gtran.storage.MvStore;
import io.gtran.txn.commit.CommitMessenger;
import io.gtran.txn.common.CommitOutcomeUnknownException;
import io.gtran.txn.common.ConflictKey;
import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.durable.CommitLog;
import io.gtran.txn.durable.LogWriteException;
import io.gtran.txn.local.ElementCounts;
import io.gtran.txn.local.RecentCommittedTable;
import io.gtran.txn.local.StatusTable;
import io.gtran.txn.local.StatusTableDescriptor;
import io.gtran.txn.local.TxnStatus;
import io.gtran.txn.local.WriteLog;
import io.gtran.txn.protocol.Outcome;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The end of a transaction: validation, dependency waits, the commit decision and the commit or
 * abort phase that rewrites every word the transaction wrote. See {@link Transaction#commit} for
 * the steps on one node, and docs/cluster-transactions.md for a transaction with parts on other
 * nodes: the coordinator validates its own part, then asks the others to vote
 * ({@link CommitMessenger}); a participant's part is validated and stamped by {@link PartCommit}.
 */
class CommitProtocol {
    private static final Logger LOG = LoggerFactory.getLogger(CommitProtocol.class);

    final Transaction txn;
    final TransactionEngine engine;
    final GraphStore store;
    private final MvStore versions;
    final StatusTable statusTable;
    final RecentCommittedTable recentCommitted;
    final GarbageCollector gc;
    /** Null on a node alone in its cluster. */
    private final ClusterParts cluster;
    /** Validating transactions this one conflicted with (optimistic validation), by id: they must abort. */
    private final List<Long> mustAbort = new ArrayList<>();

    CommitProtocol(Transaction txn) {
        this.txn = txn;
        this.engine = txn.engine;
        this.store = txn.store;
        this.versions = store.mvStore();
        this.statusTable = engine.statusTable();
        this.recentCommitted = engine.recentCommitted();
        this.gc = engine.gc();
        this.cluster = engine.clusterParts();
    }

    /** Steps 1 to 7 of {@link Transaction#commit}; with parts on other nodes, {@link #commitAcross}. */
    void commit() {
        RemoteParts remote = txn.remote;
        if (!remote.isEmpty()) {
            commitAcross(remote);
        } else if (prepare()) {
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
        RecentCommittedTable.Entry entry = enterValidating();
        // 3. Validation of reads and scans (SR).
        if (txn.isolation() == Isolation.SERIALIZABLE && engine.config().validation) {
            validate(entry.commitTime);
        }
        return true;
    }

    /** Step 2: publishes the count deltas, takes the commit time, enters the RCT; status VALIDATING. */
    private RecentCommittedTable.Entry enterValidating() {
        int node = store.nodeId();
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
        return entry;
    }

    /**
     * Commit of a transaction with parts on other nodes. Read-only: what it pre-read there is
     * resolved there (a round trip only to parts that pre-read), and the parts are released off the
     * client's path. Otherwise this node's part is validated first (its YES is implied by VALIDATE),
     * then every other part votes in parallel; the decision is the status CAS here. The status
     * entry is freed once every part acknowledged the decision (no word anywhere names it then).
     *
     * @throws CommitOutcomeUnknownException if the votes did not come in time; the protocol decides later
     */
    private void commitAcross(RemoteParts remote) {
        CommitMessenger messenger = cluster.messenger();
        int[] nodes = remote.nodes();
        if (txn.isReadOnly()) {
            remote.resolvePreReads();
            awaitPreReadDependencies();
            txn.markCommitted(txn.beginTime());
            engine.countCommit();
            // Drops the parts (they wrote nothing, so nothing is undone); the slot goes to another
            // transaction only once every part has dropped this one (SlotSequences relies on it).
            long id = txn.id();
            messenger.release(id, nodes).whenComplete((done, failure) -> statusTable.release(id));
            return;
        }
        RecentCommittedTable.Entry entry = enterValidating();
        if (txn.isolation() == Isolation.SERIALIZABLE && engine.config().validation) {
            validate(entry.commitTime);
        }
        awaitPreReadDependencies();
        awaitMustAbort();
        logVote(entry.commitTime, nodes);
        CompletableFuture<Outcome> answer = messenger.commit(txn.id(), entry.commitTime, nodes);
        long waitMs = 2L * engine.config().remoteTimeoutMs;
        Outcome outcome;
        try {
            outcome = answer.get(waitMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | InterruptedException | ExecutionException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            txn.outcomeUnknown = true; // from here a rollback must not abort it: the protocol decides
            answer.thenAccept(decided -> finishDecided(decided, entry, nodes));
            throw new CommitOutcomeUnknownException(txn.id(), nodes, waitMs);
        }
        finishDecided(outcome, entry, nodes);
        if (outcome == Outcome.ABORT) {
            throw txn.conflict(ConflictKind.PARTICIPANT_VOTED_NO, 0, null, "a node holding part of it voted NO or was lost; its"
                    + " parts are on nodes " + Arrays.toString(nodes));
        }
    }

    /** Applies the decision here: the status CAS (the commit point) and this node's stamp, or the abort. */
    private void finishDecided(Outcome outcome, RecentCommittedTable.Entry entry, int[] nodes) {
        long commitTime = entry.commitTime;
        if (outcome == Outcome.ABORT) {
            abort();
            return;
        }
        commitPoint(entry, commitTime);
        long id = txn.id();
        cluster.committed(id, commitTime, nodes);
        cluster.messenger().acknowledged(id).whenComplete((done, failure) -> statusTable.release(id));
        gc.help();
    }

    /** Steps 4 to 7, after {@link #prepare}: dependencies, the decision, the commit phase. */
    void decide() {
        RecentCommittedTable.Entry entry = txn.registered;
        long commitTime = entry.commitTime;
        // 4. Dependencies.
        awaitPreReadDependencies();
        awaitMustAbort();
        // 4a. Nothing can abort it now: its record goes to the log before anyone sees it committed.
        logCommit(commitTime);
        // 5. The decision, and 6. the commit phase: stamp the commit time, hand superseded versions to GC.
        commitPoint(entry, commitTime);
        // 7. The status entry is no longer needed: no word names this transaction any more.
        statusTable.release(txn.id());
        gc.help();
    }

    /**
     * The coordinator's own vote: its part, on disk before the first VALIDATE leaves, since VALIDATE
     * carries its YES (docs/durability.md, "Nodes of a cluster", C1). A vote that cannot be logged
     * aborts the transaction; no other node has voted yet.
     */
    private void logVote(long commitTime, int[] participants) {
        CommitLog log = engine.commitLog();
        if (!log.logs()) {
            return;
        }
        try {
            log.vote(CommitRecords.vote(txn, commitTime, participants));
        } catch (LogWriteException e) {
            abort();
            throw new LogWriteException(txn + " did not commit (rolled back on every node, seen by no one): " + e.getMessage()
                    + "; if its vote reached the disk before the failure, a restart on this directory settles it as aborted", e);
        }
    }

    /**
     * Step 4a (docs/durability.md): the commit record, as durable as gtran.durability says before
     * this returns. A record that cannot be logged aborts the transaction.
     */
    private void logCommit(long commitTime) {
        CommitLog log = engine.commitLog();
        if (!log.logs()) {
            return;
        }
        try {
            log.commit(CommitRecords.of(txn, commitTime));
        } catch (LogWriteException e) {
            abort();
            throw new LogWriteException(txn + " did not commit here (rolled back, seen by no one): " + e.getMessage()
                    + "; if its record reached the disk before the failure, a restart on this directory brings it back", e);
        }
    }

    /**
     * The commit point of a transaction this node coordinates: its status moves from VALIDATING to
     * COMMITTED by CAS (the decision others read), its RCT entry takes the outcome, then its words
     * are stamped with the commit time.
     */
    private void commitPoint(RecentCommittedTable.Entry entry, long commitTime) {
        if (!statusTable.move(txn.id(), TxnStatus.VALIDATING, commitTime, TxnStatus.COMMITTED, commitTime)) {
            throw new IllegalStateException("status of " + txn + " changed under its owner");
        }
        recentCommitted.decide(entry, TxnStatus.COMMITTED);
        txn.markCommitted(commitTime);
        engine.countCommit();
        stamp(commitTime);
    }

    /**
     * SR validation of this node's part at {@code commitTime}: every writer here that committed or
     * is validating in (begin time, commit time) and wrote what this part read, or that it read
     * around, is a conflict (a validating one a dependency, with optimistic validation). The writers
     * are those entered in the RCT, and those of other nodes' transactions that wrote here and are
     * not entered yet: their status, read at their coordinator, says whether they are in the window
     * (EXECUTING: they will take a commit time above this one).
     */
    final void validate(long commitTime) {
        boolean complete;
        try {
            // Also a barrier: a local commit that took a smaller commit time has entered the RCT.
            complete = recentCommitted.awaitRegisteredBelow(commitTime, engine.config().dependencyWaitMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            complete = false;
        }
        if (!complete) {
            throw txn.conflict(ConflictKind.DEPENDENCY_TIMEOUT, 0, null,
                    "commit times below " + commitTime + " did not all register in time");
        }
        if (cluster != null) {
            for (Transaction writer : cluster.unenteredWriters(txn.id())) {
                checkUnentered(writer, commitTime);
            }
        }
        for (RecentCommittedTable.Entry other : recentCommitted.between(txn.beginTime(), commitTime)) {
            checkWriter(other.txnId, other.commitTime, other.outcome(), other.writes);
        }
    }

    private void checkWriter(long other, long otherCommitTime, TxnStatus outcome, Set<ConflictKey> otherWrites) {
        if (other == txn.id() || outcome == TxnStatus.ABORTED) {
            return; // ourselves, or a transaction whose writes never happened
        }
        ConflictKey common = txn.reads.firstCommon(store.nodeId(), otherWrites);
        // A version we read around while its writer executed: that writer committed (or is
        // validating) inside our window, so what we read is stale even if no key says so.
        boolean readAround = txn.visibility.skippedWriters.contains(other);
        if (common == null && !readAround) {
            return;
        }
        String detail = common == null ? "it committed a version this transaction read around" : "it wrote what this transaction read";
        if (outcome == TxnStatus.COMMITTED) {
            throw txn.conflict(ConflictKind.READ_WRITE, other, common, detail + ", committing at " + otherCommitTime);
        }
        if (!engine.config().optimisticValidation) {
            throw txn.conflict(ConflictKind.READ_WRITE, other, common, detail + " and is validating");
        }
        mustAbort.add(other); // optimistic validation: commit only if it aborts
    }

    /** Validation against another node's transaction that wrote here and has not entered this node's RCT. */
    private void checkUnentered(Transaction writer, long commitTime) {
        long deadline = engine.time().nanos() + TimeUnit.MILLISECONDS.toNanos(engine.config().dependencyWaitMs);
        while (true) {
            if (cluster.messenger().decisionHere(writer.id()) != null) {
                // Its part here is decided (by its coordinator's DECIDE, or by the recovery that settled it
                // when the coordinator was lost, which may then never answer a status read): ABORT, its
                // writes never count; COMMIT, it voted YES here, so it entered the RCT here before the
                // decision, and the RCT scan that follows checks it.
                return;
            }
            // Whether the status was read: not a sentinel value of it, as 0 is a status word
            // (EXECUTING, no commit time), the most common answer.
            boolean read;
            long status = 0;
            try {
                status = statusTable.read(writer.id());
                read = true;
            } catch (RegionAccessException | UnknownRegionException unreachable) {
                read = false; // read again until the deadline
            }
            if (read && status == StatusTable.GONE) {
                return; // decided and acknowledged everywhere, so entered here if it committed: the RCT scan sees it
            }
            if (read) {
                TxnStatus other = StatusTableDescriptor.status(status);
                long otherCommitTime = StatusTableDescriptor.commitTime(status);
                if (other == TxnStatus.EXECUTING || other == TxnStatus.ABORTED) {
                    return; // EXECUTING now: its commit time will be above ours (I4)
                }
                if (otherCommitTime != StatusTableDescriptor.PENDING_COMMIT_TIME) {
                    if (otherCommitTime > txn.beginTime() && otherCommitTime < commitTime) {
                        checkWriter(writer.id(), otherCommitTime, other, writer.writes.of(store.nodeId()));
                    }
                    return;
                }
            }
            if (engine.time().nanos() - deadline > 0) {
                throw txn.conflict(ConflictKind.DEPENDENCY_TIMEOUT, writer.id(), null,
                        "its status could not be read, or it did not take its commit time, within " + TxnConfig.DEPENDENCY_WAIT_MS
                                + "=" + engine.config().dependencyWaitMs);
            }
            LockSupport.parkNanos(50_000);
        }
    }

    /** Optimistic validation's dependencies: each must abort, or this transaction does. */
    final void awaitMustAbort() {
        for (long other : mustAbort) {
            if (awaitOutcomeOf(other) == TxnStatus.COMMITTED) {
                throw txn.conflict(ConflictKind.VALIDATION_DEPENDENCY_COMMITTED, other, null,
                        "it wrote what this transaction read and committed first");
            }
        }
    }

    /**
     * The outcome of a validating transaction: from its RCT entry here, or, while it has none (another
     * node's transaction whose VALIDATE has not arrived), from its status at its coordinator.
     */
    private TxnStatus awaitOutcomeOf(long other) {
        long deadline = engine.time().nanos() + TimeUnit.MILLISECONDS.toNanos(engine.config().dependencyWaitMs);
        while (true) {
            RecentCommittedTable.Entry entry = recentCommitted.find(other);
            if (entry != null) {
                return txn.visibility.awaitOutcome(entry, null);
            }
            if (cluster != null && cluster.messenger().decisionHere(other) == Outcome.ABORT) {
                // Its part here was aborted (by DECIDE, or by the recovery that settled it when its
                // coordinator was lost, which may then never answer a status read). A COMMIT here
                // would have come with an entry (it voted YES here), found above.
                return TxnStatus.ABORTED;
            }
            long status;
            try {
                status = statusTable.read(other);
            } catch (RegionAccessException | UnknownRegionException unreachable) {
                status = 0;
            }
            if (status == StatusTable.GONE) {
                // Finished everywhere; had it committed it would have entered here first (found above).
                RecentCommittedTable.Entry decided = recentCommitted.find(other);
                return decided != null ? decided.outcome() : TxnStatus.ABORTED;
            }
            if (status != 0) {
                TxnStatus outcome = StatusTableDescriptor.status(status);
                if (outcome == TxnStatus.COMMITTED || outcome == TxnStatus.ABORTED) {
                    return outcome;
                }
            }
            if (engine.time().nanos() - deadline > 0) {
                throw txn.conflict(ConflictKind.DEPENDENCY_TIMEOUT, other, null,
                        "it did not decide within " + TxnConfig.DEPENDENCY_WAIT_MS + "=" + engine.config().dependencyWaitMs);
            }
            LockSupport.parkNanos(50_000);
        }
    }

    void awaitPreReadDependencies() {
        for (RecentCommittedTable.Entry other : txn.visibility.preReadDependencies) {
            if (txn.visibility.awaitOutcome(other, null) == TxnStatus.ABORTED) {
                throw txn.conflict(ConflictKind.PRE_READ_DEPENDENCY_ABORTED, other.txnId, null,
                        "this transaction read its writes while it validated");
            }
        }
    }

    /** Commit phase: our id becomes the commit time in every word we wrote. */
    final void stamp(long commitTime) {
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
        if (!abortStatus(entry)) {
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
        afterUndo();
    }

    /** The status moves to ABORTED (the decision every reader consults); false if it had changed under its owner. */
    boolean abortStatus(RecentCommittedTable.Entry entry) {
        long id = txn.id();
        long pending = StatusTableDescriptor.PENDING_COMMIT_TIME;
        return entry == null
                ? statusTable.move(id, TxnStatus.EXECUTING, 0, TxnStatus.ABORTED, 0)
                        // or it failed to take its commit time (the clock gave none)
                        || statusTable.move(id, TxnStatus.VALIDATING, pending, TxnStatus.ABORTED, 0)
                : statusTable.move(id, TxnStatus.VALIDATING, entry.commitTime, TxnStatus.ABORTED, entry.commitTime);
    }

    /** After the undo: the parts elsewhere are told, the status entry freed, the layer above's abort actions run. */
    void afterUndo() {
        long id = txn.id();
        RemoteParts remote = txn.remote;
        if (remote.abortTargets().length > 0) {
            // The parts elsewhere undo theirs on DECIDE; until all have, words there name this transaction.
            cluster.messenger().abort(id, remote.abortTargets()).whenComplete((done, failure) -> statusTable.release(id));
        } else {
            statusTable.release(id);
        }
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
