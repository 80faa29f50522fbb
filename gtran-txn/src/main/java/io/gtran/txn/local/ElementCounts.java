package io.gtran.txn.local;

import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.TxnWords;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Multi-version counts of the vertices and of the edges per label (and of all of them), so that a
 * transaction counts a label in the time it takes to read a few words instead of visiting every
 * element ({@code g.E().hasLabel(l).count()}).
 *
 * <p>A counter is a chain of deltas, newest first, ending in a base:
 *
 * <pre>
 *  head -> [word=txn 7:12, -1] -> [word=1_041, +3] -> [word=NEVER, +2] -> [base: word=0, 271_665]
 *           validating              committed           aborted              folded
 * </pre>
 *
 * Each writing transaction adds one delta per counter it changed, with its transaction id in the
 * delta's word, before it takes its commit time; the commit phase stamps the commit time over the
 * id, an abort writes {@link TxnWords#NEVER}, both before the status-table entry is released. So a
 * delta's word is read exactly like an element's begin time word: a reader adds the deltas whose
 * word it sees as committed at or before its begin time (with optimistic pre-read and read-around
 * as for any word), and its own uncommitted delta, which the transaction keeps itself.
 *
 * <p>Folding. A delta committed at c is seen by a reader that began at b exactly when c &lt;= b. Take
 * the begin times of the running transactions, b1 &lt; b2 &lt; ... &lt; bn, and an upper bound u
 * taken before them (every later transaction begins after u): two deltas committed below u with no
 * bi between them are seen together or not at all by every running and future transaction, so a
 * run of them can be replaced by one delta with their sum (aborted ones count nothing and join any
 * run). A run below b1 is seen by everyone and becomes the new base. So the chain stays about as
 * long as the number of running transactions, even while an old one holds the GC watermark back.
 * A reader already walking a replaced run sums the same total from it, since settled nodes never
 * change.
 */
public final class ElementCounts {
    /** Deltas appended past which the appender folds (more, when the chain stays long after folding). */
    public static final int FOLD_AFTER = 64;

    private final ConcurrentHashMap<Long, Counter> counters = new ConcurrentHashMap<>();
    private final Supplier<long[]> cuts;

    /** @param cuts running transactions' begin times and an upper bound, taken when folding: {@link TransactionEngine#foldCuts} */
    public ElementCounts(Supplier<long[]> cuts) {
        this.cuts = cuts;
    }

    public static long key(ElementKind kind, long label) {
        return (long) kind.ordinal() << 32 | (label & 0xFFFF_FFFFL);
    }

    /** The counter of {@code label} ({@link ConflictKey#ANY_LABEL}: all labels) of vertices or edges, or null if nothing was ever counted there. */
    public Counter find(ElementKind kind, long label) {
        return counters.get(key(kind, label));
    }

    /** The counter of a {@link #key}, created if needed. */
    public Counter counter(long key) {
        return counters.computeIfAbsent(key, k -> new Counter(cuts));
    }

    /** Folds every counter (a GC pass calls this). */
    public void foldAll() {
        long[] now = cuts.get();
        for (Counter counter : counters.values()) {
            counter.fold(now);
        }
    }

    /** One node of a counter's chain: a delta, or the base at the end. */
    public static final class Delta {
        /** The writer's id, its commit time, NEVER if it aborted; 0 for a base. */
        public volatile long word;
        public final long delta;
        public volatile Delta next;

        public Delta(long word, long delta, Delta next) {
            this.word = word;
            this.delta = delta;
            this.next = next;
        }
    }

    /** The multi-version count of one label. */
    public static final class Counter {
        private final Supplier<long[]> cuts;
        private final AtomicReference<Delta> head = new AtomicReference<>(new Delta(0, 0, null));
        private final AtomicInteger sinceFold = new AtomicInteger();
        private volatile int foldAfter = FOLD_AFTER;
        private final ReentrantLock folding = new ReentrantLock();

        public Counter(Supplier<long[]> cuts) {
            this.cuts = cuts;
        }

        /** Adds a delta in the name of transaction {@code txnId}; returns it, for the commit or abort to settle. */
        public Delta append(long txnId, long delta) {
            Delta node = new Delta(txnId, delta, null);
            Delta first;
            do {
                first = head.get();
                node.next = first;
            } while (!head.compareAndSet(first, node));
            return node;
        }

        /** After an {@link #append} (whose delta the caller has recorded for its commit or abort): folds every so often. */
        public void foldIfDue() {
            if (sinceFold.incrementAndGet() >= foldAfter && !folding.isLocked()) {
                sinceFold.set(0); // also when no cuts can be had (a transaction being born): try again later
                fold(cuts.get());
            }
        }

        /** The newest node; a reader walks {@link Delta#next} from it down to the base (next == null). */
        public Delta head() {
            return head.get();
        }

        /**
         * Replaces each run of settled deltas that no running or future transaction tells apart by
         * one delta (see the class comment). {@code cuts}: the running transactions' begin times,
         * ascending, then the upper bound; null (a transaction being born) folds nothing. Does
         * nothing if another thread is folding this counter.
         */
        public void fold(long[] cuts) {
            if (cuts == null || head.get().next == null || !folding.tryLock()) {
                return; // nothing to fold, or another thread folds
            }
            try {
                sinceFold.set(0);
                long upper = cuts[cuts.length - 1];
                Delta first = head.get();
                Delta headNow = first;
                Delta kept = null; // the last node of the new chain; null: none yet (the head itself)
                int length = 0;
                Delta d = first;
                while (d != null) {
                    if (!settled(d.word, upper)) {
                        kept = d;
                        length++;
                        d = d.next;
                        continue;
                    }
                    // The run from d: settled deltas of one class; aborted ones join any run.
                    int runClass = -1;
                    long runWord = TxnWords.NEVER;
                    long sum = 0;
                    int runLength = 0;
                    Delta x = d;
                    while (x != null && settled(x.word, upper)) {
                        if (x.word != TxnWords.NEVER) {
                            int c = classOf(x.word, cuts);
                            if (runClass >= 0 && c != runClass) {
                                break;
                            }
                            runClass = c;
                            runWord = Math.max(runWord, x.word);
                            sum += x.delta;
                        }
                        runLength++;
                        x = x.next;
                    }
                    if (runClass >= 0 && runLength == 1) {
                        kept = d; // a lone delta (or the base alone): nothing to gain
                        length++;
                        d = x;
                        continue;
                    }
                    Delta replacement;
                    if (runClass < 0) {
                        replacement = x; // only aborted deltas: they go
                    } else if (x == null) {
                        replacement = new Delta(0, sum, null); // reaches the base: seen by all, a new base
                    } else {
                        replacement = new Delta(runWord, sum, x);
                    }
                    if (kept == null) {
                        if (!head.compareAndSet(headNow, replacement)) {
                            return; // a delta was appended meanwhile: fold the rest next time
                        }
                        headNow = replacement;
                    } else {
                        kept.next = replacement;
                    }
                    if (replacement != x) {
                        kept = replacement;
                        length++;
                    }
                    d = x;
                }
                // Folding pays for itself once the chain has grown by about its own length again.
                foldAfter = Math.max(FOLD_AFTER, 2 * length);
            } finally {
                folding.unlock();
            }
        }

        /** Committed below the bound (so no transaction beginning later can fall between), or aborted. */
        private static boolean settled(long word, long upper) {
            return word == TxnWords.NEVER || TxnWords.isTimestamp(word) && word < upper;
        }

        /** How many running transactions began before {@code time}: deltas of one class are seen by the same readers. */
        private static int classOf(long time, long[] cuts) {
            int low = 0;
            int high = cuts.length - 1; // the upper bound is not a reader
            while (low < high) {
                int mid = (low + high) >>> 1;
                if (cuts[mid] < time) {
                    low = mid + 1;
                } else {
                    high = mid;
                }
            }
            return low;
        }
    }
}
