package io.gtran.txn.local;

import static io.gtran.storage.MvTupleDescriptor.NO_TUPLE;
import static io.gtran.txn.common.TxnWords.INFINITY;
import static io.gtran.txn.common.TxnWords.NEVER;

import io.gtran.storage.GraphStore;
import io.gtran.storage.MvStore;
import io.gtran.storage.UnknownElementException;
import io.gtran.txn.agent.TimeSource;
import io.gtran.txn.common.ConflictKey;
import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.TransactionConflictException;
import io.gtran.txn.common.TxnWords;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * What one transaction sees of the words in the store (G-Tran §4.3): MV-OCC's visibility rules
 * over begin and end time words, reading the status of the transaction a word names (one-sidedly,
 * on its coordinator's node), with optimistic pre-read of validating writers and reads around
 * executing ones. It keeps what those rules leave for validation: the pre-read dependencies and
 * the writers read around.
 */
public final class Visibility {
    /** {@link #inspect} results besides timestamps. */
    public static final long OWN = -2;
    public static final long RETRY = -3;
    public static final long LIVE_OTHER = -4;
    public static final long ABORTED_OTHER = -5;

    /** Builds the exception of a conflict and aborts the transaction it belongs to. */
    @FunctionalInterface
    public interface Conflicts {
        TransactionConflictException conflict(ConflictKind kind, long other, ConflictKey key, String detail);
    }

    private final long id;
    private final long beginTime;
    private final GraphStore store;
    private final MvStore versions;
    private final StatusTable statusTable;
    private final RecentCommittedTable recent;
    private final TimeSource time;
    private final long dependencyWaitMs;
    private final boolean preRead;
    private final Conflicts conflicts;

    /** Validating transactions whose versions this one read (optimistic pre-read): they must commit. */
    public final List<RecentCommittedTable.Entry> preReadDependencies = new ArrayList<>();
    /** Executing transactions whose versions this one read around: re-checked at validation. */
    public final Set<Long> skippedWriters = new HashSet<>();

    /** When status reads started failing (see awaitReachable), 0 while they succeed. */
    private long unreachableSince;
    /** Status of the other transaction the last {@link #inspect} met. */
    private TxnStatus otherStatus;
    /** The word the last {@link #inspectSettled} answered about. */
    private long inspectedWord;
    private long otherCommitTime;

    /**
     * The view of transaction {@code id}, begun at {@code beginTime}; a wait for another
     * transaction's status or outcome gives up after {@code dependencyWaitMs}
     * (gtran.txn.dependency-wait-ms), and {@code preRead} turns optimistic pre-read on.
     */
    public Visibility(long id, long beginTime, GraphStore store, StatusTable statusTable, RecentCommittedTable recent,
            TimeSource time, long dependencyWaitMs, boolean preRead, Conflicts conflicts) {
        this.id = id;
        this.beginTime = beginTime;
        this.store = store;
        this.versions = store.mvStore();
        this.statusTable = statusTable;
        this.recent = recent;
        this.time = time;
        this.dependencyWaitMs = dependencyWaitMs;
        this.preRead = preRead;
        this.conflicts = conflicts;
    }

    /**
     * What a begin/end time word means to this transaction: a timestamp (as is), {@link #OWN},
     * {@link #LIVE_OTHER} (another transaction still executing or validating; {@link #otherStatus}
     * and {@link #otherCommitTime} say which), {@link #ABORTED_OTHER}, or {@link #RETRY} (the word
     * named a transaction that has finished since: read the word again).
     */
    private long inspect(long word) {
        if (!TxnWords.isTxnId(word)) {
            return word; // a timestamp, INFINITY or NEVER
        }
        if (word == id) {
            return OWN;
        }
        long status;
        try {
            status = statusTable.read(word);
            unreachableSince = 0;
        } catch (io.gtran.rdma.RegionAccessException | io.gtran.rdma.UnknownRegionException unreachable) {
            awaitReachable(word, unreachable);
            return RETRY; // its node is out of reach for now: read the word again, it may have been rewritten
        }
        if (status == StatusTable.GONE) {
            return RETRY; // it finished and rewrote its words: the word now holds a time
        }
        TxnStatus other = StatusTableDescriptor.status(status);
        switch (other) {
            case COMMITTED:
                return StatusTableDescriptor.commitTime(status); // decided; words not yet rewritten
            case ABORTED:
                return ABORTED_OTHER;
            default:
                otherStatus = other;
                otherCommitTime = StatusTableDescriptor.commitTime(status);
                return LIVE_OTHER;
        }
    }

    /**
     * Called when transaction {@code other}'s coordinating node cannot be reached (closed, lost, cut
     * off) to read its status: the caller answers {@link #RETRY}, so the word is read again (a
     * recovery may have rewritten it meanwhile; a commit time or NEVER needs no status). Once
     * gtran.txn.dependency-wait-ms has passed without a status, this transaction aborts ({@link
     * ConflictKind#COORDINATOR_UNREACHABLE}): it cannot tell whether what {@code other} wrote is
     * visible, and it never guesses.
     */
    private void awaitReachable(long other, RuntimeException unreachable) {
        long now = time.nanos();
        if (unreachableSince == 0) {
            unreachableSince = now;
        } else if (now - unreachableSince > java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(dependencyWaitMs)) {
            throw conflicts.conflict(ConflictKind.COORDINATOR_UNREACHABLE, other, null, "its coordinator, node " + TxnWords.node(other)
                    + ", could not be reached for " + dependencyWaitMs + " ms (" + unreachable.getMessage()
                    + "); retry the transaction");
        }
        java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
    }

    /**
     * {@link #inspect} of the word {@code word} reads, reading the word again for as long as the
     * answer is {@link #RETRY} (the transaction it named finished between the read of the word and
     * the read of its status, and has rewritten the word since). Every write rule decides on this:
     * taking RETRY for an answer takes a concurrent commit for no conflict. A version or element
     * whose word named a transaction this one may meet is not freed while this one runs (GC waits
     * for the watermark to pass it), so reading the same word again is safe.
     * {@link #inspectedWord} is the word the answer is about (to CAS it, or to name the other
     * transaction in a conflict).
     */
    public long inspectSettled(LongSupplier word) {
        while (true) {
            long value = word.getAsLong();
            long time = inspect(value);
            if (time != RETRY) {
                inspectedWord = value;
                return time;
            }
            Thread.onSpinWait();
        }
    }

    /** The word the last {@link #inspectSettled} answered about. */
    public long inspectedWord() {
        return inspectedWord;
    }

    /**
     * The time a reader compares with its begin time for a begin ({@code beginWord}) or end time
     * word, applying optimistic pre-read to words of live transactions; {@link #RETRY} means read
     * the word again. {@code key} and {@code keyElement} name what is being read, for the conflict
     * if a wait for the writer times out.
     */
    private long readTime(long word, boolean beginWord, ConflictKey.Kind key, long keyElement) {
        long time = inspect(word);
        if (time == ABORTED_OTHER) {
            return beginWord ? NEVER : INFINITY; // its version never existed; the old one lives on
        }
        if (time != LIVE_OTHER) {
            return time;
        }
        if (otherCommitTime == StatusTableDescriptor.PENDING_COMMIT_TIME) {
            Thread.onSpinWait();
            return RETRY; // taking its commit time right now: wait to compare it with our begin time
        }
        if (otherStatus == TxnStatus.EXECUTING) {
            // Its commit time will exceed our begin time: read around it, re-check at validation.
            skippedWriters.add(word);
            return beginWord ? NEVER : INFINITY;
        }
        if (otherCommitTime > beginTime) {
            return otherCommitTime; // validating with a later commit time: invisible to us either way
        }
        // Validating with an earlier commit time: its writes belong in our snapshot if it commits.
        RecentCommittedTable.Entry entry = recent.find(word);
        if (entry == null) {
            return RETRY; // it decided and was pruned meanwhile; the caller reads the word again
        }
        // Decided here already, its entry is the truth: a participant part decides (an abort on a NO
        // vote, or a DECIDE that overtook its coordinator's status change) before it undoes or
        // stamps its words, while its coordinator's status may still say VALIDATING. Pre-reading
        // the old version's end word then would hide both versions (the new one already undone).
        if (preRead && entry.outcome() == TxnStatus.VALIDATING) {
            preReadDependencies.add(entry); // optimistic pre-read: read its version, commit only if it commits
            return otherCommitTime;
        }
        TxnStatus outcome = awaitOutcome(entry, new ConflictKey(key, keyElement, 0)); // at once if decided
        return outcome == TxnStatus.COMMITTED ? entry.commitTime : beginWord ? NEVER : INFINITY;
    }

    public TxnStatus awaitOutcome(RecentCommittedTable.Entry entry, ConflictKey key) {
        long deadline = time.nanos() + dependencyWaitMs * 1_000_000L;
        TxnStatus outcome;
        try {
            outcome = recent.awaitOutcome(entry, deadline);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw conflicts.conflict(ConflictKind.DEPENDENCY_TIMEOUT, entry.txnId, key, "interrupted while waiting for it to decide");
        }
        if (outcome == TxnStatus.VALIDATING) {
            throw conflicts.conflict(ConflictKind.DEPENDENCY_TIMEOUT, entry.txnId, key,
                    "it did not decide within " + "gtran.txn.dependency-wait-ms=" + dependencyWaitMs);
        }
        return outcome;
    }

    public long readBegin(ElementKind kind, long element) {
        while (true) { // no lambda: the read path allocates nothing
            long t = readTime(kind.table(store).beginTime(element), true, ConflictKey.Kind.ELEMENT, element);
            if (t != RETRY) {
                return t;
            }
        }
    }

    private long readEnd(ElementKind kind, long element) {
        while (true) {
            long t = readTime(kind.table(store).endTime(element), false, ConflictKey.Kind.ELEMENT, element);
            if (t != RETRY) {
                return t;
            }
        }
    }

    /**
     * The time a reader compares with its begin time for count delta {@code delta}'s word (see
     * {@link #readTime}; {@code key} and {@code label} name the label's scan key), reading the
     * word again for as long as the answer is {@link #RETRY}.
     */
    public long readDelta(ElementCounts.Delta delta, ConflictKey.Kind key, long label) {
        while (true) { // no lambda: a count reads every delta of its counter
            long t = readTime(delta.word, true, key, label);
            if (t != RETRY) {
                return t;
            }
        }
    }

    /** Whether the element exists in this transaction's snapshot (its own writes included). */
    public boolean visible(ElementKind kind, long element) {
        try {
            long begin = readBegin(kind, element);
            if (begin == OWN) {
                return readEnd(kind, element) != OWN; // created here, unless deleted here too
            }
            if (begin == NEVER || begin > beginTime) {
                return false; // aborted, still executing, or created after our snapshot
            }
            long end = readEnd(kind, element);
            return end != OWN && end > beginTime; // not deleted by us, nor before our snapshot
        } catch (UnknownElementException gone) {
            return false; // freed by GC: dead to every running transaction
        }
    }

    /** The version of a property this transaction sees, or NO_TUPLE. The element must be visible. */
    public int visibleVersion(ElementKind kind, long element, int key) {
        int version = kind.table(store).propertyVersion(element, key);
        while (version != NO_TUPLE) {
            if (MvStore.isBase(version)) {
                return version; // a base version lives exactly as long as its (visible) element
            }
            long begin = readVersionTime(version, true, kind, element);
            if (begin == OWN) {
                return readVersionTime(version, false, kind, element) == OWN ? NO_TUPLE : version; // our own write
            }
            if (begin != NEVER && begin < beginTime) {
                // The newest version that began before our snapshot: older ones ended by its begin
                // time, so it is visible or nothing is. (GC relies on readers stopping here.)
                long end = readVersionTime(version, false, kind, element);
                return end != OWN && end > beginTime ? version : NO_TUPLE;
            }
            version = versions.older(version); // aborted, uncommitted, or newer than our snapshot
        }
        return NO_TUPLE;
    }

    private long readVersionTime(int version, boolean beginWord, ElementKind kind, long element) {
        while (true) {
            long word = beginWord ? versions.beginTime(version) : versions.endTime(version);
            long t = readTime(word, beginWord, ConflictKey.Kind.ELEMENT, element);
            if (t != RETRY) {
                return t;
            }
        }
    }
}
