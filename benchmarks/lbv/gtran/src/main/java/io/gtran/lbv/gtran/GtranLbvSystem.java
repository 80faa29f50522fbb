package io.gtran.lbv.gtran;

import io.gtran.core.GtranGraph;
import io.gtran.core.TransactionAbortedException;
import io.gtran.core.index.Indexes;
import io.gtran.lbv.DatasetInfo;
import io.gtran.lbv.gremlin.GremlinSystem;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.TxnConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.Vertex;

/**
 * gtran embedded: a {@link GtranGraph} in the benchmark's JVM, queried through {@code
 * graph.traversal()}, one thread-bound gtran transaction per query. Dataset ids are the elements'
 * user-supplied {@code Long} ids; every indexed key of the dataset (and its lookup key) gets a
 * gtran hash index, created on the empty graph before loading. A conflict is gtran's {@link
 * TransactionAbortedException}, which a client retries.
 *
 * <p>Options: {@value #ISOLATION} = {@code SR} (default) or {@code SI}; {@value #OPT} = {@code on}
 * (default) or {@code off}: {@code off} turns off the MV-OCC optimisations ({@code
 * gtran.txn.pre-read=false}, {@code gtran.txn.optimistic-validation=false}), G-Tran's "No-Opt"
 * variant, named {@code gtran-noopt}; any {@code gtran.*} key is passed to the graph as is (see
 * docs/tinkerpop.md), for experiments.
 */
public final class GtranLbvSystem extends GremlinSystem {
    /** {@code SR} / {@code SERIALIZABLE} (default) or {@code SI} / {@code SNAPSHOT}. */
    public static final String ISOLATION = "isolation";
    /** {@code on} (default) or {@code off}: the MV-OCC optimisations (optimistic pre-read and validation). */
    public static final String OPT = "opt";
    /**
     * {@code sync} or {@code async}: the graph logs its commits (gtran.durability) in a data
     * directory of its own, made for the run and deleted after it; named {@code gtran-sync},
     * {@code gtran-async}. Absent: in memory, as {@code gtran}.
     */
    public static final String DURABILITY = "durability";
    static final Set<String> OPTIONS = Set.of(ISOLATION, OPT, DURABILITY, "gtran.*");

    private final Map<String, Object> settings;
    private final boolean serializable;
    private final boolean optimised;
    /** sync, async, or null: in memory. */
    private final String durability;
    private volatile Path dataDirectory;
    private volatile GtranGraph graph;
    private volatile GraphTraversalSource g;

    public GtranLbvSystem(Map<String, String> options) {
        super(options, OPTIONS);
        this.settings = graphSettings(options);
        this.serializable = settings.get(GtranGraph.ISOLATION).equals("SERIALIZABLE");
        this.optimised = optimised(options);
        this.durability = durability(options);
    }

    /**
     * Option {@value #DURABILITY}: {@code sync}, {@code async}, or null (absent: in memory).
     *
     * @throws IllegalArgumentException for another value, or with gtran.storage.directory or gtran.durability given too
     */
    static String durability(Map<String, String> options) {
        String durability = options.containsKey(DURABILITY)
                ? choiceOption(options, DURABILITY, "SYNC", Set.of("SYNC", "ASYNC")).toLowerCase(java.util.Locale.ROOT) : null;
        if (durability != null && (options.containsKey("gtran.storage.directory") || options.containsKey("gtran.durability"))) {
            throw new IllegalArgumentException("option " + DURABILITY + " makes the data directory itself: give it, or"
                    + " gtran.storage.directory and gtran.durability, not both");
        }
        return durability;
    }

    /**
     * The graph configuration the options ask for: {@code gtran.isolation}, the two {@code
     * gtran.txn.*} switches, then every other {@code gtran.*} option as given.
     *
     * @throws IllegalArgumentException naming a bad {@value #ISOLATION} or {@value #OPT}, or a
     *     {@code gtran.isolation} / {@code gtran.txn.pre-read} / {@code gtran.txn.optimistic-validation}
     *     given directly (they belong to those two options)
     */
    static Map<String, Object> graphSettings(Map<String, String> options) {
        String isolation = choiceOption(options, ISOLATION, "SR", Set.of("SR", "SI", "SERIALIZABLE", "SNAPSHOT"));
        boolean on = optimised(options);
        for (String key : Set.of(GtranGraph.ISOLATION, TxnConfig.PRE_READ, TxnConfig.OPTIMISTIC_VALIDATION)) {
            if (options.containsKey(key)) {
                throw new IllegalArgumentException("set " + key + " through options " + ISOLATION + " and " + OPT + ", not directly: "
                        + key + "=" + options.get(key));
            }
        }
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put(Graph.GRAPH, GtranGraph.class.getName());
        settings.put(GtranGraph.ISOLATION, isolation.equals("SR") || isolation.equals("SERIALIZABLE") ? "SERIALIZABLE" : "SNAPSHOT");
        settings.put(TxnConfig.PRE_READ, on);
        settings.put(TxnConfig.OPTIMISTIC_VALIDATION, on);
        options.forEach((key, value) -> {
            if (key.startsWith("gtran.")) {
                settings.put(key, value);
            }
        });
        return settings;
    }

    /** Whether option {@value #OPT} leaves the MV-OCC optimisations on. */
    static boolean optimised(Map<String, String> options) {
        return choiceOption(options, OPT, "ON", Set.of("ON", "OFF")).equals("ON");
    }

    /**
     * Room for a user-supplied id per dataset element (vertices and edges have a map each), with a
     * quarter to spare, unless the options set {@code gtran.storage.external-ids.max} themselves.
     */
    static void sizeExternalIds(Map<String, Object> settings, DatasetInfo info) {
        long needed = Math.max(info.vertices(), info.edges());
        long room = Math.max(StoreConfig.EXTERNAL_IDS_MAX_DEFAULT, needed + needed / 4 + 1024);
        settings.putIfAbsent(StoreConfig.EXTERNAL_IDS_MAX, Math.min(Integer.MAX_VALUE, room));
    }

    /** Hash indexes on the dataset's indexed vertex keys and lookup key, and its indexed edge keys. */
    static void createIndexes(GtranGraph graph, DatasetInfo info) {
        Set<String> vertexKeys = new LinkedHashSet<>(info.indexedVertexKeys());
        vertexKeys.add(info.lookupKey());
        for (String key : vertexKeys) {
            graph.indexes().create(Vertex.class, key, Indexes.Type.HASH);
        }
        for (String key : info.indexedEdgeKeys()) {
            graph.indexes().create(Edge.class, key, Indexes.Type.HASH);
        }
    }

    static String isolationText(boolean serializable, boolean optimised) {
        return (serializable ? "serializable" : "snapshot") + (optimised ? "" : " (MV-OCC optimisations off)");
    }

    static String name(String base, boolean optimised) {
        return optimised ? base : base + "-noopt";
    }

    @Override
    public String name() {
        return name(durability == null ? "gtran" : "gtran-" + durability, optimised);
    }

    @Override
    public String isolation() {
        return isolationText(serializable, optimised);
    }

    @Override
    protected void prepare(DatasetInfo info) {
        Map<String, Object> sized = new LinkedHashMap<>(settings);
        sizeExternalIds(sized, info);
        if (durability != null) {
            try {
                dataDirectory = Files.createTempDirectory("lbv-gtran-data-");
            } catch (IOException e) {
                throw new UncheckedIOException("cannot make a data directory for " + name() + ": " + e.getMessage(), e);
            }
            sized.put("gtran.storage.directory", dataDirectory.toString());
            sized.put("gtran.durability", durability);
        }
        BaseConfiguration configuration = new BaseConfiguration();
        sized.forEach(configuration::setProperty);
        graph = GtranGraph.open(configuration);
        g = graph.traversal();
    }

    @Override
    protected void createIndexes(DatasetInfo info) {
        createIndexes(graph, info);
    }

    @Override
    protected GraphTraversalSource traversal() {
        GraphTraversalSource source = g;
        if (source == null) {
            throw new IllegalStateException("the graph opens when a dataset is loaded: system=" + name());
        }
        return source;
    }

    /** The embedded graph (null before loading); for tests. */
    GtranGraph graph() {
        return graph;
    }

    @Override
    public boolean isRetryable(Throwable failure) {
        return anyCause(failure, t -> t instanceof TransactionAbortedException);
    }

    @Override
    public void close() {
        GtranGraph opened = graph;
        graph = null;
        g = null;
        if (opened != null) {
            opened.close();
        }
        Path data = dataDirectory;
        dataDirectory = null;
        if (data != null) {
            deleteRecursively(data);
        }
    }

    private static void deleteRecursively(Path dir) {
        try (java.util.stream.Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the run's data directory " + dir + ": " + e.getMessage(), e);
        }
    }
}
