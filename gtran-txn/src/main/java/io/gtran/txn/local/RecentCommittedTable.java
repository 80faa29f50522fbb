package io.gtran.txn.local;

import io.gtran.txn.agent.TimeSource;
import io.gtran.txn.clock.Clock;
import io.gtran.txn.common.ConflictKey;
import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;

/**
 * The node's Recent Committed Table (RCT): every transaction that took a commit time, ordered by
 * it, with the part of its write set that lives on this node and its outcome (validating,
 * committed, aborted). Validation asks it which transactions committed, or are validating, in
 * the window (begin time, commit time) of the validating transaction.
 *
 * <p>Two properties make that answer complete, where G-Tran's own code leaves a gap:
 * <ol>
 *   <li>A local commit takes its commit time and enters the table in one step ({@link
 *       #register}), so no transaction can hold a smaller commit time without being in the table.
 *   <li>A commit time handed out before its write set arrives (a remote participant's, {@link
 *       #reserve}/{@link #publish}) holds back every query above it: {@link #awaitRegisteredBelow}
 *       does not return until all commit times below the asked one are registered.
 * </ol>
 * Entries are pruned below the GC watermark (the earliest begin time of any running transaction),
 * never above it: a running transaction's window may still need them.
 */
public final class RecentCommittedTable {
    /** One transaction's row. */
    public static final class Entry {
        public final long txnId;
        public final long commitTime;
        public final Set<ConflictKey> writes;
        private volatile TxnStatus outcome = TxnStatus.VALIDATING;

        public Entry(long txnId, long commitTime, Set<ConflictKey> writes) {
            this.txnId = txnId;
            this.commitTime = commitTime;
            this.writes = writes;
        }

        /** VALIDATING until the transaction decides, then COMMITTED or ABORTED. */
        public TxnStatus outcome() {
            return outcome;
        }
    }

    private final ConcurrentSkipListMap<Long, Entry> byCommitTime = new ConcurrentSkipListMap<>();
    private final ConcurrentHashMap<Long, Entry> byTxn = new ConcurrentHashMap<>();
    /** Commit times handed out by {@link #reserve} whose write sets have not arrived. */
    private final TreeSet<Long> reserved = new TreeSet<>();
    /** Where waits read monotonic time (a deadline is on its scale). */
    private final TimeSource time;

    public RecentCommittedTable() {
        this(TimeSource.SYSTEM);
    }

    public RecentCommittedTable(TimeSource time) {
        this.time = time;
    }

    /**
     * Takes a commit time from {@code clock} and enters the transaction with its write set, in one
     * step under the table's lock. Returns the entry (status VALIDATING).
     */
    public synchronized Entry register(long txnId, Set<ConflictKey> writes, Clock clock) {
        long commitTime = clock.next();
        Entry entry = new Entry(txnId, commitTime, writes);
        byCommitTime.put(commitTime, entry);
        byTxn.put(txnId, entry);
        notifyAll();
        return entry;
    }

    /**
     * Enters a transaction another node coordinates, under the commit time its coordinator took
     * (a participant's VALIDATE). Validation here covers the gap until it arrives by reading the
     * status of the writers not entered yet (see CommitProtocol).
     */
    public synchronized Entry enter(long txnId, long commitTime, Set<ConflictKey> writes) {
        Entry entry = new Entry(txnId, commitTime, writes);
        byCommitTime.put(commitTime, entry);
        byTxn.put(txnId, entry);
        notifyAll();
        return entry;
    }

    /** Takes a commit time whose write set will follow through {@link #publish}; queries above it wait. */
    public synchronized long reserve(Clock clock) {
        long commitTime = clock.next();
        reserved.add(commitTime);
        return commitTime;
    }

    /** Enters a transaction under a commit time {@link #reserve}d earlier. */
    public synchronized Entry publish(long commitTime, long txnId, Set<ConflictKey> writes) {
        if (!reserved.remove(commitTime)) {
            throw new IllegalStateException("commit time was not reserved: commitTime=" + commitTime);
        }
        Entry entry = new Entry(txnId, commitTime, writes);
        byCommitTime.put(commitTime, entry);
        byTxn.put(txnId, entry);
        notifyAll();
        return entry;
    }

    /**
     * Waits until every commit time below {@code commitTime} that was handed out is registered.
     * Returns false if that did not happen within {@code timeoutMillis}.
     */
    public synchronized boolean awaitRegisteredBelow(long commitTime, long timeoutMillis) throws InterruptedException {
        long deadline = time.nanos() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (!reserved.isEmpty() && reserved.first() < commitTime) {
            long left = deadline - time.nanos();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    /** Entries with a commit time strictly inside (from, to), oldest first. */
    public Collection<Entry> between(long from, long to) {
        if (to <= from + 1) {
            return java.util.List.of();
        }
        return byCommitTime.subMap(from, false, to, false).values();
    }

    /** The entry of a transaction, or null if it never took a commit time here or was pruned. */
    public Entry find(long txnId) {
        return byTxn.get(txnId);
    }

    /** Records a registered transaction's outcome and wakes anyone waiting on it. */
    public void decide(Entry entry, TxnStatus outcome) {
        if (outcome != TxnStatus.COMMITTED && outcome != TxnStatus.ABORTED) {
            throw new IllegalArgumentException("an outcome is COMMITTED or ABORTED: " + outcome);
        }
        synchronized (entry) {
            entry.outcome = outcome;
            entry.notifyAll();
        }
    }

    /**
     * Waits until the entry's transaction decided; returns its outcome, or VALIDATING on timeout.
     */
    public TxnStatus awaitOutcome(Entry entry, long deadlineNanos) throws InterruptedException {
        synchronized (entry) {
            while (entry.outcome == TxnStatus.VALIDATING) {
                long left = deadlineNanos - time.nanos();
                if (left <= 0) {
                    break;
                }
                TimeUnit.NANOSECONDS.timedWait(entry, left);
            }
            return entry.outcome;
        }
    }

    /** Drops decided entries that committed before {@code watermark}. Returns how many. */
    public int pruneBelow(long watermark) {
        int pruned = 0;
        for (Entry entry : byCommitTime.headMap(watermark, false).values()) {
            if (entry.outcome() != TxnStatus.VALIDATING) {
                byCommitTime.remove(entry.commitTime, entry);
                byTxn.remove(entry.txnId, entry);
                pruned++;
            }
        }
        return pruned;
    }

    public int size() {
        return byCommitTime.size();
    }
}
