package io.gtran.lbv.gremlin;

import io.gtran.lbv.Dataset;
import io.gtran.lbv.GraphSink;
import io.gtran.lbv.LoadProgress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Element;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.util.CloseableIterator;

/**
 * Loads a dataset through TinkerPop's structure API ({@code addVertex}, {@code addEdge}) in
 * transactions of {@code batch} elements on the calling thread, committing each and reporting
 * progress after it. Vertices are all committed before the first edge, so a system that assigns
 * its own ids has recorded every vertex's id by then. Single-threaded: no conflicts to retry.
 */
final class GraphLoader implements GraphSink {
    private final GremlinSystem system;
    private final Graph graph;
    private final int batch;
    private final LoadProgress progress;
    private final boolean suppliesIds;
    /** Vertices of the running batch by dataset id: edges of a hub reuse them instead of looking them up. */
    private final Map<Long, Vertex> batchVertices = new HashMap<>();
    /** Elements of the running batch whose ids are recorded after its commit (when the system assigns ids). */
    private final List<Long> pendingIds = new ArrayList<>();
    private final List<Element> pendingElements = new ArrayList<>();
    private boolean pendingAreEdges;
    private int inBatch;
    private long vertices;
    private long edges;
    private boolean edgePhase;

    GraphLoader(GremlinSystem system, Graph graph, int batch, LoadProgress progress) {
        this.system = system;
        this.graph = graph;
        this.batch = batch;
        this.progress = progress;
        this.suppliesIds = system.suppliesIds();
    }

    void load(Dataset dataset) {
        try {
            dataset.generate(this);
            commit();
        } catch (RuntimeException | Error e) {
            try {
                graph.tx().rollback();
            } catch (RuntimeException rollback) {
                e.addSuppressed(rollback);
            }
            throw e;
        }
    }

    @Override
    public void vertex(long id, String label, Map<String, Object> properties) {
        if (edgePhase) {
            throw new IllegalStateException("dataset emitted a vertex after edges: id=" + id);
        }
        Vertex vertex = graph.addVertex(keyValues(label, suppliesIds ? system.vertexId(id) : null, properties));
        batchVertices.put(id, vertex);
        if (!suppliesIds) {
            pendingIds.add(id);
            pendingElements.add(vertex);
        }
        vertices++;
        added();
    }

    @Override
    public void edge(long id, long outId, long inId, String label, Map<String, Object> properties) {
        if (!edgePhase) {
            edgePhase = true;
            commit(); // every vertex, and its id, is settled before the first edge
        }
        Vertex out = vertex(outId, id);
        Vertex in = vertex(inId, id);
        Edge edge = out.addEdge(label, in, keyValues(null, suppliesIds ? system.edgeId(id) : null, properties));
        if (!suppliesIds) {
            pendingIds.add(id);
            pendingElements.add(edge);
            pendingAreEdges = true;
        }
        edges++;
        added();
    }

    private Vertex vertex(long datasetId, long edgeId) {
        Vertex cached = batchVertices.get(datasetId);
        if (cached != null) {
            return cached;
        }
        Iterator<Vertex> found = graph.vertices(system.vertexId(datasetId));
        try {
            if (!found.hasNext()) {
                throw new IllegalStateException("dataset edge names a vertex that was not loaded: edge=" + edgeId
                        + " vertex=" + datasetId);
            }
            Vertex vertex = found.next();
            batchVertices.put(datasetId, vertex);
            return vertex;
        } finally {
            CloseableIterator.closeIterator(found);
        }
    }

    private void added() {
        if (++inBatch >= batch) {
            commit();
        }
    }

    private void commit() {
        graph.tx().commit();
        for (int i = 0; i < pendingIds.size(); i++) {
            Object nativeId = pendingElements.get(i).id();
            if (pendingAreEdges) {
                system.recordEdgeId(pendingIds.get(i), nativeId);
            } else {
                system.recordVertexId(pendingIds.get(i), nativeId);
            }
        }
        pendingIds.clear();
        pendingElements.clear();
        pendingAreEdges = false;
        batchVertices.clear(); // a vertex object may belong to the committed transaction
        inBatch = 0;
        progress.loaded(vertices, edges);
    }

    /** {@code T.label, label, T.id, id, k1, v1, ...} for addVertex/addEdge, leaving out what is null. */
    private static Object[] keyValues(String label, Object id, Map<String, Object> properties) {
        Object[] keyValues = new Object[2 * properties.size() + (label == null ? 0 : 2) + (id == null ? 0 : 2)];
        int i = 0;
        if (label != null) {
            keyValues[i++] = T.label;
            keyValues[i++] = label;
        }
        if (id != null) {
            keyValues[i++] = T.id;
            keyValues[i++] = id;
        }
        for (Map.Entry<String, Object> property : properties.entrySet()) {
            keyValues[i++] = property.getKey();
            keyValues[i++] = property.getValue();
        }
        return keyValues;
    }
}
