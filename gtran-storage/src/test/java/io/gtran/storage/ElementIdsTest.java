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

    @Test
    void roundTripsEveryField() {
        int[] nodes = {0, 1, 7, 512, ElementIds.MAX_NODE};
        int[] generations = {0, 1, 2, 1000, ElementIds.GENERATION_MASK};
        int[] slots = {0, 1, 255, 1 << 20, Integer.MAX_VALUE};
        Set<Long> seen = new HashSet<>();
        for (int node : nodes) {
            for (int generation : generations) {
                for (int slot : slots) {
                    long id = ElementIds.compose(node, generation, slot);
                    assertEquals(node, ElementIds.node(id));
                    assertEquals(generation, ElementIds.generation(id));
                    assertEquals(slot, ElementIds.slot(id));
                    assertTrue(id >= 0, "ids are never negative: " + id);
                    assertTrue(seen.add(id), "distinct fields give distinct ids");
                    assertEquals(id != 0, ElementIds.isWellFormed(id));
                }
            }
        }
        assertEquals(nodes.length * generations.length * slots.length, seen.size());
    }

    @Test
    void randomRoundTrips() {
        Random random = new Random(42);
        for (int i = 0; i < 100_000; i++) {
            int node = random.nextInt(ElementIds.MAX_NODE + 1);
            int generation = random.nextInt(ElementIds.GENERATION_MASK + 1);
            int slot = random.nextInt(Integer.MAX_VALUE);
            long id = ElementIds.compose(node, generation, slot);
            assertEquals(node, ElementIds.node(id));
            assertEquals(generation, ElementIds.generation(id));
            assertEquals(slot, ElementIds.slot(id));
        }
    }

    @Test
    void rangeErrorsNameTheBadValue() {
        IllegalArgumentException negativeNode = assertThrows(IllegalArgumentException.class, () -> ElementIds.compose(-1, 1, 1));
        assertTrue(negativeNode.getMessage().contains("node=-1"), negativeNode.getMessage());
        IllegalArgumentException bigNode = assertThrows(IllegalArgumentException.class,
                () -> ElementIds.compose(ElementIds.MAX_NODE + 1, 1, 1));
        assertTrue(bigNode.getMessage().contains("node=" + (ElementIds.MAX_NODE + 1)), bigNode.getMessage());
        IllegalArgumentException negativeSlot = assertThrows(IllegalArgumentException.class, () -> ElementIds.compose(0, 1, -5));
        assertTrue(negativeSlot.getMessage().contains("slot=-5"), negativeSlot.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ElementIds.compose(0, 1, Integer.MIN_VALUE));
    }

    @Test
    void generationStaysInItsFieldAndWraps() {
        // An out-of-field generation never spills into the node bits.
        long id = ElementIds.compose(3, ElementIds.GENERATION_MASK + 2, 9);
        assertEquals(3, ElementIds.node(id));
        assertEquals(1, ElementIds.generation(id));
        assertEquals(9, ElementIds.slot(id));
        assertEquals(1, ElementIds.nextGeneration(0));
        assertEquals(2, ElementIds.nextGeneration(1));
        assertEquals(0, ElementIds.nextGeneration(ElementIds.GENERATION_MASK));
    }

    @Test
    void wellFormednessAndSentinel() {
        assertFalse(ElementIds.isWellFormed(ElementIds.NONE));
        assertFalse(ElementIds.isWellFormed(-1L));
        assertFalse(ElementIds.isWellFormed(Long.MIN_VALUE));
        // A slot with bit 31 set is negative as an int: never an id.
        assertFalse(ElementIds.isWellFormed((1L << ElementIds.NODE_SHIFT) | 0x8000_0000L));
        assertTrue(ElementIds.isWellFormed(ElementIds.compose(0, 1, 0)));
        assertTrue(ElementIds.isWellFormed(ElementIds.compose(0, 0, 1)));
        assertEquals(63, ElementIds.NODE_SHIFT + ElementIds.NODE_BITS, "layout leaves the sign bit clear");
    }

    @Test
    void toStringShowsEveryField() {
        long id = ElementIds.compose(5, 6, 7);
        assertEquals("id=" + id + "(node=5,gen=6,slot=7)", ElementIds.toString(id));
    }
}
