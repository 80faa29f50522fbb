package io.gtran.lbv;

/**
 * Zipf-distributed ranks in {@code [0, n)}: rank {@code r} (0 the most popular) is drawn with
 * probability {@code (r + 1)^-theta / zeta(n, theta)}, where {@code zeta(n, theta) = sum of
 * k^-theta for k = 1..n}. {@code theta = 0} is uniform and draws exactly
 * {@link SplitMix64#nextLong(long) random.nextLong(n)}, so it reproduces uniform sampling draw for
 * draw.
 *
 * <p>For {@code theta > 0} it is Hörmann and Derflinger's rejection-inversion ("Rejection-inversion
 * to generate variates from monotone discrete distributions", ACM TOMACS 6(3), 1996; the sampler
 * Apache Commons RNG uses): exact for every {@code theta > 0}, including 1 and above, with no
 * {@code zeta(n)} to precompute; a draw inverts the integral of {@code x^-theta} at a uniform point
 * and accepts the rank it lands on or tries again; the expected number of tries is small and
 * bounded whatever {@code n} and {@code theta} (under 1.1 in ZipfTest). Construction is a few
 * logarithms. Immutable; the {@link SplitMix64} passed in holds the state.
 */
final class Zipf {
    private final long n;
    private final double theta;
    /** H(1.5) - 1: the upper end of the range the uniform point is drawn from. */
    private final double hIntegralX1;
    /** H(n + 0.5): the lower end. */
    private final double hIntegralN;
    /** Points within s left of a rank's centre are accepted without evaluating H. */
    private final double s;

    Zipf(long n, double theta) {
        if (n < 1) {
            throw new IllegalArgumentException("n=" + n + " must be positive");
        }
        if (!(theta >= 0) || Double.isInfinite(theta)) {
            throw new IllegalArgumentException("theta=" + theta + " must be a finite number >= 0");
        }
        this.n = n;
        this.theta = theta;
        this.hIntegralX1 = hIntegral(1.5) - 1;
        this.hIntegralN = hIntegral(n + 0.5);
        this.s = 2 - hIntegralInverse(hIntegral(2.5) - h(2));
    }

    long n() {
        return n;
    }

    double theta() {
        return theta;
    }

    /** A rank in {@code [0, n)}, 0 the most likely. */
    long next(SplitMix64 random) {
        if (theta == 0) {
            return random.nextLong(n); // uniform: the same draw as before skew existed
        }
        while (true) {
            double u = hIntegralN + random.nextDouble() * (hIntegralX1 - hIntegralN); // in (H(1.5) - 1, H(n + 0.5)]
            double x = hIntegralInverse(u);
            long k = Math.max(1, Math.min(n, (long) (x + 0.5)));
            // accept when x is close enough to k's centre that it is certainly under k's step, or under it by H
            if (k - x <= s || u >= hIntegral(k + 0.5) - h(k)) {
                return k - 1;
            }
        }
    }

    /** {@code h(x) = x^-theta}. */
    private double h(double x) {
        return Math.exp(-theta * Math.log(x));
    }

    /** {@code H(x) = (x^(1-theta) - 1) / (1 - theta)}, or {@code log x} at theta 1: an integral of h. */
    private double hIntegral(double x) {
        double logX = Math.log(x);
        return expm1OverX((1 - theta) * logX) * logX;
    }

    /** The inverse of {@link #hIntegral}. */
    private double hIntegralInverse(double x) {
        double t = Math.max(-1, x * (1 - theta)); // below -1 only by rounding
        return Math.exp(log1pOverX(t) * x);
    }

    /** {@code log(1 + x) / x}, 1 at 0, without the cancellation near 0. */
    private static double log1pOverX(double x) {
        return Math.abs(x) > 1e-8 ? Math.log1p(x) / x : 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
    }

    /** {@code (e^x - 1) / x}, 1 at 0, without the cancellation near 0. */
    private static double expm1OverX(double x) {
        return Math.abs(x) > 1e-8 ? Math.expm1(x) / x : 1 + x * 0.5 * (1 + x / 3 * (1 + 0.25 * x));
    }
}
