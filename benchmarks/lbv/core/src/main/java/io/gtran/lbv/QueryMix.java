package io.gtran.lbv;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Random;

/**
 * Picks the next query of a {@link Workload}: with probability {@code readShare} a read query
 * (uniform over the R and T queries), otherwise a write query (uniform over C, U and D), as in
 * G-Tran §6. One per thread; the same seed gives the same sequence.
 */
public final class QueryMix {
    /** Q11–Q15 and Q22–Q27. */
    public static final List<LbvQuery> READS =
            Arrays.stream(LbvQuery.values()).filter(q -> !q.category().writes()).toList();
    /** Q2–Q7 and Q16–Q21. */
    public static final List<LbvQuery> WRITES =
            Arrays.stream(LbvQuery.values()).filter(q -> q.category().writes()).toList();

    private final double readShare;
    private final Random random;

    public QueryMix(Workload workload, Random random) {
        this.readShare = workload.readShare();
        this.random = Objects.requireNonNull(random, "random");
    }

    public LbvQuery next() {
        List<LbvQuery> from = random.nextDouble() < readShare ? READS : WRITES;
        return from.get(random.nextInt(from.size()));
    }
}
