package io.gtran.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import io.gtran.core.GtranGraph;
import io.gtran.txn.durable.Durability;
import org.apache.tinkerpop.gremlin.server.GremlinServer;
import org.apache.tinkerpop.gremlin.server.Settings;
import org.apache.tinkerpop.gremlin.structure.util.GraphFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A gtran node: Gremlin Server with gtran's graph and plugin. {@code bin/gtran server [--conf
 * FILE]} runs {@link #main}. Without {@code --conf} it uses the embedded default configuration
 * (conf/ of this module: one graph {@code graph}, traversal source {@code g}, GraphBinary and
 * GraphSON, 127.0.0.1:8182). SIGTERM and Ctrl-C stop it cleanly: running transactions are rolled
 * back, the graph is closed.
 */
public final class GtranServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GtranServer.class);
    /** The default configuration files, packaged from gtran-server/conf. */
    static final String[] DEFAULT_FILES = {"gremlin-server.yaml", "gtran.properties"};
    private static final String DEFAULT_RESOURCES = "/io/gtran/server/conf/";

    private final GremlinServer server;
    private final Settings settings;

    private GtranServer(Settings settings) {
        this.settings = settings;
        this.server = new GremlinServer(settings);
    }

    /**
     * Starts a node with the settings read from a Gremlin Server YAML file; its relative paths are
     * resolved against the working directory, as Gremlin Server does.
     *
     * @throws IllegalArgumentException if the file is missing or is not valid Gremlin Server YAML
     * @throws IllegalStateException    if the server does not start (port taken, bad graph configuration...)
     */
    public static GtranServer start(Path yaml) {
        if (!Files.isRegularFile(yaml)) {
            throw new IllegalArgumentException("no such configuration file: " + yaml.toAbsolutePath());
        }
        Settings settings;
        try {
            settings = Settings.read(yaml.toString());
        } catch (Exception e) {
            throw new IllegalArgumentException("not a Gremlin Server configuration: " + yaml.toAbsolutePath() + ": " + e.getMessage(), e);
        }
        return start(settings);
    }

    /**
     * Starts a node with {@code settings}; see {@link #start(Path)}. A graph of the configuration
     * that does not open (an unknown {@code gtran.*} key, a bad value...) fails the start with the
     * reason, where Gremlin Server alone would log a WARN and serve without it.
     */
    public static GtranServer start(Settings settings) {
        GtranServer node;
        try {
            node = new GtranServer(settings); // Gremlin Server opens the graphs here
        } catch (RuntimeException e) {
            throw new IllegalStateException("gtran node did not start on " + settings.host + ":" + settings.port + ": "
                    + rootMessage(e), e);
        }
        try {
            node.requireGraphsOpen();
            DefaultSource.bind(node.server.getServerGremlinExecutor());
            node.server.start().join();
        } catch (Exception e) {
            node.close();
            throw new IllegalStateException("gtran node did not start on " + settings.host + ":" + settings.port + ": "
                    + rootMessage(e), e);
        }
        GtranMetrics.register(node.server.getServerGremlinExecutor().getGraphManager()); // gtran's gauges, docs/server.md
        return node;
    }

    /**
     * Throws naming the first graph of the configuration that Gremlin Server could not open, with
     * the reason: Gremlin Server only logs it, so the graph is opened again here to get it.
     */
    private void requireGraphsOpen() {
        Set<String> open = server.getServerGremlinExecutor().getGraphManager().getGraphNames();
        for (Map.Entry<String, String> graph : settings.graphs.entrySet()) {
            if (open.contains(graph.getKey())) {
                continue;
            }
            String reason;
            try {
                GraphFactory.open(graph.getValue()).close();
                reason = "it opened on a second try; see the WARN logged above";
            } catch (Exception e) {
                reason = rootMessage(e);
            }
            throw new IllegalStateException("graph '" + graph.getKey() + "' (" + graph.getValue() + ") did not open: " + reason);
        }
    }

    /**
     * Copies the default configuration into {@code dir}, with the paths in the YAML made absolute,
     * and returns the YAML's path. {@code host} and {@code port} replace the defaults.
     */
    public static Path writeDefaultConfiguration(Path dir, String host, int port) {
        return writeDefaultConfiguration(dir, host, port, dir.resolve("data"));
    }

    /**
     * As {@link #writeDefaultConfiguration(Path, String, int)}, with the graph's data directory
     * ({@code gtran.storage.directory}, docs/durability.md) at {@code data}.
     */
    public static Path writeDefaultConfiguration(Path dir, String host, int port, Path data) {
        try {
            Files.createDirectories(dir);
            for (String name : DEFAULT_FILES) {
                try (InputStream in = GtranServer.class.getResourceAsStream(DEFAULT_RESOURCES + name)) {
                    if (in == null) {
                        throw new IllegalStateException("default configuration missing from the jar: " + name);
                    }
                    String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                    if (name.endsWith(".yaml")) {
                        String absolute = dir.toAbsolutePath().toString().replace('\\', '/') + "/";
                        text = text.replace("conf/", absolute)
                                .replaceFirst("(?m)^host: \\S+", "host: " + host)
                                .replaceFirst("(?m)^port: \\d+", "port: " + port);
                    } else if (name.endsWith(".properties")) {
                        String absolute = data.toAbsolutePath().toString().replace('\\', '/');
                        text = text.replaceFirst("(?m)^" + java.util.regex.Pattern.quote(Durability.DIRECTORY) + "=.*$",
                                java.util.regex.Matcher.quoteReplacement(Durability.DIRECTORY + "=" + absolute));
                    }
                    Files.writeString(dir.resolve(name), text);
                }
            }
            return dir.resolve(DEFAULT_FILES[0]);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the default configuration to " + dir + ": " + e.getMessage(), e);
        }
    }

    /** {@code " data=DIR durability=MODE"} of the graph named graph, if it is a gtran graph; "" otherwise. */
    String durability() {
        try {
            if (server.getServerGremlinExecutor().getGraphManager().getGraph("graph") instanceof GtranGraph graph) {
                Path directory = graph.node().durability().directory();
                return " data=" + (directory == null ? "none" : directory.toAbsolutePath())
                        + " durability=" + graph.node().engine().commitLog().mode();
            }
        } catch (RuntimeException e) {
            LOG.debug("no durability to report", e);
        }
        return "";
    }

    public Settings settings() {
        return settings;
    }

    public GremlinServer gremlinServer() {
        return server;
    }

    /** Stops serving: rolls back open transactions, closes the graphs. Safe to call twice. */
    @Override
    public void close() {
        try {
            server.stop().join();
        } catch (RuntimeException e) {
            LOG.warn("gtran node did not stop cleanly: {}", rootMessage(e), e);
        }
    }

    static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }

    /** {@code [--conf FILE] [--host H] [--port P]}; runs until SIGTERM or Ctrl-C. */
    public static void main(String[] args) throws InterruptedException {
        int poolWorkers = CommonPool.ensureWorkers();
        if (poolWorkers < CommonPool.MIN_PARALLELISM) {
            LOG.warn("the common fork-join pool has {} worker(s) ({}): every asynchronous step Ratis takes starts a thread",
                    poolWorkers, CommonPool.PARALLELISM);
        }
        Path conf = null;
        Path data = null;
        String host = "127.0.0.1";
        int port = 8182;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--conf":
                    conf = Paths.get(value(args, ++i, arg));
                    break;
                case "--host":
                    host = value(args, ++i, arg);
                    break;
                case "--data":
                    data = Paths.get(value(args, ++i, arg)).toAbsolutePath();
                    break;
                case "--port":
                    String p = value(args, ++i, arg);
                    try {
                        port = Integer.parseInt(p);
                    } catch (NumberFormatException e) {
                        fail("--port must be a number: " + p);
                    }
                    if (port < 0 || port > 65535) {
                        fail("--port out of range: " + port);
                    }
                    break;
                case "--help":
                case "-h":
                    System.out.println("usage: bin/gtran server [--conf gremlin-server.yaml | --host H --port P --data DIR]");
                    return;
                default:
                    fail("unknown option: " + arg + " (expected --conf FILE, --host H, --port P, --data DIR)");
            }
        }
        if (conf != null && (!host.equals("127.0.0.1") || port != 8182 || data != null)) {
            fail("--host, --port and --data apply to the default configuration; with --conf set host and port in " + conf
                    + " and gtran.storage.directory in its graph's properties");
        }
        if (conf == null) {
            try {
                Path dir = Files.createTempDirectory("gtran-conf-");
                dir.toFile().deleteOnExit();
                conf = writeDefaultConfiguration(dir, host, port, data != null ? data : Paths.get("data").toAbsolutePath());
            } catch (IOException e) {
                fail("cannot write the default configuration: " + e.getMessage());
            }
        }
        GtranServer node;
        try {
            node = start(conf);
        } catch (RuntimeException e) {
            fail(e.getMessage());
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("gtran node stopping");
            node.close();
            stopped.countDown();
        }, "gtran-shutdown"));
        System.out.println("GTRAN_SERVER ready host=" + node.settings.host + " port=" + node.settings.port
                + " conf=" + conf.toAbsolutePath() + node.durability());
        System.out.flush();
        stopped.await();
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            fail(option + " needs a value");
        }
        return args[i];
    }

    private static void fail(String message) {
        System.err.println("gtran server: " + message);
        System.exit(2);
    }
}
