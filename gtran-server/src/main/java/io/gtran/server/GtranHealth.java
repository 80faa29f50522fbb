package io.gtran.server;

import java.io.PrintStream;
import java.util.concurrent.TimeUnit;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.util.ser.Serializers;

/**
 * {@code bin/gtran health [--host H] [--port P] [--timeout-ms T]}: is the node serving its graph?
 * Sends one request over the WebSocket protocol every driver uses, a traversal that reads the
 * graph {@code g} in a transaction of its own ({@link #PROBE}), and answers exit status 0 with
 * {@code GTRAN_HEALTH ok ...} if the answer came within the timeout, 1 with {@code GTRAN_HEALTH
 * failed ...} and the reason otherwise (nothing listening, not Gremlin Server, the graph failing,
 * too slow). For scripts, and for load balancers that run a command as their check.
 */
public final class GtranHealth {
    /** The request: a read of the graph through the traversal source {@code g}. */
    static final String PROBE = "g.V().limit(1).count()";
    static final int DEFAULT_TIMEOUT_MS = 5_000;
    private static final String LOGBACK_CONFIGURATION = "logback.configurationFile";

    private GtranHealth() {
    }

    /** What a check found: {@code ok}, how long the round trip took, and why it failed if it did. */
    record Result(boolean ok, long millis, String reason) {
    }

    /** Sends {@link #PROBE} to {@code host:port} and waits at most {@code timeoutMillis} for the answer. */
    static Result check(String host, int port, int timeoutMillis) {
        long start = System.nanoTime();
        Cluster cluster = null;
        try {
            cluster = Cluster.build(host).port(port).serializer(Serializers.GRAPHBINARY_V1)
                    .minConnectionPoolSize(1).maxConnectionPoolSize(1)
                    .connectionSetupTimeoutMillis(timeoutMillis).maxWaitForConnection(timeoutMillis)
                    .create();
            Client client = cluster.connect();
            client.submitAsync(PROBE).get(timeoutMillis, TimeUnit.MILLISECONDS).one().getLong();
            return new Result(true, millisSince(start), null);
        } catch (java.util.concurrent.TimeoutException e) {
            return new Result(false, millisSince(start), "no answer within " + timeoutMillis + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(false, millisSince(start), "interrupted");
        } catch (Exception e) {
            return new Result(false, millisSince(start), GtranServer.rootMessage(e));
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

    /** Runs the check {@code args} ask for, prints the verdict on {@code out}, and returns the exit status. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        String host = "127.0.0.1";
        int port = 8182;
        int timeout = DEFAULT_TIMEOUT_MS;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--host": host = value(args, ++i); break;
                    case "--port": port = number(args, ++i, 0, 65535); break;
                    case "--timeout-ms": timeout = number(args, ++i, 1, Integer.MAX_VALUE); break;
                    case "--help":
                    case "-h":
                        out.println("usage: bin/gtran health [--host H] [--port P] [--timeout-ms T]");
                        return 0;
                    default:
                        throw new IllegalArgumentException("unknown option: " + args[i]
                                + " (expected --host H, --port P, --timeout-ms T)");
                }
            }
        } catch (IllegalArgumentException e) {
            err.println("gtran health: " + e.getMessage());
            return 2;
        }
        Result r = check(host, port, timeout);
        if (r.ok()) {
            out.println("GTRAN_HEALTH ok host=" + host + " port=" + port + " ms=" + r.millis());
            return 0;
        }
        out.println("GTRAN_HEALTH failed host=" + host + " port=" + port + " ms=" + r.millis() + " reason=" + r.reason());
        return 1;
    }

    /** The value of the option at {@code args[i - 1]}; shared with {@link GtranStatus}. */
    static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value");
        }
        return args[i];
    }

    /** The whole number from {@code min} to {@code max} given to the option at {@code args[i - 1]}; shared with {@link GtranStatus}. */
    static int number(String[] args, int i, int min, int max) {
        String text = value(args, i);
        try {
            int n = Integer.parseInt(text);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException(args[i - 1] + " must be a number from " + min + " to " + max + ": " + text);
    }

    private static long millisSince(long start) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    public static void main(String[] args) {
        // Before anything logs: the node's logback.xml would write the driver's chatter to stdout and logs/.
        if (System.getProperty(LOGBACK_CONFIGURATION) == null) {
            System.setProperty(LOGBACK_CONFIGURATION, "io/gtran/server/logback-health.xml");
        }
        System.exit(run(args, System.out, System.err));
    }
}
