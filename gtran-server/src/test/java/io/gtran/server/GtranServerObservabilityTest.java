package io.gtran.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.codahale.metrics.Gauge;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import javax.management.ObjectName;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.exception.ResponseException;
import org.apache.tinkerpop.gremlin.server.Settings;
import org.apache.tinkerpop.gremlin.server.util.MetricManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What an operator has of a node: gtran's metrics, their reporters, the health check, conflict messages. */
class GtranServerObservabilityTest {

    @SuppressWarnings("rawtypes")
    private static long gauge(String name) {
        Map<String, Gauge> gauges = MetricManager.INSTANCE.getRegistry().getGauges();
        Gauge gauge = gauges.get(name);
        assertNotNull(gauge, () -> name + " not among the gauges " + gauges.keySet());
        return ((Number) gauge.getValue()).longValue();
    }

    private static ResponseException responseException(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ResponseException r) {
                return r;
            }
        }
        return null;
    }

    @Test
    @Timeout(90)
    void gtransGaugesAreInTheServersRegistryAndMoveWithCommitsAndAborts() throws Exception {
        try (TestNode node = TestNode.start("metrics: {jmxReporter: {enabled: true}}")) {
            assertTrue(ManagementFactory.getPlatformMBeanServer().isRegistered(new ObjectName("metrics:name=gtran.graph.commits")),
                    "JMX shows gtran's gauges in Gremlin Server's domain");
            for (String name : new String[] {"gtran.graph.rollbacks", "gtran.graph.running", "gtran.graph.gc.backlog",
                    "gtran.graph.store.liveSlots.vertex-header", "gtran.graph.store.reservedBytes.total",
                    "gtran.graph.orphans.rolledBack", "gtran.modern.commits"}) {
                gauge(name);
            }
            long commits = gauge("gtran.graph.commits");
            long aborts = gauge("gtran.graph.aborts.WRITE_WRITE");
            Cluster cluster = node.cluster();
            try {
                Client sessionless = cluster.connect();
                sessionless.submit("g.addV('account').property('name', 'acct').property('owner', 'nobody')").all().get();
                assertTrue(gauge("gtran.graph.commits") > commits, "a committed request is counted");

                Client session = cluster.connect("holder"); // its transaction stays open until it commits
                session.submit("g.V().has('name', 'acct').property('owner', 'holder').iterate()").all().get();
                ExecutionException e = assertThrows(ExecutionException.class,
                        () -> sessionless.submit("g.V().has('name', 'acct').property('owner', 'other').iterate()").all().get());
                ResponseException r = responseException(e);
                assertNotNull(r, e::toString);
                assertTrue(r.getMessage().contains("key=owner)"), "the conflict names the property key: " + r.getMessage());
                assertEquals(aborts + 1, gauge("gtran.graph.aborts.WRITE_WRITE"));
                session.close();
            } finally {
                cluster.close();
            }
        }
    }

    @Test
    void theDefaultConfigurationReportsMetricsByJmxAndToALog(@TempDir Path dir) throws Exception {
        Settings settings = Settings.read(GtranServer.writeDefaultConfiguration(dir, "127.0.0.1", 8399).toString());
        assertTrue(settings.metrics.jmxReporter.enabled);
        assertTrue(settings.metrics.slf4jReporter.enabled);
        assertEquals("io.gtran.metrics", settings.metrics.slf4jReporter.loggerName);
        assertEquals(60_000L, settings.metrics.slf4jReporter.interval);
    }

    @Test
    @Timeout(60)
    void theHealthCheckAnswersForAServingNodeAndFailsForADeadPort() throws Exception {
        try (TestNode node = TestNode.start()) {
            GtranHealth.Result up = GtranHealth.check("127.0.0.1", node.port, 10_000);
            assertTrue(up.ok(), up::toString);
            assertEquals(0, run("--port", Integer.toString(node.port)));
        }
        int dead = TestNode.freePort();
        long start = System.nanoTime();
        GtranHealth.Result down = GtranHealth.check("127.0.0.1", dead, 3_000);
        assertFalse(down.ok());
        assertNotNull(down.reason());
        assertTrue(System.nanoTime() - start < 15_000_000_000L, "a dead port is reported promptly");
        assertEquals(1, run("--port", Integer.toString(dead), "--timeout-ms", "3000"));
        assertEquals(2, run("--port", "nope"));
    }

    private static int run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = GtranHealth.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(out, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(status == 2 || text.startsWith(status == 0 ? "GTRAN_HEALTH ok" : "GTRAN_HEALTH failed"), text);
        return status;
    }
}
