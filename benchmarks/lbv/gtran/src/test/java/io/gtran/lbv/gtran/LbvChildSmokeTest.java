package io.gtran.lbv.gtran;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * This module's systems as the LBV driver runs them: {@code io.gtran.lbv.LbvChildMain} in a child
 * JVM on a small social dataset for a second, ending with one {@code LBV_RESULT} line and no
 * failed query. A smoke run (no numbers are checked), so that the way the driver starts a system
 * keeps working.
 */
class LbvChildSmokeTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(90)
    void gtranEmbeddedRunsAMixAndTheLatencyQueriesInAChildJvm() throws Exception {
        String result = runChild(GtranLbvSystem.class, List.of("--option", "isolation=SR", "--workload", "WI", "--latency",
                "--latency-runs", "1"));
        assertTrue(result.contains("\"system\":\"gtran\""), result);
        assertTrue(result.contains("\"query\":\"KHOP4\""), "the latency queries ran: " + result);
    }

    @Test
    @Timeout(90)
    void gtranRemoteRunsAMixInAChildJvm() throws Exception {
        String result = runChild(GtranRemoteLbvSystem.class, List.of("--workload", "MIX"));
        assertTrue(result.contains("\"system\":\"gtran-remote\""), result);
    }

    /** Runs the child with this JVM's class path and module flags; returns its LBV_RESULT line. */
    private String runChild(Class<?> system, List<String> extra) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx512m");
        for (String flag : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (flag.startsWith("--add-") || flag.startsWith("-Dchronicle.")) {
                command.add(flag);
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.gtran.lbv.LbvChildMain",
                "--system", system.getName(), "--dataset", "social", "--edges", "3000", "--seed", "3",
                "--threads", "2", "--seconds", "1", "--warmup", "0.5"));
        command.addAll(extra);
        File out = dir.resolve("stdout.txt").toFile();
        File err = dir.resolve("stderr.txt").toFile();
        Process child = new ProcessBuilder(command).redirectOutput(out).redirectError(err).start();
        if (!child.waitFor(80, TimeUnit.SECONDS)) {
            child.destroyForcibly();
            throw new AssertionError("the child did not finish in 80 s; stderr:\n" + tail(err));
        }
        assertEquals(0, child.exitValue(), "exit status; stderr:\n" + tail(err));
        List<String> lines = Files.readAllLines(out.toPath(), StandardCharsets.UTF_8);
        String last = lines.isEmpty() ? "" : lines.get(lines.size() - 1);
        assertTrue(last.startsWith("LBV_RESULT {"), "the last stdout line is the result: " + lines + "\nstderr:\n" + tail(err));
        assertTrue(last.contains("\"errors\":[]") && last.contains("\"failures\":0,\"tps\""),
                "no query failed: " + last + "\nstderr:\n" + tail(err));
        return last;
    }

    private static String tail(File file) throws IOException {
        List<String> lines = Files.readAllLines(file.toPath(), StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }
}
