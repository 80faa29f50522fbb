package io.gtran.core.suites;

import io.gtran.core.GtranGraph;
import io.gtran.storage.StoreConfig;
import java.io.File;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.commons.configuration2.Configuration;
import org.apache.tinkerpop.gremlin.LoadGraphWith;
import org.apache.tinkerpop.gremlin.features.World;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.io.graphml.GraphMLResourceAccess;
import org.apache.tinkerpop.gremlin.structure.io.graphson.GraphSONResourceAccess;
import org.apache.tinkerpop.gremlin.structure.io.gryo.GryoResourceAccess;

/**
 * The Gherkin suite's view of gtran: the five test graphs loaded once from TinkerPop's Gryo files
 * and committed, and a fresh empty graph per scenario that needs one (closed after it).
 */
public class GtranWorld implements World {
    private static final Map<String, Map<LoadGraphWith.GraphData, GtranGraph>> LOADED = new java.util.concurrent.ConcurrentHashMap<>();
    private final String isolation;
    private final boolean allowNulls;
    /** Whether graphs run on a 3-node in-JVM cluster ({@link InJvmClusterGraph}), vertices spread over it. */
    private final boolean cluster;
    /** The cluster graphs' gtran.execution. */
    private final String execution;
    private final List<GtranGraph> empties = new ArrayList<>();

    public GtranWorld() {
        this("SERIALIZABLE", false);
    }

    protected GtranWorld(String isolation, boolean allowNulls) {
        this(isolation, allowNulls, false, null);
    }

    protected GtranWorld(String isolation, boolean allowNulls, boolean cluster, String execution) {
        this.isolation = isolation;
        this.allowNulls = allowNulls;
        this.cluster = cluster;
        this.execution = execution;
    }

    /**
     * The Gherkin suite on a 3-node in-JVM cluster at serializable isolation, pushed execution, or
     * the mode {@code -Dgtran.test.execution} names ({@link GtranGraphProvider#clusterExecution}).
     */
    public static final class Cluster extends GtranWorld {
        public Cluster() {
            super("SERIALIZABLE", false, true, GtranGraphProvider.clusterExecution());
        }
    }

    /** The Gherkin suite at snapshot isolation. */
    public static final class Snapshot extends GtranWorld {
        public Snapshot() {
            super("SNAPSHOT", false);
        }
    }

    /** Empty graphs that store null property values, for the {@code @AllowNullPropertyValues} scenarios. */
    public static final class AllowNull extends GtranWorld {
        public AllowNull() {
            super("SERIALIZABLE", true);
        }

        @Override
        public GraphTraversalSource getGraphTraversalSource(LoadGraphWith.GraphData graphData) {
            if (graphData != null) {
                throw new UnsupportedOperationException("the null-value scenarios start from the empty graph: " + graphData);
            }
            return super.getGraphTraversalSource(null);
        }
    }

    @Override
    public GraphTraversalSource getGraphTraversalSource(LoadGraphWith.GraphData graphData) {
        if (graphData == null) {
            GtranGraph empty = open(configuration(null));
            TestServices.register(empty);
            empties.add(empty);
            return empty.traversal();
        }
        Map<LoadGraphWith.GraphData, GtranGraph> graphs = LOADED.computeIfAbsent(isolation + (cluster ? " cluster" : ""),
                i -> new EnumMap<>(LoadGraphWith.GraphData.class));
        synchronized (graphs) {
            return graphs.computeIfAbsent(graphData, this::load).traversal();
        }
    }

    @Override
    public void afterEachScenario() {
        empties.forEach(GtranGraph::close);
        empties.clear();
    }

    /** The feature files name TinkerPop's source-tree data files; the same graphs ship in gremlin-test's resources. */
    @Override
    public String changePathToDataFile(String pathToFileFromGremlin) {
        String name = pathToFileFromGremlin.substring(pathToFileFromGremlin.lastIndexOf('/') + 1);
        try {
            if (name.endsWith(".xml")) {
                return resourceFile(GraphMLResourceAccess.class, name);
            } else if (name.endsWith(".json")) {
                return resourceFile(GraphSONResourceAccess.class, name.replace(".json", "-v3.json"));
            } else if (name.endsWith(".kryo")) {
                return resourceFile(GryoResourceAccess.class, name.replace(".kryo", "-v3.kryo"));
            }
        } catch (Exception e) {
            throw new IllegalStateException("no test data file for " + pathToFileFromGremlin + ": " + e, e);
        }
        throw new IllegalStateException("no test data file for " + pathToFileFromGremlin);
    }

    private static String resourceFile(Class<?> access, String name) throws Exception {
        return TestDataFiles.of(GtranWorld.class, access, name);
    }

    private GtranGraph load(LoadGraphWith.GraphData data) {
        GtranGraph graph = open(configuration(data));
        try {
            String location = data.location();
            String file = TestDataFiles.of(GtranWorld.class, GryoResourceAccess.class,
                    location.substring(location.lastIndexOf(File.separator) + 1));
            graph.traversal().io(file).read().iterate();
            graph.tx().commit();
            TestServices.register(graph);
            return graph;
        } catch (Exception e) {
            graph.close();
            throw new IllegalStateException("could not load " + data + ": " + e, e);
        }
    }

    private GtranGraph open(Configuration configuration) {
        if (!cluster) {
            return GtranGraph.open(configuration);
        }
        for (String key : List.of(StoreConfig.CHUNK_BYTES, StoreConfig.EDGE_ROW_CHUNK_BYTES, StoreConfig.EXTERNAL_IDS_MAX)) {
            configuration.clearProperty(key); // the nodes' own (InJvmClusterGraph)
        }
        configuration.setProperty(GtranGraph.PLACEMENT, "spread");
        configuration.setProperty(GtranGraph.EXECUTION, execution);
        return InJvmClusterGraph.open(configuration);
    }

    private Configuration configuration(LoadGraphWith.GraphData data) {
        Configuration configuration = new BaseConfiguration();
        configuration.setProperty(Graph.GRAPH, GtranGraph.class.getName());
        configuration.setProperty(GtranGraph.ISOLATION, isolation);
        configuration.setProperty(StoreConfig.CHUNK_BYTES, 1 << 16);
        configuration.setProperty(StoreConfig.EDGE_ROW_CHUNK_BYTES, 1 << 16);
        configuration.setProperty(StoreConfig.EXTERNAL_IDS_MAX, 20_000);
        configuration.setProperty(GtranGraph.ALLOW_NULL_PROPERTY_VALUES, allowNulls);
        configuration.setProperty(GtranGraph.INDEX_SERVICES, false); // g.call('--list') must list only the scenarios' services
        if (data == LoadGraphWith.GraphData.CREW) {
            configuration.setProperty(GtranGraph.DEFAULT_CARDINALITY, "list");
        }
        return configuration;
    }
}
