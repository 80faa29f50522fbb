package io.gtran.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer process killed with SIGKILL in the middle of its commits, then the graph opened on its
 * directory (docs/durability.md, "Crash points"): with sync every acknowledged transaction is
 * there, and no transaction is there in part; with async what is there is a prefix of the
 * commits, again never a part of one.
 */
class GtranKillRestartTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void aSyncWriterKilledMidCommitLosesNoAcknowledgedTransactionAndLeavesNoneHalfDone() throws Exception {
        int acked = killAfter("sync", 400);
        Map<Integer, int[]> found = read();
        for (int i = 0; i <= acked; i++) {
            assertTrue(found.containsKey(i), "acknowledged transaction " + i + " is missing (acknowledged up to " + acked + ")");
        }
        assertWhole(found);
        assertPrefix(found); // one writer, each commit after the last returned: what is there is 0..n
    }

    @Test
    @Timeout(120)
    void aSyncWriterKilledWhileSnapshotsAreTakenLosesNoAcknowledgedTransaction() throws Exception {
        int acked = killAfter("sync", 1000, "25"); // a snapshot every 25 records: about one in three kills lands mid-snapshot
        Map<Integer, int[]> found = read();
        for (int i = 0; i <= acked; i++) {
            assertTrue(found.containsKey(i), "acknowledged transaction " + i + " is missing (acknowledged up to " + acked + ")");
        }
        assertWhole(found);
        assertPrefix(found); // one writer, each commit after the last returned: what is there is 0..n
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(dir.resolve("data").resolve("snapshots"))) {
            assertTrue(files.anyMatch(f -> f.getFileName().toString().endsWith(".gts")), "the writer took snapshots");
        }
    }

    @Test
    @Timeout(120)
    void anAsyncWriterKilledMidCommitKeepsAPrefixOfItsTransactions() throws Exception {
        killAfter("async", 400);
        Map<Integer, int[]> found = read();
        assertWhole(found);
        assertPrefix(found);
    }

    /** Starts the writer, waits for {@code acks} acknowledgements, kills it; returns the last acknowledged. */
    private int killAfter(String durability, int acks, String... more) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-") || arg.startsWith("-XX:MaxDirectMemorySize")) {
                command.add(arg); // the module flags the tests run with
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), DurableWriter.class.getName(), dir.resolve("data").toString(),
                durability));
        command.addAll(List.of(more));
        Process writer = new ProcessBuilder(command).redirectError(new File(dir.toFile(), "writer.err")).start();
        int last = -1;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith("ACK ")) {
                    last = Integer.parseInt(line.substring(4));
                    if (last + 1 >= acks) {
                        writer.destroyForcibly(); // SIGKILL: no shutdown hook, no close
                        break;
                    }
                }
            }
        } finally {
            writer.destroyForcibly();
            writer.waitFor(30, TimeUnit.SECONDS);
        }
        if (last + 1 < acks) {
            String err = java.nio.file.Files.readString(dir.resolve("writer.err"));
            throw new AssertionError("the writer stopped after " + (last + 1) + " acknowledgements; its stderr:\n"
                    + err.substring(Math.max(0, err.length() - 4000)));
        }
        return last;
    }

    /** Per transaction number: vertices found, edges found. */
    private Map<Integer, int[]> read() {
        Map<Integer, int[]> found = new HashMap<>();
        try (GtranGraph graph = GtranGraph.open(TestGraphs.config("gtran.storage.directory", dir.resolve("data").toString()))) {
            graph.traversal().V().forEachRemaining((Vertex v) ->
                    found.computeIfAbsent(v.<Integer>value("txn"), k -> new int[2])[0]++);
            graph.traversal().E().forEachRemaining((Edge e) ->
                    found.computeIfAbsent(e.<Integer>value("txn"), k -> new int[2])[1]++);
            graph.tx().rollback();
        }
        return found;
    }

    private static void assertPrefix(Map<Integer, int[]> found) {
        for (int i = 0; i < found.size(); i++) {
            assertTrue(found.containsKey(i), "transaction " + i + " is missing but a later one is there: not a prefix");
        }
    }

    private static void assertWhole(Map<Integer, int[]> found) {
        found.forEach((txn, counts) -> {
            assertEquals(2, counts[0], "transaction " + txn + " is there in part: vertices");
            assertEquals(1, counts[1], "transaction " + txn + " is there in part: edges");
        });
    }
}
