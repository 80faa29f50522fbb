package io.gtran.core.index;

import java.util.Arrays;
import java.util.function.LongPredicate;

/**
 * The ids of the vertices (or the edges) of one label, in creation order: an append-only array of
 * longs (8 bytes an element), a superset of the label's live elements. Readers take a snapshot
 * without locking; entries of elements GC has freed are dropped when a look-up finds that they
 * have piled up.
 */
final class LabelIndex {
    private long[] ids = new long[16];
    private volatile int size;

    synchronized void add(long id) {
        if (size == ids.length) {
            ids = Arrays.copyOf(ids, ids.length * 2);
        }
        ids[size] = id;
        size = size + 1; // volatile write publishes the element
    }

    /**
     * The ids for which {@code exists} holds (in the store at all: not yet freed), appended to
     * {@code out} from {@code length[0]}; returns the array and leaves the new length in
     * {@code length[0]}. Compacts when more than half of the entries name freed elements.
     */
    long[] members(LongPredicate exists, long[] out, int[] length) {
        int n = size; // read before the array: the elements up to n are published
        long[] snapshot;
        synchronized (this) {
            snapshot = ids;
        }
        int dead = 0;
        int at = length[0];
        for (int i = 0; i < n; i++) {
            long id = snapshot[i];
            if (exists.test(id)) {
                if (at == out.length) {
                    out = Arrays.copyOf(out, Math.max(16, out.length * 2));
                }
                out[at++] = id;
            } else {
                dead++;
            }
        }
        length[0] = at;
        if (dead > 64 && dead * 2 > n) {
            compact(exists);
        }
        return out;
    }

    private synchronized void compact(LongPredicate exists) {
        int kept = 0;
        for (int i = 0; i < size; i++) {
            if (exists.test(ids[i])) {
                ids[kept++] = ids[i];
            }
        }
        size = kept;
    }
}
