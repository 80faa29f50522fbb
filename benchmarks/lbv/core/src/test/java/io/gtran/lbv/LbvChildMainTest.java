package io.gtran.lbv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Timeout(60)
class LbvChildMainTest {
    private static final String MAP = MapLbvSystem.class.getName();

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return LbvChildMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void runsASystemAndPrintsTheResultLast() {
        int status = run("--system", MAP, "--option", "conflictRate=0.05", "--option", "seed=3", "--dataset", "grateful-dead",
                "--edges", "1000", "--seed", "9", "--workload", "ri", "--threads", "2", "--seconds", "0.5", "--warmup", "0.1",
                "--latency", "--latency-runs", "3", "--skew", "1");
        assertEquals(0, status, err());
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        String last = lines.get(lines.size() - 1);
        assertTrue(last.startsWith("LBV_RESULT {"), last);
        LbvResult r = LbvResult.fromJson(last);
        assertEquals("map", r.system());
        assertEquals(MAP, r.systemClass());
        assertEquals(Map.of("conflictRate", "0.05", "seed", "3"), r.options());
        assertEquals("grateful-dead", r.dataset());
        assertEquals(808, r.vertices());
        assertEquals("RI", r.workload());
        assertEquals(2, r.threads());
        assertEquals(9, r.seed());
        assertEquals(1.0, r.skew());
        assertTrue(r.commits() > 0 && r.aborts() > 0, r.summary());
        assertEquals(LatencyQuery.values().length, r.latency().size());
        assertTrue(err().contains("LBV_LOADED system=map vertices=808 edges=8049"), err());
        assertTrue(err().contains("LBV_SUMMARY system=map"), err());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--dataset social                                    | argument=--system is required",
        "--system X                                          | argument=--dataset is required",
        "--system X --dataset social --edges ten             | edges=ten is not an integer",
        "--system X --dataset social --edges 0               | edges=0 must be a positive integer",
        "--system X --dataset social --threads -1            | threads=-1 must be a positive integer",
        "--system X --dataset social --seconds -1            | seconds=-1.0 must be 0 or more",
        "--system X --dataset social --workload RW           | workload=RW is not one of RO, RI, WI, MIX",
        "--system X --dataset social --option isolation      | option=isolation is not key=value",
        "--system X --dataset social --bogus 1               | argument=--bogus is unknown",
        "--system X --dataset social --skew -0.5             | skew=-0.5 must be in [0, 5.0)",
        "--system X --dataset social --skew 5                | skew=5.0 must be in [0, 5.0)",
        "--system X --dataset social --skew NaN              | skew=NaN is not a number",
        "--system X --dataset social --skew hot              | skew=hot is not a number",
        "--system X --dataset social --seed                  | argument=--seed needs a value",
        "--system X --dataset ldbc                           | dataset=ldbc is unknown; known: social, kronecker, grateful-dead",
        "--system no.such.System --dataset social            | system=no.such.System is not on the classpath",
        "--system java.lang.String --dataset social          | system=java.lang.String does not implement io.gtran.lbv.LbvSystem",
        "--system io.gtran.lbv.MapLbvSystem --dataset social --option colour=red | rejected options={colour=red}",
    })
    void badArgumentsAreUsageErrors(String args, String message) {
        assertEquals(LbvChildMain.EXIT_USAGE, run(args.trim().split("\\s+")), err());
        assertTrue(err().contains("LBV_USAGE") && err().contains(message), err());
        assertTrue(err().contains("usage: java -cp"), err());
        assertEquals("", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aFailingSystemExitsOne() {
        int status = run("--system", MAP, "--option", "failLoad=true", "--dataset", "grateful-dead", "--seconds", "0.1");
        assertEquals(LbvChildMain.EXIT_FAILED, status, err());
        assertTrue(err().contains("LBV_ERROR system=" + MAP + " run failed: java.lang.IllegalStateException: failLoad=true"),
                err());
        assertEquals("", out.toString(StandardCharsets.UTF_8));
    }
}
