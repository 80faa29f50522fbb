package io.gtran.lbv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
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
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(60)
class ParamSamplerTest {
    private static final int DRAWS = 2_000;

    /** Every sampled id, label, key and value exists in the dataset as generated. */
    @ParameterizedTest
    @ValueSource(strings = {"social", "kronecker", "grateful-dead"})
    void drawsOnlyWhatExists(String name) {
        Dataset d = Datasets.open(name, 20_000, 4);
        DatasetInfo info = d.info();
        StreamStats s = StreamStats.of(d, true);
        Map<String, Set<Object>> vertexValues = new HashMap<>();
        Map<String, Set<Object>> edgeValues = new HashMap<>();
        s.vertexProperties.values().forEach(p -> p.forEach((k, v) -> vertexValues.computeIfAbsent(k, x -> new HashSet<>()).add(v)));
        s.edgeProperties.forEach(p -> p.forEach((k, v) -> edgeValues.computeIfAbsent(k, x -> new HashSet<>()).add(v)));
        ValuePool pool = ValuePool.collect(d, 1);
        ParamSampler sampler = new ParamSampler(pool, 99);
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
