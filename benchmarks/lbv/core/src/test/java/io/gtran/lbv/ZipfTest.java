package io.gtran.lbv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.BitSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The Zipf ranks follow r^-theta / zeta(n, theta); Scatter is a bijection. Seeded, so exact. */
@Timeout(60)
class ZipfTest {
    private static final int DRAWS = 400_000;

    /**
     * Every rank of a small n is drawn as often as its probability says: the chi-square statistic
     * over the n ranks stays under the 0.999 quantile of chi-square with n - 1 degrees of freedom.
     */
    @ParameterizedTest
    @CsvSource({"10, 0.5", "10, 0.99", "10, 1.0", "10, 1.2", "50, 0.99", "50, 2.5", "2, 0.99", "1, 0.99"})
    void smallDomainsMatchTheDistributionRankByRank(int n, double theta) {
        Zipf zipf = new Zipf(n, theta);
        SplitMix64 random = new SplitMix64(17);
        long[] counts = new long[n];
        for (int i = 0; i < DRAWS; i++) {
            counts[(int) zipf.next(random)]++;
        }
        double zeta = zeta(n, theta);
        double chiSquare = 0;
        for (int r = 0; r < n; r++) {
            double expected = DRAWS * Math.pow(r + 1, -theta) / zeta;
            chiSquare += (counts[r] - expected) * (counts[r] - expected) / expected;
        }
        // 0.999 quantiles of chi-square: 1 df 10.83, 9 df 27.88, 49 df 85.35
        double limit = n == 1 ? 1e-9 : n == 2 ? 10.83 : n == 10 ? 27.88 : 85.35;
        assertTrue(chiSquare <= limit, "n=" + n + " theta=" + theta + " chi2=" + chiSquare);
    }

    /** On LBV-sized domains the head of the distribution gets its share: rank 0 about 1/zeta(n). */
    @ParameterizedTest
    @CsvSource({"272000, 0.8", "272000, 0.99", "272000, 1.0", "272000, 1.2", "1000000, 0.99"})
    void theTopRanksGetTheirShareOfALargeDomain(long n, double theta) {
        Zipf zipf = new Zipf(n, theta);
        SplitMix64 random = new SplitMix64(5);
        long top = 0;
        long topTen = 0;
        for (int i = 0; i < DRAWS; i++) {
            long r = zipf.next(random);
            assertTrue(r >= 0 && r < n, "rank=" + r);
            top += r == 0 ? 1 : 0;
            topTen += r < 10 ? 1 : 0;
        }
        double zeta = zeta(n, theta);
        double p = 1 / zeta;
        double pTen = zeta(10, theta) / zeta;
        // five standard deviations of a binomial share
        assertEquals(p, (double) top / DRAWS, 5 * Math.sqrt(p * (1 - p) / DRAWS), "top share, theta=" + theta);
        assertEquals(pTen, (double) topTen / DRAWS, 5 * Math.sqrt(pTen * (1 - pTen) / DRAWS), "top-ten share, theta=" + theta);
    }

    /** Zero skew is SplitMix64's own uniform draw, draw for draw. */
    @Test
    void thetaZeroIsTheUniformDraw() {
        Zipf zipf = new Zipf(2706, 0);
        SplitMix64 a = new SplitMix64(9);
        SplitMix64 b = new SplitMix64(9);
        for (int i = 0; i < 1000; i++) {
            assertEquals(b.nextLong(2706), zipf.next(a));
        }
    }

    /** A draw takes few tries: rejection-inversion accepts most first points whatever n and theta. */
    @ParameterizedTest
    @ValueSource(doubles = {0.01, 0.5, 0.99, 1.0, 1.5, 4.9})
    void drawsTakeFewRandomNumbers(double theta) {
        Zipf zipf = new Zipf(1_000_000, theta);
        SplitMix64 random = new SplitMix64(3);
        for (int i = 0; i < 100_000; i++) {
            zipf.next(random);
        }
        long next = random.nextLong();
        SplitMix64 replay = new SplitMix64(3);
        long used = 0;
        while (replay.nextLong() != next) { // how many numbers the draws took
            used++;
        }
        assertTrue(used < 110_000, "theta=" + theta + " used " + used + " random numbers for 100000 draws");
    }

    @Test
    void badArgumentsAreNamed() {
        assertMessage("n=0", () -> new Zipf(0, 1));
        assertMessage("theta=-0.1", () -> new Zipf(5, -0.1));
        assertMessage("theta=NaN", () -> new Zipf(5, Double.NaN));
        assertMessage("rank=5", () -> new Scatter(5).apply(5));
    }

    private static void assertMessage(String part, org.junit.jupiter.api.function.Executable bad) {
        String message = assertThrows(IllegalArgumentException.class, bad).getMessage();
        assertTrue(message.contains(part), message + " lacks " + part);
    }

    /** Scatter maps [0, n) onto itself one to one, for every small n (powers of two and not). */
    @Test
    void scatterIsABijectionOfSmallDomains() {
        for (int n = 1; n <= 1100; n++) {
            Scatter scatter = new Scatter(n);
            BitSet seen = new BitSet(n);
            for (int r = 0; r < n; r++) {
                long id = scatter.apply(r);
                assertTrue(id >= 0 && id < n, "n=" + n + " rank=" + r + " id=" + id);
                assertTrue(!seen.get((int) id), "n=" + n + " id=" + id + " twice");
                seen.set((int) id);
            }
        }
    }

    /** The hot ranks are not the low ids: the top hundred of 272K land all over the id range. */
    @Test
    void scatterSpreadsTheTopRanks() {
        Scatter scatter = new Scatter(272_000);
        int low = 0;
        int[] tenths = new int[10];
        for (int r = 0; r < 100; r++) {
            long id = scatter.apply(r);
            low += id < 1000 ? 1 : 0;
            tenths[(int) (id * 10 / 272_000)]++;
        }
        assertTrue(low <= 2, "ids below 1000 among the top 100: " + low);
        for (int t = 0; t < 10; t++) {
            assertTrue(tenths[t] >= 2, "tenth " + t + " of the id range has " + tenths[t] + " of the top 100 ranks");
        }
        assertTrue(scatter.apply(0) != 0, "rank 0 is not id 0");
    }

    private static double zeta(long n, double theta) {
        double sum = 0;
        for (long k = n; k >= 1; k--) { // smallest terms first
            sum += Math.pow(k, -theta);
        }
        return sum;
    }
}
