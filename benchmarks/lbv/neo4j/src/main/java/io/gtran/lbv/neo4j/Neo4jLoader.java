package io.gtran.lbv.neo4j;

import io.gtran.lbv.DatasetInfo;
import io.gtran.lbv.GraphSink;
import io.gtran.lbv.LoadProgress;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.graphdb.Result;
import org.neo4j.graphdb.Transaction;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Loads a dataset in batches: the elements of one label are buffered and created by one
 * {@code UNWIND $rows} statement per transaction, which also returns their internal ids for the
 * dataset-id arrays. Every element keeps its dataset id as {@link CypherQueries#ID_KEY}. Vertices
 * come first (a dataset emits every vertex before any edge), so the first edge flushes them all.
 */
final class Neo4jLoader implements GraphSink {
    private final GraphDatabaseService db;
    private final int batchSize;
    private final LoadProgress progress;
    private final long[] nodeIds;
    private final long[] relIds;
    private final Map<String, List<Map<String, Object>>> vertexBuffers = new LinkedHashMap<>();
    private final Map<String, List<Map<String, Object>>> edgeBuffers = new LinkedHashMap<>();
    private long verticesLoaded;
    private long edgesLoaded;
    private boolean edgesStarted;

    Neo4jLoader(GraphDatabaseService db, DatasetInfo info, int batchSize, LoadProgress progress) {
        if (info.vertices() > Integer.MAX_VALUE || info.edges() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("dataset too large for id arrays: vertices=" + info.vertices()
                    + " edges=" + info.edges());
        }
        this.db = db;
        this.batchSize = batchSize;
        this.progress = progress;
        this.nodeIds = new long[(int) info.vertices()];
        this.relIds = new long[(int) info.edges()];
        Arrays.fill(nodeIds, -1L);
        Arrays.fill(relIds, -1L);
    }

    @Override
    public void vertex(long id, String label, Map<String, Object> properties) {
        if (edgesStarted) {
            throw new IllegalStateException("vertex after edges: id=" + id);
        }
        List<Map<String, Object>> buffer = vertexBuffers.computeIfAbsent(label, l -> new ArrayList<>());
        buffer.add(Map.of("id", id, "props", properties));
        if (buffer.size() >= batchSize) {
            flushVertices(label, buffer);
        }
    }

    @Override
    public void edge(long id, long outId, long inId, String label, Map<String, Object> properties) {
        if (!edgesStarted) {
            edgesStarted = true;
            vertexBuffers.forEach(this::flushVertices);
        }
        Map<String, Object> row = new HashMap<>(8);
        row.put("id", id);
        row.put("a", nodeId(outId));
        row.put("b", nodeId(inId));
        row.put("props", properties);
        List<Map<String, Object>> buffer = edgeBuffers.computeIfAbsent(label, l -> new ArrayList<>());
        buffer.add(row);
        if (buffer.size() >= batchSize) {
            flushEdges(label, buffer);
        }
    }

    /** Flushes what is buffered; the arrays are complete afterwards. */
    void finish() {
        vertexBuffers.forEach(this::flushVertices);
        edgeBuffers.forEach(this::flushEdges);
    }

    long[] nodeIds() {
        return nodeIds;
    }

    long[] relIds() {
        return relIds;
    }

    private long nodeId(long datasetId) {
        long nodeId = datasetId >= 0 && datasetId < nodeIds.length ? nodeIds[(int) datasetId] : -1L;
        if (nodeId < 0) {
            throw new IllegalStateException("edge end not loaded: vertex=" + datasetId);
        }
        return nodeId;
    }

    private void flushVertices(String label, List<Map<String, Object>> rows) {
        if (rows.isEmpty()) {
            return;
        }
        String text = "UNWIND $rows AS row CREATE (v:" + CypherQueries.quote(label) + ") SET v = row.props, v."
                + CypherQueries.ID_KEY + " = row.id RETURN row.id AS d, id(v) AS i";
        verticesLoaded += run(text, rows, nodeIds);
        rows.clear();
        progress.loaded(verticesLoaded, edgesLoaded);
    }

    private void flushEdges(String type, List<Map<String, Object>> rows) {
        if (rows.isEmpty()) {
            return;
        }
        String text = "UNWIND $rows AS row MATCH (a) WHERE id(a) = row.a MATCH (b) WHERE id(b) = row.b"
                + " CREATE (a)-[e:" + CypherQueries.quote(type) + "]->(b) SET e = row.props, e."
                + CypherQueries.ID_KEY + " = row.id RETURN row.id AS d, id(e) AS i";
        edgesLoaded += run(text, rows, relIds);
        rows.clear();
        progress.loaded(verticesLoaded, edgesLoaded);
    }

    private long run(String text, List<Map<String, Object>> rows, long[] ids) {
        long created = 0;
        try (Transaction tx = db.beginTx()) {
            try (Result result = tx.execute(text, Map.of("rows", rows))) {
                while (result.hasNext()) {
                    Map<String, Object> row = result.next();
                    ids[(int) (long) (Long) row.get("d")] = (Long) row.get("i");
                    created++;
                }
            }
            tx.commit();
        }
        if (created != rows.size()) {
            throw new IllegalStateException("batch partly created: rows=" + rows.size() + " created=" + created);
        }
        return created;
    }
}
