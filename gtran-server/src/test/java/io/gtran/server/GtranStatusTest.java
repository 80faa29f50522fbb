package io.gtran.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code bin/gtran status}: the line a node answers with, and the line for a node that does not answer. */
@Timeout(120)
class GtranStatusTest {
    @Test
    void aNodeAloneIsUpWithItsCounters() throws Exception {
        try (TestNode node = TestNode.start()) {
            Cluster cluster = node.cluster();
            try {
                Client client = cluster.connect();
                client.submit("g.addV('person')").all().get();
            } finally {
                cluster.close();
            }
            Run run = run("--port", Integer.toString(node.port), "--timeout-ms", "20000");
            assertEquals(0, run.status, run.out);
            assertTrue(run.out.matches("NODE_STATUS host=127\\.0\\.0\\.1 port=" + node.port + " state=up node=0 members=0"
                    + " in_contact=- lost=- group_leader=- group_term=- group_lost=- clock_synced=true clock_master=0 clock_epoch=0 clock_lease_ms=- clock_uncertainty_us=0 clock_offset_ms=0"
                    + " watermark=\\d+ running=0 participants=0 commits=[1-9]\\d* aborts=0"
                    + " messages=0 bytes=0 durability=(sync|none) log_index=-?\\d+ log_durable=-?\\d+ snapshot_index=-?\\d+ snapshot_time=-?\\d+\\R"), run.out);
            Run otherGraph = run("--port", Integer.toString(node.port), "--graph", "modern", "--timeout-ms", "20000");
            assertEquals(0, otherGraph.status, otherGraph.out);
            Run noSuchGraph = run("--port", Integer.toString(node.port), "--graph", "nograph", "--timeout-ms", "20000");
            assertEquals(1, noSuchGraph.status, noSuchGraph.out);
            assertTrue(noSuchGraph.out.contains("state=down reason=\""), noSuchGraph.out);
        }
    }

    @Test
    void aPortWithNothingListeningIsDown() throws Exception {
        int dead = TestNode.freePort();
        Run run = run("--port", Integer.toString(dead), "--timeout-ms", "3000");
        assertEquals(1, run.status, run.out);
        assertTrue(run.out.matches("NODE_STATUS host=127\\.0\\.0\\.1 port=" + dead + " state=down reason=\"[^\"]+\"\\R"),
                run.out);
    }

    @Test
    void aMemberNotInContactMakesTheNodeDegraded() {
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("node", 1);
        status.put("members", List.of(0, 1, 2));
        status.put("in_contact", List.of(0));
        status.put("lost", List.of(2));
        status.put("group_leader", 0);
        status.put("group_term", 3L);
        status.put("group_lost", List.of(2));
        status.put("clock_synced", false);
        for (String key : GtranStatus.KEYS.subList(8, GtranStatus.KEYS.size())) {
            status.put(key, 7L);
        }
        assertEquals("degraded node=1 members=0,1,2 in_contact=0 lost=2 group_leader=0 group_term=3 group_lost=2"
                + " clock_synced=false clock_master=7 clock_epoch=7 clock_lease_ms=7"
                + " clock_uncertainty_us=7 clock_offset_ms=7 watermark=7 running=7 participants=7 commits=7 aborts=7"
                + " messages=7 bytes=7 durability=7 log_index=7 log_durable=7 snapshot_index=7 snapshot_time=7",
                GtranStatus.line(status));
    }

    @Test
    void badOptionsExitWithUsage() throws Exception {
        assertEquals(2, run("--graph", "g;System.exit(0)").status);
        assertEquals(2, run("--port").status);
        assertEquals(2, run("--bogus").status);
    }

    private record Run(int status, String out) {
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        int status = GtranStatus.run(args, print, print);
        return new Run(status, out.toString(StandardCharsets.UTF_8));
    }
}
