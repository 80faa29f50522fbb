package io.gtran.storage;

import static io.gtran.storage.StoreTestSupport.adjacency;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A store rebuilt by a {@link StoreRestorer} from the live elements and removed ids of another
 * holds every element at its old id, and hands out new ids as the other would.
 */
class StoreRestorerTest {
    private static final long SEED = 20240611L;

    private final StoreHistory original = new StoreHistory(SEED);
    private final GraphStore restored = original.restore(new Random(SEED + 1));

    @AfterEach
    void close() {
        original.close();
        restored.close();
    }

    @Test
    void theHistoryReusedSlotsAndSpannedChunks() {
        assertTrue(original.vertices.stream().anyMatch(id -> ElementIds.generation(id) > 0), "a vertex on a reused slot");
        assertTrue(original.edges.stream().anyMatch(id -> ElementIds.generation(id) > 0), "an edge on a reused slot");
        assertTrue(original.dead.stream().anyMatch(id -> ElementIds.generation(id) > 0), "a removed id of a reused slot");
        assertTrue(original.store.vertices().slotLimit() > 3 * 64, "vertex slots span several chunks of 64");
        assertTrue(original.store.edges().slotLimit() > 3 * 64, "edge slots span several chunks of 64");
    }

    @Test
    void everySlotHoldsTheSameIdAsInTheOriginal() {
        for (ElementTable[] tables : List.of(new ElementTable[] {original.store.vertices(), restored.vertices()},
                new ElementTable[] {original.store.edges(), restored.edges()})) {
            assertEquals(tables[0].slotLimit(), tables[1].slotLimit());
            for (int slot = 0; slot < tables[0].slotLimit(); slot++) {
                assertEquals(tables[0].idAtSlot(slot), tables[1].idAtSlot(slot), "slot " + slot);
            }
            assertEquals(tables[0].count(), tables[1].count());
        }
    }

    @Test
    void verticesKeepTheirLabelTimesAndAdjacency() {
        ElementTable was = original.store.vertices();
        ElementTable is = restored.vertices();
        long[] wasNeighbours = new long[4096];
        long[] isNeighbours = new long[4096];
        for (long v : original.vertices) {
            assertEquals(was.label(v), is.label(v));
            assertEquals(was.beginTime(v), is.beginTime(v));
            assertEquals(was.endTime(v), is.endTime(v));
            assertEquals(adjacency(original.store, v), adjacency(restored, v), ElementIds.toString(v));
            int count = original.store.neighbours(v, EdgeDirection.BOTH, EdgeCursor.ANY_LABEL, wasNeighbours);
            assertEquals(count, restored.neighbours(v, EdgeDirection.BOTH, EdgeCursor.ANY_LABEL, isNeighbours));
            assertArrayEquals(Arrays.copyOf(wasNeighbours, count), Arrays.copyOf(isNeighbours, count));
        }
    }

    @Test
    void edgesKeepTheirEndpointsLabelAndTimes() {
        ElementTable was = original.store.edges();
        ElementTable is = restored.edges();
        for (long e : original.edges) {
            assertEquals(original.store.edgeOutVertex(e), restored.edgeOutVertex(e));
            assertEquals(original.store.edgeInVertex(e), restored.edgeInVertex(e));
            assertEquals(was.label(e), is.label(e));
            assertEquals(was.beginTime(e), is.beginTime(e));
            assertEquals(was.endTime(e), is.endTime(e));
        }
        EdgeCursor cursor = restored.newEdgeCursor();
        for (long v : original.vertices) {
            for (cursor.open(v, EdgeDirection.BOTH); cursor.next(); ) {
                assertTrue(original.edges.contains(cursor.edgeId()), "cell of a live edge: " + ElementIds.toString(cursor.edgeId()));
            }
        }
    }

    /**
     * Every slot below the high-water mark was used before, so the free slots and their next
     * generations are the original's: the next ids are the same, if not in the same order.
     */
    @Test
    void newElementsTakeTheIdsTheOriginalWouldGive() {
        int free = original.store.vertices().slotLimit() - 1 - original.store.vertices().count();
        assertTrue(free > 0, "the history left free slots");
        Set<Long> wasVertices = new HashSet<>();
        Set<Long> isVertices = new HashSet<>();
        int label = original.store.labels().find("knows");
        for (int i = 0; i < free + 5; i++) {
            wasVertices.add(original.store.addVertex(label, 0, 0));
            isVertices.add(restored.addVertex(label, 0, 0));
        }
        assertEquals(wasVertices, isVertices);
        long a = original.vertices.get(0);
        long b = original.vertices.get(1);
        Set<Long> wasEdges = new HashSet<>();
        Set<Long> isEdges = new HashSet<>();
        int freeEdges = original.store.edges().slotLimit() - 1 - original.store.edges().count();
        for (int i = 0; i < freeEdges + 5; i++) {
            wasEdges.add(original.store.addEdge(a, b, label, 0, 0));
            isEdges.add(restored.addEdge(a, b, label, 0, 0));
        }
        assertEquals(wasEdges, isEdges);
        for (long id : isVertices) {
            assertFalse(original.vertices.contains(id) || original.dead.contains(id), ElementIds.toString(id));
        }
        for (long id : isEdges) {
            assertFalse(original.edges.contains(id) || original.dead.contains(id), ElementIds.toString(id));
        }
    }

    @Test
    void propertiesAndExternalIdsCanBeAddedToRestoredElements() {
        int name = restored.propertyKeys().intern("name");
        long v = original.vertices.get(7);
        long e = original.edges.get(3);
        int nameVersion = restored.vertices().addPropertyBase(v, name, "Ada");
        int weightVersion = restored.edges().addSerializedPropertyBase(e, name, new byte[] {1, 2, 3});
        assertTrue(restored.vertices().externalIds().put("ada", v));
        assertTrue(restored.edges().externalIds().put(42L, e));

        assertEquals(nameVersion, restored.vertices().propertyVersion(v, name));
        assertEquals("Ada", restored.mvStore().value(nameVersion));
        assertEquals(weightVersion, restored.edges().propertyVersion(e, name));
        assertEquals(new SerializedValue(new byte[] {1, 2, 3}), restored.mvStore().value(weightVersion));
        assertEquals(v, restored.vertices().externalIds().internalId("ada"));
        assertEquals("ada", restored.vertices().externalIds().externalId(v));
        assertEquals(e, restored.edges().externalIds().internalId(42L));
        assertNotEquals(MvTupleDescriptor.NO_TUPLE, restored.vertices().propertyVersion(v, name));
    }
}
