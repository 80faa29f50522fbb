package io.gtran.lbv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LbvResultTest {

    static LbvResult sample() {
        return new LbvResult("gtran", "serializable \"SR\"\n", "io.gtran.lbv.gtran.GtranSystem",
                Map.of("isolation", "SR", "opt", "off"), "social", "social-e1000-s1", 1000, -7, 271, 999, "MIX", 4, 1.5,
                0.5, 2.25, 1.501, 12345, 17, 2, 8224.5, 17.0 / 12362, 0.125, 3.5,
                List.of(new LbvResult.QueryStats("Q2", "CREATE", 10, 1, 2, 10, 0.5, 0.25, 1.0, 2.0),
                        new LbvResult.QueryStats("Q11", "READ", 0, 0, 0, 0, 0, 0, 0, 0)),
                List.of(new LbvResult.LatencyStats("IS1", 20, 0, 120, 0.1, 0.09, 0.3, 0.31)),
                List.of("Q18: java.lang.IllegalStateException: tab\there \\ \u0001 ü"));
    }

    @Test
    void jsonRoundTrip() {
        LbvResult r = sample();
        String json = r.toJson();
        assertTrue(json.startsWith("{\"version\":1,\"system\":\"gtran\""), json);
        assertTrue(!json.contains("\n"), json);
        assertEquals(r, LbvResult.fromJson(json));
        assertEquals(r, LbvResult.fromJson(LbvResult.LINE_PREFIX + json));
    }

    @Test
    void messageCountsRoundTripAndAreLeftOutWhenNotCounted() {
        LbvResult plain = sample();
        assertTrue(!plain.toJson().contains("messages"), plain.toJson());
        assertTrue(!plain.table().contains("messages"), plain.table());
        LbvResult r = plain;
        LbvResult counted = new LbvResult(r.system(), r.isolation(), r.systemClass(), r.options(), r.dataset(),
                r.datasetName(), r.targetEdges(), r.seed(), r.vertices(), r.edges(), r.workload(), r.threads(), r.seconds(),
                r.warmupSeconds(), 0, r.loadSeconds(), r.measuredSeconds(), r.commits(), r.aborts(), r.failures(), r.tps(),
                r.abortRate(), r.p50Ms(), r.p99Ms(), r.queries(),
                List.of(new LbvResult.LatencyStats("IS1", 20, 0, 120, 0.1, 0.09, 0.3, 0.31, 4.0, 512.5)), r.errors(),
                6.25, 880.0);
        String json = counted.toJson();
        assertTrue(json.contains("\"messages_per_query\":6.25,\"bytes_per_query\":880.0"), json);
        assertEquals(counted, LbvResult.fromJson(json));
        assertTrue(counted.table().contains("messages_per_query=6.25 bytes_per_query=880.0"), counted.table());
        assertTrue(counted.table().contains("512.5"), counted.table());
        assertTrue(counted.hasTraffic() && !plain.hasTraffic());
    }

    @Test
    void skewRoundTripsAndOlderJsonWithoutItReadsAsUniform() {
        LbvResult r = sample();
        assertEquals(0, r.skew(), "the constructor without skew");
        String json = r.toJson();
        assertTrue(json.contains("\"skew\":0.0"), json);
        assertEquals(r, LbvResult.fromJson(json.replace("\"skew\":0.0,", "")), "JSON written before skew existed");
        LbvResult skewed = new LbvResult(r.system(), r.isolation(), r.systemClass(), r.options(), r.dataset(),
                r.datasetName(), r.targetEdges(), r.seed(), r.vertices(), r.edges(), r.workload(), r.threads(), r.seconds(),
                r.warmupSeconds(), 0.99, r.loadSeconds(), r.measuredSeconds(), r.commits(), r.aborts(), r.failures(),
                r.tps(), r.abortRate(), r.p50Ms(), r.p99Ms(), r.queries(), r.latency(), r.errors(), Double.NaN,
                Double.NaN);
        assertEquals(0.99, LbvResult.fromJson(skewed.toJson()).skew());
        assertEquals(skewed, LbvResult.fromJson(skewed.toJson()));
    }

    @Test
    void readerNamesWhatIsWrong() {
        String json = sample().toJson();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LbvResult.fromJson(json.replace("\"tps\":", "\"tpz\":")));
        assertTrue(e.getMessage().contains("result.tps is missing"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> LbvResult.fromJson(json.replace("\"version\":1", "\"version\":2")));
        assertTrue(e.getMessage().contains("version=2"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LbvResult.fromJson(json + "x"));
        assertThrows(IllegalArgumentException.class, () -> LbvResult.fromJson("[1]"));
    }

    @Test
    void jsonParsesWhatOthersWrite() {
        Object v = Json.parse(" { \"a\" : [ 1 , -2.5e3 , true , false , null , \"\\u00fc\\/\" ], \"b\" : { } , \"c\": 12345678901234567890 } ");
        assertEquals(Map.of("a", java.util.Arrays.asList(1L, -2500.0, true, false, null, "ü/"), "b", Map.of(),
                "c", 12345678901234567890.0), v);
        assertEquals("[1,\"x\",null]", Json.write(java.util.Arrays.asList(1, "x", Double.NaN)));
        assertThrows(IllegalArgumentException.class, () -> Json.parse("{\"a\" 1}"));
        assertThrows(IllegalArgumentException.class, () -> Json.parse("\"open"));
    }
}
