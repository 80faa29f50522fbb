package io.gtran.lbv;

/**
 * A fixed bijection of {@code [0, n)} onto itself that spreads neighbouring inputs over the whole
 * range, so that a {@link Zipf} rank names a scattered id: the popular elements are not the lowest
 * ids (the first loaded, and in the social dataset the first of each kind).
 *
 * <p>With {@code m} the least power of two {@code >= n} (at least 2), {@link #step} is a bijection
 * of {@code [0, m)}: multiplication by an odd constant and addition modulo {@code m}, and
 * {@code x ^ (x >>> k)} within {@code log2 m} bits, are each invertible. Cycle-walking (apply the
 * step again until the value is below {@code n}) restricts it to a bijection of {@code [0, n)};
 * since {@code n >= m / 2} it takes at most two steps on average. Depends on {@code n} alone, so
 * every thread and every process agree on which ids are hot.
 */
final class Scatter {
    private static final long MULTIPLIER_1 = 0x9E3779B97F4A7C15L; // odd
    private static final long MULTIPLIER_2 = 0xBF58476D1CE4E5B9L; // odd
    private static final long INCREMENT = 0x632BE59BD9B4E019L;

    private final long n;
    private final long mask;
    private final int shift;

    Scatter(long n) {
        if (n < 1) {
            throw new IllegalArgumentException("n=" + n + " must be positive");
        }
        int bits = Math.max(1, 64 - Long.numberOfLeadingZeros(n - 1));
        this.n = n;
        this.mask = bits == 64 ? -1L : (1L << bits) - 1;
        this.shift = Math.max(1, (bits + 1) / 2);
    }

    /** The id of {@code rank}, in {@code [0, n)}; distinct ranks give distinct ids. */
    long apply(long rank) {
        if (rank < 0 || rank >= n) {
            throw new IllegalArgumentException("rank=" + rank + " is outside [0, " + n + ")");
        }
        long x = step(rank);
        while (x >= n) { // cycle-walking: x's cycle under step returns to rank < n, so this ends
            x = step(x);
        }
        return x;
    }

    /** A bijection of {@code [0, mask]}. */
    private long step(long x) {
        x = (x * MULTIPLIER_1 + INCREMENT) & mask;
        x ^= x >>> shift;
        x = (x * MULTIPLIER_2) & mask;
        return x ^ (x >>> shift);
    }
}
