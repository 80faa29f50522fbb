package io.gtran.storage;

/**
 * Sorts cells held in two parallel word arrays (cell i is {@code (w0[i], w1[i])}) into a
 * {@link RowLists}' key order, by the lists' own {@link RowLists#compare}, for
 * {@link RowLists#buildSorted}. A merge sort: n log n compares whatever the input, linear on a
 * range already in order, stable. Its scratch arrays grow to half the longest range sorted and are
 * reused, so sorting makes no object per cell. Not thread-safe.
 */
final class CellSorter {
    /** Ranges this short are insertion-sorted. */
    private static final int INSERTION_RANGE = 16;

    private final RowLists order;
    private long[] scratch0 = new long[0];
    private long[] scratch1 = new long[0];

    CellSorter(RowLists order) {
        this.order = order;
    }

    /** Sorts cells {@code from .. to - 1} of {@code w0} and {@code w1} together. */
    void sort(long[] w0, long[] w1, int from, int to) {
        int half = (to - from) / 2 + 1;
        if (scratch0.length < half) {
            scratch0 = new long[half];
            scratch1 = new long[half];
        }
        mergeSort(w0, w1, from, to);
    }

    private void mergeSort(long[] w0, long[] w1, int from, int to) {
        if (to - from <= INSERTION_RANGE) {
            insertionSort(w0, w1, from, to);
            return;
        }
        int mid = (from + to) >>> 1;
        mergeSort(w0, w1, from, mid);
        mergeSort(w0, w1, mid, to);
        if (order.compare(w0[mid - 1], w1[mid - 1], w0[mid], w1[mid]) <= 0) {
            return; // the halves are in order already
        }
        // Merge the left half, moved out to scratch, with the right half in place: the write
        // position stays below the right half's read position, so nothing unread is overwritten.
        int left = mid - from;
        System.arraycopy(w0, from, scratch0, 0, left);
        System.arraycopy(w1, from, scratch1, 0, left);
        int i = 0;
        int j = mid;
        int k = from;
        while (i < left && j < to) {
            if (order.compare(w0[j], w1[j], scratch0[i], scratch1[i]) < 0) {
                w0[k] = w0[j];
                w1[k++] = w1[j++];
            } else {
                w0[k] = scratch0[i];
                w1[k++] = scratch1[i++];
            }
        }
        System.arraycopy(scratch0, i, w0, k, left - i);
        System.arraycopy(scratch1, i, w1, k, left - i); // what is left of the right half is in place
    }

    private void insertionSort(long[] w0, long[] w1, int from, int to) {
        for (int i = from + 1; i < to; i++) {
            long a0 = w0[i];
            long a1 = w1[i];
            int j = i;
            for (; j > from && order.compare(w0[j - 1], w1[j - 1], a0, a1) > 0; j--) {
                w0[j] = w0[j - 1];
                w1[j] = w1[j - 1];
            }
            w0[j] = a0;
            w1[j] = a1;
        }
    }
}
