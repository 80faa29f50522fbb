package io.gtran.lbv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class QueryMixTest {
    private static final int DRAWS = 230_000;

    @ParameterizedTest
    @EnumSource(Workload.class)
    void readShareAndUniformityWithinTolerance(Workload workload) {
        QueryMix mix = new QueryMix(workload, new Random(42));
        Map<LbvQuery, Integer> counts = new EnumMap<>(LbvQuery.class);
        int reads = 0;
        for (int i = 0; i < DRAWS; i++) {
            LbvQuery q = mix.next();
            counts.merge(q, 1, Integer::sum);
            if (!q.category().writes()) {
                reads++;
            }
        }
        assertEquals(workload.readShare(), (double) reads / DRAWS, 0.01);
        for (LbvQuery q : LbvQuery.values()) {
            boolean read = !q.category().writes();
            double expected = (read ? workload.readShare() / QueryMix.READS.size()
                    : (1 - workload.readShare()) / QueryMix.WRITES.size()) * DRAWS;
            int got = counts.getOrDefault(q, 0);
            assertTrue(Math.abs(got - expected) <= Math.max(50, expected * 0.05), q + " got=" + got + " expected=" + expected);
        }
        assertEquals(11, QueryMix.READS.size());
        assertEquals(12, QueryMix.WRITES.size());
    }
}
