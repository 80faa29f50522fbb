package io.gtran.lbv.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The driver's command line: defaults, what --compare expands to, and errors naming the bad argument. */
class LbvOptionsTest {
    @Test
    void defaultsRunGtranAtSerializableOnTheReadIntensiveMix() {
        List<LbvMain.Run> runs = LbvMain.plan(LbvMain.Options.parse());
        assertEquals(1, runs.size());
        assertEquals("gtran@SR/RI", runs.get(0).label());
    }

    @Test
    void compareRunsEverySystemOnEveryWorkloadWithGtranAtBothLevels() {
        List<String> labels = LbvMain.plan(LbvMain.Options.parse("--compare")).stream().map(LbvMain.Run::label).toList();
        assertEquals(12 * 4, labels.size(), labels.toString());
        for (String series : List.of("gtran@SR", "gtran@SI", "gtran-noopt@SR", "gtran-sync@SR", "gtran-async@SR",
                "gtran-remote@SR", "tinkertx@RC", "janusgraph@none", "janusgraph-server@none", "neo4j-bolt@RC", "neo4j@RC",
                "neo4j-disk@RC")) {
            for (String workload : List.of("RO", "RI", "WI", "MIX")) {
                assertTrue(labels.contains(series + "/" + workload), series + "/" + workload + " in " + labels);
            }
        }
        List<LbvMain.Run> some = LbvMain.plan(LbvMain.Options.parse("--compare", "--system", "gtran,neo4j", "--workload",
                "WI", "--isolation", "SI"));
        assertEquals(List.of("gtran@SI/WI", "neo4j@RC/WI"), some.stream().map(LbvMain.Run::label).toList());
    }

    @Test
    void systemsWithOneIsolationLevelRunAtItWhateverIsAsked() {
        LbvMain.Run run = LbvMain.plan(LbvMain.Options.parse("--system", "tinkertx", "--isolation", "SI")).get(0);
        assertEquals("RC", run.entry().isolationFor(run.isolation()));
        assertTrue(run.entry().optionsFor("SI").isEmpty(), "no isolation option for a system without a choice");
        assertEquals("SI", SystemCatalog.named("gtran").optionsFor("SI").get("isolation"));
        assertEquals("off", SystemCatalog.named("gtran-noopt").optionsFor("SR").get("opt"));
    }

    @Test
    void theJvmClusterRunsOncePerNodeCountAndForSeveralNodesOncePerLinkLatency() {
        List<LbvMain.Run> runs = LbvMain.plan(LbvMain.Options.parse("--system", "gtran,gtran-jvm-cluster", "--nodes", "1,3",
                "--link-latency-us", "20,100"));
        assertEquals(List.of("gtran@SR/RI", "gtran-jvm-cluster[1n,0us]@SR/RI", "gtran-jvm-cluster[3n,20us]@SR/RI",
                "gtran-jvm-cluster[3n,100us]@SR/RI"), runs.stream().map(LbvMain.Run::label).toList());
        assertEquals(java.util.Map.of("isolation", "SR", "nodes", "3", "link-latency-us", "100"), runs.get(3).options());
        assertEquals(java.util.Map.of("isolation", "SR"), runs.get(0).options(), "other systems get no cluster options");
        assertEquals(List.of("gtran-jvm-cluster[3n,0us]@SR/RI"),
                LbvMain.plan(LbvMain.Options.parse("--system", "gtran-jvm-cluster")).stream().map(LbvMain.Run::label).toList(),
                "default: three nodes, no injected latency");
    }

    @Test
    void theProcessClustersRunOncePerNodeCount() {
        List<LbvMain.Run> runs = LbvMain.plan(LbvMain.Options.parse("--system", "gtran,gtran-cluster,gtran-cluster-noopt",
                "--nodes", "1,3"));
        assertEquals(List.of("gtran@SR/RI", "gtran-cluster[1n]@SR/RI", "gtran-cluster[3n]@SR/RI",
                "gtran-cluster-noopt[1n]@SR/RI", "gtran-cluster-noopt[3n]@SR/RI"), runs.stream().map(LbvMain.Run::label).toList());
        assertEquals(java.util.Map.of("isolation", "SR", "nodes", "3"), runs.get(2).options());
        assertEquals(java.util.Map.of("isolation", "SR", "nodes", "3", "opt", "off"), runs.get(4).options());
        assertEquals("io.gtran.lbv.gtran.GtranProcessClusterLbvSystem", runs.get(1).entry().systemClass());
        assertEquals(List.of("gtran-cluster[3n]@SR/RI"),
                LbvMain.plan(LbvMain.Options.parse("--system", "gtran-cluster")).stream().map(LbvMain.Run::label).toList(),
                "default: three processes");
        List<LbvMain.Run> both = LbvMain.plan(LbvMain.Options.parse("--system", "gtran-cluster,gtran-jvm-cluster",
                "--nodes", "3", "--link-latency-us", "20"));
        assertEquals(List.of("gtran-cluster[3n]@SR/RI", "gtran-jvm-cluster[3n,20us]@SR/RI"),
                both.stream().map(LbvMain.Run::label).toList(), "the latency shapes the in-JVM cluster only");
        List<LbvMain.Run> logged = LbvMain.plan(LbvMain.Options.parse("--system", "gtran-cluster-sync,gtran-cluster-async"));
        assertEquals(List.of("gtran-cluster-sync[3n]@SR/RI", "gtran-cluster-async[3n]@SR/RI"),
                logged.stream().map(LbvMain.Run::label).toList(), "the clusters that log, on three processes too");
        assertEquals(java.util.Map.of("isolation", "SR", "nodes", "3", "durability", "sync"), logged.get(0).options());
    }

    @Test
    void theProcessClustersRunOncePerNodeJitGivenAndNameIt() {
        List<LbvMain.Run> runs = LbvMain.plan(LbvMain.Options.parse("--system", "gtran-cluster,gtran-jvm-cluster",
                "--node-jit", "quick,full"));
        assertEquals(List.of("gtran-cluster[3n,jit=quick]@SR/RI", "gtran-cluster[3n,jit=full]@SR/RI",
                "gtran-jvm-cluster[3n,0us]@SR/RI"), runs.stream().map(LbvMain.Run::label).toList(),
                "the in-JVM cluster has one JVM, whose JIT is the child's");
        assertEquals(java.util.Map.of("isolation", "SR", "nodes", "3", "node-jit", "full"), runs.get(1).options());
        assertEquals(java.util.Map.of("isolation", "SR", "nodes", "3"),
                LbvMain.plan(LbvMain.Options.parse("--system", "gtran-cluster")).get(0).options(),
                "without --node-jit the system's default (auto) applies");
    }

    @Test
    void severalNodesRunOncePerExecutionModeGiven() {
        List<LbvMain.Run> runs = LbvMain.plan(LbvMain.Options.parse("--system", "gtran-jvm-cluster", "--nodes", "1,3",
                "--link-latency-us", "100", "--execution", "batched,pushed"));
        assertEquals(List.of("gtran-jvm-cluster[1n,0us]@SR/RI", "gtran-jvm-cluster[3n,100us,batched]@SR/RI",
                "gtran-jvm-cluster[3n,100us,pushed]@SR/RI"), runs.stream().map(LbvMain.Run::label).toList());
        assertEquals("pushed", runs.get(2).options().get("gtran.execution"));
    }

    @Test
    void badClusterShapesAreNamed() {
        assertMessage("nodes=0", "--system", "gtran-cluster", "--nodes", "0");
        assertMessage("nodes=17", "--system", "gtran-jvm-cluster", "--nodes", "3,17");
        assertMessage("link-latency-us=-20", "--system", "gtran-jvm-cluster", "--link-latency-us", "-20");
        assertMessage("link-latency-us=20us", "--system", "gtran-jvm-cluster", "--link-latency-us", "20us");
        assertMessage("argument=--link-latency-us needs a value", "--system", "gtran-jvm-cluster", "--link-latency-us");
        assertMessage("--nodes shapes the cluster systems", "--nodes", "3");
        assertMessage("--link-latency-us and --execution shape system gtran-jvm-cluster only", "--link-latency-us", "20");
        assertMessage("--link-latency-us and --execution shape system gtran-jvm-cluster only", "--system", "gtran-cluster",
                "--execution", "pushed");
        assertMessage("unknown node JIT: node-jit=fast", "--system", "gtran-cluster", "--node-jit", "quick,fast");
        assertMessage("--node-jit shapes the server-process clusters only", "--system", "gtran,gtran-jvm-cluster",
                "--node-jit", "quick");
        assertMessage("unknown execution: execution=fast", "--system", "gtran-jvm-cluster", "--execution", "batched,fast");
    }

    @Test
    void badArgumentsAreNamed() {
        assertMessage("system=oracle", "--system", "oracle");
        assertMessage("workload=XX", "--workload", "RI,XX");
        assertMessage("isolation=RC", "--isolation", "RC");
        assertMessage("threads=0", "--threads", "0");
        assertMessage("seconds=abc", "--seconds", "abc");
        assertMessage("dataset=twitter", "--dataset", "twitter");
        assertMessage("heap=lots", "--heap", "lots");
        assertMessage("argument=--seconds needs a value", "--seconds");
        assertMessage("argument=--fast is unknown", "--fast", "1");
    }

    @Test
    void skewIsAZipfThetaFromZeroToFiveReachingEveryChildAndTheResults() {
        LbvMain.Options uniform = LbvMain.Options.parse();
        assertEquals(0.0, uniform.skew);
        assertEquals(0.0, uniform.describe().get("skew"));
        for (String theta : List.of("0", "0.99", "1", "1.0", "4.99")) {
            LbvMain.Options o = LbvMain.Options.parse("--skew", theta);
            assertEquals(Double.parseDouble(theta), o.skew);
            assertEquals(o.skew, o.describe().get("skew"));
        }
        assertTrue(new CompareReport(LbvMain.Options.parse("--skew", "0.99"), List.of()).json()
                .contains("\"skew\":0.99"));
    }

    @Test
    void theResultLineNamesTheSkewOnlyWhenThereIsOne() {
        LbvMain.Run run = LbvMain.plan(LbvMain.Options.parse()).get(0);
        assertEquals("LBV system=gtran workload=RI isolation=SR threads=2 tps=100.0 abort_rate=0.0500 p99_ms=1.500",
                LbvMain.lbvLine(run, result(0)));
        assertEquals("LBV system=gtran workload=RI isolation=SR threads=2 tps=100.0 abort_rate=0.0500 p99_ms=1.500 skew=0.99",
                LbvMain.lbvLine(run, result(0.99)));
    }

    private static io.gtran.lbv.LbvResult result(double skew) {
        return new io.gtran.lbv.LbvResult("gtran", "serializable", "X", java.util.Map.of(), "social", "social-e1000-s1",
                1000, 1, 271, 999, "RI", 2, 1, 0, skew, 0.1, 1, 100, 5, 0, 100, 0.05, 0.5, 1.5, List.of(), List.of(),
                List.of(), Double.NaN, Double.NaN);
    }

    @Test
    void badSkewsAreNamed() {
        assertMessage("must be a non-negative number: skew=-0.5", "--skew", "-0.5");
        assertMessage("must be a non-negative number: skew=NaN", "--skew", "NaN");
        assertMessage("must be a non-negative number: skew=Infinity", "--skew", "Infinity");
        assertMessage("must be in [0, 5.0): skew=5", "--skew", "5");
        assertMessage("must be in [0, 5.0): skew=12", "--skew", "12");
        assertMessage("not a number: skew=zipf", "--skew", "zipf");
        assertMessage("argument=--skew needs a value", "--skew");
    }

    private static void assertMessage(String part, String... args) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LbvMain.Options.parse(args));
        assertTrue(e.getMessage().contains(part), e.getMessage() + " lacks " + part);
    }
}
