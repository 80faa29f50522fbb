package io.gtran.storage;

import java.util.Map;
import java.util.Set;
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
    /**
     * 16 MiB less 64 KiB: a value this long, with the operation that carries it, fits in one message
     * between cluster members (the fabric carries at most 16 MiB), so a value one member takes every
     * member can write and read. A node alone may set more; a cluster member may not.
     */
    public static final int VALUE_MAX_BYTES_DEFAULT = (16 << 20) - (64 << 10);
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

    private StoreConfig(Map<String, ?> raw) {
        Settings settings = Settings.of(raw, "gtran.storage.", KNOWN_HERE_OR_ELSEWHERE);
        nodeId = settings.integer(NODE_ID, NODE_ID_DEFAULT, 0, ElementIds.MAX_NODE);
        verticesMax = settings.integer(VERTICES_MAX, VERTICES_MAX_DEFAULT, 1, Integer.MAX_VALUE);
        edgesMax = settings.integer(EDGES_MAX, EDGES_MAX_DEFAULT, 1, Integer.MAX_VALUE);
        edgeRowsMax = settings.integer(EDGE_ROWS_MAX, EDGE_ROWS_MAX_DEFAULT, 1, Integer.MAX_VALUE);
        propertyRowsMax = settings.integer(PROPERTY_ROWS_MAX, PROPERTY_ROWS_MAX_DEFAULT, 1, Integer.MAX_VALUE);
        mvTuplesMax = settings.integer(MV_TUPLES_MAX, MV_TUPLES_MAX_DEFAULT, 1, MvTupleDescriptor.MAX_SLOT + 1);
        edgeRowCells = settings.integer(EDGE_ROW_CELLS, EDGE_ROW_CELLS_DEFAULT, 2, MAX_ROW_CELLS);
        vertexPropertyRowCells = settings.integer(VERTEX_PROPERTY_ROW_CELLS, VERTEX_PROPERTY_ROW_CELLS_DEFAULT, 2, MAX_ROW_CELLS);
        edgePropertyRowCells = settings.integer(EDGE_PROPERTY_ROW_CELLS, EDGE_PROPERTY_ROW_CELLS_DEFAULT, 2, MAX_ROW_CELLS);
        valueMaxBytes = settings.integer(VALUE_MAX_BYTES, VALUE_MAX_BYTES_DEFAULT, 0, Integer.MAX_VALUE - 64);
        valuesMaxBytes = settings.longValue(VALUES_MAX_BYTES, VALUES_MAX_BYTES_DEFAULT, 1, Long.MAX_VALUE);
        chunkBytes = settings.integer(CHUNK_BYTES, CHUNK_BYTES_DEFAULT, 4096, 1 << 30);
        edgeRowChunkBytes = settings.integer(EDGE_ROW_CHUNK_BYTES, EDGE_ROW_CHUNK_BYTES_DEFAULT, 4096, 1 << 30);
        lockStripes = settings.integer(LOCK_STRIPES, LOCK_STRIPES_DEFAULT, 1, 1 << 20);
        if (Integer.bitCount(lockStripes) != 1) {
            throw new IllegalArgumentException("configuration " + LOCK_STRIPES + " must be a power of two: " + lockStripes);
        }
        externalIdsMax = settings.integer(EXTERNAL_IDS_MAX, EXTERNAL_IDS_MAX_DEFAULT, 1, Integer.MAX_VALUE);
        labelsMax = settings.integer(LABELS_MAX, LABELS_MAX_DEFAULT, 1, EdgeCellDescriptor.MAX_LABEL + 1);
        propertyKeysMax = settings.integer(PROPERTY_KEYS_MAX, PROPERTY_KEYS_MAX_DEFAULT, 1, Integer.MAX_VALUE);
        effective = settings.effective();
    }

    private static final Map<String, Object> KNOWN = new TreeMap<>();
    /** Keys under gtran.storage. that another layer reads: the data directory (gtran-txn's Durability). */
    private static final Set<String> READ_ELSEWHERE = Set.of("gtran.storage.directory");
    private static final Set<String> KNOWN_HERE_OR_ELSEWHERE = new java.util.HashSet<>();

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
        KNOWN_HERE_OR_ELSEWHERE.addAll(KNOWN.keySet());
        KNOWN_HERE_OR_ELSEWHERE.addAll(READ_ELSEWHERE);
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

    @Override
    public String toString() {
        return "StoreConfig" + effective;
    }
}
