package io.gtran.server;

import static org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource.traversal;

import java.io.File;
import org.apache.tinkerpop.gremlin.LoadGraphWith;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.features.World;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.io.graphml.GraphMLResourceAccess;
import org.apache.tinkerpop.gremlin.structure.io.graphson.GraphSONResourceAccess;
import org.apache.tinkerpop.gremlin.structure.io.gryo.GryoResourceAccess;
import org.apache.tinkerpop.gremlin.TestHelper;
import org.apache.tinkerpop.gremlin.util.ser.Serializers;

/**
 * The Gherkin suite through gremlin-driver against gtran server processes, as TinkerPop's own
 * RemoteWorld does: each scenario gets a client, of the next node in turn; the empty graph is
 * emptied before a scenario uses it.
 */
public class GtranRemoteWorld implements World {
    /** Started by {@link GtranRemoteClusterFeatureTest} for the whole run. */
    static volatile ClusterProcesses clusterNodes;
    private static final java.util.concurrent.atomic.AtomicInteger NEXT_NODE = new java.util.concurrent.atomic.AtomicInteger();

    private final Cluster cluster;

    /**
     * Through GraphBinary, or the serializer {@code -Dgtran.test.serializer} names (GRAPHSON_V3, for
     * instance: the suite's gtran code paths are the same, docs/testing.md).
     */
    public GtranRemoteWorld() {
        Serializers serializer = Serializers.valueOf(System.getProperty("gtran.test.serializer", "GRAPHBINARY_V1"));
        ClusterProcesses processes = clusterNodes;
        this.cluster = processes.client(Math.floorMod(NEXT_NODE.getAndIncrement(), processes.size()), serializer);
    }

    @Override
    public GraphTraversalSource getGraphTraversalSource(LoadGraphWith.GraphData graphData) {
        Client client = cluster.connect();
        String source;
        if (graphData == null) {
            try {
                client.submit("g.V().drop().iterate()").all().get(); // sessionless: committed on success
            } catch (Exception e) {
                throw new IllegalStateException("could not empty the remote graph: " + e, e);
            }
            source = "ggraph";
        } else {
            switch (graphData) {
                case CLASSIC: source = "gclassic"; break;
                case CREW: source = "gcrew"; break;
                case MODERN: source = "gmodern"; break;
                case SINK: source = "gsink"; break;
                case GRATEFUL: source = "ggrateful"; break;
                default: throw new UnsupportedOperationException("GraphData not supported: " + graphData.name());
            }
        }
        return traversal().with(DriverRemoteConnection.using(client, source));
    }

    @Override
    public void afterEachScenario() {
        cluster.close();
    }

    /** The io() scenarios read TinkerPop's modern graph; the nodes run on this machine, so a local file serves. */
    @Override
    public String changePathToDataFile(String pathToFileFromGremlin) {
        String name = pathToFileFromGremlin.substring(pathToFileFromGremlin.lastIndexOf('/') + 1);
        try {
            Class<?> access = name.endsWith(".xml") ? GraphMLResourceAccess.class
                    : name.endsWith(".json") ? GraphSONResourceAccess.class : GryoResourceAccess.class;
            String resource = name.endsWith(".json") ? name.replace(".json", "-v3.json")
                    : name.endsWith(".kryo") ? name.replace(".kryo", "-v3.kryo") : name;
            return TestHelper.generateTempFileFromResource(GtranRemoteWorld.class, access, resource, "", false)
                    .getAbsolutePath().replace(File.separatorChar, '/');
        } catch (Exception e) {
            throw new IllegalStateException("no test data file for " + pathToFileFromGremlin + ": " + e, e);
        }
    }
}
