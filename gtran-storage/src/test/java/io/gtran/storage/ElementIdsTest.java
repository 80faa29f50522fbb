package io.gtran.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ElementIdsTest {
    private static final long JS_SAFE = 1L << 53;

    @Test
    void roundTripsEveryFieldOfEveryKindBelowTwoToThe53() {
        int[] nodes = {0, 1, 7, 512, ElementIds.MAX_NODE};
        int[] generations = {0, 1, 2, 1000, ElementIds.MAX_GENERATION};
        int[] slots = {0, 1, 255, 1 << 20, Integer.MAX_VALUE};
        Set<Long> seen = new HashSet<>();
        for (int kind : new int[] {ElementIds.VERTEX, ElementIds.EDGE}) {
            for (int node : nodes) {
                for (int generation : generations) {
                    for (int slot : slots) {
                        long id = ElementIds.compose(kind, node, generation, slot);
                        assertEquals(kind, ElementIds.kind(id));
                        assertEquals(node, ElementIds.node(id));
                        assertEquals(generation, ElementIds.generation(id));
                        assertEquals(slot, ElementIds.slot(id));
                        assertTrue(id > 0 && id < JS_SAFE, "ids are positive and below 2^53: " + id);
                        assertTrue(ElementIds.isWellFormed(id));
                        assertEquals(kind == ElementIds.EDGE, ElementIds.isEdge(id));
                        assertEquals(kind == ElementIds.VERTEX, ElementIds.isVertex(id));
                        assertTrue(seen.add(id), "distinct fields give distinct ids");
                    }
                }
            }
        }
        assertEquals(2 * nodes.length * generations.length * slots.length, seen.size());
        assertEquals(JS_SAFE - 1, ElementIds.compose(ElementIds.EDGE, ElementIds.MAX_NODE, ElementIds.MAX_GENERATION, Integer.MAX_VALUE) | 3,
                "the layout uses exactly the 53 bits below 2^53");
    }

    @Test
    void randomRoundTrips() {
        Random random = new Random(42);
        for (int i = 0; i < 100_000; i++) {
            int node = random.nextInt(ElementIds.MAX_NODE + 1);
            int generation = random.nextInt(ElementIds.MAX_GENERATION + 1);
            int slot = random.nextInt(Integer.MAX_VALUE);
            long id = ElementIds.edgeId(node, generation, slot);
            assertEquals(node, ElementIds.node(id));
            assertEquals(generation, ElementIds.generation(id));
            assertEquals(slot, ElementIds.slot(id));
            assertTrue(id < JS_SAFE);
        }
    }

    @Test
    void smallGraphsHaveSmallIdsAndTheNodeIsReadable() {
        assertEquals(4097, ElementIds.vertexId(0, 0, 1));
        assertEquals(4098, ElementIds.edgeId(0, 0, 1));
        assertEquals(4109, ElementIds.vertexId(3, 0, 1));
        assertEquals(3, ElementIds.node(4109));
        assertEquals(3, ElementIds.node(ElementIds.vertexPropertyId(4109, 5)));
        assertEquals(3, ElementIds.node(ElementIds.countedPropertyId(3, 1)));
    }

    @Test
    void vertexPropertyIdsAreDistinctFromEachOtherAndFromElementIds() {
        Set<Long> seen = new HashSet<>();
        for (int node : new int[] {0, 1, ElementIds.MAX_NODE}) {
            for (int slot : new int[] {1, 2, Integer.MAX_VALUE}) {
                long vertex = ElementIds.vertexId(node, 7, slot);
                long edge = ElementIds.edgeId(node, 7, slot);
                assertTrue(seen.add(vertex) && seen.add(edge));
                for (int key : new int[] {0, 1, ElementIds.MAX_DERIVED_KEY}) {
                    long property = ElementIds.vertexPropertyId(vertex, key);
                    assertTrue(property > 0 && property < JS_SAFE, "derived id in range: " + property);
                    assertFalse(ElementIds.isWellFormed(property), "a property id is no vertex or edge id");
                    assertEquals(node, ElementIds.node(property));
                    assertTrue(seen.add(property), "distinct vertex and key give distinct ids");
                }
                for (long counter : new long[] {1, slot, ElementIds.MAX_COUNTER}) {
                    long counted = ElementIds.countedPropertyId(node, counter);
                    assertTrue(counted > 0 && counted < JS_SAFE, "counted id in range: " + counted);
                    assertFalse(ElementIds.isWellFormed(counted));
                    seen.add(counted); // the same counter on the same node may recur across slots here
                }
            }
        }
        assertEquals(ElementIds.NONE, ElementIds.vertexPropertyId(ElementIds.vertexId(0, 0, 1), ElementIds.MAX_DERIVED_KEY + 1),
                "a key id too large to derive from gives no id");
        assertEquals(ElementIds.NONE, ElementIds.vertexPropertyId(ElementIds.vertexId(0, 0, 1), -1));
    }

    @Test
    void rangeErrorsNameTheBadValue() {
        IllegalArgumentException negativeNode = assertThrows(IllegalArgumentException.class, () -> ElementIds.vertexId(-1, 1, 1));
        assertTrue(negativeNode.getMessage().contains("node=-1"), negativeNode.getMessage());
        IllegalArgumentException bigNode = assertThrows(IllegalArgumentException.class,
                () -> ElementIds.vertexId(ElementIds.MAX_NODE + 1, 1, 1));
        assertTrue(bigNode.getMessage().contains("node=" + (ElementIds.MAX_NODE + 1)), bigNode.getMessage());
        IllegalArgumentException negativeSlot = assertThrows(IllegalArgumentException.class, () -> ElementIds.vertexId(0, 1, -5));
        assertTrue(negativeSlot.getMessage().contains("slot=-5"), negativeSlot.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ElementIds.vertexId(0, 1, Integer.MIN_VALUE));
        IllegalArgumentException bigGeneration = assertThrows(IllegalArgumentException.class,
                () -> ElementIds.vertexId(0, ElementIds.MAX_GENERATION + 1, 1));
        assertTrue(bigGeneration.getMessage().contains("generation=" + (ElementIds.MAX_GENERATION + 1)), bigGeneration.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ElementIds.vertexId(0, -1, 1));
        IllegalArgumentException badKind = assertThrows(IllegalArgumentException.class,
                () -> ElementIds.compose(ElementIds.DERIVED_PROPERTY, 0, 0, 1));
        assertTrue(badKind.getMessage().contains("kind=3"), badKind.getMessage());
        IllegalArgumentException zeroCounter = assertThrows(IllegalArgumentException.class, () -> ElementIds.countedPropertyId(0, 0));
        assertTrue(zeroCounter.getMessage().contains("counter=0"), zeroCounter.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ElementIds.countedPropertyId(0, ElementIds.MAX_COUNTER + 1));
        assertThrows(IllegalArgumentException.class, () -> ElementIds.countedPropertyId(ElementIds.MAX_NODE + 1, 1));
    }

    @Test
    void wellFormednessAndSentinel() {
        assertFalse(ElementIds.isWellFormed(ElementIds.NONE));
        assertFalse(ElementIds.isWellFormed(-1L));
        assertFalse(ElementIds.isWellFormed(Long.MIN_VALUE));
        assertFalse(ElementIds.isWellFormed(ElementIds.vertexId(0, 0, 1) | Long.MIN_VALUE), "a dead marker is no id");
        assertFalse(ElementIds.isWellFormed(JS_SAFE | ElementIds.VERTEX), "nothing at or above 2^53 is an id");
        assertFalse(ElementIds.isWellFormed(4096), "kind 0 is no vertex or edge");
        assertFalse(ElementIds.isWellFormed(4099), "kind 3 is no vertex or edge");
        assertTrue(ElementIds.isWellFormed(ElementIds.vertexId(0, 0, 0)), "slot 0 composes; the tables never hand it out");
        assertTrue(ElementIds.isWellFormed(ElementIds.edgeId(0, 0, 0)));
    }

    @Test
    void toStringShowsEveryField() {
        long id = ElementIds.edgeId(5, 6, 7);
        assertEquals("id=" + id + "(edge,node=5,gen=6,slot=7)", ElementIds.toString(id));
        assertEquals("id=-3", ElementIds.toString(-3));
    }
}
