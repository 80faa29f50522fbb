package io.gtran.lbv;

/**
 * Steele, Lea and Flood's SplitMix64: a tiny random generator whose output is defined by its
 * arithmetic alone, so a seed gives the same sequence in every JVM and on every platform
 * ({@link java.util.SplittableRandom} makes no such promise across JDK versions). Not
 * thread-safe; one per thread. {@link #mix} is also the hash the generators use to derive an
 * element's properties from (seed, id) without keeping state.
 */
final class SplitMix64 {
    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;
    private static final double DOUBLE_UNIT = 0x1.0p-53;

    private long state;

    SplitMix64(long seed) {
        this.state = seed;
    }

    /** A generator seeded from several parts (seed, a salt naming its use, an id, ...). */
    static SplitMix64 of(long... parts) {
        return new SplitMix64(hash(parts));
    }

    /** The SplitMix64 finaliser: a bijection on longs that scatters every input bit. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Combines {@code parts} in order into one well-mixed long. */
    static long hash(long... parts) {
        long h = 0x6A09E667F3BCC908L;
        for (long part : parts) {
            h = mix(h + GOLDEN_GAMMA + part);
        }
        return h;
    }

    long nextLong() {
        state += GOLDEN_GAMMA;
        return mix(state);
    }

    /** Uniform in {@code [0, bound)}; {@code bound > 0}. */
    long nextLong(long bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound=" + bound);
        }
        return Math.floorMod(nextLong(), bound);
    }

    /** Uniform in {@code [0, bound)}; {@code bound > 0}. */
    int nextInt(int bound) {
        return (int) nextLong(bound);
    }

    /** Uniform in {@code [from, to)}. */
    long nextLong(long from, long to) {
        return from + nextLong(to - from);
    }

    /** Uniform in {@code [0, 1)}. */
    double nextDouble() {
        return (nextLong() >>> 11) * DOUBLE_UNIT;
    }

    boolean chance(double probability) {
        return nextDouble() < probability;
    }

    <T> T pick(java.util.List<T> values) {
        return values.get(nextInt(values.size()));
    }

    <T> T pick(T[] values) {
        return values[nextInt(values.length)];
    }
}
