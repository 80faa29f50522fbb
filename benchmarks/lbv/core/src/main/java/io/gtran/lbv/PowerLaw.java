package io.gtran.lbv;

/**
 * Heavy-tailed choice of one of {@code n} items without tables: item of rank {@code r} (0-based)
 * has weight {@code (r+1)^-1/2}, so over many draws the counts follow a power law (the Chung–Lu
 * construction: degrees with exponent 3, as in LDBC's knows and posts-per-person). The
 * continuous inverse CDF, {@code r = (u(sqrt(n+1)-1)+1)^2 - 1}, needs only {@code sqrt}, which
 * IEEE 754 rounds exactly, so draws are the same in every JVM. Ranks are spread over ids by
 * {@link #scramble}, so the heaviest items are not simply ids 0, 1, 2.
 */
final class PowerLaw {
    /** A prime above every supported {@code n}, so {@code r * PRIME + offset mod n} is a permutation. */
    private static final long PRIME = 2_147_483_647L;

    private final long n;
    private final double span;
    private final long offset;

    /** Weights over {@code n} items, their ranks placed among ids by {@code seed}. */
    PowerLaw(long n, long seed) {
        if (n <= 0 || n >= PRIME) {
            throw new IllegalArgumentException("n=" + n);
        }
        this.n = n;
        this.span = Math.sqrt(n + 1.0) - 1.0;
        this.offset = Math.floorMod(SplitMix64.mix(seed), n);
    }

    /** The id drawn by uniform {@code u} in [0, 1). */
    long draw(double u) {
        double root = u * span + 1.0;
        long rank = (long) (root * root - 1.0);
        return scramble(Math.min(rank, n - 1));
    }

    long draw(SplitMix64 random) {
        return draw(random.nextDouble());
    }

    /** The id of rank {@code rank}: an affine permutation of {@code 0..n-1}. */
    long scramble(long rank) {
        return Math.floorMod(rank * PRIME + offset, n);
    }
}
