package io.gtran.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Validation of gtran.storage.* settings: every bad value is refused with an error naming its key. */
class StoreConfigTest {

    private static IllegalArgumentException bad(String key, Object value) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(key, value);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StoreConfig.from(settings),
                key + "=" + value + " should be refused");
        assertTrue(e.getMessage().contains(key), "message should name " + key + ": " + e.getMessage());
        return e;
    }

    @Test
    void defaultsCoverEveryKey() throws Exception {
        StoreConfig config = StoreConfig.defaults();
        Map<String, Object> effective = config.effective();
        int keys = 0;
        for (Field f : StoreConfig.class.getFields()) {
            if (f.getType() == String.class && Modifier.isStatic(f.getModifiers())) {
                String key = (String) f.get(null);
                assertTrue(key.startsWith("gtran.storage."), key);
                Object def = StoreConfig.class.getField(f.getName() + "_DEFAULT").get(null);
                assertEquals(((Number) def).longValue(), ((Number) effective.get(key)).longValue(), key);
                keys++;
            }
        }
        assertEquals(keys, effective.size());
        assertEquals(0, config.nodeId());
        assertEquals(StoreConfig.VALUE_MAX_BYTES_DEFAULT, config.valueMaxBytes());
        assertThrows(UnsupportedOperationException.class, () -> effective.put(StoreConfig.NODE_ID, 1));
        assertTrue(config.toString().contains(StoreConfig.LOCK_STRIPES + "=" + StoreConfig.LOCK_STRIPES_DEFAULT), config.toString());
        // The effective settings read back as the same configuration.
        assertEquals(effective, StoreConfig.from(effective).effective());
    }

    @Test
    void acceptsNumbersAndNumericStrings() {
        Map<String, Object> settings = new HashMap<>();
        settings.put(StoreConfig.NODE_ID, " 12 ");
        settings.put(StoreConfig.VERTICES_MAX, "1_000_000");
        settings.put(StoreConfig.EDGES_MAX, 5L);
        settings.put(StoreConfig.EDGE_ROW_CELLS, (short) 12);
        settings.put(StoreConfig.VERTEX_PROPERTY_ROW_CELLS, (byte) 2);
        settings.put(StoreConfig.EDGE_PROPERTY_ROW_CELLS, BigInteger.valueOf(3));
        settings.put(StoreConfig.MV_TUPLES_MAX, new AtomicInteger(99));
        settings.put(StoreConfig.VALUES_MAX_BYTES, "1099511627776");
        settings.put(StoreConfig.LOCK_STRIPES, 1);
        settings.put(StoreConfig.CHUNK_BYTES, new BigDecimal("8192"));
        settings.put("some.other.component.key", "not a number");
        settings.put("gtran.storageish", "ignored too");
        StoreConfig config = StoreConfig.from(settings);
        Map<String, Object> effective = config.effective();
        assertEquals(12, config.nodeId());
        assertEquals(12, config.nodeId);
        assertEquals(1_000_000, config.verticesMax);
        assertEquals(5, config.edgesMax);
        assertEquals(12, config.edgeRowCells);
        assertEquals(2, config.vertexPropertyRowCells);
        assertEquals(3, config.edgePropertyRowCells);
        assertEquals(99, config.mvTuplesMax);
        assertEquals(1L << 40, config.valuesMaxBytes);
        assertEquals(1, config.lockStripes);
        assertEquals(8192, config.chunkBytes);
        assertEquals(1_000_000, effective.get(StoreConfig.VERTICES_MAX));
        assertTrue(!effective.containsKey("some.other.component.key"));
        // Chunk geometry follows the chunk size.
        assertEquals(128, config.slotsPerChunk(VertexHeaderDescriptor.LENGTH));
        assertEquals(1, config.slotsPerChunk(1 << 20));
    }

    @Test
    void rejectsNonNumericValues() {
        for (Object value : new Object[] {"abc", "", "  ", "1.5", "0x10", "12abc", "99999999999999999999"}) {
            IllegalArgumentException e = bad(StoreConfig.VERTICES_MAX, value);
            assertTrue(e.getMessage().contains("must be an integer") && e.getMessage().contains(String.valueOf(value)), e.getMessage());
        }
        for (Object value : new Object[] {1.0, 2.5f, true, new Object(), 'x'}) {
            IllegalArgumentException e = bad(StoreConfig.EDGES_MAX, value);
            assertTrue(e.getMessage().contains("must be an integer"), e.getMessage());
        }
    }

    @Test
    void rejectsInexactOrHugeNumbersInsteadOfTruncatingThem() {
        IllegalArgumentException fraction = bad(StoreConfig.EDGE_ROW_CELLS, new BigDecimal("8.5"));
        assertTrue(fraction.getMessage().contains("8.5"), fraction.getMessage());
        // 2^64 + 8 would silently become 8 through longValue().
        IllegalArgumentException huge = bad(StoreConfig.EDGE_ROW_CELLS, BigInteger.ONE.shiftLeft(64).add(BigInteger.valueOf(8)));
        assertTrue(huge.getMessage().contains("out of range"), huge.getMessage());
        bad(StoreConfig.VALUES_MAX_BYTES, BigInteger.ONE.shiftLeft(63));
        assertEquals(8, StoreConfig.from(Map.of(StoreConfig.EDGE_ROW_CELLS, new BigDecimal("8.00"))).edgeRowCells);
    }

    @Test
    void rejectsOutOfRangeValuesNamingTheRange() {
        Object[][] cases = {
            {StoreConfig.NODE_ID, -1}, {StoreConfig.NODE_ID, ElementIds.MAX_NODE + 1},
            {StoreConfig.VERTICES_MAX, 0}, {StoreConfig.VERTICES_MAX, 1L << 31},
            {StoreConfig.EDGES_MAX, -5}, {StoreConfig.EDGE_ROWS_MAX, 0}, {StoreConfig.PROPERTY_ROWS_MAX, 0},
            {StoreConfig.MV_TUPLES_MAX, 0},
            {StoreConfig.EDGE_ROW_CELLS, 1}, {StoreConfig.EDGE_ROW_CELLS, 1025},
            {StoreConfig.VERTEX_PROPERTY_ROW_CELLS, 0}, {StoreConfig.EDGE_PROPERTY_ROW_CELLS, "1"},
            {StoreConfig.VALUE_MAX_BYTES, -1}, {StoreConfig.VALUE_MAX_BYTES, Integer.MAX_VALUE},
            {StoreConfig.VALUES_MAX_BYTES, 0}, {StoreConfig.CHUNK_BYTES, 4095}, {StoreConfig.CHUNK_BYTES, (1 << 30) + 1},
            {StoreConfig.EDGE_ROW_CHUNK_BYTES, 4095}, {StoreConfig.EDGE_ROW_CHUNK_BYTES, (1 << 30) + 1},
            {StoreConfig.LOCK_STRIPES, 0}, {StoreConfig.LOCK_STRIPES, 1 << 21},
            {StoreConfig.EXTERNAL_IDS_MAX, 0}, {StoreConfig.LABELS_MAX, 0},
            {StoreConfig.LABELS_MAX, EdgeCellDescriptor.MAX_LABEL + 2}, {StoreConfig.PROPERTY_KEYS_MAX, -1},
        };
        for (Object[] c : cases) {
            IllegalArgumentException e = bad((String) c[0], c[1]);
            assertTrue(e.getMessage().contains("out of range") && e.getMessage().contains(String.valueOf(c[1]).trim()), e.getMessage());
        }
        // The bounds themselves are fine.
        StoreConfig edges = StoreConfig.from(Map.of(StoreConfig.NODE_ID, ElementIds.MAX_NODE, StoreConfig.EDGE_ROW_CELLS, 1024,
                StoreConfig.VALUE_MAX_BYTES, 0, StoreConfig.CHUNK_BYTES, 4096, StoreConfig.LABELS_MAX, EdgeCellDescriptor.MAX_LABEL + 1));
        assertEquals(ElementIds.MAX_NODE, edges.nodeId());
        assertEquals(0, edges.valueMaxBytes());
    }

    @Test
    void rejectsUnknownStorageKeys() {
        for (String key : new String[] {"gtran.storage.vertex.max", "gtran.storage.", "gtran.storage.NODE-ID", "gtran.storage.node-id "}) {
            IllegalArgumentException e = bad(key, 1);
            assertTrue(e.getMessage().contains("unknown configuration key"), e.getMessage());
            assertTrue(e.getMessage().contains(StoreConfig.VERTICES_MAX), "lists the known keys: " + e.getMessage());
        }
    }

    @Test
    void lockStripesMustBeAPowerOfTwo() {
        for (Object stripes : new Object[] {3, 6, 1000, "12", (1 << 20) - 1}) {
            IllegalArgumentException e = bad(StoreConfig.LOCK_STRIPES, stripes);
            assertTrue(e.getMessage().contains("power of two") && e.getMessage().contains(String.valueOf(stripes)), e.getMessage());
        }
        for (int stripes : new int[] {1, 2, 64, 1 << 20}) {
            assertEquals(stripes, StoreConfig.from(Map.of(StoreConfig.LOCK_STRIPES, stripes)).lockStripes);
        }
    }

    @Test
    void storesOpenWithValidatedConfigs() {
        try (GraphStore store = GraphStore.open(StoreConfig.from(Map.of(StoreConfig.NODE_ID, "9", StoreConfig.EDGE_ROW_CELLS, "3")))) {
            assertEquals(9, store.nodeId());
            assertEquals(9, store.config().nodeId());
            int label = store.labels().intern("v");
            long v = store.addVertex(label, 1, 2);
            for (int i = 0; i < 7; i++) {
                store.addEdge(v, store.addVertex(label, 1, 2), label, 1, 2);
            }
            assertEquals(3, store.edgeRowCount(v), "rows of three cells");
            Map<String, Long> reserved = store.reservedBytes();
            long sum = 0;
            for (Map.Entry<String, Long> e : reserved.entrySet()) {
                if (!e.getKey().equals("total")) {
                    assertTrue(e.getValue() >= 0, e.getKey());
                    sum += e.getValue();
                }
            }
            assertEquals(sum, reserved.get("total"));
            assertTrue(reserved.get("vertex-header") > 0 && reserved.get("edge-row") > 0);
            assertEquals(0L, reserved.get("external-ids"), "no external-id map until one is used");
        }
    }
}
