package io.gtran.lbv;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A test sink: hashes the emitted stream in order and checks the {@link GraphSink} contract as it
 * goes (dense ids in order, vertices before edges, edge ends already emitted, property types,
 * unique lookup values); keeps degrees and labels for the shape tests.
 */
final class StreamStats implements GraphSink {
    final String lookupKey;
    long hash = 17;
    long vertices;
    long edges;
    final Map<Long, String> vertexLabel = new HashMap<>();
    final Map<Long, Map<String, Object>> vertexProperties = new HashMap<>();
    final Map<String, Long> vertexLabels = new TreeMap<>();
    final Map<String, Long> edgeLabels = new TreeMap<>();
    final Map<Long, Long> outDegree = new HashMap<>();
    final Map<Long, Long> inDegree = new HashMap<>();
    final Map<String, Map<Long, Long>> outByLabel = new HashMap<>();
    final Set<Object> lookups = new HashSet<>();
    boolean keepProperties;
    final java.util.List<long[]> edgeEnds = new java.util.ArrayList<>();
    final java.util.List<String> edgeLabelList = new java.util.ArrayList<>();
    final java.util.List<Map<String, Object>> edgeProperties = new java.util.ArrayList<>();

    StreamStats(String lookupKey) {
        this.lookupKey = lookupKey;
    }

    static StreamStats of(Dataset d, boolean keepProperties) {
        StreamStats s = new StreamStats(d.info().lookupKey());
        s.keepProperties = keepProperties;
        d.generate(s);
        return s;
    }

    @Override
    public void vertex(long id, String label, Map<String, Object> properties) {
        check(edges == 0, "vertex=" + id + " after an edge");
        check(id == vertices, "vertex=" + id + " expected=" + vertices);
        vertices++;
        vertexLabel.put(id, label);
        vertexLabels.merge(label, 1L, Long::sum);
        Object lookup = properties.get(lookupKey);
        check(lookup != null, "vertex=" + id + " lacks " + lookupKey);
        check(lookups.add(lookup), "vertex=" + id + " repeats " + lookupKey + "=" + lookup);
        if (keepProperties) {
            vertexProperties.put(id, properties);
        }
        hash = SplitMix64.hash(hash, id, label.hashCode(), properties(properties));
    }

    @Override
    public void edge(long id, long outId, long inId, String label, Map<String, Object> properties) {
        check(id == edges, "edge=" + id + " expected=" + edges);
        check(outId >= 0 && outId < vertices && inId >= 0 && inId < vertices,
                "edge=" + id + " ends " + outId + "->" + inId + " not emitted");
        edges++;
        edgeLabels.merge(label, 1L, Long::sum);
        outDegree.merge(outId, 1L, Long::sum);
        inDegree.merge(inId, 1L, Long::sum);
        outByLabel.computeIfAbsent(label, l -> new HashMap<>()).merge(outId, 1L, Long::sum);
        if (keepProperties) {
            edgeEnds.add(new long[] {outId, inId});
            edgeLabelList.add(label);
            edgeProperties.add(properties);
        }
        hash = SplitMix64.hash(hash, id, outId, inId, label.hashCode(), properties(properties));
    }

    private static long properties(Map<String, Object> properties) {
        long h = 1;
        for (Map.Entry<String, Object> e : properties.entrySet()) {
            Object v = e.getValue();
            check(v instanceof String || v instanceof Long || v instanceof Integer || v instanceof Double,
                    "property " + e.getKey() + "=" + v + " has type " + (v == null ? null : v.getClass()));
            h = SplitMix64.hash(h, e.getKey().hashCode(), v.hashCode(), v.getClass().getName().hashCode());
        }
        return h;
    }

    long degree(long v) {
        return outDegree.getOrDefault(v, 0L) + inDegree.getOrDefault(v, 0L);
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new AssertionError(message);
        }
    }
}
