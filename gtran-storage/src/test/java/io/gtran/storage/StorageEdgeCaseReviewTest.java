package io.gtran.storage;

import static io.gtran.storage.MvTupleDescriptor.NO_TUPLE;
import static io.gtran.storage.StoreTestSupport.config;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression tests for defects found in a review of the store's edges: version handles, the value
 * region, value encoding, external ids, dictionaries and the facade's failure paths.
 */
class StorageEdgeCaseReviewTest {

    /**
     * A property cell swung to {@link MvTupleDescriptor#NO_TUPLE} looks absent to
     * {@code vertexPropertyVersion}, yet its cell is still there: the next
     * {@code addVertexPropertyVersion} sees "no older version", tries to insert a new cell, is
     * refused (the key is present) and retries forever. The replacement must be refused instead.
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void replacingTheNewestVersionWithOneThatIsNotLiveIsRefused() {
        try (GraphStore store = GraphStore.open(StoreConfig.defaults())) {
            int label = store.labels().intern("v");
            int key = store.propertyKeys().intern("k");
            long v = store.addVertex(label, 1, Long.MAX_VALUE);
            int first = store.addVertexPropertyVersion(v, key, 1, 1, Long.MAX_VALUE);

            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> store.replaceVertexPropertyVersion(v, key, first, NO_TUPLE));
            assertTrue(e.getMessage().contains("replacement=" + NO_TUPLE) && e.getMessage().contains("key=k"), e.getMessage());
            int freed = store.mvStore().createVersion(7, 1, 2, NO_TUPLE);
            store.mvStore().freeVersion(freed);
            assertThrows(IllegalArgumentException.class, () -> store.replaceVertexPropertyVersion(v, key, first, freed));
            assertEquals(first, store.vertexPropertyVersion(v, key), "a refused replacement changes nothing");

            int second = store.addVertexPropertyVersion(v, key, 2, 2, Long.MAX_VALUE); // looped forever before
            assertEquals(first, store.mvStore().older(second));

            long w = store.addVertex(label, 1, Long.MAX_VALUE);
            long edge = store.addEdge(v, w, label, 1, Long.MAX_VALUE);
            int edgeFirst = store.addEdgePropertyVersion(edge, key, "x", 1, Long.MAX_VALUE);
            assertThrows(IllegalArgumentException.class, () -> store.replaceEdgePropertyVersion(edge, key, edgeFirst, NO_TUPLE));
            assertEquals(edgeFirst, store.edgePropertyVersion(edge, key));
        }
    }

    /**
     * A freed base version's slot holds a free-list link where its value word was, over the old
     * link's size class. Materializing it copied whatever value now sits in the slot that link
     * names: here another property's string.
     */
    @Test
    void materializingAFreedBaseVersionIsRefusedRatherThanCopyingAnotherValue() {
        try (GraphStore store = GraphStore.open(StoreConfig.defaults())) {
            MvStore mv = store.mvStore();
            int base = mv.createBaseVersion("mine");
            mv.freeVersion(base);
            mv.createVersion("someone else's", 1, 2, NO_TUPLE); // reuses the freed value slot
            Map<String, Long> before = store.liveSlots();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> mv.materialize(base, 1, 2));
            assertTrue(e.getMessage().contains("not live") && e.getMessage().contains("version=" + base), e.getMessage());
            assertEquals(before, store.liveSlots(), "nothing is created");
            assertThrows(IllegalArgumentException.class, () -> mv.materialize(MvTupleDescriptor.baseHandle(1000), 1, 2),
                    "a base slot never handed out");
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
            store.addVertexPropertyVersion(v, k1, 1, 1, Long.MAX_VALUE);
            int stale = store.addVertexPropertyVersion(v, k1, 2, 2, Long.MAX_VALUE);
            assertTrue(store.removeVertexProperty(v, k1));
            int other = store.addVertexPropertyVersion(v, k2, 3, 1, Long.MAX_VALUE); // reuses k1's oldest slot

            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> store.freeVersionsOlderThan(stale));
            assertTrue(e.getMessage().contains("version=" + stale), e.getMessage());
            assertTrue(store.mvStore().isLive(other), "k2's version must survive");
            assertEquals(other, store.vertexPropertyVersion(v, k2));
            assertEquals(3, store.mvStore().value(other));
        }
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

            ExternalIdMap ids = store.externalVertexIds();
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

    /**
     * A store closed before its external-id maps were created created them on the next put and
     * kept working, with two Chronicle Maps that nothing would close again; a closed map with maps
     * failed with Chronicle's own exception.
     */
    @Test
    void externalIdMapsRefuseUseAfterClose() {
        GraphStore store = GraphStore.open(StoreConfig.defaults());
        long v = store.addVertex(store.labels().intern("v"), 1, 2);
        ExternalIdMap never = store.externalVertexIds();
        ExternalIdMap used = store.externalEdgeIds();
        assertTrue(used.put(1L, v));
        store.close();

        for (ExternalIdMap map : new ExternalIdMap[] {never, used}) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> map.put("late", v));
            assertTrue(e.getMessage().contains("closed") && e.getMessage().contains("map="), e.getMessage());
            assertThrows(IllegalStateException.class, () -> map.internalId(1L));
            assertThrows(IllegalStateException.class, () -> map.externalId(v));
            assertThrows(IllegalStateException.class, () -> map.remove(v));
        }
        assertFalse(never.created(), "no maps are created after close");
        store.close(); // closing twice stays harmless
    }

    /**
     * The large-value budget was checked, then the buffer allocated and filled, and only then the
     * bytes counted: concurrent stores all passed the check and together went far past
     * {@code gtran.storage.values.max-bytes}.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void concurrentLargeValuesStayWithinTheCap() throws Exception {
        int size = 4 << 20;
        int threads = 8;
        try (GraphStore store = GraphStore.open(config(StoreConfig.VALUES_MAX_BYTES, 2L * size))) {
            MvStore mv = store.mvStore();
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                for (int round = 0; round < 20; round++) {
                    CountDownLatch start = new CountDownLatch(1);
                    List<Future<Integer>> futures = new ArrayList<>();
                    for (int t = 0; t < threads; t++) {
                        byte[] value = new byte[size];
                        futures.add(pool.submit(() -> {
                            start.await();
                            try {
                                return mv.createVersion(value, 1, 2, NO_TUPLE);
                            } catch (StoreCapacityException e) {
                                assertTrue(e.getMessage().contains(StoreConfig.VALUES_MAX_BYTES), e.getMessage());
                                return NO_TUPLE;
                            }
                        }));
                    }
                    start.countDown();
                    List<Integer> stored = new ArrayList<>();
                    for (Future<Integer> f : futures) {
                        int version = f.get(30, TimeUnit.SECONDS);
                        if (version != NO_TUPLE) {
                            stored.add(version);
                        }
                    }
                    assertTrue(stored.size() <= 2, "round " + round + ": " + stored.size() + " values of " + size
                            + " bytes under a cap of " + 2L * size);
                    assertTrue(store.reservedBytes().get("mv-kvs") <= 2L * size + (1 << 20), store.reservedBytes().toString());
                    for (int version : stored) {
                        mv.freeVersion(version);
                    }
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /** Null serialized bytes and null dictionary names failed with bare NullPointerExceptions. */
    @Test
    void nullBytesAndNamesAreRefusedNamingWhatWasNull() {
        try (GraphStore store = GraphStore.open(StoreConfig.defaults())) {
            int key = store.propertyKeys().intern("k");
            long v = store.addVertex(store.labels().intern("v"), 1, 2);
            Map<String, Long> before = store.liveSlots();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> store.addSerializedVertexPropertyVersion(v, key, null, 1, 2));
            assertTrue(e.getMessage().contains("serialized"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> store.addSerializedVertexPropertyBase(v, key, null));
            assertThrows(IllegalArgumentException.class, () -> store.mvStore().createSerializedVersion(null, 1, 2, NO_TUPLE));
            assertEquals(before, store.liveSlots());
            e = assertThrows(IllegalArgumentException.class, () -> store.labels().find(null));
            assertTrue(e.getMessage().contains("label"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> store.propertyKeys().find(null));
        }
    }

    /**
     * {@code removeVertexProperty} is documented to run alongside writers: a version linked
     * concurrently lands in the removed chain or in a new cell. But a writer that read the cell
     * just before the removal freed its newest version failed with "older version is not live"
     * instead of starting the new cell.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void addingVersionsWhileTheGcRemovesThePropertyNeverFailsSpuriously() throws Exception {
        try (GraphStore store = GraphStore.open(StoreConfig.defaults())) {
            int key = store.propertyKeys().intern("k");
            long v = store.addVertex(store.labels().intern("v"), 1, Long.MAX_VALUE);
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                AtomicBoolean stop = new AtomicBoolean();
                Future<List<String>> writer = pool.submit(() -> {
                    List<String> failures = new ArrayList<>();
                    try {
                        for (int i = 0; i < 1_000_000 && failures.size() < 5; i++) {
                            try {
                                store.addVertexPropertyVersion(v, key, i, i, Long.MAX_VALUE);
                            } catch (IllegalArgumentException e) {
                                failures.add(e.getMessage());
                            }
                        }
                    } finally {
                        stop.set(true);
                    }
                    return failures;
                });
                Future<Integer> gc = pool.submit(() -> {
                    int removed = 0;
                    while (!stop.get()) {
                        if (store.removeVertexProperty(v, key)) {
                            removed++;
                        }
                    }
                    return removed;
                });
                List<String> failures = writer.get(100, TimeUnit.SECONDS);
                int removed = gc.get(100, TimeUnit.SECONDS);
                assertEquals(List.of(), failures, "removals=" + removed);
                // Whatever is left is one consistent chain, and removing it returns every version.
                store.removeVertexProperty(v, key);
                assertEquals(0, store.mvStore().liveVersions());
                assertEquals(0L, store.mvStore().liveValues());
            } finally {
                pool.shutdownNow();
            }
        }
    }
}
