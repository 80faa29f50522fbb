package io.gtran.storage;

import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Striped sequence locks guarding row-lists.
 *
 * <p>A writer makes the stripe's sequence odd for the duration of its change; a reader records
 * the (even) sequence, reads, and accepts what it read only if the sequence is unchanged.
 * Readers never block writers and never write shared memory. Stripes are spaced a cache line
 * apart. A list's stripe is chosen from its owner, so unrelated lists rarely share one; when they
 * do, the only cost is an occasional reader retry.
 *
 * <p>Not re-entrant: a thread must not take a second stripe while holding one.
 */
final class SeqLocks {
    private static final int STRIDE = 8; // longs per cache line

    private final AtomicLongArray words;
    private final int mask;

    SeqLocks(int stripes) {
        if (stripes <= 0 || Integer.bitCount(stripes) != 1) {
            throw new IllegalArgumentException("stripes must be a power of two: stripes=" + stripes);
        }
        this.words = new AtomicLongArray(stripes * STRIDE);
        this.mask = stripes - 1;
    }

    /**
     * The stripe of a list: consecutive owner slots get consecutive stripes, so a scan over owners
     * in slot order walks the stripe table front to back, and owners created one after another
     * never share one; each kind of list starts at its own offset.
     */
    int stripe(int ownerKind, int ownerSlot) {
        return ((ownerSlot + ownerKind * 0x9E37) & mask) * STRIDE;
    }

    /** Spins until the stripe is free, makes it odd, and returns the odd value to pass to {@link #unlock}. */
    long lock(int stripe) {
        while (true) {
            long seq = words.get(stripe);
            if ((seq & 1) == 0 && words.compareAndSet(stripe, seq, seq + 1)) {
                return seq + 1;
            }
            Thread.onSpinWait();
        }
    }

    void unlock(int stripe, long lockedSeq) {
        words.lazySet(stripe, lockedSeq + 1);
    }

    /** Waits out any writer and returns the even sequence a reader validates against. */
    long beginRead(int stripe) {
        while (true) {
            long seq = words.get(stripe);
            if ((seq & 1) == 0) {
                return seq;
            }
            Thread.onSpinWait();
        }
    }

    /** True when nothing was written under the stripe since {@code seq} was read. */
    boolean validate(int stripe, long seq) {
        VarHandle.acquireFence();
        return words.get(stripe) == seq;
    }
}
