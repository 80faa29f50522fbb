package io.gtran.lbv.gtran;

import io.gtran.check.fabric.LinkLatency;
import io.gtran.core.GtranGraph;
import io.gtran.core.TransactionAbortedException;
import io.gtran.lbv.Dataset;
import io.gtran.lbv.DatasetInfo;
import io.gtran.lbv.LoadProgress;
import io.gtran.lbv.Traffic;
import io.gtran.lbv.gremlin.GremlinSystem;
import io.gtran.rdma.InJvmCluster;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.GtranNode;
import io.gtran.txn.QueryTraffic;
import io.gtran.txn.membership.Membership;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;

/**
 * {@code gtran-jvm-cluster}: gtran partitioned over an in-JVM cluster (for separate server
 * processes, {@code gtran-cluster}, see {@link GtranProcessClusterLbvSystem}): {@value #NODES} {@link GtranNode}s in the benchmark's
 * JVM, joined by the in-JVM fabric, and one {@link GtranGraph} on node 0 that coordinates every
 * query. The dataset's elements keep their ids as user-supplied ids, so the ids place them on the
 * members (a hash of the id) and traversals cross nodes; elements the queries create go to node 0
 * (the default {@code gtran.placement=local}). The dataset's keys get gtran's hash indexes, as
 * {@link GtranLbvSystem} gives them, which every member keeps for its own elements.
 *
 * <p>Options: {@value GtranLbvSystem#ISOLATION} and {@value GtranLbvSystem#OPT} as {@link
 * GtranLbvSystem}; {@value #NODES} (members, default {@value #NODES_DEFAULT}); {@value
 * #LINK_LATENCY_US} (one-way latency of every link between members, in microseconds, default 0: a
 * {@link LinkLatency}, switched on once the dataset is loaded, so loading does not pay it); any
 * {@code gtran.*} key, the node's ({@code gtran.storage.*}, {@code gtran.txn.*}, {@code
 * gtran.clock.*}) given to every member and the rest to the graph, e.g. {@code
 * gtran.execution=element}. Closing prints what the links really gave (on more than one node, at
 * 0 µs too) as an {@code LBV_LINK} line on stderr.
 */
public final class GtranClusterLbvSystem extends GremlinSystem {
    /** Members of the cluster, 1 to {@value #MAX_NODES}. */
    public static final String NODES = "nodes";
    public static final int NODES_DEFAULT = 3;
    static final int MAX_NODES = 16;
    /** One-way latency per message between members, in microseconds (0 to {@value #MAX_LATENCY_US}). */
    public static final String LINK_LATENCY_US = "link-latency-us";
    static final int MAX_LATENCY_US = 1_000_000;
    /** The settings each member takes; the others belong to the graph. */
    private static final List<String> NODE_PREFIXES = List.of("gtran.storage.", "gtran.txn.", "gtran.clock.");

    private final Map<String, Object> settings;
    private final boolean serializable;
    private final boolean optimised;
    private final int nodeCount;
    private final int latencyMicros;
    private final LinkLatency latency;
    private final List<GtranNode> nodes = new ArrayList<>();
    private final List<QueryTraffic> traffic = new ArrayList<>();
    private volatile InJvmCluster cluster;
    private volatile GtranGraph graph;
    private volatile GraphTraversalSource g;

    public GtranClusterLbvSystem(Map<String, String> options) {
        super(options, withOwn(GtranLbvSystem.OPTIONS));
        Map<String, String> graphOptions = new LinkedHashMap<>(options);
        graphOptions.remove(NODES);
        graphOptions.remove(LINK_LATENCY_US);
        graphOptions.remove(BATCH);
        for (String key : List.of(Membership.NODES, StoreConfig.NODE_ID)) {
            if (options.containsKey(key)) {
                throw new IllegalArgumentException("the cluster sets " + key + " itself; use option " + NODES + ": "
                        + key + "=" + options.get(key));
            }
        }
        this.settings = GtranLbvSystem.graphSettings(graphOptions);
        this.serializable = settings.get(GtranGraph.ISOLATION).equals("SERIALIZABLE");
        this.optimised = GtranLbvSystem.optimised(options);
        this.nodeCount = intOption(options, NODES, NODES_DEFAULT, 1, MAX_NODES);
        this.latencyMicros = intOption(options, LINK_LATENCY_US, 0, 0, MAX_LATENCY_US);
        // On more than one node even at 0 µs, so that LBV_LINK gives the bare in-JVM hand-off to compare with.
        this.latency = nodeCount > 1 ? new LinkLatency(Duration.ZERO) : null;
    }

    private static Set<String> withOwn(Set<String> options) {
        Set<String> all = new HashSet<>(options);
        all.add(NODES);
        all.add(LINK_LATENCY_US);
        return all;
    }

    @Override
    public String name() {
        return GtranLbvSystem.name("gtran-jvm-cluster", optimised);
    }

    @Override
    public String isolation() {
        return GtranLbvSystem.isolationText(serializable, optimised) + ", " + nodeCount + " node(s), link latency "
                + latencyMicros + " us";
    }

    @Override
    protected void prepare(DatasetInfo info) {
        Map<String, Object> sized = new LinkedHashMap<>(settings);
        GtranLbvSystem.sizeExternalIds(sized, info);
        Map<String, Object> nodeSettings = new LinkedHashMap<>();
        BaseConfiguration graphConfiguration = new BaseConfiguration();
        sized.forEach((key, value) -> {
            if (NODE_PREFIXES.stream().anyMatch(key::startsWith)) {
                nodeSettings.put(key, value);
            } else {
                graphConfiguration.setProperty(key, value);
            }
        });
        StringBuilder members = new StringBuilder();
        for (int i = 0; i < nodeCount; i++) {
            members.append(i == 0 ? "" : ",").append(i);
        }
        InJvmCluster joined = new InJvmCluster();
        cluster = joined;
        for (int i = 0; i < nodeCount; i++) {
            QueryTraffic fabric = new QueryTraffic(latency == null ? joined.join(i) : latency.wrap(joined.join(i)));
            traffic.add(fabric);
            Map<String, Object> member = new LinkedHashMap<>(nodeSettings);
            member.put(StoreConfig.NODE_ID, i);
            member.put(Membership.NODES, members.toString());
            nodes.add(GtranNode.open(fabric, member));
        }
        graph = GtranGraph.open(nodes.get(0), graphConfiguration);
        g = graph.traversal();
    }

    /** As {@link GtranLbvSystem}: hash indexes, defined on the coordinator, each member indexing its own elements. */
    @Override
    protected void createIndexes(DatasetInfo info) {
        GtranLbvSystem.createIndexes(graph, info);
    }

    /** Loads at zero latency, then switches the asked latency on for the queries. */
    @Override
    public void load(Dataset dataset, LoadProgress progress) {
        super.load(dataset, progress);
        if (latency != null) {
            latency.latency(Duration.ofNanos(latencyMicros * 1000L));
        }
    }

    @Override
    protected GraphTraversalSource traversal() {
        GraphTraversalSource source = g;
        if (source == null) {
            throw new IllegalStateException("the cluster opens when a dataset is loaded: system=" + name());
        }
        return source;
    }

    @Override
    public boolean isRetryable(Throwable failure) {
        return anyCause(failure, t -> t instanceof TransactionAbortedException);
    }

    /** {@link #messages} and {@link #bytes}: counted in this JVM, so reading them costs nothing. */
    @Override
    public Traffic traffic() {
        return new Traffic(messages(), bytes());
    }

    /** Operation and commit messages the members sent each other so far ({@link QueryTraffic}). */
    long messages() {
        return traffic.stream().mapToLong(QueryTraffic::messages).sum();
    }

    /** Their payload bytes. */
    long bytes() {
        return traffic.stream().mapToLong(QueryTraffic::bytes).sum();
    }

    /** The coordinator's graph (null before loading); for tests. */
    GtranGraph graph() {
        return graph;
    }

    /**
     * The {@code LBV_LINK} line: the latency asked and how long messages really took from send to
     * hand-over since the load (at 0 µs the bare in-JVM hand-off), or null on one node.
     */
    String linkLine() {
        if (latency == null) {
            return null;
        }
        LinkLatency.Stats stats = latency.stats();
        return String.format(Locale.ROOT, "LBV_LINK nodes=%d asked_us=%d messages=%d delivered_mean_us=%.1f "
                        + "delivered_max_us=%.1f round_trips=%d", nodeCount, latencyMicros, stats.messages(),
                stats.meanMessageNanos() / 1e3, stats.maxMessageNanos() / 1e3, stats.roundTrips());
    }

    @Override
    public void close() {
        String line = linkLine();
        if (line != null) {
            System.err.println(line);
        }
        GtranGraph opened = graph;
        graph = null;
        g = null;
        if (opened != null) {
            opened.close();
        }
        nodes.forEach(GtranNode::close);
        nodes.clear();
        InJvmCluster joined = cluster;
        cluster = null;
        if (joined != null) {
            joined.close();
        }
    }
}
