package io.gtran.storage;

import static io.gtran.storage.StoreTestSupport.ceilDiv;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A list built whole from sorted cells ({@link RowLists#buildSorted}) is the list compaction
 * leaves after inserting the same cells, and stays so under later inserts, removals and
 * compaction; {@link CellSorter} sorts cells into a list's order.
 */
class SortedBuildTest {
    private static final int HEAD = 0;

    private final SlotPool owners = new SlotPool("owners", 8, 16, 64);
    private final int built = newOwner();
    private final int inserted = newOwner();
    private SlotPool rowPool;
    private PropertyRowLists lists;

    @AfterEach
    void closePools() {
        owners.close();
        if (rowPool != null) {
            rowPool.close();
        }
    }

    private int newOwner() {
        int slot = owners.allocate();
        owners.putInt(slot, HEAD, RowDescriptor.NO_ROW);
        return slot;
    }

    private void use(int cellsPerRow, int maxRows) {
        rowPool = RowLists.newRowPool("rows", cellsPerRow, PropertyCellDescriptor.LENGTH, 16, maxRows);
        lists = new PropertyRowLists(rowPool, new SeqLocks(8), cellsPerRow);
    }

    private static long word(int key) {
        return PropertyCellDescriptor.word(key, key + 1000);
    }

    /** Builds {@code keys} (sorted) into {@link #built}; one-word cells, so word 1 is unused. */
    private void build(List<Integer> keys) {
        long[] w0 = keys.stream().mapToLong(SortedBuildTest::word).toArray();
        lists.buildSorted(owners, built, HEAD, w0, new long[w0.length], 0, w0.length);
    }

    private void assertSameRows() {
        assertEquals(StoreTestSupport.rows(lists, owners, inserted, HEAD), StoreTestSupport.rows(lists, owners, built, HEAD));
    }

    @ParameterizedTest(name = "{0} cells per row")
    @ValueSource(ints = {2, 3, 4, 7, 16})
    void aBuiltListIsTheCompactedInsertedOneAndChangesAsIt(int cellsPerRow) {
        use(cellsPerRow, 100_000);
        Random random = new Random(cellsPerRow);
        for (int size : new int[] {1, cellsPerRow - 1, cellsPerRow, cellsPerRow + 1, 5 * cellsPerRow, 5 * cellsPerRow + 1, 333}) {
            TreeSet<Integer> keys = new TreeSet<>();
            while (keys.size() < size) {
                int key = random.nextInt(10_000);
                if (keys.add(key)) {
                    assertTrue(lists.insert(owners, inserted, HEAD, word(key), 0L));
                }
            }
            lists.compact(owners, inserted, HEAD);
            int before = rowPool.liveSlots();
            build(new ArrayList<>(keys));
            assertEquals(ceilDiv(size, cellsPerRow), rowPool.liveSlots() - before, "rows taken for " + size + " cells");
            assertSameRows();
            for (int op = 0; op < 400; op++) {
                int key = random.nextInt(10_000);
                if (random.nextInt(10) < 6) {
                    assertEquals(lists.insert(owners, inserted, HEAD, word(key), 0L), lists.insert(owners, built, HEAD, word(key), 0L));
                } else if (random.nextInt(10) < 9) {
                    assertEquals(lists.remove(owners, inserted, HEAD, word(key), 0L), lists.remove(owners, built, HEAD, word(key), 0L));
                } else {
                    assertEquals(lists.compact(owners, inserted, HEAD), lists.compact(owners, built, HEAD));
                }
                assertSameRows();
            }
            lists.clear(owners, inserted, HEAD);
            lists.clear(owners, built, HEAD);
        }
    }

    @Test
    void aBuildRefusesUnsortedCellsBadRangesAndAnOwnerWithAList() {
        use(4, 100);
        long[] w0 = {word(1), word(2), word(2), word(3)};
        long[] w1 = new long[4];
        IllegalArgumentException twin = assertThrows(IllegalArgumentException.class,
                () -> lists.buildSorted(owners, built, HEAD, w0, w1, 0, 4));
        assertTrue(twin.getMessage().contains("index=2"), twin.getMessage());
        assertThrows(IllegalArgumentException.class, () -> lists.buildSorted(owners, built, HEAD, w0, w1, 3, 5));
        assertThrows(IllegalArgumentException.class, () -> lists.buildSorted(owners, built, HEAD, w0, w1, 2, 1));
        assertEquals(0, rowPool.liveSlots(), "a refused build takes no row");
        lists.buildSorted(owners, built, HEAD, w0, w1, 1, 1);
        assertEquals(RowDescriptor.NO_ROW, owners.getInt(built, HEAD), "an empty range builds nothing");
        lists.buildSorted(owners, built, HEAD, w0, w1, 2, 4);
        IllegalStateException again = assertThrows(IllegalStateException.class, () -> lists.buildSorted(owners, built, HEAD, w0, w1, 0, 1));
        assertTrue(again.getMessage().contains("ownerSlot=" + built), again.getMessage());
        assertEquals(List.of(List.of(word(2), word(3))), StoreTestSupport.rows(lists, owners, built, HEAD));
    }

    @Test
    void aBuildThatRunsOutOfRowsFreesWhatItTookAndLeavesNoList() {
        use(4, 3);
        List<Integer> keys = new ArrayList<>();
        for (int key = 0; key < 13; key++) {
            keys.add(key);
        }
        StoreCapacityException full = assertThrows(StoreCapacityException.class, () -> build(keys));
        assertTrue(full.getMessage().contains("capacity=3"), full.getMessage());
        assertEquals(0, rowPool.liveSlots());
        assertEquals(RowDescriptor.NO_ROW, owners.getInt(built, HEAD));
        build(keys.subList(0, 12));
        assertEquals(3, rowPool.liveSlots(), "the freed rows are taken again");
    }

    @Test
    void theSorterOrdersEdgeCellsAsTheListsCompareThem() {
        try (SlotPool edgeRows = RowLists.newRowPool("edge-rows", 4, EdgeCellDescriptor.LENGTH, 8, 10)) {
            EdgeRowLists edges = new EdgeRowLists(edgeRows, new SeqLocks(4), 4);
            CellSorter sorter = new CellSorter(edges);
            Random random = new Random(5);
            for (int size : new int[] {0, 1, 2, 15, 16, 17, 100, 1000}) {
                for (String shape : List.of("random", "sorted", "reversed")) {
                    List<long[]> cells = new ArrayList<>();
                    for (int i = 0; i < size; i++) {
                        int direction = random.nextBoolean() ? EdgeCellDescriptor.OUT : EdgeCellDescriptor.IN;
                        cells.add(new long[] {EdgeCellDescriptor.neighbourWord(direction, random.nextInt(size / 4 + 1)),
                                EdgeCellDescriptor.edgeWord(random.nextInt(4), i)});
                    }
                    Comparator<long[]> order = (a, b) -> edges.compare(a[0], a[1], b[0], b[1]);
                    List<long[]> expected = new ArrayList<>(cells);
                    expected.sort(order);
                    if (!shape.equals("random")) {
                        cells.sort(shape.equals("sorted") ? order : order.reversed());
                    }
                    long[] w0 = new long[size + 2];
                    long[] w1 = new long[size + 2];
                    for (int i = 0; i < size; i++) {
                        w0[i + 1] = cells.get(i)[0];
                        w1[i + 1] = cells.get(i)[1];
                    }
                    sorter.sort(w0, w1, 1, size + 1);
                    String name = shape + " " + size;
                    assertArrayEquals(expected.stream().mapToLong(c -> c[0]).toArray(), Arrays.copyOfRange(w0, 1, size + 1), name);
                    assertArrayEquals(expected.stream().mapToLong(c -> c[1]).toArray(), Arrays.copyOfRange(w1, 1, size + 1), name);
                    assertEquals(0L, w0[0] | w0[size + 1] | w1[0] | w1[size + 1], "cells outside the range stay");
                }
            }
        }
    }
}
