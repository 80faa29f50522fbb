package io.gtran.lbv.gtran;

import io.gtran.core.GtranGraph;
import io.gtran.lbv.DatasetInfo;
import io.gtran.lbv.gremlin.GremlinSystem;
import io.gtran.server.GtranServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.exception.ResponseException;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;
import org.apache.tinkerpop.gremlin.util.ser.Serializers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * gtran through Gremlin Server and the Java driver: a gtran node (gtran-server's default
 * configuration, on a free 127.0.0.1 port) runs inside the benchmark's JVM; the dataset is loaded
 * straight into the node's graph (embedded, fast), then every query goes over the loopback
 * WebSocket with GraphBinary, as a client's would.
 *
 * <p>Each query is one traversal, sent <b>sessionless</b>: the server runs it in a transaction of
 * its own and commits it when it succeeds (rolls it back when it fails), so a query is one request
 * and one round trip. That is what a Gremlin client does for a unit of work that fits in one
 * traversal, and every LBV and latency query here does. ({@code g.tx()} would open a Gremlin
 * Server session per transaction, a new connection and three requests per query.) A conflict
 * reaches the client as a {@link ResponseException} with status 596 ({@code
 * SERVER_ERROR_TEMPORARY}) and a gtran message beginning "transaction aborted" and naming the conflict.
 *
 * <p>Options: {@value GtranLbvSystem#ISOLATION}, {@value GtranLbvSystem#OPT} and {@code gtran.*} as
 * for {@link GtranLbvSystem} (written into the node's graph configuration), and {@value
 * #GREMLIN_POOL}: the server's worker threads (Gremlin Server's {@code gremlinPool}, default
 * {@value #GREMLIN_POOL_DEFAULT}; Gremlin Server's own default, the core count, would cap the
 * server's concurrency below the client's threads).
 */
public final class GtranRemoteLbvSystem extends GremlinSystem {
    private static final Logger LOG = LoggerFactory.getLogger(GtranRemoteLbvSystem.class);
    /** Gremlin Server's {@code gremlinPool}: threads running sessionless requests. */
    public static final String GREMLIN_POOL = "gremlinPool";
    public static final int GREMLIN_POOL_DEFAULT = 16;
    private static final String HOST = "127.0.0.1";

    private final Map<String, Object> settings;
    private final boolean serializable;
    private final boolean optimised;
    private final int gremlinPool;
    private volatile Path dir;
    private volatile GtranServer server;
    private volatile GtranGraph graph;
    private volatile Cluster cluster;
    private volatile GraphTraversalSource g;

    public GtranRemoteLbvSystem(Map<String, String> options) {
        super(options, Set.of(GtranLbvSystem.ISOLATION, GtranLbvSystem.OPT, GREMLIN_POOL, "gtran.*"));
        this.settings = GtranLbvSystem.graphSettings(options);
        this.serializable = settings.get(GtranGraph.ISOLATION).equals("SERIALIZABLE");
        this.optimised = GtranLbvSystem.optimised(options);
        this.gremlinPool = intOption(options, GREMLIN_POOL, GREMLIN_POOL_DEFAULT, 1, 1024);
    }

    @Override
    public String name() {
        return GtranLbvSystem.name("gtran-remote", optimised);
    }

    @Override
    public String isolation() {
        return GtranLbvSystem.isolationText(serializable, optimised);
    }

    /** Starts the node with the graph configuration sized for {@code info}, and connects to it. */
    @Override
    protected void prepare(DatasetInfo info) {
        try {
            dir = Files.createTempDirectory("lbv-gtran-node-");
            int port = freePort();
            Path yaml = GtranServer.writeDefaultConfiguration(dir, HOST, port);
            Map<String, Object> sized = new LinkedHashMap<>(settings);
            GtranLbvSystem.sizeExternalIds(sized, info);
            StringBuilder properties = new StringBuilder("# written by GtranRemoteLbvSystem\n");
            sized.forEach((key, value) -> properties.append(key).append('=').append(value).append('\n'));
            Files.writeString(dir.resolve("gtran.properties"), properties);
            Files.writeString(yaml, Files.readString(yaml) + "gremlinPool: " + gremlinPool + "\n");
            server = GtranServer.start(yaml);
            Graph served = server.gremlinServer().getServerGremlinExecutor().getGraphManager().getGraph("graph");
            if (!(served instanceof GtranGraph)) {
                throw new IllegalStateException("the node serves no gtran graph named 'graph': graph=" + served);
            }
            graph = (GtranGraph) served;
            cluster = Cluster.build(HOST).port(port).serializer(Serializers.GRAPHBINARY_V1.simpleInstance()).create();
            g = AnonymousTraversalSource.traversal().with(DriverRemoteConnection.using(cluster, "g"));
            LOG.info("gtran node for LBV on {}:{} (gremlinPool={}, conf={})", HOST, port, gremlinPool, dir);
        } catch (IOException e) {
            close();
            throw new UncheckedIOException("cannot write the node's configuration: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override
    protected void createIndexes(DatasetInfo info) {
        GtranLbvSystem.createIndexes(graph, info);
    }

    /** Loading bypasses the server: the node's own graph, in this JVM. */
    @Override
    protected Graph loadGraph() {
        return graph;
    }

    @Override
    protected GraphTraversalSource traversal() {
        GraphTraversalSource source = g;
        if (source == null) {
            throw new IllegalStateException("the node starts when a dataset is loaded: system=" + name());
        }
        return source;
    }

    /** Sessionless: the server commits each query's request (or rolls it back) itself. */
    @Override
    protected Unit begin() {
        return sessionless(traversal());
    }

    /** The node's graph (null before loading); for tests. */
    GtranGraph graph() {
        return graph;
    }

    /** Status 596 with gtran's conflict message: the server aborted the request's transaction. */
    @Override
    public boolean isRetryable(Throwable failure) {
        return anyCause(failure, t -> t instanceof ResponseException r
                && r.getResponseStatusCode() == ResponseStatusCode.SERVER_ERROR_TEMPORARY
                && String.valueOf(r.getMessage()).contains("conflict"));
    }

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
        GtranServer node = server;
        server = null;
        graph = null;
        if (node != null) {
            node.close();
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
        }
    }
}
