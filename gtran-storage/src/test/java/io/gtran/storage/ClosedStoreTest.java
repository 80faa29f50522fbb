package io.gtran.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Using a store, or a pool, after close() fails with a clear IllegalStateException, not an index error. */
class ClosedStoreTest {
    @Test
    void everyKindOfAccessToAClosedStoreSaysItIsClosed() {
        GraphStore store = GraphStore.open(StoreConfig.defaults());
        int label = store.labels().intern("l");
        int key = store.propertyKeys().intern("k");
        long a = store.addVertex(label, 1, Long.MAX_VALUE);
        long b = store.addVertex(label, 1, Long.MAX_VALUE);
        long e = store.addEdge(a, b, label, 1, Long.MAX_VALUE);
        int version = store.vertices().addPropertyVersion(a, key, "x", 1, Long.MAX_VALUE);
        EdgeCursor cursor = store.newEdgeCursor();
        store.close();

        assertClosed(() -> store.addVertex(label, 1, Long.MAX_VALUE));
        assertClosed(() -> store.vertices().label(a));
        assertClosed(() -> store.edgeOutVertex(e));
        assertClosed(() -> store.addEdge(a, b, label, 1, Long.MAX_VALUE));
        assertClosed(() -> cursor.open(a, EdgeDirection.OUT, EdgeCursor.ANY_LABEL));
        assertClosed(() -> store.neighbours(a, EdgeDirection.OUT, EdgeCursor.ANY_LABEL, new long[4]));
        assertClosed(() -> store.vertices().propertyVersion(a, key));
        assertClosed(() -> store.mvStore().value(version));
        assertClosed(() -> store.vertices().contains(a));
    }

    @Test
    void aSlotPastThePoolNamesThePoolAndTheSlot() {
        try (SlotPool pool = new SlotPool("p", 16, 8, 100)) {
            pool.allocate();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> pool.buffer(1_000));
            assertTrue(e.getMessage().contains("pool=p") && e.getMessage().contains("slot=1000"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> pool.getLong(-1, 0));
            assertFalse(pool.isAllocated(1_000));
            assertFalse(pool.isAllocated(-5));
        }
    }

    @Test
    void removingAPropertyReturnsItsWholeChainAtOnce() {
        try (GraphStore store = GraphStore.open(StoreConfig.defaults())) {
            int label = store.labels().intern("l");
            int key = store.propertyKeys().intern("k");
            long v = store.addVertex(label, 1, Long.MAX_VALUE);
            int before = store.mvStore().liveVersions();
            store.vertices().addPropertyBase(v, key, 1);
            store.vertices().addPropertyVersion(v, key, 2, 5, Long.MAX_VALUE);
            store.vertices().addPropertyVersion(v, key, 3, 7, Long.MAX_VALUE);
            assertTrue(store.vertices().removeProperty(v, key));
            assertEquals(before, store.mvStore().liveVersions());
            assertEquals(MvTupleDescriptor.NO_TUPLE, store.vertices().propertyVersion(v, key));
            assertFalse(store.vertices().removeProperty(v, key), "already removed");
            assertThrows(IllegalArgumentException.class, () -> store.vertices().removeProperty(v, 999), "unknown key id");
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
        ExternalIdMap never = store.vertices().externalIds();
        ExternalIdMap used = store.edges().externalIds();
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

    private static void assertClosed(Executable call) {
        IllegalStateException e = assertThrows(IllegalStateException.class, call);
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
    }
}
