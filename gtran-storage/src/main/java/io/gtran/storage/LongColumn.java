package io.gtran.storage;

import java.util.Arrays;

/** A growing array of longs: one column of records buffered without an object per record. */
final class LongColumn {
    private long[] values = new long[16];
    private int size;

    void add(long value) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = value;
    }

    long get(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("index=" + index + " size=" + size);
        }
        return values[index];
    }

    int size() {
        return size;
    }

    /** A copy of the values, in the order added. */
    long[] toArray() {
        return Arrays.copyOf(values, size);
    }
}
