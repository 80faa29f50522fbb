package io.gtran.storage;

import static io.gtran.storage.StoreTestSupport.config;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.UUID;
import org.junit.jupiter.api.Test;

/** User-supplied ids in Chronicle Maps: typed keys, round trips, duplicates, removal, limits, lazy creation. */
class ExternalIdMapTest {
    private static final int SMALL = 1000;

    private static GraphStore smallStore() {
        return GraphStore.open(config(StoreConfig.EXTERNAL_IDS_MAX, SMALL));
    }

    @Test
    void mapsAreCreatedLazilyByTheFirstPut() {
        try (ExternalIdMap map = new ExternalIdMap("lazy", SMALL)) {
            assertFalse(map.created());
            assertEquals(ExternalIdMap.ABSENT, map.internalId(1L));
            assertNull(map.externalId(v(5L)));
            assertEquals(0, map.size());
            assertEquals(0, map.offHeapBytes());
            map.remove(v(5L));
            assertFalse(map.created(), "look-ups and removals do not create the maps");
            assertThrows(IllegalArgumentException.class, () -> map.put(1.5, v(5L)));
            assertFalse(map.created(), "a refused key does not create the maps");
            assertTrue(map.put(1L, v(5L)));
            assertTrue(map.created());
            assertTrue(map.offHeapBytes() > 0);
        }
    }

    @Test
    void longsStringsAndUuidsRoundTrip() {
        try (ExternalIdMap map = new ExternalIdMap("round-trip", SMALL)) {
            UUID uuid = new UUID(0x0123_4567_89ab_cdefL, -2L);
            String unicode = "n\u00f6de-\u65e5\u672c-\ud83d\ude00";
            String longString = "s".repeat(4096); // the longest string id allowed
            Object[] externals = {0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE, 42L, "", "42", unicode, longString, uuid, UUID.randomUUID()};
            long internal = 100;
            for (Object external : externals) {
                assertTrue(map.put(external, v(internal)), "put " + external);
                internal++;
            }
            internal = 100;
            for (Object external : externals) {
                assertEquals(v(internal), map.internalId(external), "internal id of " + external);
                assertEquals(external, map.externalId(v(internal)), "external id of " + internal);
                internal++;
            }
            assertEquals(externals.length, map.size());
            assertEquals(ExternalIdMap.ABSENT, map.internalId(43L));
            assertEquals(ExternalIdMap.ABSENT, map.internalId(new UUID(1, 2)));
            assertEquals(ExternalIdMap.ABSENT, map.internalId("S".repeat(4096)));
            assertNull(map.externalId(v(99L)));
        }
    }

    @Test
    void integralTypesShareKeysButStringsDoNot() {
        try (ExternalIdMap map = new ExternalIdMap("typed", SMALL)) {
            assertTrue(map.put(1, v(10L)));
            assertEquals(v(10L), map.internalId(1L), "Integer 1 and Long 1 are one id");
            assertEquals(v(10L), map.internalId((short) 1));
            assertEquals(v(10L), map.internalId((byte) 1));
            assertFalse(map.put(1L, v(11L)), "Long 1 is already mapped through Integer 1");
            assertEquals(ExternalIdMap.ABSENT, map.internalId("1"), "the string \"1\" is a different id");
            assertTrue(map.put("1", v(12L)));
            assertEquals(v(12L), map.internalId("1"));
            assertEquals(v(10L), map.internalId(1));
            // A number comes back with the type it went in as (TinkerPop round-trips ids exactly).
            assertEquals(Integer.valueOf(1), map.externalId(v(10L)));
            assertEquals("1", map.externalId(v(12L)));
            assertTrue(map.put((short) 7, v(13L)));
            assertEquals(Short.valueOf((short) 7), map.externalId(v(13L)));
            assertTrue(map.put((byte) 8, v(14L)));
            assertEquals(Byte.valueOf((byte) 8), map.externalId(v(14L)));
            assertEquals(v(14L), map.internalId(8L));
            map.remove(v(10L));
            assertEquals(ExternalIdMap.ABSENT, map.internalId(1L), "removing by internal id forgets the long key too");
            assertEquals(3, map.size());
        }
    }

    @Test
    void duplicatePutChangesNothing() {
        try (ExternalIdMap map = new ExternalIdMap("dup", SMALL)) {
            assertTrue(map.put("alice", v(1L)));
            assertFalse(map.put("alice", v(2L)));
            assertEquals(v(1L), map.internalId("alice"));
            assertNull(map.externalId(v(2L)));
            assertEquals(1, map.size());
        }
    }

    @Test
    void anElementKeepsItsFirstExternalId() {
        try (ExternalIdMap map = new ExternalIdMap("second", SMALL)) {
            assertTrue(map.put("alice", v(1L)));
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> map.put("bob", v(1L)));
            assertTrue(e.getMessage().contains("external=alice"), e.getMessage());
            assertEquals("alice", map.externalId(v(1L)));
            assertEquals(ExternalIdMap.ABSENT, map.internalId("bob"));
            assertEquals(1, map.size());
        }
    }

    @Test
    void removeForgetsBothDirections() {
        try (ExternalIdMap map = new ExternalIdMap("remove", SMALL)) {
            map.put("a", v(1L));
            map.put(UUID.nameUUIDFromBytes(new byte[] {1}), v(2L));
            map.remove(v(1L));
            assertEquals(ExternalIdMap.ABSENT, map.internalId("a"));
            assertNull(map.externalId(v(1L)));
            assertEquals(1, map.size());
            map.remove(v(1L));
            map.remove(v(77L));
            assertEquals(1, map.size());
            assertTrue(map.put("a", v(3L)), "a removed id can be mapped again");
            assertEquals(v(3L), map.internalId("a"));
        }
    }

    @Test
    void capacityLimitIsEnforced() {
        int max = 5;
        try (ExternalIdMap map = new ExternalIdMap("capacity", max)) {
            for (int i = 0; i < max - 1; i++) {
                assertTrue(map.put("id-" + i, v(i + 1L)));
            }
            // Even a tiny map takes the longest allowed key.
            String longest = "\u00e9".repeat(2048);
            assertTrue(map.put(longest, v((long) max)));
            assertEquals(longest, map.externalId(v(max)));
            StoreCapacityException e = assertThrows(StoreCapacityException.class, () -> map.put("one too many", v(99L)));
            assertTrue(e.getMessage().contains(StoreConfig.EXTERNAL_IDS_MAX) && e.getMessage().contains("max=" + max), e.getMessage());
            assertEquals(max, map.size());
            assertEquals(ExternalIdMap.ABSENT, map.internalId("one too many"));
            assertNull(map.externalId(v(99L)));
            assertFalse(map.put("id-0", v(50L)), "a duplicate is reported before the limit");
            map.remove(v(3L));
            assertTrue(map.put("one too many", v(99L)), "removal makes room");
            assertEquals(v(99L), map.internalId("one too many"));
        }
    }

    @Test
    void longIdsThatOutgrowTheMapFailAsCapacityAndKeepNothing() {
        int max = 500;
        try (ExternalIdMap map = new ExternalIdMap("long-ids", max)) {
            // The maps are sized for short ids; ids of 4000 bytes fill them long before 500 entries.
            int mapped = 0;
            StoreCapacityException failure = null;
            while (failure == null && mapped < max) {
                try {
                    assertTrue(map.put(String.format("%04000d", mapped), v(mapped + 1L)));
                    mapped++;
                } catch (StoreCapacityException e) {
                    failure = e;
                }
            }
            assertTrue(failure != null && mapped < max, "expected the space to run out, mapped=" + mapped);
            assertTrue(failure.getMessage().contains(StoreConfig.EXTERNAL_IDS_MAX) && failure.getMessage().contains("entries=" + mapped),
                    failure.getMessage());
            assertEquals(mapped, map.size());
            assertEquals(ExternalIdMap.ABSENT, map.internalId(String.format("%04000d", mapped)), "the failed id is not kept");
            assertNull(map.externalId(v(mapped + 1L)), "no half mapping is left");
            for (int i = 0; i < mapped; i++) {
                assertEquals(v(i + 1L), map.internalId(String.format("%04000d", i)));
                assertEquals(String.format("%04000d", i), map.externalId(v(i + 1L)));
            }
        }
    }

    @Test
    void unsupportedIdTypesAreRefused() {
        try (ExternalIdMap map = new ExternalIdMap("types", SMALL)) {
            map.put(7L, v(7L));
            for (Object bad : new Object[] {null, 1.0, 2.0f, new Object(), new byte[] {1}, 'c', java.math.BigInteger.ONE}) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> map.put(bad, v(1L)));
                assertTrue(e.getMessage().contains("unsupported id type"), e.getMessage());
                assertThrows(IllegalArgumentException.class, () -> map.internalId(bad));
            }
            IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class, () -> map.put("x".repeat(4097), v(1L)));
            assertTrue(tooLong.getMessage().contains("bytes=4097"), tooLong.getMessage());
            assertEquals(1, map.size());
        }
    }

    @Test
    void decodeRejectsCorruptKeys() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ExternalIdMap.decode(new byte[] {9, 0}));
        assertTrue(e.getMessage().contains("tag=9"), e.getMessage());
        assertEquals(-5L, ExternalIdMap.decode(ExternalIdMap.encode(-5)));
        assertEquals("", ExternalIdMap.decode(ExternalIdMap.encode("")));
    }

    @Test
    void storeForgetsExternalIdsOfRemovedElements() {
        try (GraphStore store = smallStore()) {
            assertFalse(store.vertices().externalIds().created());
            int label = store.labels().intern("v");
            long a = store.addVertex(label, 1, 2);
            long b = store.addVertex(label, 1, 2);
            long e = store.addEdge(a, b, label, 1, 2);
            assertTrue(store.vertices().externalIds().put("alice", a));
            assertTrue(store.vertices().externalIds().put(UUID.nameUUIDFromBytes(new byte[] {2}), b));
            assertTrue(store.edges().externalIds().put(1000L, e));
            assertFalse(store.vertices().externalIds().put("alice", b));
            assertTrue(store.reservedBytes().get("external-ids") > 0);
            // Vertex and edge ids live in separate maps.
            assertEquals(ExternalIdMap.ABSENT, store.vertices().externalIds().internalId(1000L));
            store.removeEdge(e);
            assertEquals(ExternalIdMap.ABSENT, store.edges().externalIds().internalId(1000L));
            assertNull(store.edges().externalIds().externalId(e));
            store.removeVertex(a);
            assertEquals(ExternalIdMap.ABSENT, store.vertices().externalIds().internalId("alice"));
            assertEquals(b, store.vertices().externalIds().internalId(UUID.nameUUIDFromBytes(new byte[] {2})));
            assertEquals(1, store.vertices().externalIds().size());
        }
    }

    @Test
    void storeClosesWithoutEverCreatingMaps() {
        try (GraphStore store = smallStore()) {
            int label = store.labels().intern("v");
            store.removeVertex(store.addVertex(label, 1, 2));
            assertFalse(store.vertices().externalIds().created());
            assertFalse(store.edges().externalIds().created());
        }
    }

    /**
     * {@link ExternalIdMap#ABSENT} is 0, and 0 was accepted as an internal id: the mapping was kept
     * (a later put of the same external id returned false) but every look-up reported it absent.
     */
    @Test
    void externalIdsMapOnlyToElementIds() {
        try (ExternalIdMap map = new ExternalIdMap("malformed", 100)) {
            for (long bad : new long[] {ExternalIdMap.ABSENT, -5L, Long.MIN_VALUE, 0xFFFF_FFFFL}) {
                UnknownElementException e = assertThrows(UnknownElementException.class, () -> map.put("alice", bad));
                assertTrue(e.getMessage().contains("id=" + bad), e.getMessage());
            }
            assertFalse(map.created(), "a refused id does not create the maps");
            assertEquals(ExternalIdMap.ABSENT, map.internalId("alice"));
            assertTrue(map.put("alice", ElementIds.vertexId(0, 1, 7)));
            assertEquals(ElementIds.vertexId(0, 1, 7), map.internalId("alice"));
        }
    }

    /** A well-formed internal (vertex) id with slot {@code n}. */
    private static long v(long n) {
        return ElementIds.vertexId(0, 0, (int) n);
    }
}
