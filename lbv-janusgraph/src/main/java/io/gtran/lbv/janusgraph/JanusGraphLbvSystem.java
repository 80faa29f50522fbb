package io.gtran.lbv.janusgraph;

import io.gtran.lbv.Dataset;
import io.gtran.lbv.DatasetInfo;
import io.gtran.lbv.LatencyQuery;
import io.gtran.lbv.LbvQuery;
import io.gtran.lbv.LbvSystem;
import io.gtran.lbv.LoadProgress;
import io.gtran.lbv.QueryParams;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
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
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.janusgraph.graphdb.relations.RelationIdentifier;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * JanusGraph 1.1.0 on its {@code inmemory} backend as an LBV system: each query one thread-bound
 * transaction ({@code graph.tx()}), committed, rolled back on failure.
 *
 * <p>Schema (declared before loading, from a first pass over the dataset): every property key with
 * the Java type of its values (cardinality SINGLE), every vertex and edge label (edges MULTI), a
 * composite index on every indexed vertex key and the lookup key, and one on every indexed edge
 * key. The indexes are not unique: after Q2/Q16 write a value that already exists, JanusGraph would
 * reject the write where the other systems accept it. {@code schema.default=default}: names the
 * dataset does not have (a new key set by Q5/Q6, a new label) are created on first use with
 * JanusGraph's default type maker.
 *
 * <p>Ids: arrays from dataset id to JanusGraph vertex id ({@code long}) and edge id
 * ({@link RelationIdentifier}), filled while loading. JanusGraph never reuses an id, so a deleted
 * dataset element is simply not found.
 *
 * <p>Options: {@value #OPT_BATCH} (elements per load transaction, default {@value #DEFAULT_BATCH}).
 */
public final class JanusGraphLbvSystem implements LbvSystem {
    public static final String OPT_BATCH = "batch";
    public static final int DEFAULT_BATCH = 10_000;

    private static final Set<String> OPTIONS = Set.of(OPT_BATCH);

    private final JanusGraph graph;
    private final GraphTraversalSource g;
    private final int batchSize;
    /** Set once by {@link #load}; read by every query thread after the runner starts them. */
    private volatile Loaded loaded;

    private record Loaded(long[] vertexIds, RelationIdentifier[] edgeIds, InterimQueries queries) {
    }

    public JanusGraphLbvSystem(Map<String, String> options) {
        for (String key : options.keySet()) {
            if (!OPTIONS.contains(key)) {
                throw new IllegalArgumentException("unknown janusgraph option: " + key + "=" + options.get(key)
                        + " (known: " + OPTIONS + ")");
            }
        }
        String batch = options.getOrDefault(OPT_BATCH, String.valueOf(DEFAULT_BATCH));
        try {
            this.batchSize = Integer.parseInt(batch.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a positive integer: " + OPT_BATCH + "=" + batch, e);
        }
        if (batchSize <= 0) {
            throw new IllegalArgumentException("not a positive integer: " + OPT_BATCH + "=" + batch);
        }
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

    @Override
    public String isolation() {
        return "none guaranteed (JanusGraph inmemory backend: store-level locking only, locking off,"
                + " no conflict detection between concurrent transactions)";
    }

    @Override
    public void load(Dataset dataset, LoadProgress progress) {
        if (loaded != null) {
            throw new IllegalStateException("already loaded: dataset=" + dataset.name());
        }
        DatasetInfo info = dataset.info();
        SchemaScan scan = new SchemaScan();
        dataset.generate(scan);
        declareSchema(info, scan);
        JanusGraphLoader loader = new JanusGraphLoader(graph, info, batchSize, progress);
        dataset.generate(loader);
        loader.finish();
        long[] vertexIds = loader.vertexIds();
        RelationIdentifier[] edgeIds = loader.edgeIds();
        loaded = new Loaded(vertexIds, edgeIds, new InterimQueries(info.lookupKey(), info.edgeLabels().get(0),
                id -> id >= 0 && id < vertexIds.length && vertexIds[(int) id] >= 0 ? vertexIds[(int) id] : null,
                id -> id >= 0 && id < edgeIds.length ? edgeIds[(int) id] : null));
    }

    private void declareSchema(DatasetInfo info, SchemaScan scan) {
        Map<String, Class<?>> keyTypes = new LinkedHashMap<>(scan.keyTypes());
        Set<String> vertexIndexed = new LinkedHashSet<>(info.indexedVertexKeys());
        vertexIndexed.add(info.lookupKey());
        for (String key : vertexIndexed) {
            keyTypes.putIfAbsent(key, Object.class);
        }
        for (String key : info.indexedEdgeKeys()) {
            keyTypes.putIfAbsent(key, Object.class);
        }
        Set<String> vertexLabels = new LinkedHashSet<>(info.vertexLabels());
        vertexLabels.addAll(scan.vertexLabels());
        Set<String> edgeLabels = new LinkedHashSet<>(info.edgeLabels());
        edgeLabels.addAll(scan.edgeLabels());

        JanusGraphManagement m = graph.openManagement();
        try {
            Map<String, PropertyKey> keys = new LinkedHashMap<>();
            keyTypes.forEach((key, type) -> keys.put(key,
                    m.makePropertyKey(key).dataType(type).cardinality(Cardinality.SINGLE).make()));
            vertexLabels.forEach(label -> m.makeVertexLabel(label).make());
            edgeLabels.forEach(label -> m.makeEdgeLabel(label).multiplicity(Multiplicity.MULTI).make());
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
    public long execute(LbvQuery query, QueryParams params) {
        Loaded state = loaded();
        try {
            long n = state.queries().lbv(g, query, params);
            graph.tx().commit();
            return n;
        } catch (RuntimeException e) {
            rollbackQuietly(e);
            throw e;
        }
    }

    @Override
    public long latency(LatencyQuery query, QueryParams params) {
        Loaded state = loaded();
        try {
            long n = state.queries().latency(g, query, params);
            graph.tx().commit();
            return n;
        } catch (RuntimeException e) {
            rollbackQuietly(e);
            throw e;
        }
    }

    private void rollbackQuietly(RuntimeException failure) {
        try {
            if (graph.tx().isOpen()) {
                graph.tx().rollback();
            }
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    /**
     * A JanusGraph failure caused by lock contention (local or on the backend) or a temporary backend
     * failure: what JanusGraph's documentation says a client recovers from by re-running the
     * transaction. With locking off and the inmemory backend these are rare.
     */
    @Override
    public boolean isRetryable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof PermanentLockingException || t instanceof TemporaryLockingException
                    || t instanceof TemporaryBackendException) {
                return true;
            }
            if (t instanceof JanusGraphException je && (je.isCausedBy(PermanentLockingException.class)
                    || je.isCausedBy(TemporaryLockingException.class) || je.isCausedBy(TemporaryBackendException.class))) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() {
        graph.close();
    }

    private Loaded loaded() {
        Loaded state = loaded;
        if (state == null) {
            throw new IllegalStateException("janusgraph: execute before load");
        }
        return state;
    }
}
