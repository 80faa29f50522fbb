package io.gtran.lbv.gremlin;

import io.gtran.lbv.DatasetInfo;
import java.util.Map;
import java.util.Set;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.util.TransactionException;
import org.apache.tinkerpop.gremlin.tinkergraph.structure.TinkerTransactionGraph;

/**
 * {@link GremlinSystem} over TinkerTransactionGraph with ids the graph assigns, mapped from
 * dataset ids by arrays built at load: the path a system without user-supplied ids
 * (JanusGraph) takes, tested here without JanusGraph.
 */
final class MappedTinkerSystem extends GremlinSystem {
    private final TinkerTransactionGraph graph = TinkerTransactionGraph.open();
    private final GraphTraversalSource g = graph.traversal();
    private Object[] vertexIds;
    private Object[] edgeIds;

    MappedTinkerSystem(Map<String, String> options) {
        super(options, Set.of());
    }

    @Override
    public String name() {
        return "tinker-mapped";
    }

    @Override
    public String isolation() {
        return "read committed";
    }

    @Override
    protected GraphTraversalSource traversal() {
        return g;
    }

    @Override
    protected void prepare(DatasetInfo info) {
        vertexIds = new Object[Math.toIntExact(info.vertices())];
        edgeIds = new Object[Math.toIntExact(info.edges())];
    }

    @Override
    protected void createIndexes(DatasetInfo info) {
        info.indexedVertexKeys().forEach(key -> graph.createIndex(key, Vertex.class));
        graph.createIndex(info.lookupKey(), Vertex.class);
        info.indexedEdgeKeys().forEach(key -> graph.createIndex(key, Edge.class));
    }

    @Override
    protected boolean suppliesIds() {
        return false;
    }

    @Override
    protected Object vertexId(long datasetId) {
        return vertexIds[Math.toIntExact(datasetId)];
    }

    @Override
    protected Object edgeId(long datasetId) {
        return edgeIds[Math.toIntExact(datasetId)];
    }

    @Override
    protected void recordVertexId(long datasetId, Object nativeId) {
        vertexIds[Math.toIntExact(datasetId)] = nativeId;
    }

    @Override
    protected void recordEdgeId(long datasetId, Object nativeId) {
        edgeIds[Math.toIntExact(datasetId)] = nativeId;
    }

    @Override
    public boolean isRetryable(Throwable failure) {
        return anyCause(failure, t -> t instanceof TransactionException);
    }

    @Override
    public void close() {
        graph.close();
    }
}
