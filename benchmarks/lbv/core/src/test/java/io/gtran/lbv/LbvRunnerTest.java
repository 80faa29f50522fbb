package io.gtran.lbv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class LbvRunnerTest {
    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private final PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);

    private LbvResult run(Map<String, String> options, Workload workload, double seconds, boolean latency) {
        LbvRunner.Config config = new LbvRunner.Config("social", 20_000, 3, workload, 2, seconds, 0.2, latency, 5, 5, 20);
        try (MapLbvSystem system = new MapLbvSystem(options)) {
            return new LbvRunner(config, log).run(system, Datasets.open("social", 20_000, 3), MapLbvSystem.class.getName(),
                    options);
        }
    }

    @Test
    void mixedRunCountsEveryQueryTypeAndLogsTheLoad() {
        LbvResult r = run(Map.of(), Workload.MIX, 1.0, false);
        assertTrue(r.commits() > 1000, r.summary());
        assertEquals(0, r.aborts());
        assertEquals(0, r.failures());
        assertEquals(r.commits(), r.queries().stream().mapToLong(LbvResult.QueryStats::count).sum());
        for (LbvResult.QueryStats q : r.queries()) {
            assertTrue(q.count() > 0, q.toString());
            assertTrue(q.p50Ms() > 0 && q.p50Ms() <= q.p99Ms() && q.p99Ms() <= q.maxMs(), q.toString());
        }
        assertTrue(r.measuredSeconds() >= 1.0 && r.measuredSeconds() < 10, r.summary());
        assertEquals(r.commits() / r.measuredSeconds(), r.tps(), 1e-6);
        assertTrue(r.latency().isEmpty());
        String text = logBytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("LBV_LOADED system=map vertices=" + r.vertices() + " edges=" + r.edges()), text);
        assertTrue(text.contains("LBV_PHASE system=map phase=warmup"), text);
        assertTrue(text.contains("LBV_PHASE system=map phase=measure"), text);
        // reads found what they looked for: has() on existing values and ids mostly hit
        assertTrue(find(r, "Q11").results() >= find(r, "Q11").count() / 2, find(r, "Q11").toString());
        assertTrue(find(r, "Q14").results() >= find(r, "Q14").count() / 2, find(r, "Q14").toString());
    }

    @Test
    void retryableConflictsAreRetriedAndCounted() {
        LbvResult r = run(Map.of("conflictRate", "0.2", "seed", "5"), Workload.WI, 0.8, false);
        assertTrue(r.aborts() > 100, r.summary());
        // each attempt conflicts with probability 0.2, so aborts / (commits + aborts) is about 0.2
        assertEquals(0.2, r.abortRate(), 0.05, r.summary());
        assertEquals(0, r.failures(), r.summary()); // 21 conflicts in a row: 0.2^21
        assertEquals(r.aborts(), r.queries().stream().mapToLong(LbvResult.QueryStats::aborts).sum());
    }

    @Test
    void exhaustedRetriesAndHardFailuresAreFailuresWithMessages() {
        LbvRunner.Config config = new LbvRunner.Config("social", 20_000, 3, Workload.WI, 1, 0.5, 0, false, 5, 5, 0);
        Map<String, String> options = Map.of("conflictRate", "0.5", "failQuery", "Q18");
        LbvResult r;
        try (MapLbvSystem system = new MapLbvSystem(options)) {
            r = new LbvRunner(config, log).run(system, Datasets.open("social", 20_000, 3), "map", options);
        }
        LbvResult.QueryStats q18 = find(r, "Q18");
        assertEquals(0, q18.count());
        assertTrue(q18.failures() > 0, q18.toString());
        LbvResult.QueryStats q2 = find(r, "Q2");
        assertTrue(q2.failures() > 0 && q2.aborts() == q2.failures(), q2.toString()); // no retries: every abort fails
        assertTrue(r.errors().stream().anyMatch(e -> e.startsWith("Q18: java.lang.UnsupportedOperationException: failQuery=Q18")),
                r.errors().toString());
        assertTrue(r.errors().size() <= LbvRunner.MAX_ERRORS, r.errors().toString());
        assertEquals(r.failures(), r.queries().stream().mapToLong(LbvResult.QueryStats::failures).sum());
    }

    @Test
    void latencyAloneRunsEachQuery() {
        LbvResult r = run(Map.of(), Workload.RO, 0, true);
        assertEquals(0, r.commits());
        assertEquals(0, r.tps());
        assertEquals(LatencyQuery.values().length, r.latency().size());
        for (LbvResult.LatencyStats l : r.latency()) {
            assertEquals(5, l.runs(), l.toString());
            assertEquals(0, l.failures(), l.toString());
            assertTrue(l.results() > 0, l.toString());
        }
    }

    @Test
    void configRejectsNonsense() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new LbvRunner.Config("social", 1, 1, Workload.RO, 0, 1, 0, false, 1, 1, 0));
        assertTrue(e.getMessage().contains("threads=0"), e.getMessage());
    }

    private static LbvResult.QueryStats find(LbvResult r, String query) {
        return r.queries().stream().filter(q -> q.query().equals(query)).findFirst().orElseThrow();
    }
}
