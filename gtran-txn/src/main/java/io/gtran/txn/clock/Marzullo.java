package io.gtran.txn.clock;

import java.util.Arrays;
import java.util.List;

/**
 * Marzullo's algorithm: of several intervals that each claim to hold the true value, the smallest
 * interval that the largest number of them agree on. With no faulty source it is the intersection
 * of all; a source whose interval misses the others' is outvoted.
 */
public final class Marzullo {
    private Marzullo() {
    }

    /** A closed interval {@code [lo, hi]}, and how many sources agree on it. */
    public record Interval(long lo, long hi, int sources) {
        public Interval {
            if (lo > hi) {
                throw new IllegalArgumentException("interval with lo > hi: lo=" + lo + " hi=" + hi);
            }
        }

        public boolean contains(long value) {
            return lo <= value && value <= hi;
        }

        public long width() {
            return hi - lo;
        }
    }

    /**
     * The best interval of {@code intervals} (each {@code sources} is ignored on input).
     *
     * @throws IllegalArgumentException if there are none
     */
    public static Interval best(List<Interval> intervals) {
        if (intervals.isEmpty()) {
            throw new IllegalArgumentException("no intervals");
        }
        int n = intervals.size();
        long[] edges = new long[2 * n]; // value and kind packed: starts sort before ends at one value
        long[] values = new long[2 * n];
        Integer[] order = new Integer[2 * n];
        for (int i = 0; i < n; i++) {
            values[2 * i] = intervals.get(i).lo();
            edges[2 * i] = -1; // a start
            values[2 * i + 1] = intervals.get(i).hi();
            edges[2 * i + 1] = +1; // an end
            order[2 * i] = 2 * i;
            order[2 * i + 1] = 2 * i + 1;
        }
        // By value; at one value starts first, so intervals that only touch still overlap there.
        Arrays.sort(order, (a, b) -> values[a] != values[b] ? Long.compare(values[a], values[b]) : Long.compare(edges[a], edges[b]));
        int count = 0;
        int best = 0;
        long bestLo = 0;
        long bestHi = 0;
        for (int k = 0; k < order.length; k++) {
            int e = order[k];
            count -= (int) edges[e];
            if (count > best) {
                best = count;
                bestLo = values[e];
                bestHi = values[order[k + 1]]; // a start is never last, so k + 1 exists
            }
        }
        return new Interval(bestLo, bestHi, best);
    }
}
