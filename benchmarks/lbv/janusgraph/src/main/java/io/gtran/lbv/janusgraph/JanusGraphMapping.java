package io.gtran.lbv.janusgraph;

import io.gtran.lbv.Dataset;
import io.gtran.lbv.DatasetInfo;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.janusgraph.core.Cardinality;
import org.janusgraph.core.JanusGraph;
import org.janusgraph.core.JanusGraphException;
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
 * What both JanusGraph systems (embedded and behind Gremlin Server) do the same way: the schema
 * declared before loading and the arrays from dataset ids to JanusGraph's ids. See {@link
 * JanusGraphLbvSystem} for the choices. Not thread-safe while loading; read-only afterwards.
 */
final class JanusGraphMapping {
    /** A vertex id JanusGraph never assigns (its ids are positive): finds nothing. */
    private static final long NO_VERTEX = -1L;
    private static final int EDGE_PARTS = 4;

    /** The first pass over the dataset being loaded; {@link #createIndexes} declares the schema from it. */
    private SchemaScan scan;
    private long[] vertexIds = new long[0];
    /** Per dataset edge: out-vertex id, type id, relation id, in-vertex id; all 0 if not loaded. */
    private long[] edgeParts = new long[0];

    /** The first pass over {@code dataset}: its keys' types and its labels, for {@link #createIndexes}. */
    void scan(Dataset dataset) {
        SchemaScan first = new SchemaScan();
        dataset.generate(first);
        scan = first;
    }

    /** Sizes the id arrays for {@code info}. */
    void prepare(DatasetInfo info) {
        vertexIds = new long[Math.toIntExact(info.vertices())];
        Arrays.fill(vertexIds, NO_VERTEX);
        edgeParts = new long[Math.toIntExact(Math.multiplyExact(info.edges(), EDGE_PARTS))];
    }

    /**
     * Declares on {@code graph} every property key with the Java type of its values (cardinality
     * SINGLE), every vertex and edge label (edges MULTI), a composite index on every indexed vertex
     * key and the lookup key and one on every indexed edge key; forgets the scan.
     */
    void createIndexes(JanusGraph graph, DatasetInfo info) {
        SchemaScan seen = scan != null ? scan : new SchemaScan();
        scan = null;
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

    Object vertexId(long datasetId) {
        return datasetId >= 0 && datasetId < vertexIds.length ? vertexIds[(int) datasetId] : NO_VERTEX;
    }

    Object edgeId(long datasetId) {
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

    void recordVertexId(long datasetId, Object nativeId) {
        vertexIds[Math.toIntExact(datasetId)] = (Long) nativeId;
    }

    void recordEdgeId(long datasetId, Object nativeId) {
        RelationIdentifier id = (RelationIdentifier) nativeId;
        int at = Math.toIntExact(datasetId) * EDGE_PARTS;
        edgeParts[at] = (Long) id.getOutVertexId();
        edgeParts[at + 1] = id.getTypeId();
        edgeParts[at + 2] = id.getRelationId();
        edgeParts[at + 3] = (Long) id.getInVertexId();
    }

    /**
     * Whether {@code t} is lock contention (local or on the backend) or a temporary backend failure:
     * what JanusGraph's documentation says a client recovers from by re-running the transaction.
     */
    static boolean isLockingOrTemporary(Throwable t) {
        return t instanceof PermanentLockingException || t instanceof TemporaryLockingException
                || t instanceof TemporaryBackendException
                || t instanceof JanusGraphException je && (je.isCausedBy(PermanentLockingException.class)
                        || je.isCausedBy(TemporaryLockingException.class)
                        || je.isCausedBy(TemporaryBackendException.class));
    }

    /** The graph configuration both systems open: the inmemory backend, schema names made on first use. */
    static Map<String, String> graphSettings() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("storage.backend", "inmemory");
        settings.put("schema.default", "default");
        return settings;
    }
}
