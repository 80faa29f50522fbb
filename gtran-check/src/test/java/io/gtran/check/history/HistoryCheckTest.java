package io.gtran.check.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The command line of {@link HistoryCheck}: a small run ends with exactly one well-formed
 * HISTORY line and exit code 0; bad arguments exit with 2 and a message naming the argument.
 */
@Timeout(60)
class HistoryCheckTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) throws Exception {
        return HistoryCheck.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    /** A run prints progress and ends with the one HISTORY line; anomalies do not change the exit code. */
    @Test
    void smallRunEndsWithTheSummaryLine() throws Exception {
        int code = run("--isolation", "SR", "--threads", "4", "--txns", "500", "--seed", "7", "--set", "gtran.txn.validation=false");
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(0, code, () -> err.toString(StandardCharsets.UTF_8));
        String last = lines.get(lines.size() - 1);
        assertTrue(last.matches("HISTORY isolation=SR txns=\\d+ aborted=\\d+ anomalies=\\d+ kinds=(none|[A-Za-z0-9-]+(,[A-Za-z0-9-]+)*)"), last);
        assertEquals(1, lines.stream().filter(l -> l.startsWith("HISTORY ")).count());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("progress attempted=")), lines::toString);
        String[] fields = last.split(" ");
        int committed = Integer.parseInt(fields[2].substring("txns=".length()));
        int aborted = Integer.parseInt(fields[3].substring("aborted=".length()));
        assertTrue(committed >= 500 && committed < 500 + 4, "--txns is the committed count (a worker per thread may overshoot by one): " + last);
        assertTrue(aborted >= 0, last);
    }

    /** {@code --name=value} works as well as {@code --name value}. */
    @Test
    void equalsFormIsAccepted() throws Exception {
        assertEquals(0, run("--isolation=si", "--threads=2", "--txns=50"), () -> err.toString(StandardCharsets.UTF_8));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("HISTORY isolation=SI txns="));
    }

    /** {@code --nodes 3}: three in-JVM members, the same single HISTORY line; the first line names the node count. */
    @Test
    void clusterRunEndsWithTheSameSummaryLine() throws Exception {
        int code = run("--nodes", "3", "--threads", "3", "--txns", "300", "--seed", "5");
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(0, code, () -> err.toString(StandardCharsets.UTF_8));
        assertTrue(lines.get(0).contains(" nodes=3 faults=none "), lines.get(0));
        String last = lines.get(lines.size() - 1);
        assertTrue(last.matches("HISTORY isolation=SR txns=\\d+ aborted=\\d+ anomalies=0 kinds=none"), last);
        assertEquals(1, lines.stream().filter(l -> l.startsWith("HISTORY ")).count());
        assertTrue(lines.stream().anyMatch(l -> l.matches("workload: nodes=3 .* committed_across_nodes=[1-9][0-9]* .*")), lines::toString);
    }

    /** {@code --faults}: the nodes' fabrics go through a seeded fault plan; the run still ends with the line. */
    @Test
    void faultyClusterRunEndsWithTheSummaryLine() throws Exception {
        int code = run("--nodes", "2", "--threads", "2", "--txns", "40", "--faults", "delay=0-5ms,drop=0.05,seed=3");
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(0, code, () -> err.toString(StandardCharsets.UTF_8));
        assertTrue(lines.get(0).contains(" nodes=2 faults=delay=0.0-5.0ms,drop=0.05,seed=3 "), lines.get(0));
        String last = lines.get(lines.size() - 1);
        assertTrue(last.matches("HISTORY isolation=SR txns=\\d+ aborted=\\d+ anomalies=0 kinds=none"), last);
    }

    /** Each bad argument is refused with exit code 2, and the message names it. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--isolation RC|--isolation",
        "--threads 0|--threads",
        "--txns lots|--txns",
        "--seed x|--seed",
        "--txns|--txns needs a value",
        "--frobnicate 3|--frobnicate",
        "--set gtran.txn.validation|--set",
        "--set other.key=1|other.key",
        "--set gtran.txn.no-such-key=1|gtran.txn.no-such-key",
        "--set gtran.txn.validation=maybe|gtran.txn.validation",
        "--nodes 3 --set gtran.storage.node-id=2|gtran.storage.node-id",
        "--set gtran.clock.sync-interval-ms=0|gtran.clock.sync-interval-ms",
        "--nodes 0|--nodes",
        "--nodes 17|--nodes",
        "--nodes three|--nodes",
        "--faults|--faults needs a value",
        "--faults delay=5ms|--faults needs --nodes 2 or more",
        "--nodes 3 --faults delay=abc|delay=abc",
        "--nodes 3 --faults delay=50-10ms|delay=50-10ms",
        "--nodes 3 --faults delay=5h|delay=5h",
        "--nodes 3 --faults delay=99999999999999999us|delay=99999999999999999us",
        "--nodes 3 --faults drop=2|drop=2",
        "--nodes 3 --faults drop=often|drop=often",
        "--nodes 3 --faults seed=x,drop=0.1|seed=x",
        "--nodes 3 --faults jitter=5ms|jitter",
        "--nodes 3 --faults delay5ms|delay5ms",
        "--nodes 3 --faults seed=3|names no fault",
        "--nodes 3 --faults drop=0.1,drop=0.2|drop twice",
        "--nodes 3 --frobnicate|--frobnicate",
    })
    void badArgumentsExitWith2(String args, String named) throws Exception {
        assertEquals(2, run(args.split(" ")));
        String message = err.toString(StandardCharsets.UTF_8);
        assertTrue(message.contains(named), message);
        assertEquals("", out.toString(StandardCharsets.UTF_8));
    }
}
