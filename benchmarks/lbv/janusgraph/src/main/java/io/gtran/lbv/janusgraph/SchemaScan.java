package io.gtran.lbv.janusgraph;

import io.gtran.lbv.GraphSink;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * A first pass over a dataset that only looks: which labels and property keys occur and with which
 * Java type each key's values come, because JanusGraph declares a key's data type before any value
 * of it is written.
 */
final class SchemaScan implements GraphSink {
    private final Set<String> vertexLabels = new LinkedHashSet<>();
    private final Set<String> edgeLabels = new LinkedHashSet<>();
    private final Map<String, Class<?>> keyTypes = new LinkedHashMap<>();

    @Override
    public void vertex(long id, String label, Map<String, Object> properties) {
        vertexLabels.add(label);
        keys(properties);
    }

    @Override
    public void edge(long id, long outId, long inId, String label, Map<String, Object> properties) {
        edgeLabels.add(label);
        keys(properties);
    }

    private void keys(Map<String, Object> properties) {
        for (Map.Entry<String, Object> p : properties.entrySet()) {
            Class<?> type = p.getValue().getClass();
            // A key whose values differ in type across elements is declared Object (JanusGraph's catch-all).
            keyTypes.merge(p.getKey(), type, (a, b) -> a.equals(b) ? a : Object.class);
        }
    }

    Set<String> vertexLabels() {
        return vertexLabels;
    }

    Set<String> edgeLabels() {
        return edgeLabels;
    }

    Map<String, Class<?>> keyTypes() {
        return keyTypes;
    }
}
