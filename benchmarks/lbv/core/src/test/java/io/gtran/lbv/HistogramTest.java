package io.gtran.lbv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class HistogramTest {

    @Test
    void bucketsTileTheLongs() {
        long[] samples = {0, 1, 15, 16, 17, 31, 32, 33, 1000, 123_456_789, 1L << 40, Long.MAX_VALUE};
        for (long v : samples) {
            int i = Histogram.index(v);
            assertTrue(Histogram.lowerBound(i) <= v && v < Histogram.upperBound(i) || v == Long.MAX_VALUE,
                    "v=" + v + " index=" + i);
        }
        for (int i = 0; i < Histogram.index(Long.MAX_VALUE); i++) {
            assertEquals(Histogram.upperBound(i), Histogram.lowerBound(i + 1), "index=" + i);
        }
    }

    @Test
    void quantilesWithinTheBucketError() {
        SplittableRandom r = new SplittableRandom(3);
        Histogram a = new Histogram();
        Histogram b = new Histogram();
        long[] values = new long[100_000];
        for (int i = 0; i < values.length; i++) {
            values[i] = (long) Math.exp(r.nextDouble(5, 20)); // 150 ns .. 0.5 s, log-uniform
            (i % 2 == 0 ? a : b).record(values[i]);
        }
        a.add(b);
        Arrays.sort(values);
        for (double q : new double[] {0.5, 0.9, 0.99, 0.999}) {
            long exact = values[(int) Math.ceil(q * values.length) - 1];
            long estimate = a.quantileNanos(q);
            assertEquals(exact, estimate, exact / 16.0, "q=" + q);
        }
        assertEquals(values.length, a.count());
        assertEquals(values[values.length - 1], a.maxNanos());
        assertEquals(Arrays.stream(values).average().orElseThrow(), a.meanNanos(), 1e-6 * a.meanNanos());
        assertEquals(0, new Histogram().quantileNanos(0.99));
    }
}
