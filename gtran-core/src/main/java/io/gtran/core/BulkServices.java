package io.gtran.core;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.verification.ReadOnlyStrategy;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.service.ServiceRegistry;
import org.apache.tinkerpop.gremlin.structure.util.CloseableIterator;

/**
 * Bulk writes through {@code call()}, so that every Gremlin driver can load a batch of elements in
 * one request, without a script: {@code gtran.bulk.vertices} and {@code gtran.bulk.edges}, each
 * taking {@code rows}, a list of maps, and answering {@code {vertices: n}} or {@code {edges: n}}.
 * They write in the request's transaction through {@link GtranBulk} (committed with it: a
 * sessionless request commits when it ends). Rows are checked before any is written; a call
 * that fails after writing some undoes the transaction and leaves it awaiting rollback
 * ({@link GtranBulk}), so a failed batch leaves nothing. A read-only traversal source refuses them.
 *
 * <p>A vertex row holds {@code label} (default {@code vertex}), {@code id} (optional) and
 * {@code properties} (optional, a map); an edge row {@code out} and {@code in} (the vertices' ids,
 * required), {@code label} (required), {@code id} and {@code properties} (optional). Any other
 * key, a row that is not a map or properties that are not a map are refused, naming the row.
 */
final class BulkServices {
    static final String VERTICES = "gtran.bulk.vertices";
    static final String EDGES = "gtran.bulk.edges";
    private static final String ROWS = "rows";
    private static final Set<String> VERTEX_KEYS = Set.of("id", "label", "properties");
    private static final Set<String> EDGE_KEYS = Set.of("id", "out", "in", "label", "properties");

    private BulkServices() {
    }

    /** Registers both services in {@code registry}, writing to {@code graph}. */
    static void register(ServiceRegistry registry, GtranGraph graph) {
        registry.registerService(new RowsService(VERTICES, "vertices", "maps {label, id, properties}; label defaults to 'vertex'",
                rows -> {
                    int n = rows.size();
                    Object[] ids = new Object[n];
                    String[] labels = new String[n];
                    List<Map<String, ?>> properties = new java.util.ArrayList<>(n);
                    for (int i = 0; i < n; i++) { // every row checked before the first is written
                        Map<?, ?> row = row(VERTICES, rows, i, VERTEX_KEYS);
                        Object label = row.get("label");
                        ids[i] = row.get("id");
                        labels[i] = label == null ? Vertex.DEFAULT_LABEL : string(VERTICES, i, "label", label);
                        properties.add(properties(VERTICES, i, row));
                    }
                    GtranBulk bulk = graph.bulk();
                    for (int i = 0; i < n; i++) {
                        try {
                            bulk.addVertex(ids[i], labels[i], properties.get(i));
                        } catch (RuntimeException e) {
                            GtranTransaction.Scope scope = graph.transaction().currentScope();
                            throw scope == null || i == 0 ? e : scope.failedPartWay(e); // rows before it were written
                        }
                    }
                    return n;
                }));
        registry.registerService(new RowsService(EDGES, "edges", "maps {out, in, label, id, properties}; out, in and label required",
                rows -> {
                    GtranBulk bulk = graph.bulk();
                    for (int i = 0; i < rows.size(); i++) { // queued, not written: flush writes them all or nothing
                        Map<?, ?> row = row(EDGES, rows, i, EDGE_KEYS);
                        bulk.addEdge(row.get("id"), row.get("out"), row.get("in"), string(EDGES, i, "label", row.get("label")),
                                properties(EDGES, i, row));
                    }
                    return bulk.flush();
                }));
    }

    /** Row {@code i} of {@code rows}, checked to be a map of {@code keys} only. */
    private static Map<?, ?> row(String service, List<?> rows, int i, Set<String> keys) {
        if (!(rows.get(i) instanceof Map<?, ?> row)) {
            throw new IllegalArgumentException(service + ": row " + i + " is not a map: " + rows.get(i));
        }
        for (Object key : row.keySet()) {
            if (!keys.contains(String.valueOf(key))) {
                throw new IllegalArgumentException(service + ": row " + i + " has unknown key " + key + "; a row takes "
                        + new java.util.TreeSet<>(keys));
            }
        }
        return row;
    }

    private static String string(String service, int i, String key, Object value) {
        if (!(value instanceof String s)) {
            throw new IllegalArgumentException(service + ": row " + i + " needs " + key + " as a string, not " + value);
        }
        return s;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, ?> properties(String service, int i, Map<?, ?> row) {
        Object properties = row.get("properties");
        if (properties == null) {
            return null;
        }
        if (!(properties instanceof Map<?, ?> map) || !map.keySet().stream().allMatch(String.class::isInstance)) {
            throw new IllegalArgumentException(service + ": row " + i + " needs properties as a map of string keys, not "
                    + properties);
        }
        return (Map<String, ?>) map;
    }

    /** What a service does with its rows; returns how many it wrote. */
    private interface Writer {
        int write(List<?> rows);
    }

    /** A start service ({@code g.call(name, [rows: [...]])}) answering {@code {counted: n}}. */
    private static final class RowsService extends StartService<Map<String, Integer>> {
        private final String counted;
        private final String rowsHelp;
        private final Writer writer;

        RowsService(String name, String counted, String rowsHelp, Writer writer) {
            super(name, Map.of(ROWS, "a list of " + rowsHelp + " (required)"));
            this.counted = counted;
            this.rowsHelp = rowsHelp;
            this.writer = writer;
        }

        @Override
        public CloseableIterator<Map<String, Integer>> execute(ServiceCallContext ctx, Map params) {
            refuseUnknown(params, param -> "");
            if (!(params.get(ROWS) instanceof List<?> rows)) {
                throw new IllegalArgumentException(getName() + ": parameter rows is required, a list of " + rowsHelp + ": rows="
                        + params.get(ROWS));
            }
            if (ctx.getTraversal().getStrategies().getStrategy(ReadOnlyStrategy.class).isPresent()) {
                throw new IllegalStateException(getName() + " writes, and this traversal source is read-only (ReadOnlyStrategy)");
            }
            return CloseableIterator.of(List.of(Map.of(counted, writer.write(rows))).iterator());
        }
    }
}
