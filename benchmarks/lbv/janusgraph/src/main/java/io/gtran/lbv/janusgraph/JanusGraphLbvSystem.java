package io.gtran.lbv.janusgraph;

import io.gtran.lbv.Dataset;
import io.gtran.lbv.DatasetInfo;
import io.gtran.lbv.LoadProgress;
import io.gtran.lbv.gremlin.GremlinSystem;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.janusgraph.core.JanusGraph;
import org.janusgraph.core.JanusGraphFactory;

import java.util.Map;
import java.util.Set;

/**
 * JanusGraph 1.1.0 on its {@code inmemory} backend (TinkerPop 3.7.3) as an LBV system: lbv-gremlin's
 * queries, each in the calling thread's transaction ({@code g.tx()}), committed or rolled back.
 *
 * <p>Schema, declared before loading from a first pass over the dataset ({@link SchemaScan}): every
 * property key with the Java type of its values (cardinality SINGLE), every vertex and edge label
 * (edges MULTI), a composite index on every indexed vertex key and the lookup key and one on every
 * indexed edge key. The indexes are not unique even where the loaded values are: the run's writes
 * (Q2, Q16) may repeat a value, which a unique index would reject where the other systems accept
 * it. {@code schema.default=default}: a name the dataset does not have (Q5/Q6's new keys
 * {@code lbv_new_*}, a label) is created on first use by JanusGraph's default type maker (data type
 * Object, cardinality SINGLE); the first use of a new name by two transactions at once may fail
 * on JanusGraph's schema lock, which {@link #isRetryable} retries.
 *
 * <p>Ids: JanusGraph assigns them; arrays from dataset id to vertex id ({@code long}) and to the
 * four longs of an edge's {@code RelationIdentifier} are filled while loading. JanusGraph never
 * reuses an id, so a deleted dataset element is simply not found.
 *
 * <p>Options: {@value GremlinSystem#BATCH} only (elements per load transaction).
 */
public final class JanusGraphLbvSystem extends GremlinSystem {
    private final JanusGraph graph;
    private final GraphTraversalSource g;
    private final JanusGraphMapping mapping = new JanusGraphMapping();

    public JanusGraphLbvSystem(Map<String, String> options) {
        super(options, Set.of());
        JanusGraphFactory.Builder builder = JanusGraphFactory.build();
        JanusGraphMapping.graphSettings().forEach(builder::set);
        this.graph = builder.open();
        this.g = graph.traversal();
    }

    @Override
    public String name() {
        return "janusgraph";
    }

    /**
     * What JanusGraph's documentation promises on this backend: it "offers store-level locking
     * only", a commit changes several stores, so concurrent transactions touching the same vertex
     * or its edges may interleave; locking (ConsistencyModifier.LOCK) is off, so nothing detects a
     * conflict; the backend does not promise a clean rollback once a commit has started.
     */
    @Override
    public String isolation() {
        return ISOLATION;
    }

    /** {@link #isolation()}'s text, also janusgraph-server's. */
    static final String ISOLATION = "none guaranteed (JanusGraph inmemory backend: store-level locking only, locking off,"
            + " no conflict detection between concurrent transactions)";

    @Override
    protected GraphTraversalSource traversal() {
        return g;
    }

    @Override
    public void load(Dataset dataset, LoadProgress progress) {
        mapping.scan(dataset);
        super.load(dataset, progress);
    }

    @Override
    protected void prepare(DatasetInfo info) {
        mapping.prepare(info);
    }

    @Override
    protected void createIndexes(DatasetInfo info) {
        mapping.createIndexes(graph, info);
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

    /**
     * A failure caused by lock contention (local or on the backend) or by a temporary backend
     * failure: what JanusGraph's documentation says a client recovers from by re-running the
     * transaction. With locking off these come only from schema elements created on first use.
     */
    @Override
    public boolean isRetryable(Throwable failure) {
        return anyCause(failure, JanusGraphMapping::isLockingOrTemporary);
    }

    @Override
    public void close() {
        graph.close();
    }
}
