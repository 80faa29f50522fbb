package io.gtran.lbv.gtran;

import io.gtran.lbv.DatasetInfo;
import io.gtran.lbv.gremlin.GremlinSystem;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.util.TransactionException;
import org.apache.tinkerpop.gremlin.tinkergraph.structure.AbstractTinkerGraph;
import org.apache.tinkerpop.gremlin.tinkergraph.structure.TinkerTransactionGraph;

/**
 * TinkerPop's own transactional in-memory graph, TinkerTransactionGraph 3.8.1: the reference a
 * TinkerPop user would reach for first. Its transactions are read committed and nothing stronger
 * (no snapshot, no read validation: only concurrent writes of one element conflict, at commit), so
 * its throughput is not comparable with gtran's at SR or SI; the output says so.
 *
 * <p>Dataset ids are user-supplied {@code Long} ids, with TinkerGraph's {@code LONG} id managers
 * (so {@code g.V(1)} and {@code g.V(1L)} name the same vertex, and ids it generates for new
 * elements skip the ids taken). Indexes: {@code createIndex(key, Vertex.class / Edge.class)} on
 * every indexed key and the lookup key. A conflict is the {@link TransactionException} ("Conflict:
 * element modified in another transaction") its commit throws. No options.
 */
public final class TinkerTxLbvSystem extends GremlinSystem {
    private final TinkerTransactionGraph graph;
    private final GraphTraversalSource g;

    public TinkerTxLbvSystem(Map<String, String> options) {
        super(options, Set.of());
        BaseConfiguration configuration = new BaseConfiguration();
        configuration.setProperty(AbstractTinkerGraph.GREMLIN_TINKERGRAPH_VERTEX_ID_MANAGER, "LONG");
        configuration.setProperty(AbstractTinkerGraph.GREMLIN_TINKERGRAPH_EDGE_ID_MANAGER, "LONG");
        configuration.setProperty(AbstractTinkerGraph.GREMLIN_TINKERGRAPH_VERTEX_PROPERTY_ID_MANAGER, "LONG");
        this.graph = TinkerTransactionGraph.open(configuration);
        this.g = graph.traversal();
    }

    @Override
    public String name() {
        return "tinkertx";
    }

    @Override
    public String isolation() {
        return "read committed (all TinkerTransactionGraph offers)";
    }

    @Override
    protected GraphTraversalSource traversal() {
        return g;
    }

    @Override
    protected void createIndexes(DatasetInfo info) {
        Set<String> vertexKeys = new LinkedHashSet<>(info.indexedVertexKeys());
        vertexKeys.add(info.lookupKey());
        vertexKeys.forEach(key -> graph.createIndex(key, Vertex.class));
        info.indexedEdgeKeys().forEach(key -> graph.createIndex(key, Edge.class));
    }

    /** The graph; for tests. */
    TinkerTransactionGraph graph() {
        return graph;
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
