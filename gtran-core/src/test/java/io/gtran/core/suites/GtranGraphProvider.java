package io.gtran.core.suites;

import io.gtran.core.GtranGraph;
import io.gtran.storage.StoreConfig;
import java.io.File;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.commons.configuration2.Configuration;
import org.apache.tinkerpop.gremlin.AbstractGraphProvider;
import org.apache.tinkerpop.gremlin.LoadGraphWith;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.io.gryo.GryoResourceAccess;
import org.apache.tinkerpop.gremlin.structure.util.star.StarGraphTest;
import org.apache.tinkerpop.gremlin.structure.util.detached.DetachedGraphTest;

/** Opens gtran graphs for TinkerPop's structure and process suites, at SR (or SI in {@link Snapshot}). */
public class GtranGraphProvider extends AbstractGraphProvider {
    private static final Set<Class> IMPLEMENTATIONS = Set.of(
            GtranGraph.class,
            classOf("io.gtran.core.GtranVertex"),
            classOf("io.gtran.core.GtranEdge"),
            classOf("io.gtran.core.GtranVertexProperty"),
            classOf("io.gtran.core.GtranProperty"),
            classOf("io.gtran.core.GtranElement"));

    private final String isolation;
    private final boolean allowNulls;

    public GtranGraphProvider() {
        this("SERIALIZABLE", false);
    }

    protected GtranGraphProvider(String isolation, boolean allowNulls) {
        this.isolation = isolation;
        this.allowNulls = allowNulls;
    }

    /** The same suites at snapshot isolation. */
    public static final class Snapshot extends GtranGraphProvider {
        public Snapshot() {
            super("SNAPSHOT", false);
        }
    }

    /** The structure suite on graphs that store null property values (its null-value tests then run). */
    public static final class AllowNull extends GtranGraphProvider {
        public AllowNull() {
            super("SERIALIZABLE", true);
        }
    }

    @Override
    public Map<String, Object> getBaseConfiguration(String graphName, Class<?> test, String testMethodName,
                                                    LoadGraphWith.GraphData loadGraphWith) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(Graph.GRAPH, GtranGraph.class.getName());
        settings.put(GtranGraph.ISOLATION, isolation);
        // small chunks and maps: the suites open thousands of graphs
        settings.put(StoreConfig.CHUNK_BYTES, 1 << 16);
        settings.put(StoreConfig.EDGE_ROW_CHUNK_BYTES, 1 << 16);
        settings.put(StoreConfig.EXTERNAL_IDS_MAX, 20_000);
        settings.put(GtranGraph.ALLOW_NULL_PROPERTY_VALUES, allowNulls);
        if (loadGraphWith == LoadGraphWith.GraphData.CREW
                || test == StarGraphTest.class && testMethodName.equals("shouldAttachWithCreateMethod")
                || test == DetachedGraphTest.class && testMethodName.equals("testAttachableCreateMethod")) {
            settings.put(GtranGraph.DEFAULT_CARDINALITY, "list");
        }
        return settings;
    }

    /**
     * The execution mode of the SR cluster suites: pushed (batched wherever nothing is pushed), or
     * what {@code -Dgtran.test.execution} names (batched, element), as the remote cluster run takes it.
     * docs/testing.md says which mode each suite runs in and why.
     */
    static String clusterExecution() {
        return System.getProperty("gtran.test.execution", "pushed");
    }

    /**
     * The same suites on a graph whose node is one of three in this JVM ({@link InJvmClusterGraph}),
     * vertices spread over the members so that traversals cross nodes, the coordinating node
     * turning with each graph: at SR in {@link #clusterExecution()}, or at SI element at a time
     * ({@link ClusterSnapshot}).
     */
    public static class Cluster extends GtranGraphProvider {
        private final String execution;

        public Cluster() {
            this("SERIALIZABLE", clusterExecution());
        }

        protected Cluster(String isolation, String execution) {
            super(isolation, false);
            this.execution = execution;
        }

        @Override
        public Map<String, Object> getBaseConfiguration(String graphName, Class<?> test, String testMethodName,
                                                        LoadGraphWith.GraphData loadGraphWith) {
            Map<String, Object> settings = super.getBaseConfiguration(graphName, test, testMethodName, loadGraphWith);
            settings.keySet().removeIf(key -> key.startsWith("gtran.storage.")); // the nodes' own (InJvmClusterGraph)
            settings.put(Graph.GRAPH, InJvmClusterGraph.class.getName());
            settings.put(GtranGraph.PLACEMENT, "spread");
            settings.put(GtranGraph.EXECUTION, execution);
            return settings;
        }
    }

    /** {@link Cluster} at snapshot isolation, element at a time. */
    public static final class ClusterSnapshot extends Cluster {
        public ClusterSnapshot() {
            super("SNAPSHOT", "element");
        }
    }

    @Override
    public void clear(Graph graph, Configuration configuration) throws Exception {
        if (graph != null) {
            graph.close();
        }
    }

    @Override
    public Set<Class> getImplementations() {
        return IMPLEMENTATIONS;
    }

    @Override
    protected void readIntoGraph(Graph graph, String path) throws IOException {
        String name = path.substring(path.lastIndexOf(File.separator) + 1);
        graph.traversal().io(TestDataFiles.of(graph.getClass(), GryoResourceAccess.class, name)).read().iterate();
        graph.tx().commit();
    }

    private static Class<?> classOf(String name) {
        try {
            return Class.forName(name);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }
}
