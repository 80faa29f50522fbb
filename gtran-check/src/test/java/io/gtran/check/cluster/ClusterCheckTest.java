package io.gtran.check.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.server.ClusterProcesses;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * {@code bin/gtran check cluster} ({@link ClusterCheck}) against three separate gtran processes
 * that {@code deploy/gtran-cluster} started ({@link ClusterProcesses#startOneGraph}): both
 * workloads without faults, then the kill schedule through the same script. The kill runs last:
 * node 2 stays dead. Runs are a few seconds: the tool is what this shows; {@code .ci/run}'s fault
 * harness runs both workloads under every schedule, the kill included.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterCheckTest {
    private static final Pattern SUMMARY = Pattern.compile("(?m)^CLUSTER_CHECK workload=.*$");
    private static ClusterProcesses cluster;
    private static Path hosts;

    @BeforeAll
    static void start() {
        cluster = ClusterProcesses.startOneGraph(3);
        hosts = cluster.hosts();
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    @Timeout(90)
    void listAppendWithoutFaultsPasses() throws Exception {
        // Every node must commit in the last third (after the schedule's heal): 8 s leaves 2.7 s,
        // and this first run meets cold servers (each session compiles the init script).
        String line = check("--workload", "list-append", "--seconds", "8", "--seed", "11");
        assertTrue(line.contains(" anomalies=0 kinds=none lost=0 unavailable_keys=0 "), line);
        assertTrue(line.endsWith("served_after_heal=true result=pass"), line);
    }

    @Test
    @Order(2)
    @Timeout(90)
    void bankWithoutFaultsPasses() throws Exception {
        String line = check("--workload", "bank", "--seconds", "6", "--seed", "12");
        assertTrue(line.contains(" anomalies=0 kinds=none lost=0 unavailable_keys=0 "), line);
        assertTrue(line.endsWith("result=pass"), line);
    }

    @Test
    @Order(3)
    @Timeout(120)
    void listAppendPassesWhenNodeTwoIsKilledAndItsKeysAreUnavailable() throws Exception {
        String line = check("--workload", "list-append", "--seconds", "6", "--seed", "13", "--schedule", "kill",
                "--cluster-cmd", String.join(" ", cluster.command()));
        Matcher m = Pattern.compile(" unavailable_keys=(\\d+) ").matcher(line);
        assertTrue(m.find(), line);
        assertTrue(Integer.parseInt(m.group(1)) > 0, "node 2's keys are unavailable: " + line);
        assertTrue(line.contains(" anomalies=0 kinds=none lost=0 "), line);
        assertTrue(line.endsWith("served_after_heal=true result=pass"), line);
        String text = cluster.run("status");
        assertTrue(text.contains("port=" + cluster.port(2) + " state=down") && text.contains("process=dead"),
                "the script killed node 2: " + text);
        assertTrue(Pattern.compile("node=0 .* lost=2 ").matcher(text).find(), "node 0 counts node 2 lost: " + text);
    }

    /** Runs the check on the test cluster; asserts it printed one summary line and returns it. */
    private static String check(String... args) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        String[] all = new String[args.length + 4];
        all[0] = "--hosts";
        all[1] = hosts.toString();
        all[2] = "--threads";
        all[3] = "6";
        System.arraycopy(args, 0, all, 4, args.length);
        int code = ClusterCheck.run(all, out, System.err, null);
        String text = bytes.toString(StandardCharsets.UTF_8);
        System.out.print(text);
        Matcher m = SUMMARY.matcher(text);
        assertTrue(m.find(), "a summary line: " + text);
        String line = m.group();
        assertTrue(!m.find(), "exactly one summary line: " + text);
        assertEquals(line.endsWith("result=pass") ? 0 : 1, code, line);
        return line;
    }
}
