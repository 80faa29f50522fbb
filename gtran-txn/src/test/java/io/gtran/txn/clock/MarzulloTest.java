package io.gtran.txn.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.txn.clock.Marzullo.Interval;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MarzulloTest {
    private static Interval i(long lo, long hi) {
        return new Interval(lo, hi, 1);
    }

    @Test
    void agreeingSourcesGiveTheirIntersection() {
        assertEquals(new Interval(11, 12, 3), Marzullo.best(List.of(i(8, 12), i(11, 13), i(10, 12))));
        assertEquals(new Interval(5, 5, 2), Marzullo.best(List.of(i(0, 5), i(5, 9))), "touching intervals meet at one point");
        assertEquals(new Interval(3, 7, 1), Marzullo.best(List.of(i(3, 7))));
    }

    @Test
    void aFaultySourceIsOutvoted() {
        assertEquals(new Interval(11, 12, 2), Marzullo.best(List.of(i(8, 12), i(11, 13), i(14, 15))));
        assertEquals(new Interval(10, 12, 3), Marzullo.best(List.of(i(8, 12), i(10, 13), i(9, 14), i(100, 200))));
    }

    @Test
    void randomIntervalsAroundOneValueAlwaysHoldIt() {
        long seed = 20261125L;
        Random random = new Random(seed);
        for (int round = 0; round < 10_000; round++) {
            long truth = random.nextInt(1_000_000);
            List<Interval> intervals = new ArrayList<>();
            int n = 1 + random.nextInt(8);
            for (int k = 0; k < n; k++) {
                intervals.add(i(truth - random.nextInt(1000), truth + random.nextInt(1000)));
            }
            Interval best = Marzullo.best(intervals);
            assertTrue(best.contains(truth), "seed=" + seed + " round=" + round + " " + intervals + " -> " + best);
            assertEquals(n, best.sources(), "seed=" + seed + " round=" + round);
        }
    }

    @Test
    void badInputIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Marzullo.best(List.of()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> i(5, 4));
        assertTrue(e.getMessage().contains("lo=5 hi=4"), e.getMessage());
    }
}
