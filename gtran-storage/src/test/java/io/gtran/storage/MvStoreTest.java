package io.gtran.storage;

import static io.gtran.storage.MvTupleDescriptor.NO_TUPLE;
import static io.gtran.storage.StoreTestSupport.config;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The MV-KVS: value round trips for every type (and strings that cannot round-trip refused),
 * version chains, freeing, CAS on times, value limits.
 */
class MvStoreTest {
    private final GraphStore store = GraphStore.open(config(StoreConfig.VALUE_MAX_BYTES, 1 << 20));
    private final MvStore mv = store.mvStore();

    @AfterEach
    void close() {
        store.close();
    }

    private Object roundTrip(Object value) {
        int tuple = mv.createVersion(value, 1, 2, NO_TUPLE);
        Object back = mv.value(tuple);
        assertEquals(ValueType.of(value), mv.type(tuple));
        mv.freeVersion(tuple);
        return back;
    }

    @Test
    void scalarsRoundTripWithTheirType() {
        Object[] values = {
            true, false,
            (byte) 0, Byte.MIN_VALUE, Byte.MAX_VALUE, (byte) -1,
            (short) 0, Short.MIN_VALUE, Short.MAX_VALUE,
            'a', Character.MIN_VALUE, Character.MAX_VALUE, '\u00e9',
            0, -1, Integer.MIN_VALUE, Integer.MAX_VALUE,
            0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE,
            0f, -0f, Float.NaN, Float.MIN_VALUE, Float.MAX_VALUE, Float.NEGATIVE_INFINITY, 3.25f,
            0d, -0d, Double.NaN, Double.MIN_VALUE, -Double.MAX_VALUE, Double.POSITIVE_INFINITY, Math.PI,
        };
        for (Object value : values) {
            Object back = roundTrip(value);
            assertEquals(value.getClass(), back.getClass(), "type of " + value);
            // equals() on boxed Float/Double tells -0.0 from 0.0 and NaN equals NaN.
            assertEquals(value, back, "value " + value + " (" + value.getClass().getSimpleName() + ")");
        }
        assertEquals(Double.doubleToRawLongBits(-0d), Double.doubleToRawLongBits((Double) roundTrip(-0d)));
        double payloadNaN = Double.longBitsToDouble(0x7ff8_0000_0000_0123L);
        assertEquals(0x7ff8_0000_0000_0123L, Double.doubleToRawLongBits((Double) roundTrip(payloadNaN)), "NaN payload kept");
        assertEquals(0, mv.liveVersions());
        assertEquals(0, mv.liveValues(), "scalars live inline");
    }

    @Test
    void inlineWordsHoldScalarsWithoutBoxing() {
        int tuple = mv.createVersion(-5, 1, 2, NO_TUPLE);
        assertEquals(-5L, mv.inlineWord(tuple));
        int d = mv.createVersion(1.5d, 1, 2, NO_TUPLE);
        assertEquals(Double.doubleToRawLongBits(1.5d), mv.inlineWord(d));
        assertTrue(ValueType.INT.inline() && ValueType.DOUBLE.inline() && ValueType.BOOLEAN.inline());
        assertFalse(ValueType.STRING.inline() || ValueType.BYTES.inline() || ValueType.SERIALIZED.inline());
    }

    @Test
    void stringsAndBytesRoundTrip() {
        StringBuilder big = new StringBuilder();
        for (int i = 0; i < 3000; i++) {
            big.append((char) ('a' + i % 26)).append('\u03bb');
        }
        String[] strings = {"", "a", "hello world", "h\u00e9llo w\u00f6rld", "\u65e5\u672c\u8a9e", "emoji \ud83d\ude00!", "\u0000nul\u0000",
            "x".repeat(11), "y".repeat(12), "z".repeat(13), big.toString()};
        for (String s : strings) {
            Object back = roundTrip(s);
            assertEquals(s, back);
            assertEquals(String.class, back.getClass());
        }
        Random random = new Random(5);
        for (int length : new int[] {0, 1, 12, 13, 20, 21, 100, 1000, 65_532, 65_533, 70_000}) {
            byte[] bytes = new byte[length];
            random.nextBytes(bytes);
            byte[] expected = bytes.clone();
            int tuple = mv.createVersion(bytes, 1, 2, NO_TUPLE);
            assertEquals(ValueType.BYTES, mv.type(tuple));
            Arrays.fill(bytes, (byte) 7);
            assertArrayEquals(expected, (byte[]) mv.value(tuple), "length " + length + "; the store keeps its own copy");
            int serialized = mv.createSerializedVersion(expected, 1, 2, NO_TUPLE);
            assertEquals(ValueType.SERIALIZED, mv.type(serialized));
            assertArrayEquals(expected, ((SerializedValue) mv.value(serialized)).bytes());
            int wrapped = mv.createVersion(new SerializedValue(expected), 1, 2, NO_TUPLE);
            assertEquals(ValueType.SERIALIZED, mv.type(wrapped), "a SerializedValue is stored as SERIALIZED, not as user bytes");
            assertEquals(new SerializedValue(expected), mv.value(wrapped));
            assertEquals(3, mv.liveValues());
            mv.freeVersion(tuple);
            mv.freeVersion(serialized);
            mv.freeVersion(wrapped);
            assertEquals(0, mv.liveValues(), "length " + length);
        }
        assertEquals(0, mv.liveVersions());
    }

    @Test
    void largeValuesRoundTripAndFree() {
        long reservedBefore = mv.reservedBytes();
        byte[] large = new byte[200_000];
        new Random(11).nextBytes(large);
        String largeString = "\u00e9".repeat(50_000); // 100 000 UTF-8 bytes
        int a = mv.createVersion(large, 1, 2, NO_TUPLE);
        int b = mv.createVersion(largeString, 1, 2, NO_TUPLE);
        assertEquals(2, mv.liveValues());
        assertTrue(mv.reservedBytes() >= reservedBefore + 300_000, "large values are counted as reserved");
        assertArrayEquals(large, (byte[]) mv.value(a));
        assertEquals(largeString, mv.value(b));
        mv.freeVersion(a);
        assertEquals(1, mv.liveValues());
        assertEquals(largeString, mv.value(b));
        // A freed large slot is reused by the next large value.
        byte[] other = new byte[80_000];
        other[79_999] = 42;
        int c = mv.createVersion(other, 1, 2, NO_TUPLE);
        assertArrayEquals(other, (byte[]) mv.value(c));
        mv.freeVersion(b);
        mv.freeVersion(c);
        assertEquals(0, mv.liveValues());
        assertEquals(0, mv.liveVersions());
        assertTrue(mv.reservedBytes() < reservedBefore + 300_000, "large values give their memory back");
    }

    @Test
    void tooLargeValuesAreRefusedAndLeakNothing() {
        int limit = 1 << 20;
        Map<String, Long> before = store.liveSlots();
        ValueTooLargeException e = assertThrows(ValueTooLargeException.class, () -> mv.createVersion(new byte[limit + 1], 1, 2, NO_TUPLE));
        assertTrue(e.getMessage().contains(StoreConfig.VALUE_MAX_BYTES) && e.getMessage().contains("bytes=" + (limit + 1)), e.getMessage());
        assertThrows(ValueTooLargeException.class, () -> mv.createSerializedVersion(new byte[limit + 1], 1, 2, NO_TUPLE));
        // The limit counts UTF-8 bytes, not chars.
        assertThrows(ValueTooLargeException.class, () -> mv.createVersion("\u00e9".repeat(limit / 2 + 1), 1, 2, NO_TUPLE));
        int label = store.labels().intern("v");
        int key = store.propertyKeys().intern("k");
        long v = store.addVertex(label, 1, 2);
        before = store.liveSlots();
        assertThrows(ValueTooLargeException.class, () -> store.vertices().addPropertyVersion(v, key, new byte[limit + 1], 1, 2));
        assertEquals(before, store.liveSlots(), "a refused value leaves every pool as it was");
        assertEquals(NO_TUPLE, store.vertices().propertyVersion(v, key));
        // Exactly at the limit is fine.
        int tuple = store.vertices().addPropertyVersion(v, key, new byte[limit], 1, 2);
        assertEquals(limit, ((byte[]) mv.value(tuple)).length);
    }

    @Test
    void aValueTheStoreHeldIsRestoredAndCopiedPastALimitLoweredSince() {
        int limit = 1 << 20; // this store's limit; the value was written under a larger one
        byte[] held = new byte[limit + 1];
        Arrays.fill(held, (byte) 7);
        int label = store.labels().intern("v");
        int key = store.propertyKeys().intern("k");
        long v = store.addVertex(label, 1, 2);
        int base = store.vertices().addPropertyBase(v, key, held); // restoring it
        assertArrayEquals(held, (byte[]) mv.value(base));
        int copy = mv.materialize(base, 3, 4); // what an update of the property does first
        assertArrayEquals(held, (byte[]) mv.value(copy));
        int text = mv.createHeldBaseVersion("x".repeat(limit + 1));
        assertEquals(limit + 1, ((String) mv.value(text)).length());
        assertThrows(ValueTooLargeException.class, () -> mv.createVersion(held, 5, 6, NO_TUPLE), "a new write still is bounded");
        assertThrows(ValueTooLargeException.class, () -> mv.createBaseVersion(held), "so is a new element's property");
    }

    @Test
    void unsupportedTypesAreRefused() {
        for (Object value : new Object[] {null, new Object(), List.of(1), new int[] {1}, new StringBuilder("x"),
            java.math.BigInteger.ONE, java.util.UUID.randomUUID()}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> mv.createVersion(value, 1, 2, NO_TUPLE));
            assertTrue(e.getMessage().contains("not storable"), e.getMessage());
        }
        assertNull(ValueType.of(new Object()));
        assertEquals(0, mv.liveVersions());
        assertThrows(IllegalStateException.class, () -> ValueType.ofTag((byte) 0));
        assertThrows(IllegalStateException.class, () -> ValueType.ofTag((byte) 12));
        for (ValueType t : ValueType.values()) {
            assertEquals(t, ValueType.ofTag(t.tag()));
        }
    }

    @Test
    void olderMustBeALiveTuple() {
        int t = mv.createVersion(1, 1, 2, NO_TUPLE);
        mv.freeVersion(t);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> mv.createVersion(2, 1, 2, t));
        assertTrue(e.getMessage().contains("older=" + t), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> mv.createVersion(2, 1, 2, 12345));
        assertThrows(IllegalStateException.class, () -> mv.freeVersion(t), "double free of a tuple");
        assertFalse(mv.isLive(t));
    }

    @Test
    void beginAndEndTimesAreCasWords() {
        int t = mv.createVersion("v", 10, Long.MAX_VALUE, NO_TUPLE);
        assertEquals(10, mv.beginTime(t));
        assertEquals(Long.MAX_VALUE, mv.endTime(t));
        assertFalse(mv.compareAndSetEndTime(t, 11, 20));
        assertTrue(mv.compareAndSetEndTime(t, Long.MAX_VALUE, 20));
        assertFalse(mv.compareAndSetEndTime(t, Long.MAX_VALUE, 30));
        assertTrue(mv.compareAndSetBeginTime(t, 10, -3));
        assertEquals(-3, mv.beginTime(t));
        assertEquals(20, mv.endTime(t));
        mv.putBeginTimeRelease(t, 100);
        mv.putEndTimeRelease(t, 200);
        assertEquals(100, mv.beginTime(t));
        assertEquals(200, mv.endTime(t));
        assertEquals("v", mv.value(t), "the times sit beside the value, not on it");
        assertEquals(NO_TUPLE, mv.older(t));
    }

    @Test
    void versionChainsGrowThroughTheStoreAndAreCutByGc() {
        int label = store.labels().intern("v");
        int name = store.propertyKeys().intern("name");
        int age = store.propertyKeys().intern("age");
        long v = store.addVertex(label, 1, 2);
        List<Integer> versions = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            versions.add(store.vertices().addPropertyVersion(v, name, "name-" + i, 10 * i, 10 * i + 10));
            assertEquals(versions.get(i), store.vertices().propertyVersion(v, name));
        }
        store.vertices().addPropertyVersion(v, age, 42, 1, 2);
        // Newest first, each linking to the one before.
        int t = store.vertices().propertyVersion(v, name);
        for (int i = 4; i >= 0; i--) {
            assertEquals(versions.get(i), t);
            assertEquals("name-" + i, mv.value(t));
            assertEquals(10 * i, mv.beginTime(t));
            t = mv.older(t);
        }
        assertEquals(NO_TUPLE, t);
        assertEquals(6, mv.liveVersions());
        assertEquals(5, mv.liveValues());

        assertEquals(3, store.freeVersionsOlderThan(versions.get(3)));
        assertEquals(NO_TUPLE, mv.older(versions.get(3)));
        for (int i = 0; i < 3; i++) {
            assertFalse(mv.isLive(versions.get(i)));
        }
        assertTrue(mv.isLive(versions.get(3)));
        assertEquals(versions.get(3), mv.older(versions.get(4)));
        assertEquals(3, mv.liveVersions());
        assertEquals(2, mv.liveValues());
        assertEquals(0, store.freeVersionsOlderThan(versions.get(3)), "nothing older is left");
        assertEquals("name-4", mv.value(store.vertices().propertyVersion(v, name)));

        // A serialized version joins the same chain.
        int ser = store.vertices().addSerializedPropertyVersion(v, name, new byte[] {9, 8}, 60, 70);
        assertEquals(versions.get(4), mv.older(ser));
        assertEquals(ValueType.SERIALIZED, mv.type(ser));

        assertTrue(store.vertices().removeProperty(v, name));
        assertFalse(store.vertices().removeProperty(v, name));
        assertEquals(NO_TUPLE, store.vertices().propertyVersion(v, name));
        assertEquals(1, mv.liveVersions(), "only age is left");
        assertEquals(0, mv.liveValues());
        assertEquals(42, mv.value(store.vertices().propertyVersion(v, age)));
        store.removeVertex(v);
        Map<String, Long> live = store.liveSlots();
        assertEquals(0L, live.get("mv-tuple"));
        assertEquals(0L, live.get("value"));
        assertEquals(0L, live.get("vertex-property-row"));
    }

    @Test
    void edgePropertiesHaveTheirOwnChainsAndDieWithTheEdge() {
        int label = store.labels().intern("e");
        int w = store.propertyKeys().intern("w");
        int tag = store.propertyKeys().intern("tag");
        long a = store.addVertex(label, 1, 2);
        long b = store.addVertex(label, 1, 2);
        long e = store.addEdge(a, b, label, 1, 2);
        int w1 = store.edges().addPropertyVersion(e, w, 1.0, 1, 2);
        int w2 = store.edges().addPropertyVersion(e, w, 2.0, 2, 3);
        store.edges().addSerializedPropertyVersion(e, tag, new byte[] {1, 2, 3}, 1, 2);
        assertEquals(w2, store.edges().propertyVersion(e, w));
        assertEquals(w1, mv.older(w2));
        assertEquals(NO_TUPLE, store.vertices().propertyVersion(a, w), "vertex and edge properties are separate");
        PropertyCursor cursor = store.edges().newPropertyCursor().open(e);
        assertTrue(cursor.next());
        assertEquals(w, cursor.keyId());
        assertEquals(w2, cursor.newestVersion());
        assertTrue(cursor.next());
        assertEquals(tag, cursor.keyId());
        assertFalse(cursor.next());
        assertTrue(store.edges().removeProperty(e, tag));
        assertFalse(store.edges().removeProperty(e, tag));
        assertEquals(2, mv.liveVersions());
        store.removeEdge(e);
        Map<String, Long> live = store.liveSlots();
        assertEquals(0L, live.get("mv-tuple"));
        assertEquals(0L, live.get("value"));
        assertEquals(0L, live.get("edge-property-row"));
        assertEquals(0L, live.get("edge-header"));
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void concurrentWritersChainEveryVersionExactlyOnce() throws Exception {
        int threads = 4;
        int perThread = 3000;
        int label = store.labels().intern("v");
        int shared = store.propertyKeys().intern("shared");
        int[] own = new int[threads];
        for (int t = 0; t < threads; t++) {
            own[t] = store.propertyKeys().intern("own-" + t);
        }
        long v = store.addVertex(label, 1, 2);
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int me = t;
                futures.add(executor.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        store.vertices().addPropertyVersion(v, shared, (long) me * perThread + i, i, i + 1);
                        store.vertices().addPropertyVersion(v, own[me], i, i, i + 1);
                    }
                    return me;
                }));
            }
            for (Future<Integer> f : futures) {
                f.get(50, TimeUnit.SECONDS);
            }
        } finally {
            executor.shutdownNow();
        }
        // The shared chain holds every version once; each writer's versions appear newest first.
        Set<Long> values = new HashSet<>();
        long[] lastSeen = new long[threads];
        Arrays.fill(lastSeen, Long.MAX_VALUE);
        for (int t = store.vertices().propertyVersion(v, shared); t != NO_TUPLE; t = mv.older(t)) {
            long value = (Long) mv.value(t);
            assertTrue(values.add(value), "version " + value + " chained twice");
            int writer = (int) (value / perThread);
            assertTrue(value < lastSeen[writer], "writer " + writer + "'s versions out of order");
            lastSeen[writer] = value;
        }
        assertEquals(threads * perThread, values.size());
        for (int t = 0; t < threads; t++) {
            int length = 0;
            for (int tuple = store.vertices().propertyVersion(v, own[t]); tuple != NO_TUPLE; tuple = mv.older(tuple)) {
                assertEquals(perThread - 1 - length, mv.value(tuple));
                length++;
            }
            assertEquals(perThread, length);
        }
        assertEquals(2 * threads * perThread, mv.liveVersions(), "versions that lost a race were freed");
    }

    /**
     * {@link String#getBytes} replaces an unpaired surrogate with '?', so such a string came back
     * as a different string, and two different string ids became one key. Both are refused now;
     * well-formed pairs still round-trip.
     */
    @Test
    void stringsWithAnUnpairedSurrogateAreRefusedInsteadOfAltered() {
        try (GraphStore store = GraphStore.open(config(StoreConfig.EXTERNAL_IDS_MAX, 1000))) {
            MvStore mv = store.mvStore();
            Map<String, Long> before = store.liveSlots();
            for (String bad : new String[] {"a\ud800b", "\udc00", "end\ud83d", "\ude00\ud83d"}) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> mv.createVersion(bad, 1, 2, NO_TUPLE));
                assertTrue(e.getMessage().contains("unpaired surrogate") && e.getMessage().contains("index="), e.getMessage());
                assertThrows(IllegalArgumentException.class, () -> mv.createBaseVersion(bad));
            }
            assertEquals(before, store.liveSlots(), "a refused string leaves nothing behind");
            String pair = "smile \ud83d\ude00 \u00e9";
            assertEquals(pair, mv.value(mv.createVersion(pair, 1, 2, NO_TUPLE)));

            ExternalIdMap ids = store.vertices().externalIds();
            long a = store.addVertex(store.labels().intern("v"), 1, 2);
            long b = store.addVertex(store.labels().intern("v"), 1, 2);
            assertThrows(IllegalArgumentException.class, () -> ids.put("id\ud800", a));
            assertThrows(IllegalArgumentException.class, () -> ids.put("id\udbff", b));
            assertEquals(ExternalIdMap.ABSENT, ids.internalId("id?"), "no id was mapped under the replacement text");
            assertTrue(ids.put(pair, a));
            assertEquals(pair, ids.externalId(a));
        }
    }

    /**
     * A freed tuple keeps its old older link (the free list uses only its first word). Cutting the
     * chain after a freed version therefore freed the versions that link names, which by then may
     * belong to another property: that property's newest version was freed under it.
     */
    @Test
    void freeingVersionsOlderThanAFreedVersionIsRefusedAndLeavesOtherPropertiesAlone() {
        try (GraphStore store = GraphStore.open(StoreConfig.defaults())) {
            int label = store.labels().intern("v");
            int k1 = store.propertyKeys().intern("k1");
            int k2 = store.propertyKeys().intern("k2");
            long v = store.addVertex(label, 1, Long.MAX_VALUE);
            store.vertices().addPropertyVersion(v, k1, 1, 1, Long.MAX_VALUE);
            int stale = store.vertices().addPropertyVersion(v, k1, 2, 2, Long.MAX_VALUE);
            assertTrue(store.vertices().removeProperty(v, k1));
            int other = store.vertices().addPropertyVersion(v, k2, 3, 1, Long.MAX_VALUE); // reuses k1's oldest slot

            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> store.freeVersionsOlderThan(stale));
            assertTrue(e.getMessage().contains("version=" + stale), e.getMessage());
            assertTrue(store.mvStore().isLive(other), "k2's version must survive");
            assertEquals(other, store.vertices().propertyVersion(v, k2));
            assertEquals(3, store.mvStore().value(other));
        }
    }
}
