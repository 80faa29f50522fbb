package io.gtran.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

/** What a restore leaves in the slots that hold no live element: the generation each hands out next. */
class RestoredSlotsTest extends RestorerTestCase {
    private static final int MAX = ElementIds.MAX_GENERATION;

    RestoredSlotsTest() {
        super(StoreConfig.defaults());
    }

    private long addVertex() {
        return store.addVertex(label, 0, 0);
    }

    @Test
    void aDeadSlotHandsOutTheNextGenerationAndTheHighestDeadIdCounts() {
        restorer.vertex(vertex(0, 1), label, 0, 0);
        restorer.dead(vertex(2, 3));
        restorer.dead(vertex(7, 3));
        restorer.dead(vertex(4, 3));
        restorer.finish();
        assertEquals(vertex(0, 2), addVertex(), "a slot never declared: generation 0, lowest free slot first");
        assertEquals(vertex(8, 3), addVertex());
        assertEquals(vertex(0, 4), addVertex(), "then fresh slots");
    }

    @Test
    void aDeadIdOlderThanTheLiveOneOnItsSlotIsIgnored() {
        restorer.dead(vertex(3, 1));
        restorer.vertex(vertex(5, 1), label, 0, 0);
        restorer.finish();
        store.removeVertex(vertex(5, 1));
        assertEquals(vertex(6, 1), addVertex());
    }

    @Test
    void aSlotWhoseGenerationIsSpentStaysRetired() {
        restorer.dead(vertex(MAX, 2));
        restorer.vertex(vertex(MAX, 3), label, 0, 0);
        restorer.vertex(vertex(0, 4), label, 0, 0);
        restorer.finish();
        assertEquals(vertex(0, 1), addVertex());
        assertEquals(vertex(0, 5), addVertex(), "slot 2 is retired");
        store.removeVertex(vertex(MAX, 3));
        for (int i = 0; i < 10; i++) {
            long id = addVertex();
            assertNotEquals(2, ElementIds.slot(id));
            assertNotEquals(3, ElementIds.slot(id), "a restored vertex of the last generation retires its slot when removed");
        }
        assertEquals(13, store.vertices().count());
        assertEquals(16, store.vertices().slotLimit());
    }

    @Test
    void edgeSlotsFollowTheSameRulesAsVertexSlots() {
        long a = vertex(1, 5);
        restorer.vertex(a, label, 0, 0);
        restorer.edge(edge(2, 3), a, a, label, 0, 0);
        restorer.dead(edge(0, 3));
        restorer.dead(edge(4, 1));
        restorer.dead(edge(MAX, 2));
        restorer.finish();
        assertEquals(edge(5, 1), store.addEdge(a, a, label, 0, 0));
        assertEquals(edge(0, 4), store.addEdge(a, a, label, 0, 0), "slot 2 is retired, slot 3 live");
        store.removeEdge(edge(2, 3));
        assertEquals(edge(3, 3), store.addEdge(a, a, label, 0, 0));
        assertEquals(1, store.vertices().count());
        assertEquals(vertex(0, 1), addVertex(), "the vertex slots passed over are free");
    }
}
