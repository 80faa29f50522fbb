package io.gtran.lbv.gtran;

import io.gtran.core.GtranGraph;
import io.gtran.lbv.Dataset;
import io.gtran.lbv.DatasetInfo;
import io.gtran.lbv.LoadProgress;
import io.gtran.lbv.Traffic;
import io.gtran.lbv.gremlin.GremlinSystem;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.ExternalIdRouting;
import io.gtran.txn.membership.GroupConfig;
import io.gtran.txn.membership.Membership;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.Result;
import org.apache.tinkerpop.gremlin.driver.exception.ResponseException;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;
import org.apache.tinkerpop.gremlin.util.ser.Serializers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * gtran partitioned over {@value #NODES} separate server processes on 127.0.0.1, started and
 * stopped by {@code deploy/gtran-cluster} as an operator would (docs/deployment.md), each serving
 * the graph {@code graph} (source {@code g}) through Gremlin Server; the benchmark's clients reach
 * them through gremlin-driver.
 *
 * <p><b>Start.</b> When a dataset is loaded, the system writes a hosts file (every node on
 * 127.0.0.1 with a Gremlin port and a fabric port free at that moment) and a configuration
 * directory (deploy/conf's {@code gremlin-server.yaml}, with {@value
 * GtranRemoteLbvSystem#GREMLIN_POOL} worker threads and an {@code evaluationTimeout} of {@value
 * #EVALUATION_TIMEOUT_MS} ms, and a {@code graph.properties} of its own
 * holding the options' graph settings and external ids sized for the dataset, as {@link
 * GtranRemoteLbvSystem} does), then runs {@code deploy/gtran-cluster start} with {@code
 * GTRAN_CLASSPATH} set to this JVM's class path (the script builds nothing), {@code
 * GTRAN_NODE_HEAP} from {@value #NODE_HEAP} and {@code GTRAN_NODE_JIT} from {@value #NODE_JIT};
 * the script returns once every node hears from every other, and stops them all if one fails.
 * gtran's home (where {@code deploy/} is) is system property {@code gtran.home}, else the first
 * directory above the working directory holding {@code deploy/gtran-cluster}.
 *
 * <p><b>Durability.</b> With option {@value GtranLbvSystem#DURABILITY} ({@code sync} or {@code
 * async}: systems {@code gtran-cluster-sync}, {@code gtran-cluster-async}) the cluster starts with
 * {@code --data}: each node logs its commits, votes and decisions (gtran.durability) in its own
 * data directory beside its node directory, deleted with the other files. Without it the nodes keep
 * their graphs in memory and log nothing.
 *
 * <p><b>Load.</b> Hash indexes on the dataset's keys are created on node 0 by a script ({@code
 * graph.indexes().create}: an index exists on every member, each indexing its own elements). The
 * elements go in through {@link RemoteLoader}: batches of {@value GremlinSystem#BATCH} (default
 * {@value #LOAD_BATCH_DEFAULT}) elements, each one sessionless script, each element with a
 * user-supplied id made from its dataset id ({@link #systemId}: {@code -1 - id}), which places it
 * on a member (a hash of the id, {@link ExternalIdRouting#hashHome}); each batch holds the
 * elements of one member and is sent to it.
 *
 * <p><b>Queries.</b> The driver's {@link Cluster} gives every contact point one port, and the nodes
 * here share an address, so there is one {@code Cluster} per node; each query goes to the next node
 * in turn (one counter over all client threads), so the clients' queries spread evenly over the
 * nodes, each node coordinating those it receives. Queries are sessionless, as in {@link
 * GtranRemoteLbvSystem}: one request per query, committed by the server.
 *
 * <p><b>Messages.</b> {@link #traffic} sums over the nodes what {@code graph.status()} reports as
 * {@code messages} and {@code bytes}: the operation requests and replies and commit messages each
 * node sent another (not heartbeats, clock samples or watermark reads), one script request per
 * node. After loading, the system logs what the load sent ({@code LBV_LOAD_TRAFFIC}: all the fresh
 * cluster has sent), then what an idle cluster sends in two seconds ({@code
 * LBV_IDLE_TRAFFIC}; option {@value #IDLE_SAMPLE_MS}, default {@value #IDLE_SAMPLE_MS_DEFAULT}).
 *
 * <p>Options: {@value GtranLbvSystem#ISOLATION}, {@value GtranLbvSystem#OPT} and {@code gtran.*}
 * as {@link GtranLbvSystem} (into every node's graph properties; {@code gtran.placement} defaults
 * to deploy/conf's {@code spread}); {@value #NODES} (1 to {@value #MAX_NODES}, default {@value
 * #NODES_DEFAULT}); {@value #NODE_HEAP} (each node's {@code -Xmx} and direct memory, default
 * {@value #NODE_HEAP_DEFAULT}); {@value #NODE_JIT} ({@code auto}, {@code quick} or {@code full}: the
 * JIT compilers each node's JVM runs, docs/deployment.md, default {@code auto}: C1 alone where the
 * nodes have fewer than two cores each); {@value GtranRemoteLbvSystem#GREMLIN_POOL} (each node's,
 * default {@value GtranRemoteLbvSystem#GREMLIN_POOL_DEFAULT}). Closing runs {@code deploy/gtran-cluster
 * stop} and deletes the files; a shutdown hook does the same if the JVM ends first.
 */
public final class GtranProcessClusterLbvSystem extends GremlinSystem {
    private static final Logger LOG = LoggerFactory.getLogger(GtranProcessClusterLbvSystem.class);
    /** Server processes, 1 to {@value #MAX_NODES}. */
    public static final String NODES = "nodes";
    public static final int NODES_DEFAULT = 3;
    static final int MAX_NODES = 16;
    /** Each node's heap ({@code -Xmx}) and direct memory, e.g. {@code 2g}. */
    public static final String NODE_HEAP = "node-heap";
    public static final String NODE_HEAP_DEFAULT = "2g";
    /** The JIT compilers of each node's JVM: auto, quick (C1 alone) or full (C1 and C2). */
    public static final String NODE_JIT = "node-jit";
    static final Set<String> NODE_JITS = Set.of("auto", "quick", "full");
    /** Elements per load batch unless option {@value GremlinSystem#BATCH} says otherwise. */
    static final int LOAD_BATCH_DEFAULT = 500;
    /** Each node's Gremlin Server evaluationTimeout (deploy/conf's is 30 s). */
    static final int EVALUATION_TIMEOUT_MS = 180_000;
    private static final String HOST = "127.0.0.1";
    private static final long SCRIPT_TIMEOUT_SECONDS = 300;
    /** How long after loading the idle cluster's messages are counted, in ms (0: not at all). */
    public static final String IDLE_SAMPLE_MS = "idle-sample-ms";
    static final int IDLE_SAMPLE_MS_DEFAULT = 2000;

    private final Map<String, Object> settings;
    private final boolean serializable;
    private final boolean optimised;
    /** sync, async, or null: the nodes keep their graphs in memory. */
    private final String durability;
    private final int nodeCount;
    private final String nodeHeap;
    private final String nodeJit;
    private final int gremlinPool;
    private final int loadBatch;
    private final int idleSampleMillis;
    private final AtomicInteger next = new AtomicInteger();
    private final List<Cluster> clusters = new ArrayList<>();
    private final List<Client> clients = new ArrayList<>();
    private volatile List<GraphTraversalSource> sources = List.of();
    private volatile Path dir;
    private volatile Thread stopOnExit;

    public GtranProcessClusterLbvSystem(Map<String, String> options) {
        super(options, withOwn(GtranLbvSystem.OPTIONS));
        Map<String, String> graphOptions = new LinkedHashMap<>(options);
        graphOptions.keySet().removeAll(Set.of(NODES, NODE_HEAP, NODE_JIT, GtranRemoteLbvSystem.GREMLIN_POOL, IDLE_SAMPLE_MS, BATCH,
                GtranLbvSystem.DURABILITY));
        for (String key : List.of(Membership.NODES, StoreConfig.NODE_ID, "gtran.fabric.node", "gtran.fabric.nodes")) {
            if (options.containsKey(key)) {
                throw new IllegalArgumentException("deploy/gtran-cluster sets " + key + " itself; use option " + NODES + ": "
                        + key + "=" + options.get(key));
            }
        }
        this.settings = GtranLbvSystem.graphSettings(graphOptions);
        this.settings.putIfAbsent(GtranGraph.PLACEMENT, "spread");
        this.serializable = settings.get(GtranGraph.ISOLATION).equals("SERIALIZABLE");
        this.optimised = GtranLbvSystem.optimised(options);
        this.durability = GtranLbvSystem.durability(options);
        this.nodeCount = intOption(options, NODES, NODES_DEFAULT, 1, MAX_NODES);
        this.nodeHeap = options.getOrDefault(NODE_HEAP, NODE_HEAP_DEFAULT).trim();
        if (!nodeHeap.matches("\\d+[kKmMgG]?")) {
            throw new IllegalArgumentException("option " + NODE_HEAP + " must be like 2g or 768m: " + NODE_HEAP + "=" + nodeHeap);
        }
        this.nodeJit = options.getOrDefault(NODE_JIT, "auto").trim();
        if (!NODE_JITS.contains(nodeJit)) {
            throw new IllegalArgumentException("option " + NODE_JIT + " must be auto, quick or full: " + NODE_JIT + "=" + nodeJit);
        }
        this.gremlinPool = intOption(options, GtranRemoteLbvSystem.GREMLIN_POOL, GtranRemoteLbvSystem.GREMLIN_POOL_DEFAULT, 1, 1024);
        this.loadBatch = batchGiven(options) ? batch() : LOAD_BATCH_DEFAULT;
        this.idleSampleMillis = intOption(options, IDLE_SAMPLE_MS, IDLE_SAMPLE_MS_DEFAULT, 0, 60_000);
    }

    private static Set<String> withOwn(Set<String> options) {
        Set<String> all = new HashSet<>(options);
        all.addAll(Set.of(NODES, NODE_HEAP, NODE_JIT, GtranRemoteLbvSystem.GREMLIN_POOL, IDLE_SAMPLE_MS));
        return all;
    }

    @Override
    public String name() {
        return GtranLbvSystem.name(durability == null ? "gtran-cluster" : "gtran-cluster-" + durability, optimised);
    }

    @Override
    public String isolation() {
        return GtranLbvSystem.isolationText(serializable, optimised) + ", " + nodeCount + " server process(es)";
    }

    // ------------------------------------------------------------------ start and stop

    /** Writes the cluster's files, starts the nodes through deploy/gtran-cluster, connects to each. */
    @Override
    protected void prepare(DatasetInfo info) {
        try {
            dir = Files.createTempDirectory("lbv-gtran-cluster-");
            int[] ports = writeFiles(info);
            stopOnExit = new Thread(this::stopQuietly, "lbv-cluster-stop");
            Runtime.getRuntime().addShutdownHook(stopOnExit);
            long start = System.nanoTime();
            script(dir, "start", durability != null); // with --data each node logs in dataK beside its nodeK
            LOG.info("LBV_CLUSTER_STARTED nodes={} seconds={} dir={}", nodeCount,
                    String.format(Locale.ROOT, "%.1f", (System.nanoTime() - start) / 1e9), dir);
            List<GraphTraversalSource> connected = new ArrayList<>();
            for (int port : ports) {
                Cluster cluster = Cluster.build(HOST).port(port).serializer(Serializers.GRAPHBINARY_V1.simpleInstance())
                        .maxContentLength(64 << 20).create();
                clusters.add(cluster);
                clients.add(cluster.connect());
                connected.add(AnonymousTraversalSource.traversal().with(DriverRemoteConnection.using(cluster, "g")));
            }
            sources = List.copyOf(connected);
        } catch (IOException e) {
            close();
            throw new UncheckedIOException("cannot write the cluster's files: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** The hosts file and the configuration directory; returns the nodes' Gremlin ports. */
    private int[] writeFiles(DatasetInfo info) throws IOException {
        Path home = home();
        Path conf = Files.createDirectories(dir.resolve("conf"));
        String yaml = Files.readString(home.resolve("deploy/conf/gremlin-server.yaml"));
        if (!yaml.contains("evaluationTimeout: 30000")) {
            throw new IllegalStateException("deploy/conf/gremlin-server.yaml changed: no 'evaluationTimeout: 30000' to raise");
        }
        // A load batch's first run on a node compiles its script and runs cold: 30 s is too short on a busy machine.
        yaml = yaml.replace("evaluationTimeout: 30000", "evaluationTimeout: " + EVALUATION_TIMEOUT_MS);
        Files.writeString(conf.resolve("gremlin-server.yaml"), yaml + "gremlinPool: " + gremlinPool + "\n");
        Map<String, Object> sized = new LinkedHashMap<>(settings);
        GtranLbvSystem.sizeExternalIds(sized, info);
        StringBuilder properties = new StringBuilder("# written by GtranProcessClusterLbvSystem; deploy/gtran-cluster adds"
                + " each node's id and peers\n");
        if (durability != null) {
            sized.put("gtran.durability", durability);
        }
        sized.forEach((key, value) -> properties.append(key).append('=').append(value).append('\n'));
        Files.writeString(conf.resolve("graph.properties"), properties);
        int[] ports = new int[nodeCount];
        Set<Integer> taken = new HashSet<>();
        StringBuilder hosts = new StringBuilder("# id host gremlin_port fabric_port\n");
        for (int k = 0; k < nodeCount; k++) {
            ports[k] = freePort(taken);
            hosts.append(k).append(' ').append(HOST).append(' ').append(ports[k]).append(' ').append(freeFabricPort(taken)).append('\n');
        }
        Files.writeString(dir.resolve("hosts"), hosts);
        return ports;
    }

    /** A port free now on 127.0.0.1, not in {@code taken}, and not one the CI harness uses (18282, 18400-18410). */
    private static int freePort(Set<Integer> taken) throws IOException {
        for (int attempt = 0; attempt < 100; attempt++) {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
                int port = socket.getLocalPort();
                if (port != 18282 && (port < 18400 || port > 18410) && taken.add(port)) {
                    return port;
                }
            }
        }
        throw new IOException("no free port found on " + HOST);
    }

    /**
     * A free fabric port whose membership group port ({@link GroupConfig#DEFAULT_PORT_OFFSET} above
     * it, where each node's Ratis server listens) is free and not taken too.
     */
    private static int freeFabricPort(Set<Integer> taken) throws IOException {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = freePort(taken);
            int group = port + GroupConfig.DEFAULT_PORT_OFFSET;
            if (group <= 65535 && !taken.contains(group) && isFree(group)) {
                taken.add(group);
                return port;
            }
        }
        throw new IOException("no free fabric port with a free group port found on " + HOST);
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName(HOST))) {
            return true;
        } catch (IOException taken) {
            return false;
        }
    }

    /** gtran's home: system property gtran.home, else the first directory up from here with deploy/gtran-cluster. */
    static Path home() {
        String property = System.getProperty("gtran.home");
        if (property != null) {
            Path home = Path.of(property).toAbsolutePath().normalize();
            if (!Files.isExecutable(home.resolve("deploy/gtran-cluster"))) {
                throw new IllegalStateException("gtran.home=" + home + " has no deploy/gtran-cluster");
            }
            return home;
        }
        for (Path p = Path.of(System.getProperty("user.dir")).toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isExecutable(p.resolve("deploy/gtran-cluster"))) {
                return p;
            }
        }
        throw new IllegalStateException("cannot find gtran's home (deploy/gtran-cluster) above " + System.getProperty("user.dir")
                + "; set system property gtran.home");
    }

    /** Runs {@code deploy/gtran-cluster COMMAND} on the cluster whose files are in {@code where}; throws with the end of its output if it fails. */
    private void script(Path where, String command) {
        script(where, command, false);
    }

    private void script(Path where, String command, boolean data) {
        Path log = where.resolve(command + ".log");
        List<String> line = new ArrayList<>(List.of(home().resolve("deploy/gtran-cluster").toString(), "--hosts",
                where.resolve("hosts").toString(), "--dir", where.resolve("run").toString(), "--conf", where.resolve("conf").toString()));
        if (data) {
            line.add("--data");
        }
        line.add(command);
        ProcessBuilder builder = new ProcessBuilder(line).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("GTRAN_CLASSPATH", System.getProperty("java.class.path"));
        builder.environment().put("GTRAN_NODE_HEAP", "-Xmx" + nodeHeap + " -XX:MaxDirectMemorySize=" + nodeHeap);
        builder.environment().put("GTRAN_NODE_JIT", nodeJit);
        builder.environment().put("GTRAN_START_TIMEOUT", "180");
        try {
            Process p = builder.start();
            if (!p.waitFor(SCRIPT_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("deploy/gtran-cluster " + command + " did not end in " + SCRIPT_TIMEOUT_SECONDS
                        + " s: " + tail(log));
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException("deploy/gtran-cluster " + command + " failed (exit " + p.exitValue() + "): "
                        + tail(log));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run deploy/gtran-cluster " + command + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during deploy/gtran-cluster " + command, e);
        }
    }

    private static String tail(Path log) {
        try {
            String text = Files.readString(log, StandardCharsets.UTF_8);
            return text.length() < 3000 ? text : text.substring(text.length() - 3000);
        } catch (IOException e) {
            return "(no output: " + e + ")";
        }
    }

    /** Stops the nodes (if started) and deletes the files; for close and the shutdown hook. */
    private synchronized void stopQuietly() {
        Path written = dir;
        if (written == null) {
            return;
        }
        dir = null;
        if (Files.exists(written.resolve("run"))) {
            try {
                script(written, "stop");
            } catch (RuntimeException e) {
                LOG.warn("deploy/gtran-cluster stop failed: {}", e.getMessage());
            }
        }
        try (Stream<Path> paths = Files.walk(written)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            LOG.warn("cannot delete {}: {}", written, e.toString());
        }
    }

    // ------------------------------------------------------------------ load

    /** Hash indexes on the dataset's keys, created by a script on node 0: every member has them. */
    @Override
    protected void createIndexes(DatasetInfo info) {
        Set<String> vertexKeys = new LinkedHashSet<>(info.indexedVertexKeys());
        vertexKeys.add(info.lookupKey());
        for (String key : vertexKeys) {
            createIndex("Vertex", key);
        }
        for (String key : info.indexedEdgeKeys()) {
            createIndex("Edge", key);
        }
    }

    private void createIndex(String kind, String key) {
        submit(clients.get(0), "graph.indexes().create(org.apache.tinkerpop.gremlin.structure." + kind
                + ", indexKey, io.gtran.core.index.Indexes.Type.HASH); 0", Map.of("indexKey", key));
    }

    @Override
    protected void loadElements(Dataset dataset, LoadProgress progress) {
        int[] members = IntStream.range(0, clients.size()).toArray(); // the hosts file's ids, in order
        new RemoteLoader(clients, loadBatch, progress, this::isRetryable, GtranProcessClusterLbvSystem::systemId,
                GtranProcessClusterLbvSystem::systemId, id -> ExternalIdRouting.hashHome(id, members)).load(dataset);
    }

    /**
     * Dataset id {@code d} as the element's user-supplied id: {@code -1 - d}. No internal id is
     * negative, so binding one never has to reserve the number at the member whose edge slot it
     * would name (a positive {@code Long} edge id that is another member's well-formed edge id costs
     * a {@code RESERVE_ID} request there; docs/cluster-transactions.md, "Placement and user-supplied ids").
     */
    static long systemId(long datasetId) {
        return -1 - datasetId;
    }

    @Override
    protected Object vertexId(long datasetId) {
        return systemId(datasetId);
    }

    @Override
    protected Object edgeId(long datasetId) {
        return systemId(datasetId);
    }

    /** Loads, then logs what the idle cluster sends in option {@value #IDLE_SAMPLE_MS} milliseconds. */
    @Override
    public void load(Dataset dataset, LoadProgress progress) {
        super.load(dataset, progress);
        Traffic before = traffic(); // the cluster is fresh: all it has sent is the load's
        LOG.info("LBV_LOAD_TRAFFIC nodes={} messages={} bytes={}", nodeCount, before.messages(), before.bytes());
        if (idleSampleMillis == 0) {
            return;
        }
        try {
            Thread.sleep(idleSampleMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        Traffic idle = traffic().since(before);
        LOG.info("LBV_IDLE_TRAFFIC nodes={} millis={} messages={} bytes={}", nodeCount, idleSampleMillis,
                idle.messages(), idle.bytes());
    }

    // ------------------------------------------------------------------ queries

    @Override
    protected GraphTraversalSource traversal() {
        List<GraphTraversalSource> all = sources;
        if (all.isEmpty()) {
            throw new IllegalStateException("the cluster starts when a dataset is loaded: system=" + name());
        }
        return all.get(Math.floorMod(next.getAndIncrement(), all.size()));
    }

    /** Sessionless on the next node: the server commits each query's request (or rolls it back) itself. */
    @Override
    protected Unit begin() {
        return sessionless(traversal());
    }

    /** Status 596 with gtran's conflict message: the server aborted the request's transaction. */
    @Override
    public boolean isRetryable(Throwable failure) {
        return anyCause(failure, t -> t instanceof ResponseException r
                && r.getResponseStatusCode() == ResponseStatusCode.SERVER_ERROR_TEMPORARY
                && String.valueOf(r.getMessage()).contains("conflict"));
    }

    /** The sum over the nodes of {@code messages} and {@code bytes} in {@code graph.status()}. */
    @Override
    public Traffic traffic() {
        long messages = 0;
        long bytes = 0;
        for (Client client : List.copyOf(clients)) {
            List<Result> results = submit(client, "[graph.status()]", Map.of());
            if (results.size() != 1 || !(results.get(0).getObject() instanceof Map<?, ?> status)
                    || !(status.get("messages") instanceof Number m) || !(status.get("bytes") instanceof Number b)) {
                throw new IllegalStateException("a node's status has no message counts: " + results);
            }
            messages += m.longValue();
            bytes += b.longValue();
        }
        return new Traffic(messages, bytes);
    }

    /** The node's status; for tests. */
    Map<?, ?> status(int node) {
        return (Map<?, ?>) submit(clients.get(node), "[graph.status()]", Map.of()).get(0).getObject();
    }

    int nodeCount() {
        return nodeCount;
    }

    private static List<Result> submit(Client client, String script, Map<String, Object> bindings) {
        try {
            return client.submit(script, bindings).all().get(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: " + script, e);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("script failed: " + script + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        List<GraphTraversalSource> all = sources;
        sources = List.of();
        for (GraphTraversalSource source : all) {
            try {
                source.close();
            } catch (Exception e) {
                LOG.warn("closing a remote traversal source failed: {}", e.toString());
            }
        }
        clients.forEach(Client::close);
        clients.clear();
        clusters.forEach(Cluster::close);
        clusters.clear();
        stopQuietly();
        Thread hook = stopOnExit;
        stopOnExit = null;
        if (hook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs or ran already
            }
        }
    }
}
