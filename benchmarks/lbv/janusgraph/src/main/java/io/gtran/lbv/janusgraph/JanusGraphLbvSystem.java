package io.gtran.lbv.janusgraph;

import io.gtran.lbv.Dataset;
import io.gtran.lbv.DatasetInfo;
import io.gtran.lbv.LoadProgress;
import io.gtran.lbv.gremlin.GremlinSystem;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.janusgraph.core.Cardinality;
import org.janusgraph.core.JanusGraph;
import org.janusgraph.core.JanusGraphException;
import org.janusgraph.core.JanusGraphFactory;
import org.janusgraph.core.Multiplicity;
import org.janusgraph.core.PropertyKey;
import org.janusgraph.core.schema.JanusGraphManagement;
import org.janusgraph.diskstorage.TemporaryBackendException;
import org.janusgraph.diskstorage.locking.PermanentLockingException;
import org.janusgraph.diskstorage.locking.TemporaryLockingException;
import org.janusgraph.graphdb.relations.RelationIdentifier;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
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
 * four longs of an edge's {@link RelationIdentifier} are filled while loading. JanusGraph never
 * reuses an id, so a deleted dataset element is simply not found.
 *
 * <p>Options: {@value GremlinSystem#BATCH} only (elements per load transaction).
 */
public final class JanusGraphLbvSystem extends GremlinSystem {
    /** A vertex id JanusGraph never assigns (its ids are positive): finds nothing. */
    private static final long NO_VERTEX = -1L;
    private static final int EDGE_PARTS = 4;

    private final JanusGraph graph;
    private final GraphTraversalSource g;
    /** The first pass over the dataset being loaded; {@link #createIndexes} declares the schema from it. */
    private SchemaScan scan;
    private long[] vertexIds = new long[0];
    /** Per dataset edge: out-vertex id, type id, relation id, in-vertex id; all 0 if not loaded. */
    private long[] edgeParts = new long[0];

    public JanusGraphLbvSystem(Map<String, String> options) {
        super(options, Set.of());
        this.graph = JanusGraphFactory.build()
                .set("storage.backend", "inmemory")
                .set("schema.default", "default")
                .open();
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
        return "none guaranteed (JanusGraph inmemory backend: store-level locking only, locking off,"
                + " no conflict detection between concurrent transactions)";
    }

    @Override
    protected GraphTraversalSource traversal() {
        return g;
    }

    @Override
    public void load(Dataset dataset, LoadProgress progress) {
        SchemaScan first = new SchemaScan();
        dataset.generate(first);
        scan = first;
        try {
            super.load(dataset, progress);
        } finally {
            scan = null;
        }
    }

    @Override
    protected void prepare(DatasetInfo info) {
        vertexIds = new long[Math.toIntExact(info.vertices())];
        Arrays.fill(vertexIds, NO_VERTEX);
        edgeParts = new long[Math.toIntExact(Math.multiplyExact(info.edges(), EDGE_PARTS))];
    }

    @Override
    protected void createIndexes(DatasetInfo info) {
        SchemaScan seen = scan != null ? scan : new SchemaScan();
        Map<String, Class<?>> keyTypes = new LinkedHashMap<>(seen.keyTypes());
        Set<String> vertexIndexed = new LinkedHashSet<>(info.indexedVertexKeys());
        vertexIndexed.add(info.lookupKey());
        vertexIndexed.forEach(key -> keyTypes.putIfAbsent(key, Object.class));
        info.indexedEdgeKeys().forEach(key -> keyTypes.putIfAbsent(key, Object.class));
        Set<String> vertexLabels = new LinkedHashSet<>(info.vertexLabels());
        vertexLabels.addAll(seen.vertexLabels());
        Set<String> edgeLabels = new LinkedHashSet<>(info.edgeLabels());
        edgeLabels.addAll(seen.edgeLabels());

        JanusGraphManagement m = graph.openManagement();
        try {
            Map<String, PropertyKey> keys = new LinkedHashMap<>();
            keyTypes.forEach((key, type) -> keys.put(key,
                    m.makePropertyKey(key).dataType(type).cardinality(Cardinality.SINGLE).make()));
            vertexLabels.forEach(label -> m.makeVertexLabel(label).make());
            edgeLabels.forEach(label -> m.makeEdgeLabel(label).multiplicity(Multiplicity.MULTI).make());
            // Indexes made in the same management transaction as their keys are ENABLED at once.
            int n = 0;
            for (String key : vertexIndexed) {
                m.buildIndex("lbv_vertex_" + n++, Vertex.class).addKey(keys.get(key)).buildCompositeIndex();
            }
            n = 0;
            for (String key : info.indexedEdgeKeys()) {
                m.buildIndex("lbv_edge_" + n++, Edge.class).addKey(keys.get(key)).buildCompositeIndex();
            }
            m.commit();
        } catch (RuntimeException e) {
            m.rollback();
            throw e;
        }
    }

    @Override
    protected boolean suppliesIds() {
        return false;
    }

    @Override
    protected Object vertexId(long datasetId) {
        return datasetId >= 0 && datasetId < vertexIds.length ? vertexIds[(int) datasetId] : NO_VERTEX;
    }

    @Override
    protected Object edgeId(long datasetId) {
        int at = datasetId >= 0 && datasetId < edgeParts.length / EDGE_PARTS ? (int) datasetId * EDGE_PARTS : -1;
        if (at < 0 || edgeParts[at + 2] == 0) {
            // Not a loaded edge: dataset edge 0's ends and type with a relation id JanusGraph never
            // assigns (it allocates from below) name no edge. (JanusGraph rejects a non-positive vertex id.)
            if (edgeParts.length == 0 || edgeParts[2] == 0) {
                throw new IllegalStateException("no edge loaded to form a missing edge's id: edge=" + datasetId);
            }
            return new RelationIdentifier(edgeParts[0], edgeParts[1], Long.MAX_VALUE, edgeParts[3]);
        }
        return new RelationIdentifier(edgeParts[at], edgeParts[at + 1], edgeParts[at + 2], edgeParts[at + 3]);
    }

    @Override
    protected void recordVertexId(long datasetId, Object nativeId) {
        vertexIds[Math.toIntExact(datasetId)] = (Long) nativeId;
    }

    @Override
    protected void recordEdgeId(long datasetId, Object nativeId) {
        RelationIdentifier id = (RelationIdentifier) nativeId;
        int at = Math.toIntExact(datasetId) * EDGE_PARTS;
        edgeParts[at] = (Long) id.getOutVertexId();
        edgeParts[at + 1] = id.getTypeId();
        edgeParts[at + 2] = id.getRelationId();
        edgeParts[at + 3] = (Long) id.getInVertexId();
    }

    /**
     * A failure caused by lock contention (local or on the backend) or by a temporary backend
     * failure: what JanusGraph's documentation says a client recovers from by re-running the
     * transaction. With locking off these come only from schema elements created on first use.
     */
    @Override
    public boolean isRetryable(Throwable failure) {
        return anyCause(failure, t -> t instanceof PermanentLockingException || t instanceof TemporaryLockingException
                || t instanceof TemporaryBackendException
                || t instanceof JanusGraphException je && (je.isCausedBy(PermanentLockingException.class)
                        || je.isCausedBy(TemporaryLockingException.class)
                        || je.isCausedBy(TemporaryBackendException.class)));
    }

    @Override
    public void close() {
        graph.close();
    }
}
