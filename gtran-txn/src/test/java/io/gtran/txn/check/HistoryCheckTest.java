package io.gtran.txn.check;

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
    })
    void badArgumentsExitWith2(String args, String named) throws Exception {
        assertEquals(2, run(args.split(" ")));
        String message = err.toString(StandardCharsets.UTF_8);
        assertTrue(message.contains(named), message);
        assertEquals("", out.toString(StandardCharsets.UTF_8));
    }
}
