package io.gtran.lbv.janusgraph;

import io.gtran.lbv.Dataset;
import io.gtran.lbv.DatasetInfo;
import io.gtran.lbv.LoadProgress;
import io.gtran.lbv.gremlin.GremlinSystem;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.exception.ResponseException;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.server.GremlinServer;
import org.apache.tinkerpop.gremlin.server.Settings;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.io.binary.TypeSerializerRegistry;
import org.apache.tinkerpop.gremlin.util.ser.GraphBinaryMessageSerializerV1;
import org.janusgraph.core.JanusGraph;
import org.janusgraph.graphdb.tinkerpop.JanusGraphIoRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * JanusGraph 1.1.0 (the {@code inmemory} backend, configured as {@link JanusGraphLbvSystem}
 * configures it) behind Gremlin Server 3.7.3, queried through gremlin-driver 3.7.3: the server
 * runs inside the benchmark's JVM on a free 127.0.0.1 port; the dataset is loaded straight into
 * the server's graph (embedded, fast), then every query goes over the loopback WebSocket with
 * GraphBinary, as a client's would. The model is gtran's {@code GtranRemoteLbvSystem}.
 *
 * <p>Each query is one traversal sent <b>sessionless</b>: the server runs it in a transaction of
 * its own and commits it when it succeeds (rolls it back when it fails). Edge ids are JanusGraph's
 * {@code RelationIdentifier}, which GraphBinary carries as a custom type: the server's serializer
 * and the client's both register {@link JanusGraphIoRegistry}, as JanusGraph's own server
 * configuration does. The traversal source {@code g} is bound by a gremlin-groovy start-up script
 * (Gremlin Server 3.7 has no other way to name one in its configuration).
 *
 * <p>Options: {@value GremlinSystem#BATCH} and {@value #GREMLIN_POOL} (Gremlin Server's worker
 * threads, default {@value #GREMLIN_POOL_DEFAULT} as gtran-remote's).
 */
public final class JanusGraphServerLbvSystem extends GremlinSystem {
    private static final Logger LOG = LoggerFactory.getLogger(JanusGraphServerLbvSystem.class);
    /** Gremlin Server's {@code gremlinPool}: threads running sessionless requests. */
    public static final String GREMLIN_POOL = "gremlinPool";
    public static final int GREMLIN_POOL_DEFAULT = 16;
    private static final String HOST = "127.0.0.1";
    /** The served graph's name in the server's configuration. */
    private static final String GRAPH = "graph";
    /** JanusGraph's exceptions a client re-runs a transaction for, as the server names them. */
    private static final Set<String> RETRYABLE_REMOTE = Set.of(
            "org.janusgraph.diskstorage.locking.PermanentLockingException",
            "org.janusgraph.diskstorage.locking.TemporaryLockingException",
            "org.janusgraph.diskstorage.TemporaryBackendException");

    private final int gremlinPool;
    private final JanusGraphMapping mapping = new JanusGraphMapping();
    private volatile Path dir;
    private volatile int port;
    private volatile GremlinServer server;
    private volatile JanusGraph graph;
    private volatile Cluster cluster;
    private volatile GraphTraversalSource g;

    public JanusGraphServerLbvSystem(Map<String, String> options) {
        super(options, Set.of(GREMLIN_POOL));
        this.gremlinPool = intOption(options, GREMLIN_POOL, GREMLIN_POOL_DEFAULT, 1, 1024);
    }

    @Override
    public String name() {
        return "janusgraph-server";
    }

    @Override
    public String isolation() {
        return JanusGraphLbvSystem.ISOLATION;
    }

    @Override
    public void load(Dataset dataset, LoadProgress progress) {
        mapping.scan(dataset);
        super.load(dataset, progress);
    }

    /** Starts the server on a free port with the graph, and connects to it. */
    @Override
    protected void prepare(DatasetInfo info) {
        mapping.prepare(info);
        try {
            dir = Files.createTempDirectory("lbv-janusgraph-server-");
            port = freePort();
            Path yaml = writeConfiguration(dir, port, gremlinPool);
            GremlinServer started = new GremlinServer(Settings.read(yaml.toString()));
            server = started;
            started.start().join();
            Graph served = started.getServerGremlinExecutor().getGraphManager().getGraph(GRAPH);
            if (!(served instanceof JanusGraph)) {
                throw new IllegalStateException("the server serves no JanusGraph named '" + GRAPH + "': graph=" + served
                        + " (see its log for why the graph did not open)");
            }
            graph = (JanusGraph) served;
            TypeSerializerRegistry registry = TypeSerializerRegistry.build()
                    .addRegistry(JanusGraphIoRegistry.instance()).create();
            cluster = Cluster.build(HOST).port(port).serializer(new GraphBinaryMessageSerializerV1(registry)).create();
            g = AnonymousTraversalSource.traversal().withRemote(DriverRemoteConnection.using(cluster, "g"));
            LOG.info("JanusGraph server for LBV on {}:{} (gremlinPool={}, conf={})", HOST, port, gremlinPool, dir);
        } catch (Exception e) {
            close();
            if (e instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException("JanusGraph server did not start: " + e, e);
        }
    }

    /**
     * Writes the server's configuration into {@code dir}: the graph's properties, the script
     * binding {@code g}, and the YAML naming both; returns the YAML's path.
     */
    static Path writeConfiguration(Path dir, int port, int gremlinPool) throws IOException {
        return writeConfiguration(dir, port, gremlinPool, false);
    }

    /** As {@link #writeConfiguration(Path, int, int)}, with Gremlin Server's sessions ({@code g.tx()}) if {@code sessions}. */
    static Path writeConfiguration(Path dir, int port, int gremlinPool, boolean sessions) throws IOException {
        StringBuilder properties = new StringBuilder("# written by JanusGraphServerLbvSystem\n")
                .append("gremlin.graph=org.janusgraph.core.JanusGraphFactory\n");
        JanusGraphMapping.graphSettings().forEach((k, v) -> properties.append(k).append('=').append(v).append('\n'));
        Path graphFile = Files.writeString(dir.resolve("janusgraph.properties"), properties);
        Path script = Files.writeString(dir.resolve("init.groovy"),
                "// binds the traversal source \"g\" to the graph \"" + GRAPH + "\"\n"
                        + "def globals = [:]\n"
                        + "globals << [g : " + GRAPH + ".traversal()]\n");
        String yaml = String.join("\n", List.of(
                "# written by JanusGraphServerLbvSystem",
                "host: " + HOST,
                "port: " + port,
                "gremlinPool: " + gremlinPool,
                // JanusGraph's full scans (Q13) take seconds on large graphs; the runner bounds the run.
                "evaluationTimeout: 600000",
                "channelizer: org.apache.tinkerpop.gremlin.server.channel.WebSocketChannelizer",
                "graphs: { " + GRAPH + ": " + yamlString(graphFile) + " }",
                "scriptEngines: {",
                "  gremlin-groovy: {",
                "    plugins: { org.apache.tinkerpop.gremlin.server.jsr223.GremlinServerGremlinPlugin: {},",
                "               org.apache.tinkerpop.gremlin.jsr223.ScriptFileGremlinPlugin: {files: ["
                        + yamlString(script) + "]}}}}",
                "serializers:",
                "  - { className: org.apache.tinkerpop.gremlin.util.ser.GraphBinaryMessageSerializerV1,"
                        + " config: { ioRegistries: [org.janusgraph.graphdb.tinkerpop.JanusGraphIoRegistry] }}",
                "processors:",
                sessions ? "  - { className: org.apache.tinkerpop.gremlin.server.op.session.SessionOpProcessor, config: { sessionTimeout: 28800000 }}" : "",
                "  - { className: org.apache.tinkerpop.gremlin.server.op.traversal.TraversalOpProcessor }",
                "strictTransactionManagement: false",
                "idleConnectionTimeout: 0",
                "keepAliveInterval: 0",
                ""));
        return Files.writeString(dir.resolve("gremlin-server.yaml"), yaml);
    }

    private static String yamlString(Path path) {
        return "'" + path.toAbsolutePath().toString().replace("'", "''") + "'";
    }

    @Override
    protected void createIndexes(DatasetInfo info) {
        mapping.createIndexes(graph, info);
    }

    /** Loading bypasses the server: the server's own graph, in this JVM. */
    @Override
    protected Graph loadGraph() {
        return graph;
    }

    @Override
    protected GraphTraversalSource traversal() {
        GraphTraversalSource source = g;
        if (source == null) {
            throw new IllegalStateException("the server starts when a dataset is loaded: system=" + name());
        }
        return source;
    }

    /** Sessionless: the server commits each query's request (or rolls it back) itself. */
    @Override
    protected Unit begin() {
        return sessionless(traversal());
    }

    @Override
    protected boolean suppliesIds() {
        return false;
    }

    @Override
    protected Object vertexId(long datasetId) {
        return mapping.vertexId(datasetId);
    }

    @Override
    protected Object edgeId(long datasetId) {
        return mapping.edgeId(datasetId);
    }

    @Override
    protected void recordVertexId(long datasetId, Object nativeId) {
        mapping.recordVertexId(datasetId, nativeId);
    }

    @Override
    protected void recordEdgeId(long datasetId, Object nativeId) {
        mapping.recordEdgeId(datasetId, nativeId);
    }

    /** The server's port (0 before loading); for tests. */
    int port() {
        return port;
    }

    /** The server's graph (null before loading); for tests. */
    JanusGraph graph() {
        return graph;
    }

    /**
     * JanusGraph's locking and temporary failures (see {@link JanusGraphLbvSystem#isRetryable}):
     * thrown here while loading, or named by the server in the exception hierarchy of a {@link
     * ResponseException}.
     */
    @Override
    public boolean isRetryable(Throwable failure) {
        return anyCause(failure, t -> JanusGraphMapping.isLockingOrTemporary(t)
                || t instanceof ResponseException r && r.getRemoteExceptionHierarchy()
                        .map(names -> names.stream().anyMatch(RETRYABLE_REMOTE::contains)).orElse(false));
    }

    /** Disconnects, stops the server (which closes its graph) and deletes its configuration. Safe twice. */
    @Override
    public void close() {
        GraphTraversalSource source = g;
        g = null;
        if (source != null) {
            try {
                source.close();
            } catch (Exception e) {
                LOG.warn("closing the remote traversal source failed: {}", e.toString());
            }
        }
        Cluster connected = cluster;
        cluster = null;
        if (connected != null) {
            connected.close();
        }
        GremlinServer running = server;
        server = null;
        graph = null;
        if (running != null) {
            try {
                running.stop().join();
            } catch (RuntimeException e) {
                LOG.warn("the JanusGraph server did not stop cleanly: {}", e.toString());
            }
        }
        Path written = dir;
        dir = null;
        if (written != null) {
            deleteTree(written);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            return socket.getLocalPort();
        }
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            LOG.warn("cannot delete {}: {}", root, e.toString());
        } catch (UncheckedIOException e) {
            LOG.warn("cannot delete {}: {}", root, e.toString());
        }
    }
}
