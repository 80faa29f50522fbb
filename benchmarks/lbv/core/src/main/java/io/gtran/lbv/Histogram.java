package io.gtran.lbv;

/**
 * A log-bucketed histogram of nanosecond latencies: exact below 16 ns, then 16 buckets per power
 * of two (at most 1/16 = 6.25% relative error), so under a thousand longs cover every positive long. Not
 * thread-safe: one per thread and query type, {@link #add added} together at the end.
 *
 * <p>Bucket index of {@code v >= 16} with {@code e = floor(log2 v)}:
 * {@code (e - 3) * 16 + ((v >>> (e - 4)) & 15)}; its values are
 * {@code [(16 + m) << (e - 4), (17 + m) << (e - 4))} with {@code m} the low four bits of the index.
 */
final class Histogram {
    private static final int SUB_BITS = 4;
    private static final int SUB_BUCKETS = 1 << SUB_BITS;
    private static final int BUCKETS = (64 - SUB_BITS + 1) * SUB_BUCKETS;

    private final long[] counts = new long[BUCKETS];
    private long count;
    private long sum;
    private long min = Long.MAX_VALUE;
    private long max;

    void record(long nanos) {
        long v = Math.max(0, nanos);
        counts[index(v)]++;
        count++;
        sum += v;
        min = Math.min(min, v);
        max = Math.max(max, v);
    }

    void add(Histogram other) {
        for (int i = 0; i < BUCKETS; i++) {
            counts[i] += other.counts[i];
        }
        count += other.count;
        sum += other.sum;
        min = Math.min(min, other.min);
        max = Math.max(max, other.max);
    }

    long count() {
        return count;
    }

    long maxNanos() {
        return max;
    }

    double meanNanos() {
        return count == 0 ? 0 : (double) sum / count;
    }

    /**
     * The value at quantile {@code q} (0..1): the midpoint of the bucket holding the
     * {@code ceil(q * count)}-th smallest value, kept within the recorded min and max; 0 when empty.
     */
    long quantileNanos(double q) {
        if (count == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(q * count));
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += counts[i];
            if (seen >= rank) {
                long mid = lowerBound(i) + (upperBound(i) - lowerBound(i)) / 2;
                return Math.max(min, Math.min(max, mid));
            }
        }
        return max;
    }

    static int index(long v) {
        if (v < SUB_BUCKETS) {
            return (int) v;
        }
        int e = 63 - Long.numberOfLeadingZeros(v);
        return (e - SUB_BITS + 1) * SUB_BUCKETS + (int) ((v >>> (e - SUB_BITS)) & (SUB_BUCKETS - 1));
    }

    static long lowerBound(int index) {
        if (index < SUB_BUCKETS) {
            return index;
        }
        int e = index / SUB_BUCKETS + SUB_BITS - 1;
        long m = index % SUB_BUCKETS;
        return (SUB_BUCKETS + m) << (e - SUB_BITS);
    }

    /** Exclusive. */
    static long upperBound(int index) {
        if (index < SUB_BUCKETS) {
            return index + 1;
        }
        int e = index / SUB_BUCKETS + SUB_BITS - 1;
        long m = index % SUB_BUCKETS;
        long upper = (SUB_BUCKETS + m + 1) << (e - SUB_BITS);
        return upper <= 0 ? Long.MAX_VALUE : upper;
    }
}
