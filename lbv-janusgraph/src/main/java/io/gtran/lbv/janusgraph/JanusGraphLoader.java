package io.gtran.lbv.janusgraph;

import io.gtran.lbv.DatasetInfo;
import io.gtran.lbv.GraphSink;
import io.gtran.lbv.LoadProgress;
import org.apache.tinkerpop.gremlin.structure.T;
import org.janusgraph.core.JanusGraph;
import org.janusgraph.core.JanusGraphEdge;
import org.janusgraph.core.JanusGraphTransaction;
import org.janusgraph.core.JanusGraphVertex;
import org.janusgraph.graphdb.relations.RelationIdentifier;

import java.util.Map;

/**
 * Loads a dataset through JanusGraph's core API, {@code batchSize} elements per transaction
 * (batch-loading transactions: no consistency checks, which the generated data do not need), and
 * records each element's JanusGraph id by its dataset id. JanusGraph assigns ids when an element
 * is created ({@code ids.flush=true}, the default) and never reuses them.
 */
final class JanusGraphLoader implements GraphSink {
    private final JanusGraph graph;
    private final int batchSize;
    private final LoadProgress progress;
    private final long[] vertexIds;
    private final RelationIdentifier[] edgeIds;
    private JanusGraphTransaction tx;
    private int inTx;
    private long vertices;
    private long edges;

    JanusGraphLoader(JanusGraph graph, DatasetInfo info, int batchSize, LoadProgress progress) {
        if (info.vertices() > Integer.MAX_VALUE || info.edges() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("dataset too large for id arrays: vertices=" + info.vertices()
                    + " edges=" + info.edges());
        }
        this.graph = graph;
        this.batchSize = batchSize;
        this.progress = progress;
        this.vertexIds = new long[(int) info.vertices()];
        this.edgeIds = new RelationIdentifier[(int) info.edges()];
        java.util.Arrays.fill(vertexIds, -1L);
    }

    @Override
    public void vertex(long id, String label, Map<String, Object> properties) {
        Object[] keyValues = new Object[2 + 2 * properties.size()];
        keyValues[0] = T.label;
        keyValues[1] = label;
        int i = 2;
        for (Map.Entry<String, Object> p : properties.entrySet()) {
            keyValues[i++] = p.getKey();
            keyValues[i++] = p.getValue();
        }
        JanusGraphVertex v = tx().addVertex(keyValues);
        vertexIds[(int) id] = (Long) v.id();
        vertices++;
        counted();
    }

    @Override
    public void edge(long id, long outId, long inId, String label, Map<String, Object> properties) {
        JanusGraphTransaction t = tx();
        JanusGraphVertex out = t.getVertex(vertexId(outId));
        JanusGraphVertex in = t.getVertex(vertexId(inId));
        JanusGraphEdge e = out.addEdge(label, in);
        for (Map.Entry<String, Object> p : properties.entrySet()) {
            e.property(p.getKey(), p.getValue());
        }
        edgeIds[(int) id] = (RelationIdentifier) e.id();
        edges++;
        counted();
    }

    /** Commits the last batch; the id arrays are complete afterwards. */
    void finish() {
        if (tx != null) {
            tx.commit();
            tx = null;
            progress.loaded(vertices, edges);
        }
    }

    long[] vertexIds() {
        return vertexIds;
    }

    RelationIdentifier[] edgeIds() {
        return edgeIds;
    }

    private long vertexId(long datasetId) {
        long vertexId = vertexIds[(int) datasetId];
        if (vertexId < 0) {
            throw new IllegalStateException("edge end not loaded: vertex=" + datasetId);
        }
        return vertexId;
    }

    private JanusGraphTransaction tx() {
        if (tx == null) {
            tx = graph.buildTransaction().enableBatchLoading().checkExternalVertexExistence(false).start();
        }
        return tx;
    }

    private void counted() {
        if (++inTx >= batchSize) {
            tx.commit();
            tx = null;
            inTx = 0;
            progress.loaded(vertices, edges);
        }
    }
}
