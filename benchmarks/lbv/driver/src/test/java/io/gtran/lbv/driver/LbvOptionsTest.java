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
        assertEquals(7 * 4, labels.size(), labels.toString());
        for (String series : List.of("gtran@SR", "gtran@SI", "gtran-noopt@SR", "gtran-remote@SR", "tinkertx@RC",
                "janusgraph@none", "neo4j@RC")) {
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

    private static void assertMessage(String part, String... args) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LbvMain.Options.parse(args));
        assertTrue(e.getMessage().contains(part), e.getMessage() + " lacks " + part);
    }
}
