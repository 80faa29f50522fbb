package io.gtran.server;

import java.io.PrintStream;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;
import javax.lang.model.SourceVersion;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.Result;
import org.apache.tinkerpop.gremlin.util.ser.Serializers;

/**
 * {@code bin/gtran status [--host H] [--port P] [--graph NAME] [--timeout-ms T]}: a node's view of
 * its cluster, as {@code nodetool status} shows it. Evaluates {@code [NAME.status()]} (gremlin-groovy,
 * the graph bound by its name; see {@code GtranGraph.status()}) and prints one line, exit status 0:
 *
 * <pre>
 * NODE_STATUS host=127.0.0.2 port=8182 state=up node=1 members=0,1,2 in_contact=0,2 lost=- group_leader=0
 *   group_term=1 group_lost=- clock_synced=true
 *   clock_master=0 clock_epoch=0 clock_lease_ms=1740 clock_uncertainty_us=35 clock_offset_ms=0 watermark=123 running=0 participants=0 commits=10 aborts=0
 *   messages=42 bytes=5120 durability=sync log_index=42 log_durable=42 snapshot_index=30 snapshot_time=1796012534555000
 * </pre>
 *
 * (on one line): {@code state=up} when every other member is in contact, {@code degraded} when some
 * are lost; a list with nothing in it is {@code -}. A node that does not answer within the timeout,
 * refuses the connection or fails the request: {@code NODE_STATUS host=.. port=.. state=down
 * reason="..."}, exit status 1.
 */
public final class GtranStatus {
    static final int DEFAULT_TIMEOUT_MS = 5_000;
    static final String DEFAULT_GRAPH = "graph";
    /** The keys of {@code GtranGraph.status()}, in the order they are printed. */
    static final List<String> KEYS = List.of("node", "members", "in_contact", "lost", "group_leader", "group_term",
            "group_lost", "clock_synced", "clock_master", "clock_epoch", "clock_lease_ms",
            "clock_uncertainty_us", "clock_offset_ms", "watermark", "running", "participants", "commits", "aborts",
            "messages", "bytes", "durability", "log_index", "log_durable",
            "snapshot_index", "snapshot_time");
    private static final String USAGE = "usage: bin/gtran status [--host H] [--port P] [--graph NAME] [--timeout-ms T]";
    private static final String LOGBACK_CONFIGURATION = "logback.configurationFile";

    private GtranStatus() {
    }

    /** Asks {@code host:port} for the status of its graph {@code graph}; the line to print, "state=down" if none came within the timeout. */
    static String status(String host, int port, String graph, int timeoutMillis) {
        String where = "NODE_STATUS host=" + host + " port=" + port + " state=";
        Cluster cluster = null;
        try {
            cluster = Cluster.build(host).port(port).serializer(Serializers.GRAPHBINARY_V1)
                    .minConnectionPoolSize(1).maxConnectionPoolSize(1)
                    .connectionSetupTimeoutMillis(timeoutMillis).maxWaitForConnection(timeoutMillis)
                    .create();
            Client client = cluster.connect();
            // In a list, so that the map comes back whole rather than entry by entry.
            List<Result> results = client.submitAsync("[" + graph + ".status()]").get(timeoutMillis, TimeUnit.MILLISECONDS)
                    .all().get(timeoutMillis, TimeUnit.MILLISECONDS);
            if (results.size() != 1 || !(results.get(0).getObject() instanceof Map<?, ?> status)) {
                return where + "down reason=" + quoted("not a status: " + results);
            }
            return where + line(status);
        } catch (java.util.concurrent.TimeoutException e) {
            return where + "down reason=" + quoted("no answer within " + timeoutMillis + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return where + "down reason=" + quoted("interrupted");
        } catch (Exception e) {
            return where + "down reason=" + quoted(GtranServer.rootMessage(e));
        } finally {
            if (cluster != null) {
                try {
                    cluster.closeAsync().get(timeoutMillis, TimeUnit.MILLISECONDS);
                } catch (Exception ignored) {
                    // the verdict is made; a slow close must not change it
                }
            }
        }
    }

    /** {@code up node=.. members=.. ...} or {@code degraded ...} from a status map. */
    static String line(Map<?, ?> status) {
        Object lost = status.get("lost");
        boolean up = lost instanceof Collection<?> none && none.isEmpty();
        StringBuilder line = new StringBuilder(up ? "up" : "degraded");
        for (String key : KEYS) {
            line.append(' ').append(key).append('=').append(value(status.get(key)));
        }
        return line.toString();
    }

    private static String value(Object value) {
        if (value instanceof Collection<?> list) {
            if (list.isEmpty()) {
                return "-";
            }
            StringJoiner joined = new StringJoiner(",");
            list.forEach(item -> joined.add(String.valueOf(item)));
            return joined.toString();
        }
        return String.valueOf(value);
    }

    private static String quoted(String reason) {
        return "\"" + String.valueOf(reason).replace('"', '\'').replace('\n', ' ') + "\"";
    }

    /** Runs the request {@code args} ask for, prints the line on {@code out}, and returns the exit status. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        String host = "127.0.0.1";
        int port = 8182;
        String graph = DEFAULT_GRAPH;
        int timeout = DEFAULT_TIMEOUT_MS;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--host" -> host = GtranHealth.value(args, ++i);
                    case "--port" -> port = GtranHealth.number(args, ++i, 0, 65535);
                    case "--graph" -> graph = identifier(args, ++i);
                    case "--timeout-ms" -> timeout = GtranHealth.number(args, ++i, 1, Integer.MAX_VALUE);
                    case "--help", "-h" -> {
                        out.println(USAGE);
                        return 0;
                    }
                    default -> throw new IllegalArgumentException("unknown option: " + args[i]
                            + " (expected --host H, --port P, --graph NAME, --timeout-ms T)");
                }
            }
        } catch (IllegalArgumentException e) {
            err.println("gtran status: " + e.getMessage());
            err.println(USAGE);
            return 2;
        }
        String line = status(host, port, graph, timeout);
        out.println(line);
        return line.contains(" state=down ") ? 1 : 0;
    }

    /** A graph's name as the server binds it: an identifier, which is all the script may hold of it. */
    private static String identifier(String[] args, int i) {
        String name = GtranHealth.value(args, i);
        if (!SourceVersion.isIdentifier(name) || SourceVersion.isKeyword(name)) {
            throw new IllegalArgumentException("--graph must be a graph's name as the server binds it: " + name);
        }
        return name;
    }

    public static void main(String[] args) {
        // Before anything logs: the node's logback.xml would write the driver's chatter to stdout and logs/.
        if (System.getProperty(LOGBACK_CONFIGURATION) == null) {
            System.setProperty(LOGBACK_CONFIGURATION, "io/gtran/server/logback-health.xml");
        }
        System.exit(run(args, System.out, System.err));
    }
}
