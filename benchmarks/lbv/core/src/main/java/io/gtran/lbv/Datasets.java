package io.gtran.lbv;

import java.util.List;

/** Opens the benchmark's datasets by name. */
public final class Datasets {
    /** The names {@link #open} knows. */
    public static final List<String> NAMES = List.of(SocialDataset.NAME, KroneckerDataset.NAME, GratefulDeadDataset.NAME);

    private static final long ODD_MULTIPLIER = 0x9E3779B97F4A7C15L;
    private static final long MASK_63 = Long.MAX_VALUE;

    private Datasets() {
    }

    /**
     * The dataset {@code name} with about {@code targetEdges} edges (±10%; the grateful-dead graph
     * has a fixed size and ignores it and the seed), generated from {@code seed}.
     *
     * @throws IllegalArgumentException for an unknown name or a non-positive size
     */
    public static Dataset open(String name, long targetEdges, long seed) {
        if (targetEdges <= 0) {
            throw new IllegalArgumentException("targetEdges=" + targetEdges + " must be positive");
        }
        return switch (String.valueOf(name)) {
            case SocialDataset.NAME -> new SocialDataset(targetEdges, seed);
            case KroneckerDataset.NAME -> new KroneckerDataset(targetEdges, seed);
            case GratefulDeadDataset.NAME -> GratefulDeadDataset.load();
            default -> throw new IllegalArgumentException("dataset=" + name + " is unknown; known: " + String.join(", ", NAMES));
        };
    }

    /**
     * The {@code ori_id} of dataset vertex {@code id}: {@code id * odd + c mod 2^63}, a bijection on
     * 63-bit values, so ids are unique, positive and do not equal the dataset id.
     */
    static long oriId(long seed, long id) {
        return (id * ODD_MULTIPLIER + SplitMix64.mix(seed)) & MASK_63;
    }

    /** A uniform double in [0, 1) from the hash of {@code parts}. */
    static double unit(long... parts) {
        return (SplitMix64.hash(parts) >>> 11) * 0x1.0p-53;
    }
}
