package io.gtran.storage;

import java.math.BigDecimal;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Configuration of one node's store. Every key is a {@code gtran.storage.*} constant with its
 * default beside it; values are validated when the config is built and an error names the key and
 * the bad value. Pools reserve memory lazily, chunk by chunk, so the maxima are caps, not
 * up-front allocations.
 */
public final class StoreConfig {
    public static final String NODE_ID = "gtran.storage.node-id";
    public static final int NODE_ID_DEFAULT = 0;
    public static final String VERTICES_MAX = "gtran.storage.vertices.max";
    public static final int VERTICES_MAX_DEFAULT = 1 << 30;
    public static final String EDGES_MAX = "gtran.storage.edges.max";
    public static final int EDGES_MAX_DEFAULT = 1 << 30;
    public static final String EDGE_ROWS_MAX = "gtran.storage.edge-rows.max";
    public static final int EDGE_ROWS_MAX_DEFAULT = 1 << 30;
    public static final String PROPERTY_ROWS_MAX = "gtran.storage.property-rows.max";
    public static final int PROPERTY_ROWS_MAX_DEFAULT = 1 << 30;
    public static final String MV_TUPLES_MAX = "gtran.storage.mv-tuples.max";
    /** Caps the full MV-tuple pool and the base-version pool each; at most 2^30 (version handles keep a flag bit). */
    public static final int MV_TUPLES_MAX_DEFAULT = MvTupleDescriptor.MAX_SLOT + 1;
    public static final String EDGE_ROW_CELLS = "gtran.storage.edge-row.cells";
    public static final int EDGE_ROW_CELLS_DEFAULT = 8;
    public static final String VERTEX_PROPERTY_ROW_CELLS = "gtran.storage.vertex-property-row.cells";
    public static final int VERTEX_PROPERTY_ROW_CELLS_DEFAULT = 4;
    public static final String EDGE_PROPERTY_ROW_CELLS = "gtran.storage.edge-property-row.cells";
    public static final int EDGE_PROPERTY_ROW_CELLS_DEFAULT = 2;
    public static final String VALUE_MAX_BYTES = "gtran.storage.value.max-bytes";
    public static final int VALUE_MAX_BYTES_DEFAULT = 16 << 20;
    /** Caps each size class of the value region (and the large values together), not the region's total. */
    public static final String VALUES_MAX_BYTES = "gtran.storage.values.max-bytes";
    public static final long VALUES_MAX_BYTES_DEFAULT = 64L << 30;
    public static final String CHUNK_BYTES = "gtran.storage.chunk-bytes";
    public static final int CHUNK_BYTES_DEFAULT = 64 << 10;
    /**
     * Chunk size of the edge-row pool alone. Larger than the other pools' by default: a compacted
     * adjacency scan reads rows front to back and pays at every chunk boundary (a run of rows
     * ends, the next chunk lies elsewhere), about 20 % of its speed at 64 KiB chunks.
     */
    public static final String EDGE_ROW_CHUNK_BYTES = "gtran.storage.edge-row.chunk-bytes";
    public static final int EDGE_ROW_CHUNK_BYTES_DEFAULT = 1 << 20;
    public static final String LOCK_STRIPES = "gtran.storage.lock-stripes";
    public static final int LOCK_STRIPES_DEFAULT = 4096;
    public static final String EXTERNAL_IDS_MAX = "gtran.storage.external-ids.max";
    public static final int EXTERNAL_IDS_MAX_DEFAULT = 1_000_000;
    public static final String LABELS_MAX = "gtran.storage.labels.max";
    public static final int LABELS_MAX_DEFAULT = 1 << 20;
    public static final String PROPERTY_KEYS_MAX = "gtran.storage.property-keys.max";
    public static final int PROPERTY_KEYS_MAX_DEFAULT = 1 << 20;

    private static final int MAX_ROW_CELLS = 1024;

    final int nodeId;
    final int verticesMax;
    final int edgesMax;
    final int edgeRowsMax;
    final int propertyRowsMax;
    final int mvTuplesMax;
    final int edgeRowCells;
    final int vertexPropertyRowCells;
    final int edgePropertyRowCells;
    final int valueMaxBytes;
    final long valuesMaxBytes;
    final int chunkBytes;
    final int edgeRowChunkBytes;
    final int lockStripes;
    final int externalIdsMax;
    final int labelsMax;
    final int propertyKeysMax;
    private final Map<String, Object> effective;

    private StoreConfig(Map<String, ?> settings) {
        for (String key : settings.keySet()) {
            if (key.startsWith("gtran.storage.") && !KNOWN.containsKey(key)) {
                throw new IllegalArgumentException("unknown configuration key: " + key + "; known keys: " + KNOWN.keySet());
            }
        }
        Map<String, Object> values = new LinkedHashMap<>();
        nodeId = intValue(settings, NODE_ID, NODE_ID_DEFAULT, 0, ElementIds.MAX_NODE, values);
        verticesMax = intValue(settings, VERTICES_MAX, VERTICES_MAX_DEFAULT, 1, Integer.MAX_VALUE, values);
        edgesMax = intValue(settings, EDGES_MAX, EDGES_MAX_DEFAULT, 1, Integer.MAX_VALUE, values);
        edgeRowsMax = intValue(settings, EDGE_ROWS_MAX, EDGE_ROWS_MAX_DEFAULT, 1, Integer.MAX_VALUE, values);
        propertyRowsMax = intValue(settings, PROPERTY_ROWS_MAX, PROPERTY_ROWS_MAX_DEFAULT, 1, Integer.MAX_VALUE, values);
        mvTuplesMax = intValue(settings, MV_TUPLES_MAX, MV_TUPLES_MAX_DEFAULT, 1, MvTupleDescriptor.MAX_SLOT + 1, values);
        edgeRowCells = intValue(settings, EDGE_ROW_CELLS, EDGE_ROW_CELLS_DEFAULT, 2, MAX_ROW_CELLS, values);
        vertexPropertyRowCells = intValue(settings, VERTEX_PROPERTY_ROW_CELLS, VERTEX_PROPERTY_ROW_CELLS_DEFAULT, 2, MAX_ROW_CELLS, values);
        edgePropertyRowCells = intValue(settings, EDGE_PROPERTY_ROW_CELLS, EDGE_PROPERTY_ROW_CELLS_DEFAULT, 2, MAX_ROW_CELLS, values);
        valueMaxBytes = intValue(settings, VALUE_MAX_BYTES, VALUE_MAX_BYTES_DEFAULT, 0, Integer.MAX_VALUE - 64, values);
        valuesMaxBytes = longValue(settings, VALUES_MAX_BYTES, VALUES_MAX_BYTES_DEFAULT, 1, Long.MAX_VALUE, values);
        chunkBytes = intValue(settings, CHUNK_BYTES, CHUNK_BYTES_DEFAULT, 4096, 1 << 30, values);
        edgeRowChunkBytes = intValue(settings, EDGE_ROW_CHUNK_BYTES, EDGE_ROW_CHUNK_BYTES_DEFAULT, 4096, 1 << 30, values);
        lockStripes = intValue(settings, LOCK_STRIPES, LOCK_STRIPES_DEFAULT, 1, 1 << 20, values);
        if (Integer.bitCount(lockStripes) != 1) {
            throw new IllegalArgumentException("configuration " + LOCK_STRIPES + " must be a power of two: " + lockStripes);
        }
        externalIdsMax = intValue(settings, EXTERNAL_IDS_MAX, EXTERNAL_IDS_MAX_DEFAULT, 1, Integer.MAX_VALUE, values);
        labelsMax = intValue(settings, LABELS_MAX, LABELS_MAX_DEFAULT, 1, EdgeCellDescriptor.MAX_LABEL + 1, values);
        propertyKeysMax = intValue(settings, PROPERTY_KEYS_MAX, PROPERTY_KEYS_MAX_DEFAULT, 1, Integer.MAX_VALUE, values);
        effective = Collections.unmodifiableMap(values);
    }

    private static final Map<String, Object> KNOWN = new TreeMap<>();

    static {
        for (java.lang.reflect.Field f : StoreConfig.class.getFields()) {
            if (f.getType() == String.class) {
                try {
                    KNOWN.put((String) f.get(null), f.getName());
                } catch (IllegalAccessException e) {
                    throw new ExceptionInInitializerError(e);
                }
            }
        }
    }

    /** Every default. */
    public static StoreConfig defaults() {
        return new StoreConfig(Map.of());
    }

    /**
     * Reads {@code gtran.storage.*} keys from {@code settings}; other keys are ignored, so a whole
     * node configuration can be passed. Values may be numbers or numeric strings.
     *
     * @throws IllegalArgumentException naming the key and value that is malformed or out of range
     */
    public static StoreConfig from(Map<String, ?> settings) {
        return new StoreConfig(settings);
    }

    public int nodeId() {
        return nodeId;
    }

    public int valueMaxBytes() {
        return valueMaxBytes;
    }

    /** Every key with the value in force, defaults included. */
    public Map<String, Object> effective() {
        return effective;
    }

    /** Slots per chunk for a pool of {@code slotSize}-byte slots: the largest power of two fitting a chunk. */
    int slotsPerChunk(int slotSize) {
        return slotsPerChunk(chunkBytes, slotSize);
    }

    /** As {@link #slotsPerChunk(int)} for the edge-row pool, whose rows (and their side parts) are {@code rowBytes} long. */
    int edgeRowsPerChunk(int rowBytes) {
        return slotsPerChunk(edgeRowChunkBytes, rowBytes);
    }

    private static int slotsPerChunk(int chunkBytes, int slotSize) {
        return Integer.highestOneBit(Math.max(1, chunkBytes / slotSize));
    }

    private static int intValue(Map<String, ?> settings, String key, int def, int min, int max, Map<String, Object> out) {
        long v = longValue(settings, key, def, min, max, out);
        out.put(key, (int) v);
        return (int) v;
    }

    private static long longValue(Map<String, ?> settings, String key, long def, long min, long max, Map<String, Object> out) {
        Object raw = settings.get(key);
        long v;
        if (raw == null) {
            v = def;
        } else if (raw instanceof Long || raw instanceof Integer || raw instanceof Short || raw instanceof Byte) {
            v = ((Number) raw).longValue();
        } else if (raw instanceof Number n && !(raw instanceof Double) && !(raw instanceof Float)) {
            v = exactLong(key, n, min, max);
        } else if (raw instanceof String s) {
            try {
                v = Long.parseLong(s.trim().replace("_", ""));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("configuration " + key + " must be an integer: " + raw);
            }
        } else {
            throw new IllegalArgumentException("configuration " + key + " must be an integer: " + raw + " (" + raw.getClass().getSimpleName() + ")");
        }
        if (v < min || v > max) {
            throw new IllegalArgumentException("configuration " + key + " out of range [" + min + ", " + max + "]: " + v);
        }
        out.put(key, v);
        return v;
    }

    /**
     * Other integral {@link Number}s (BigInteger, BigDecimal, AtomicLong...): only an exact integer
     * in range, since {@link Number#longValue()} would silently drop a fraction or high bits.
     */
    private static long exactLong(String key, Number n, long min, long max) {
        BigDecimal d;
        try {
            d = new BigDecimal(n.toString());
        } catch (NumberFormatException e) {
            d = null;
        }
        if (d == null || (d.signum() != 0 && d.stripTrailingZeros().scale() > 0)) {
            throw new IllegalArgumentException("configuration " + key + " must be an integer: " + n + " (" + n.getClass().getSimpleName() + ")");
        }
        if (d.compareTo(BigDecimal.valueOf(min)) < 0 || d.compareTo(BigDecimal.valueOf(max)) > 0) {
            throw new IllegalArgumentException("configuration " + key + " out of range [" + min + ", " + max + "]: " + n);
        }
        return d.longValueExact();
    }

    @Override
    public String toString() {
        return "StoreConfig" + effective;
    }
}
