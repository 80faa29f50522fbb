package io.gtran.txn;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

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
 * <p>Folding: the oldest deltas whose words are all commit times below the GC watermark (or
 * NEVER) are visible to every running and future transaction; they are summed into a new base that
 * replaces them. A reader already walking the old tail sums the same total from it, since nodes
 * never change once settled.
 */
final class ElementCounts {
    /** Deltas appended past which the appender folds (the threshold doubles while nothing can fold). */
    static final int FOLD_AFTER = 64;

    private final ConcurrentHashMap<Long, Counter> counters = new ConcurrentHashMap<>();
    private final LongSupplier watermark;

    /** @param watermark the GC watermark (see {@link TransactionEngine#watermark}), taken when folding */
    ElementCounts(LongSupplier watermark) {
        this.watermark = watermark;
    }

    static long key(ElementKind kind, long label) {
        return (long) kind.ordinal() << 32 | (label & 0xFFFF_FFFFL);
    }

    /** The counter of {@code label} ({@link ConflictKey#ANY_LABEL}: all labels) of vertices or edges, or null if nothing was ever counted there. */
    Counter find(ElementKind kind, long label) {
        return counters.get(key(kind, label));
    }

    Counter counter(ElementKind kind, long label) {
        return counters.computeIfAbsent(key(kind, label), k -> new Counter(watermark));
    }

    /** Folds every counter up to the current watermark (a GC pass calls this). */
    void foldAll(long watermark) {
        for (Counter counter : counters.values()) {
            counter.fold(watermark);
        }
    }

    /** One node of a counter's chain: a delta, or the base at the end. */
    static final class Delta {
        /** The writer's id, its commit time, NEVER if it aborted; 0 for a base. */
        volatile long word;
        final long delta;
        volatile Delta next;

        Delta(long word, long delta, Delta next) {
            this.word = word;
            this.delta = delta;
            this.next = next;
        }
    }

    /** The multi-version count of one label. */
    static final class Counter {
        private final LongSupplier watermark;
        private final AtomicReference<Delta> head = new AtomicReference<>(new Delta(0, 0, null));
        private final AtomicInteger sinceFold = new AtomicInteger();
        private volatile int foldAfter = FOLD_AFTER;
        private final ReentrantLock folding = new ReentrantLock();

        Counter(LongSupplier watermark) {
            this.watermark = watermark;
        }

        /** Adds a delta in the name of transaction {@code txnId}; returns it, for the commit or abort to settle. */
        Delta append(long txnId, long delta) {
            Delta node = new Delta(txnId, delta, null);
            Delta first;
            do {
                first = head.get();
                node.next = first;
            } while (!head.compareAndSet(first, node));
            return node;
        }

        /** After an {@link #append} (whose delta the caller has recorded for its commit or abort): folds every so often. */
        void foldIfDue() {
            if (sinceFold.incrementAndGet() >= foldAfter) {
                fold(watermark.getAsLong());
            }
        }

        /** The newest node; a reader walks {@link Delta#next} from it down to the base (next == null). */
        Delta head() {
            return head.get();
        }

        /**
         * Sums the settled tail below {@code watermark} into a new base. Does nothing if another
         * thread is folding this counter.
         */
        void fold(long watermark) {
            if (head.get().next == null || !folding.tryLock()) {
                return; // nothing but the base, or another thread folds
            }
            try {
                sinceFold.set(0);
                // The last unsettled node before the tail; null if the tail starts at the head.
                Delta first = head.get();
                Delta lastUnsettled = null;
                int unsettled = 0;
                for (Delta d = first; d.next != null; d = d.next) {
                    if (!settledBelow(d.word, watermark)) {
                        lastUnsettled = d;
                        unsettled++;
                    }
                }
                Delta tail = lastUnsettled == null ? first : lastUnsettled.next;
                if (tail.next != null) { // more than the base alone: fold
                    long sum = 0;
                    for (Delta d = tail; d != null; d = d.next) {
                        if (d.word != TxnWords.NEVER) {
                            sum += d.delta;
                        }
                    }
                    Delta base = new Delta(0, sum, null);
                    if (lastUnsettled != null) {
                        lastUnsettled.next = base;
                    } else {
                        head.compareAndSet(first, base); // fails if a delta was appended meanwhile: fold next time
                    }
                }
                // While old writers keep deltas unsettled, fold less often rather than rescan them each time.
                foldAfter = Math.max(FOLD_AFTER, 2 * unsettled);
            } finally {
                folding.unlock();
            }
        }

        private static boolean settledBelow(long word, long watermark) {
            return word == TxnWords.NEVER || TxnWords.isTimestamp(word) && word < watermark;
        }
    }
}
