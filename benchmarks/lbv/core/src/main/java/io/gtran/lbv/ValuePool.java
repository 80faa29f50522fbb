package io.gtran.lbv;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link ParamSampler} needs to draw parameters that name things that exist, collected in one
 * pass over a dataset's stream (a second generation, separate from the system's load, so that it
 * does not depend on how a system loads):
 * <ul>
 *   <li>each vertex's and edge's label (a byte each) and the vertex ids of each label;
 *   <li>each vertex's lookup-key value (a long each: lookup values must be {@link Long}s);
 *   <li>per label, the keys its elements carry and an example value of each (its type);
 *   <li>per key, a uniform reservoir of up to {@value #RESERVOIR} of the values that occur (one
 *       entry per element, so common values are drawn as often as they occur).
 * </ul>
 * About 13 bytes a vertex and 1 byte an edge. Immutable once collected, so threads share it.
 */
public final class ValuePool {
    /** How many values per key the reservoirs keep. */
    public static final int RESERVOIR = 4096;
    private static final long NO_LOOKUP = Long.MIN_VALUE;

    private final DatasetInfo info;
    private final byte[] vertexLabels;
    private final byte[] edgeLabels;
    private final int[][] verticesByLabel;
    private final long[] lookup;
    private final List<Map<String, Object>> vertexSchema;
    private final List<Map<String, Object>> edgeSchema;
    private final Map<String, Object[]> vertexValues;
    private final Map<String, Object[]> edgeValues;

    private ValuePool(Collector c) {
        this.info = c.info;
        this.vertexLabels = c.vertexLabels;
        this.edgeLabels = c.edgeLabels;
        this.verticesByLabel = new int[c.byLabel.size()][];
        for (int l = 0; l < verticesByLabel.length; l++) {
            verticesByLabel[l] = c.byLabel.get(l).toArray();
        }
        this.lookup = c.lookup;
        this.vertexSchema = freeze(c.vertexSchema);
        this.edgeSchema = freeze(c.edgeSchema);
        this.vertexValues = c.vertexValues.finish();
        this.edgeValues = c.edgeValues.finish();
    }

    /** Generates {@code dataset} once and keeps what the sampler needs; the reservoirs draw from {@code seed}. */
    public static ValuePool collect(Dataset dataset, long seed) {
        Collector c = new Collector(dataset.info(), seed);
        dataset.generate(c);
        if (c.verticesSeen != c.vertexLabels.length || c.edgesSeen != c.edgeLabels.length) {
            throw new IllegalStateException("dataset=" + dataset.info().name() + " emitted vertices=" + c.verticesSeen
                    + " edges=" + c.edgesSeen + " but its info says vertices=" + c.vertexLabels.length + " edges="
                    + c.edgeLabels.length);
        }
        return new ValuePool(c);
    }

    public DatasetInfo info() {
        return info;
    }

    /** The label of dataset vertex {@code id}. */
    public String vertexLabel(long id) {
        return info.vertexLabels().get(vertexLabels[Math.toIntExact(id)]);
    }

    /** The label of dataset edge {@code id}. */
    public String edgeLabel(long id) {
        return info.edgeLabels().get(edgeLabels[Math.toIntExact(id)]);
    }

    /** The lookup-key value dataset vertex {@code id} was generated with, or null if it had none. */
    public Long lookupValue(long id) {
        long v = lookup[Math.toIntExact(id)];
        return v == NO_LOOKUP ? null : v;
    }

    /** The keys vertices labelled {@code label} carry, each with an example value. */
    public Map<String, Object> vertexSchema(String label) {
        return vertexSchema.get(info.vertexLabels().indexOf(label));
    }

    /** The keys edges labelled {@code label} carry, each with an example value. */
    public Map<String, Object> edgeSchema(String label) {
        return edgeSchema.get(info.edgeLabels().indexOf(label));
    }

    /** The sampled values of vertex key {@code key} (empty if none occur). */
    public List<Object> vertexValues(String key) {
        return Arrays.asList(vertexValues.getOrDefault(key, new Object[0]));
    }

    /** The sampled values of edge key {@code key} (empty if none occur). */
    public List<Object> edgeValues(String key) {
        return Arrays.asList(edgeValues.getOrDefault(key, new Object[0]));
    }

    /** How many vertices carry {@code label}. */
    public int vertexCount(String label) {
        int l = info.vertexLabels().indexOf(label);
        return l < 0 ? 0 : verticesByLabel[l].length;
    }

    // ---- for the sampler ----------------------------------------------------------------------

    int vertexLabelIndex(long id) {
        return vertexLabels[(int) id];
    }

    int edgeLabelIndex(long id) {
        return edgeLabels[(int) id];
    }

    Map<String, Object> vertexSchema(int labelIndex) {
        return vertexSchema.get(labelIndex);
    }

    Map<String, Object> edgeSchema(int labelIndex) {
        return edgeSchema.get(labelIndex);
    }

    Object[] vertexValuesArray(String key) {
        return vertexValues.get(key);
    }

    Object[] edgeValuesArray(String key) {
        return edgeValues.get(key);
    }

    /** A uniform vertex among those labelled with one of {@code labels}; any vertex if none has such a label. */
    long vertexOf(SplitMix64 r, List<String> labels) {
        long total = 0;
        for (String label : labels) {
            total += vertexCount(label);
        }
        if (total == 0) {
            return r.nextLong(vertexLabels.length);
        }
        long n = r.nextLong(total);
        for (String label : labels) {
            int count = vertexCount(label);
            if (n < count) {
                return verticesByLabel[info.vertexLabels().indexOf(label)][(int) n];
            }
            n -= count;
        }
        throw new AssertionError("n=" + n);
    }

    private static List<Map<String, Object>> freeze(List<Map<String, Object>> schemas) {
        List<Map<String, Object>> frozen = new ArrayList<>(schemas.size());
        for (Map<String, Object> s : schemas) {
            frozen.add(Collections.unmodifiableMap(new LinkedHashMap<>(s)));
        }
        return List.copyOf(frozen);
    }

    /** The one pass over the stream. */
    private static final class Collector implements GraphSink {
        final DatasetInfo info;
        final byte[] vertexLabels;
        final byte[] edgeLabels;
        final long[] lookup;
        final List<IntList> byLabel = new ArrayList<>();
        final List<Map<String, Object>> vertexSchema = new ArrayList<>();
        final List<Map<String, Object>> edgeSchema = new ArrayList<>();
        final Reservoirs vertexValues;
        final Reservoirs edgeValues;
        final Map<String, Integer> vertexLabelIndex = new HashMap<>();
        final Map<String, Integer> edgeLabelIndex = new HashMap<>();
        long verticesSeen;
        long edgesSeen;

        Collector(DatasetInfo info, long seed) {
            this.info = info;
            if (info.vertices() >= Integer.MAX_VALUE || info.edges() >= Integer.MAX_VALUE
                    || info.vertexLabels().size() > Byte.MAX_VALUE || info.edgeLabels().size() > Byte.MAX_VALUE) {
                throw new IllegalArgumentException("dataset=" + info.name() + " is too large for a ValuePool: vertices="
                        + info.vertices() + " edges=" + info.edges());
            }
            this.vertexLabels = new byte[(int) info.vertices()];
            this.edgeLabels = new byte[(int) info.edges()];
            this.lookup = new long[(int) info.vertices()];
            Arrays.fill(lookup, NO_LOOKUP);
            for (int l = 0; l < info.vertexLabels().size(); l++) {
                vertexLabelIndex.put(info.vertexLabels().get(l), l);
                byLabel.add(new IntList());
                vertexSchema.add(new LinkedHashMap<>());
            }
            for (int l = 0; l < info.edgeLabels().size(); l++) {
                edgeLabelIndex.put(info.edgeLabels().get(l), l);
                edgeSchema.add(new LinkedHashMap<>());
            }
            this.vertexValues = new Reservoirs(SplitMix64.of(seed, 1));
            this.edgeValues = new Reservoirs(SplitMix64.of(seed, 2));
        }

        @Override
        public void vertex(long id, String label, Map<String, Object> properties) {
            int l = index(vertexLabelIndex, label, "vertex", id);
            checkId(id, vertexLabels.length, "vertex");
            vertexLabels[(int) id] = (byte) l;
            byLabel.get(l).add((int) id);
            Object lookupValue = properties.get(info.lookupKey());
            if (lookupValue != null) {
                if (!(lookupValue instanceof Long value) || value == NO_LOOKUP) {
                    throw new IllegalStateException("vertex=" + id + " has " + info.lookupKey() + "=" + lookupValue
                            + "; lookup values must be longs");
                }
                lookup[(int) id] = value;
            }
            properties.forEach((k, v) -> {
                vertexSchema.get(l).putIfAbsent(k, v);
                vertexValues.offer(k, v);
            });
            verticesSeen++;
        }

        @Override
        public void edge(long id, long outId, long inId, String label, Map<String, Object> properties) {
            int l = index(edgeLabelIndex, label, "edge", id);
            checkId(id, edgeLabels.length, "edge");
            edgeLabels[(int) id] = (byte) l;
            properties.forEach((k, v) -> {
                edgeSchema.get(l).putIfAbsent(k, v);
                edgeValues.offer(k, v);
            });
            edgesSeen++;
        }

        private int index(Map<String, Integer> labels, String label, String kind, long id) {
            Integer l = labels.get(label);
            if (l == null) {
                throw new IllegalStateException(kind + "=" + id + " has label=" + label + " that the dataset info lacks");
            }
            return l;
        }

        private static void checkId(long id, int count, String kind) {
            if (id < 0 || id >= count) {
                throw new IllegalStateException(kind + "=" + id + " is outside 0.." + (count - 1));
            }
        }
    }

    /** Algorithm R per key. */
    private static final class Reservoirs {
        private final SplitMix64 random;
        private final Map<String, Object[]> values = new LinkedHashMap<>();
        private final Map<String, long[]> seen = new HashMap<>();

        Reservoirs(SplitMix64 random) {
            this.random = random;
        }

        void offer(String key, Object value) {
            Object[] slots = values.computeIfAbsent(key, k -> new Object[RESERVOIR]);
            long[] count = seen.computeIfAbsent(key, k -> new long[1]);
            long n = count[0]++;
            if (n < RESERVOIR) {
                slots[(int) n] = value;
            } else {
                long j = random.nextLong(n + 1);
                if (j < RESERVOIR) {
                    slots[(int) j] = value;
                }
            }
        }

        Map<String, Object[]> finish() {
            Map<String, Object[]> done = new HashMap<>();
            values.forEach((k, v) -> done.put(k, Arrays.copyOf(v, (int) Math.min(RESERVOIR, seen.get(k)[0]))));
            return Map.copyOf(done);
        }
    }

    /** A growable int array. */
    private static final class IntList {
        private int[] values = new int[16];
        private int size;

        void add(int value) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = value;
        }

        int[] toArray() {
            return Arrays.copyOf(values, size);
        }
    }
}
