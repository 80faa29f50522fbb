package io.gtran.lbv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Timeout(60)
class ParamSamplerTest {
    private static final int DRAWS = 2_000;

    /** Every sampled id, label, key and value exists in the dataset as generated, skewed or not. */
    @ParameterizedTest
    @CsvSource({"social, 0", "kronecker, 0", "grateful-dead, 0", "social, 0.99", "kronecker, 1.2"})
    void drawsOnlyWhatExists(String name, double skew) {
        Dataset d = Datasets.open(name, 20_000, 4);
        DatasetInfo info = d.info();
        StreamStats s = StreamStats.of(d, true);
        Map<String, Set<Object>> vertexValues = new HashMap<>();
        Map<String, Set<Object>> edgeValues = new HashMap<>();
        s.vertexProperties.values().forEach(p -> p.forEach((k, v) -> vertexValues.computeIfAbsent(k, x -> new HashSet<>()).add(v)));
        s.edgeProperties.forEach(p -> p.forEach((k, v) -> edgeValues.computeIfAbsent(k, x -> new HashSet<>()).add(v)));
        ValuePool pool = ValuePool.collect(d, 1);
        ParamSampler sampler = new ParamSampler(pool, 99, skew);
        for (LbvQuery q : LbvQuery.values()) {
            for (int i = 0; i < DRAWS; i++) {
                QueryParams p = sampler.sample(q);
                String where = q + " " + p;
                switch (q) {
                    case Q2, Q7 -> {
                        assertTrue(info.vertexLabels().contains(p.label()), where);
                        assertEquals(pool.vertexSchema(p.label()).keySet().stream().filter(k -> !k.equals(info.lookupKey())).toList(),
                                List.copyOf(p.properties().keySet()), where);
                        p.properties().forEach((k, v) -> assertEquals(pool.vertexSchema(p.label()).get(k).getClass(), v.getClass(), where));
                        assertEquals(q == LbvQuery.Q7 ? p.fanout() : 0, p.targets().size(), where);
                        if (q == LbvQuery.Q7) {
                            assertTrue(p.fanout() >= 1 && p.fanout() <= ParamSampler.MAX_FANOUT, where);
                            assertTrue(info.edgeLabels().contains(p.edgeLabel()), where);
                            p.targets().forEach(t -> assertVertex(info, t, where));
                        }
                    }
                    case Q3, Q4 -> {
                        assertVertex(info, p.vertex(), where);
                        assertVertex(info, p.otherVertex(), where);
                        assertTrue(info.edgeLabels().contains(p.label()), where);
                        p.properties().forEach((k, v) -> assertEquals(pool.edgeSchema(p.label()).get(k).getClass(), v.getClass(), where));
                    }
                    case Q5 -> {
                        assertVertex(info, p.vertex(), where);
                        assertTrue(p.key().startsWith(ParamSampler.NEW_KEY_PREFIX) && !info.vertexKeys().contains(p.key()), where);
                    }
                    case Q6 -> {
                        assertEdge(info, p.edge(), where);
                        assertTrue(p.key().startsWith(ParamSampler.NEW_KEY_PREFIX) && !info.edgeKeys().contains(p.key()), where);
                    }
                    case Q11 -> assertTrue(info.indexedVertexKeys().contains(p.key())
                            && vertexValues.get(p.key()).contains(p.value()), where);
                    case Q12 -> assertTrue(info.indexedEdgeKeys().contains(p.key())
                            && edgeValues.get(p.key()).contains(p.value()), where);
                    case Q13 -> assertTrue(info.edgeLabels().contains(p.label()), where);
                    case Q24 -> {
                        assertVertex(info, p.vertex(), where);
                        assertTrue(info.edgeLabels().contains(p.label()), where);
                    }
                    case Q14, Q18, Q22, Q23, Q25, Q26, Q27 -> assertVertex(info, p.vertex(), where);
                    case Q15, Q19 -> assertEdge(info, p.edge(), where);
                    case Q16, Q20 -> {
                        assertVertex(info, p.vertex(), where);
                        Object old = s.vertexProperties.get(p.vertex()).get(p.key());
                        assertNotNull(old, where);
                        assertNotEquals(info.lookupKey(), p.key(), where);
                        if (q == LbvQuery.Q16) {
                            assertEquals(old.getClass(), p.value().getClass(), where);
                        } else {
                            assertNull(p.value(), where);
                        }
                    }
                    case Q17, Q21 -> {
                        assertEdge(info, p.edge(), where);
                        Object old = s.edgeProperties.get((int) p.edge()).get(p.key());
                        assertNotNull(old, where);
                        if (q == LbvQuery.Q17) {
                            assertEquals(old.getClass(), p.value().getClass(), where);
                        }
                    }
                }
            }
        }
        for (LatencyQuery q : LatencyQuery.values()) {
            for (int i = 0; i < 200; i++) {
                QueryParams p = sampler.sample(q);
                assertVertex(info, p.vertex(), q + " " + p);
                assertEquals(s.vertexProperties.get(p.vertex()).get(info.lookupKey()), p.lookupValue(), q + " " + p);
                if (name.equals("social")) {
                    String label = s.vertexLabel.get(p.vertex());
                    switch (q) {
                        case IS1, IS2, IS3 -> assertEquals("person", label);
                        case IS4 -> assertTrue(label.equals("post") || label.equals("comment"), label);
                        default -> { }
                    }
                }
            }
        }
    }

    @Test
    void sameSeedSameDraws() {
        ValuePool pool = ValuePool.collect(Datasets.open("social", 10_000, 1), 1);
        assertEquals(draws(new ParamSampler(pool, 5)), draws(new ParamSampler(pool, 5)));
        assertNotEquals(draws(new ParamSampler(pool, 5)), draws(new ParamSampler(pool, 6)));
        ValuePool again = ValuePool.collect(Datasets.open("social", 10_000, 1), 1);
        assertEquals(draws(new ParamSampler(pool, 5)), draws(new ParamSampler(again, 5)));
    }

    @Test
    void sameSeedAndSkewSameDraws() {
        ValuePool pool = ValuePool.collect(Datasets.open("social", 10_000, 1), 1);
        assertEquals(draws(new ParamSampler(pool, 5, 0.99)), draws(new ParamSampler(pool, 5, 0.99)));
        assertNotEquals(draws(new ParamSampler(pool, 5, 0.99)), draws(new ParamSampler(pool, 5, 0.8)));
        assertNotEquals(draws(new ParamSampler(pool, 5, 0.99)), draws(new ParamSampler(pool, 5)));
    }

    /**
     * Skew 0 draws what ParamSampler drew before skew existed: these values were printed by the
     * code of commit 60a22a7 (social, 10000 edges, seed 1; pool seed 1; sampler seed 5).
     */
    @Test
    void zeroSkewDrawsWhatUniformSamplingDrewBefore() {
        ValuePool pool = ValuePool.collect(Datasets.open("social", 10_000, 1), 1);
        assertEquals(2706, pool.info().vertices());
        assertEquals(9956, pool.info().edges());
        for (ParamSampler s : List.of(new ParamSampler(pool, 5), new ParamSampler(pool, 5, 0))) {
            for (long v : new long[] {1598, 2351, 2400, 1941, 605}) {
                assertEquals(v, s.sample(LbvQuery.Q14).vertex());
            }
            for (long e : new long[] {2389, 1553, 670, 8028, 3890}) {
                assertEquals(e, s.sample(LbvQuery.Q15).edge());
            }
            QueryParams q3 = s.sample(LbvQuery.Q3);
            assertEquals(List.of(2082L, 1709L, "hasCreator"), List.of(q3.vertex(), q3.otherVertex(), q3.label()));
        }
        ParamSampler s = new ParamSampler(pool, 5, 0);
        List<QueryParams> all = draws(s);
        for (int i = 0; i < 20; i++) {
            for (LatencyQuery q : LatencyQuery.values()) {
                all.add(s.sample(q));
            }
        }
        String text = all.toString();
        assertEquals(228040, text.length());
        assertEquals(-1439136355, text.hashCode(), "every parameter of 50 rounds of Q2-Q27 and 20 of the latency queries");
    }

    /**
     * Under skew 0.99 the hottest vertex and edge get about 1/zeta(n, 0.99) of the draws, and are
     * the scattered id of rank 0, not id 0; what Q18 and Q19 remove and the latency queries stay uniform.
     */
    @Test
    void skewedDrawsFavourScatteredHotElements() {
        ValuePool pool = ValuePool.collect(Datasets.open("social", 10_000, 1), 1);
        long vertices = pool.info().vertices();
        long edges = pool.info().edges();
        ParamSampler sampler = new ParamSampler(pool, 7, 0.99);
        assertEquals(0.99, sampler.skew());
        int draws = 100_000;
        Map<Long, Integer> byVertex = new HashMap<>();
        Map<Long, Integer> byEdge = new HashMap<>();
        Map<Long, Integer> byKhop = new HashMap<>();
        Map<Long, Integer> byRemovedVertex = new HashMap<>();
        Map<Long, Integer> byRemovedEdge = new HashMap<>();
        for (int i = 0; i < draws; i++) {
            byVertex.merge(sampler.sample(LbvQuery.Q14).vertex(), 1, Integer::sum);
            byEdge.merge(sampler.sample(LbvQuery.Q15).edge(), 1, Integer::sum);
            byKhop.merge(sampler.sample(LatencyQuery.KHOP2).vertex(), 1, Integer::sum);
            byRemovedVertex.merge(sampler.sample(LbvQuery.Q18).vertex(), 1, Integer::sum);
            byRemovedEdge.merge(sampler.sample(LbvQuery.Q19).edge(), 1, Integer::sum);
        }
        long hotVertex = new Scatter(vertices).apply(0);
        long hotEdge = new Scatter(edges).apply(0);
        assertTrue(hotVertex != 0 && hotEdge != 0, "hot vertex=" + hotVertex + " edge=" + hotEdge);
        assertShare(1 / zeta(vertices, 0.99), byVertex.getOrDefault(hotVertex, 0), draws, "vertex " + hotVertex);
        assertShare(1 / zeta(edges, 0.99), byEdge.getOrDefault(hotEdge, 0), draws, "edge " + hotEdge);
        assertEquals(hotVertex, byVertex.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey());
        // uniform: about 37 draws per vertex and 10 per edge; the hot ones would have thousands
        for (Map<Long, Integer> uniform : List.of(byKhop, byRemovedVertex, byRemovedEdge)) {
            int max = uniform.values().stream().max(Integer::compare).orElseThrow();
            assertTrue(max < 100, "k-hop starts and removed elements are uniform, yet one is drawn " + max + " times");
        }
    }

    private static void assertShare(double p, int count, int draws, String what) {
        double sd = Math.sqrt(p * (1 - p) / draws);
        assertEquals(p, (double) count / draws, 5 * sd, what + " share of " + draws + " draws");
    }

    private static double zeta(long n, double theta) {
        double sum = 0;
        for (long k = n; k >= 1; k--) {
            sum += Math.pow(k, -theta);
        }
        return sum;
    }

    @Test
    void skewOutsideItsRangeIsRefused() {
        ValuePool pool = ValuePool.collect(Datasets.open("grateful-dead", 1, 1), 1);
        for (double bad : new double[] {-0.5, Double.NaN, ParamSampler.MAX_SKEW, Double.POSITIVE_INFINITY}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new ParamSampler(pool, 1, bad));
            assertTrue(e.getMessage().startsWith("skew=" + bad), e.getMessage());
        }
    }

    private static List<QueryParams> draws(ParamSampler sampler) {
        List<QueryParams> out = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            for (LbvQuery q : LbvQuery.values()) {
                out.add(sampler.sample(q));
            }
        }
        return out;
    }

    @Test
    void hasValuesAreDrawnAsOftenAsTheyOccur() {
        // grateful-dead followedBy weights: 1 is by far the most common value
        ValuePool pool = ValuePool.collect(Datasets.open("grateful-dead", 1, 1), 1);
        ParamSampler sampler = new ParamSampler(pool, 3);
        int ones = 0;
        for (int i = 0; i < 1_000; i++) {
            if (Integer.valueOf(1).equals(sampler.sample(LbvQuery.Q12).value())) {
                ones++;
            }
        }
        assertTrue(ones > 300, "ones=" + ones);
    }

    private static void assertVertex(DatasetInfo info, long v, String where) {
        assertTrue(v >= 0 && v < info.vertices(), where);
    }

    private static void assertEdge(DatasetInfo info, long e, String where) {
        assertTrue(e >= 0 && e < info.edges(), where);
    }
}
