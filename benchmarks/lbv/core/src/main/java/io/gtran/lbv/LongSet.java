package io.gtran.lbv;

import java.util.Arrays;

/**
 * An open-addressing set of longs (linear probing, {@link Long#MIN_VALUE} marks an empty slot),
 * for the generators' duplicate checks: a million edges cost 16 MB here, not the ~60 MB of a
 * {@code HashSet<Long>}.
 */
final class LongSet {
    private static final long EMPTY = Long.MIN_VALUE;

    private long[] slots;
    private int size;

    LongSet(int expected) {
        int capacity = Integer.highestOneBit(Math.max(16, expected) * 2 - 1) << 1;
        slots = new long[capacity];
        Arrays.fill(slots, EMPTY);
    }

    /** Adds {@code value}; returns whether it was absent. */
    boolean add(long value) {
        if (value == EMPTY) {
            throw new IllegalArgumentException("value=" + value + " is the empty marker");
        }
        if ((size + 1) * 2 > slots.length) {
            grow();
        }
        int mask = slots.length - 1;
        int i = (int) SplitMix64.mix(value) & mask;
        while (slots[i] != EMPTY) {
            if (slots[i] == value) {
                return false;
            }
            i = (i + 1) & mask;
        }
        slots[i] = value;
        size++;
        return true;
    }

    int size() {
        return size;
    }

    private void grow() {
        long[] old = slots;
        slots = new long[old.length * 2];
        Arrays.fill(slots, EMPTY);
        size = 0;
        for (long value : old) {
            if (value != EMPTY) {
                add(value);
            }
        }
    }
}
