package io.gtran.storage;

import static io.gtran.storage.MvTupleDescriptor.NO_TUPLE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The compare-and-link, -replace and -unlink of property versions the MV-OCC layer builds on, and
 * linking while GC removes the property.
 */
class CompareAndLinkTest {
    @Test
    void linkSucceedsOnlyOnTheExpectedNewestVersion() {
        try (GraphStore store = GraphStore.open(StoreConfig.defaults())) {
            int label = store.labels().intern("v");
            int key = store.propertyKeys().intern("k");
            long v = store.addVertex(label, 1, Long.MAX_VALUE);
            MvStore mv = store.mvStore();

            int first = mv.createVersion(1L, 1, Long.MAX_VALUE, NO_TUPLE);
            assertTrue(store.vertices().linkPropertyVersion(v, key, NO_TUPLE, first), "no cell yet: insert");
            int stray = mv.createVersion(9L, 1, Long.MAX_VALUE, NO_TUPLE);
            assertFalse(store.vertices().linkPropertyVersion(v, key, NO_TUPLE, stray), "a cell exists: an insert must fail");
            assertEquals(first, store.vertices().propertyVersion(v, key));

            int second = mv.createVersion(2L, 2, Long.MAX_VALUE, first);
            assertFalse(store.vertices().linkPropertyVersion(v, key, stray, second), "wrong expected version");
            assertTrue(store.vertices().linkPropertyVersion(v, key, first, second));
            assertEquals(second, store.vertices().propertyVersion(v, key));
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
            int version = store.vertices().addPropertyVersion(v, key, "x", 1, Long.MAX_VALUE);
            store.vertices().addPropertyVersion(v, other, "y", 1, Long.MAX_VALUE);

            assertFalse(store.vertices().unlinkProperty(v, key, version + 1), "another version expected: nothing removed");
            assertEquals(version, store.vertices().propertyVersion(v, key));
            assertTrue(store.vertices().unlinkProperty(v, key, version));
            assertEquals(NO_TUPLE, store.vertices().propertyVersion(v, key));
            assertTrue(store.mvStore().isLive(version), "the caller frees unlinked versions, when safe");
            assertFalse(store.vertices().unlinkProperty(v, key, version), "already gone");
            assertEquals("y", store.mvStore().value(store.vertices().propertyVersion(v, other)), "other keys untouched");
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
            assertTrue(store.edges().linkPropertyVersion(e, key, NO_TUPLE, version));
            assertTrue(store.edges().unlinkProperty(e, key, version));
            assertThrows(IllegalArgumentException.class, () -> store.edges().linkPropertyVersion(e, key, NO_TUPLE, 123456),
                    "a version that is not live is refused");
            store.mvStore().freeVersion(version);
        }
    }

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
            int first = store.vertices().addPropertyVersion(v, key, 1, 1, Long.MAX_VALUE);

            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> store.vertices().replacePropertyVersion(v, key, first, NO_TUPLE));
            assertTrue(e.getMessage().contains("replacement=" + NO_TUPLE) && e.getMessage().contains("key=k"), e.getMessage());
            int freed = store.mvStore().createVersion(7, 1, 2, NO_TUPLE);
            store.mvStore().freeVersion(freed);
            assertThrows(IllegalArgumentException.class, () -> store.vertices().replacePropertyVersion(v, key, first, freed));
            assertEquals(first, store.vertices().propertyVersion(v, key), "a refused replacement changes nothing");

            int second = store.vertices().addPropertyVersion(v, key, 2, 2, Long.MAX_VALUE); // looped forever before
            assertEquals(first, store.mvStore().older(second));

            long w = store.addVertex(label, 1, Long.MAX_VALUE);
            long edge = store.addEdge(v, w, label, 1, Long.MAX_VALUE);
            int edgeFirst = store.edges().addPropertyVersion(edge, key, "x", 1, Long.MAX_VALUE);
            assertThrows(IllegalArgumentException.class, () -> store.edges().replacePropertyVersion(edge, key, edgeFirst, NO_TUPLE));
            assertEquals(edgeFirst, store.edges().propertyVersion(edge, key));
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
                                store.vertices().addPropertyVersion(v, key, i, i, Long.MAX_VALUE);
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
                        if (store.vertices().removeProperty(v, key)) {
                            removed++;
                        }
                    }
                    return removed;
                });
                List<String> failures = writer.get(100, TimeUnit.SECONDS);
                int removed = gc.get(100, TimeUnit.SECONDS);
                assertEquals(List.of(), failures, "removals=" + removed);
                // Whatever is left is one consistent chain, and removing it returns every version.
                store.vertices().removeProperty(v, key);
                assertEquals(0, store.mvStore().liveVersions());
                assertEquals(0L, store.mvStore().liveValues());
            } finally {
                pool.shutdownNow();
            }
        }
    }
}
