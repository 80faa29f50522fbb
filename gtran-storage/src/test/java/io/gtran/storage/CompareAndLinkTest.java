package io.gtran.storage;

import static io.gtran.storage.MvTupleDescriptor.NO_TUPLE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The compare-and-link and compare-and-unlink of property versions the MV-OCC layer builds on. */
class CompareAndLinkTest {
    @Test
    void linkSucceedsOnlyOnTheExpectedNewestVersion() {
        try (GraphStore store = GraphStore.open(StoreConfig.defaults())) {
            int label = store.labels().intern("v");
            int key = store.propertyKeys().intern("k");
            long v = store.addVertex(label, 1, Long.MAX_VALUE);
            MvStore mv = store.mvStore();

            int first = mv.createVersion(1L, 1, Long.MAX_VALUE, NO_TUPLE);
            assertTrue(store.linkVertexPropertyVersion(v, key, NO_TUPLE, first), "no cell yet: insert");
            int stray = mv.createVersion(9L, 1, Long.MAX_VALUE, NO_TUPLE);
            assertFalse(store.linkVertexPropertyVersion(v, key, NO_TUPLE, stray), "a cell exists: an insert must fail");
            assertEquals(first, store.vertexPropertyVersion(v, key));

            int second = mv.createVersion(2L, 2, Long.MAX_VALUE, first);
            assertFalse(store.linkVertexPropertyVersion(v, key, stray, second), "wrong expected version");
            assertTrue(store.linkVertexPropertyVersion(v, key, first, second));
            assertEquals(second, store.vertexPropertyVersion(v, key));
            assertEquals(first, mv.older(second));
            mv.freeVersion(stray);
        }
    }

    @Test
    void unlinkRemovesTheCellOnlyIfItStillLinksTheExpectedVersionAndFreesNothing() {
        try (GraphStore store = GraphStore.open(StoreConfig.defaults())) {
            int label = store.labels().intern("v");
            int key = store.propertyKeys().intern("k");
            int other = store.propertyKeys().intern("other");
            long v = store.addVertex(label, 1, Long.MAX_VALUE);
            int version = store.addVertexPropertyVersion(v, key, "x", 1, Long.MAX_VALUE);
            store.addVertexPropertyVersion(v, other, "y", 1, Long.MAX_VALUE);

            assertFalse(store.unlinkVertexProperty(v, key, version + 1), "another version expected: nothing removed");
            assertEquals(version, store.vertexPropertyVersion(v, key));
            assertTrue(store.unlinkVertexProperty(v, key, version));
            assertEquals(NO_TUPLE, store.vertexPropertyVersion(v, key));
            assertTrue(store.mvStore().isLive(version), "the caller frees unlinked versions, when safe");
            assertFalse(store.unlinkVertexProperty(v, key, version), "already gone");
            assertEquals("y", store.mvStore().value(store.vertexPropertyVersion(v, other)), "other keys untouched");
            store.mvStore().freeVersion(version);
        }
    }

    @Test
    void edgePropertiesLinkAndUnlinkToo() {
        try (GraphStore store = GraphStore.open(StoreConfig.defaults())) {
            int label = store.labels().intern("e");
            int key = store.propertyKeys().intern("k");
            long a = store.addVertex(label, 1, Long.MAX_VALUE);
            long b = store.addVertex(label, 1, Long.MAX_VALUE);
            long e = store.addEdge(a, b, label, 1, Long.MAX_VALUE);
            int version = store.mvStore().createVersion(3.5, 1, Long.MAX_VALUE, NO_TUPLE);
            assertTrue(store.linkEdgePropertyVersion(e, key, NO_TUPLE, version));
            assertTrue(store.unlinkEdgeProperty(e, key, version));
            assertThrows(IllegalArgumentException.class, () -> store.linkEdgePropertyVersion(e, key, NO_TUPLE, 123456),
                    "a version that is not live is refused");
            store.mvStore().freeVersion(version);
        }
    }
}
