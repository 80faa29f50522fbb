package io.gtran.storage;

import static io.gtran.storage.StoreTestSupport.ceilDiv;
import static io.gtran.storage.StoreTestSupport.config;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Row-list structure: order, fill, redistribution, split, merge, compaction; directly and through GraphStore. */
class RowListsTest {
    private static final int HEAD = 0;
    private static final int CAP = 4;

    private final SlotPool owners = new SlotPool("owners", 8, 16, 64);
    private final int owner = newOwner(owners);
    private int cap;
    private SlotPool rowPool;
    private PropertyRowLists lists;

    RowListsTest() {
        use(CAP);
    }

    /** Switches the fixture to fresh rows of {@code cellsPerRow} cells. */
    private void use(int cellsPerRow) {
        if (rowPool != null) {
            lists.clear(owners, owner, HEAD);
            rowPool.close();
        }
        cap = cellsPerRow;
        rowPool = RowLists.newRowPool("rows", cellsPerRow, PropertyCellDescriptor.LENGTH, 16, 100_000);
        lists = new PropertyRowLists(rowPool, new SeqLocks(8), cellsPerRow);
    }

    @AfterEach
    void closePools() {
        owners.close();
        rowPool.close();
    }

    private static int newOwner(SlotPool pool) {
        int slot = pool.allocate();
        pool.putInt(slot, HEAD, RowDescriptor.NO_ROW);
        return slot;
    }

    private boolean insert(int key) {
        return lists.insert(owners, owner, HEAD, PropertyCellDescriptor.word(key, key + 1000), 0L);
    }

    private boolean remove(int key) {
        return lists.remove(owners, owner, HEAD, PropertyCellDescriptor.word(key, 0), 0L);
    }

    private void insertAll(int... keys) {
        for (int key : keys) {
            assertTrue(insert(key), "insert " + key);
        }
    }

    private void removeAll(int... keys) {
        for (int key : keys) {
            assertTrue(remove(key), "remove " + key);
        }
    }

    /** Key ids row by row. */
    private List<List<Integer>> shape() {
        List<List<Integer>> out = new ArrayList<>();
        for (List<Long> row : StoreTestSupport.rows(lists, owners, owner, HEAD)) {
            List<Integer> keys = new ArrayList<>();
            for (long word : row) {
                keys.add(PropertyCellDescriptor.keyId(word));
            }
            out.add(keys);
        }
        return out;
    }

    private static List<List<Integer>> rowsOf(List<?>... rows) {
        List<List<Integer>> out = new ArrayList<>();
        for (List<?> row : rows) {
            List<Integer> r = new ArrayList<>();
            for (Object o : row) {
                r.add((Integer) o);
            }
            out.add(r);
        }
        return out;
    }

    /** Order matches the model, no row is empty or over-full, no two neighbours would fit in one row. */
    private void assertInvariants(TreeSet<Integer> model) {
        List<List<Integer>> rows = shape();
        List<Integer> flat = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            int n = rows.get(i).size();
            assertTrue(n >= 1 && n <= cap, "row " + i + " has " + n + " cells: " + rows);
            if (i > 0) {
                assertTrue(rows.get(i - 1).size() + n > cap, "rows " + (i - 1) + " and " + i + " should have merged: " + rows);
            }
            flat.addAll(rows.get(i));
        }
        assertEquals(new ArrayList<>(model), flat);
        assertEquals(rows.size(), rowPool.liveSlots(), "every live row is linked in the list");
        assertEquals(rows.size(), lists.rowCount(owners, owner, HEAD));
    }

    @ParameterizedTest(name = "{0} cells per row")
    @ValueSource(ints = {2, 3, 4, 7, 16})
    void randomInsertsAndRemovesMatchATreeSet(int cellsPerRow) {
        use(cellsPerRow);
        for (long seed = 1; seed <= 3; seed++) {
            Random random = new Random(seed);
            TreeSet<Integer> model = new TreeSet<>();
            for (int op = 0; op < 2500; op++) {
                int key = random.nextInt(600);
                if (random.nextInt(10) < 7) {
                    assertEquals(model.add(key), insert(key), "insert " + key + " seed " + seed);
                } else {
                    assertEquals(model.remove(key), remove(key), "remove " + key + " seed " + seed);
                }
                if (op % 25 == 0) {
                    assertInvariants(model);
                }
            }
            assertInvariants(model);
            for (int key : model) {
                long word = lists.find(owners, owner, HEAD, key);
                assertEquals(key, PropertyCellDescriptor.keyId(word));
                assertEquals(key + 1000, PropertyCellDescriptor.tupleSlot(word));
            }
            assertEquals(PropertyRowLists.NOT_FOUND, lists.find(owners, owner, HEAD, 600));
            lists.clear(owners, owner, HEAD);
        }
    }

    @Test
    void sequentialAppendsFillEachRowBeforeTakingANewOne() {
        TreeSet<Integer> model = new TreeSet<>();
        for (int i = 0; i < 50; i++) {
            insertAll(i * 3);
            model.add(i * 3);
            assertEquals(ceilDiv(i + 1, CAP), rowPool.liveSlots(), "after " + (i + 1) + " appends");
            List<List<Integer>> rows = shape();
            for (int r = 0; r < rows.size() - 1; r++) {
                assertEquals(CAP, rows.get(r).size(), "row " + r + " of " + rows);
            }
        }
        assertInvariants(model);
    }

    @Test
    void fullRowHandsACellToTheNextRowBeforeSplitting() {
        insertAll(0, 10, 20, 30, 40);
        assertEquals(rowsOf(List.of(0, 10, 20, 30), List.of(40)), shape());
        insertAll(5);
        assertEquals(rowsOf(List.of(0, 5, 10, 20), List.of(30, 40)), shape());
        assertEquals(2, rowPool.liveSlots());
    }

    @Test
    void fullRowHandsACellToThePreviousRowBeforeSplitting() {
        insertAll(0, 10, 20, 30, 40, 5, 50, 60);
        assertEquals(rowsOf(List.of(0, 5, 10, 20), List.of(30, 40, 50, 60)), shape());
        removeAll(10);
        assertEquals(rowsOf(List.of(0, 5, 20), List.of(30, 40, 50, 60)), shape());
        insertAll(45);
        assertEquals(rowsOf(List.of(0, 5, 20, 30), List.of(40, 45, 50, 60)), shape());
        assertEquals(2, rowPool.liveSlots());
    }

    @Test
    void rowSplitsOnlyWhenItsNeighboursAreFull() {
        insertAll(0, 10, 20, 30, 40, 5, 50, 60);
        removeAll(10);
        insertAll(45);
        // Both rows full: the two rows and the new key are spread over three rows.
        insertAll(15);
        assertEquals(rowsOf(List.of(0, 5, 15), List.of(20, 30, 40), List.of(45, 50, 60)), shape());
        insertAll(25, 55);
        assertEquals(rowsOf(List.of(0, 5, 15), List.of(20, 25, 30, 40), List.of(45, 50, 55, 60)), shape());
        // A full tail row with no successor is halved, the new key in the second half.
        insertAll(58);
        assertEquals(rowsOf(List.of(0, 5, 15), List.of(20, 25, 30, 40), List.of(45, 50), List.of(55, 58, 60)), shape());
        assertEquals(4, rowPool.liveSlots());
        // A key that fits a head row with room goes straight in.
        insertAll(1);
        assertEquals(rowsOf(List.of(0, 1, 5, 15), List.of(20, 25, 30, 40), List.of(45, 50), List.of(55, 58, 60)), shape());
    }

    @Test
    void removalMergesWithTheNextThenThePreviousRowAndDropsEmptyRows() {
        insertAll(1, 2, 3, 4, 6, 7, 8, 9, 5);
        assertEquals(rowsOf(List.of(1, 2, 3, 4), List.of(5, 6, 7), List.of(8, 9)), shape());
        assertEquals(3, rowPool.liveSlots());
        removeAll(6);
        assertEquals(rowsOf(List.of(1, 2, 3, 4), List.of(5, 7, 8, 9)), shape());
        assertEquals(2, rowPool.liveSlots(), "the merged-away row is freed");

        insertAll(10, 11);
        removeAll(1, 2);
        insertAll(12, 13);
        assertEquals(rowsOf(List.of(3, 4), List.of(5, 7, 8, 9), List.of(10, 11, 12, 13)), shape());
        removeAll(8);
        assertEquals(rowsOf(List.of(3, 4), List.of(5, 7, 9), List.of(10, 11, 12, 13)), shape());
        removeAll(9);
        assertEquals(rowsOf(List.of(3, 4, 5, 7), List.of(10, 11, 12, 13)), shape());
        assertEquals(2, rowPool.liveSlots());

        removeAll(4, 5, 7);
        assertEquals(rowsOf(List.of(3), List.of(10, 11, 12, 13)), shape());
        removeAll(3);
        assertEquals(rowsOf(List.of(10, 11, 12, 13)), shape(), "an emptied head row is unlinked");
        assertEquals(1, rowPool.liveSlots());

        insertAll(20, 21, 22, 23, 30, 31, 32, 33);
        removeAll(21, 22, 23);
        assertEquals(rowsOf(List.of(10, 11, 12, 13), List.of(20), List.of(30, 31, 32, 33)), shape());
        removeAll(20);
        assertEquals(rowsOf(List.of(10, 11, 12, 13), List.of(30, 31, 32, 33)), shape(), "an emptied middle row is unlinked");
        assertEquals(2, rowPool.liveSlots());
        assertFalse(remove(20), "a missing key is not removed");
        assertFalse(remove(99));
        assertFalse(remove(0));
    }

    @Test
    void compactRepacksDenselyAndFreesTheRest() {
        Random random = new Random(7);
        TreeSet<Integer> model = new TreeSet<>();
        while (model.size() < 300) {
            int key = random.nextInt(10_000);
            assertEquals(model.add(key), insert(key));
        }
        List<Integer> shuffled = new ArrayList<>(model);
        Collections.shuffle(shuffled, random);
        for (int key : shuffled.subList(0, 120)) {
            assertTrue(remove(key));
            model.remove(key);
        }
        int before = rowPool.liveSlots();
        int expected = ceilDiv(model.size(), CAP);
        assertTrue(before > expected, "random inserts leave slack to compact: rows=" + before);
        int freed = lists.compact(owners, owner, HEAD);
        assertEquals(before - expected, freed);
        assertEquals(expected, rowPool.liveSlots(), "freed rows go back to the pool");
        List<List<Integer>> rows = shape();
        assertEquals(expected, rows.size());
        for (int r = 0; r < rows.size() - 1; r++) {
            assertEquals(CAP, rows.get(r).size());
        }
        assertInvariants(model);
        assertEquals(0, lists.compact(owners, owner, HEAD), "a dense list has nothing to free");
        // The compacted list keeps working.
        assertTrue(insert(10_000));
        model.add(10_000);
        assertTrue(remove(model.first()));
        model.pollFirst();
        assertInvariants(model);
    }

    @Test
    void compactAndClearOnEmptyAndFullLists() {
        assertEquals(0, lists.compact(owners, owner, HEAD));
        assertEquals(0, lists.clear(owners, owner, HEAD));
        for (int i = 0; i < 37; i++) {
            insert(i * 7 % 37);
        }
        int rows = rowPool.liveSlots();
        assertEquals(rows, lists.clear(owners, owner, HEAD));
        assertEquals(0, rowPool.liveSlots());
        assertEquals(RowDescriptor.NO_ROW, owners.getInt(owner, HEAD));
        assertEquals(List.of(), shape());
        assertEquals(PropertyRowLists.NOT_FOUND, lists.find(owners, owner, HEAD, 3));
        insertAll(3);
        assertEquals(rowsOf(List.of(3)), shape());
    }

    @Test
    void duplicatesAreRejectedAndLeaveTheCellAlone() {
        insertAll(1, 2, 3, 4, 5, 6, 7, 8, 9);
        List<List<Integer>> before = shape();
        for (int key = 1; key <= 9; key++) {
            assertFalse(lists.insert(owners, owner, HEAD, PropertyCellDescriptor.word(key, 77), 0L), "duplicate " + key);
            assertEquals(key + 1000, PropertyCellDescriptor.tupleSlot(lists.find(owners, owner, HEAD, key)));
        }
        assertEquals(before, shape());
        assertEquals(3, rowPool.liveSlots());
        assertTrue(lists.replaceTuple(owners, owner, HEAD, 4, 1004, 55));
        assertFalse(lists.replaceTuple(owners, owner, HEAD, 4, 1004, 56), "expected tuple no longer linked");
        assertFalse(lists.replaceTuple(owners, owner, HEAD, 40, 1040, 56), "missing key");
        assertEquals(55, PropertyCellDescriptor.tupleSlot(lists.find(owners, owner, HEAD, 4)));
    }

    @Test
    void listsOfDifferentOwnersAreIndependent() {
        int other = newOwner(owners);
        insertAll(1, 2, 3);
        assertTrue(lists.insert(owners, other, HEAD, PropertyCellDescriptor.word(2, 9), 0L));
        assertTrue(lists.remove(owners, other, HEAD, PropertyCellDescriptor.word(2, 0), 0L));
        assertEquals(rowsOf(List.of(1, 2, 3)), shape());
        assertEquals(RowDescriptor.NO_ROW, owners.getInt(other, HEAD));
    }

    @Test
    void edgeCellsOrderOutBeforeInThenByNeighbourThenEdgeSlot() {
        try (SlotPool edgeRows = RowLists.newRowPool("edge-rows", 3, EdgeCellDescriptor.LENGTH, 8, 1000)) {
            EdgeRowLists edges = new EdgeRowLists(edgeRows, new SeqLocks(4), 3);
            int v = newOwner(owners);
            int in = EdgeCellDescriptor.IN;
            int out = EdgeCellDescriptor.OUT;
            long[][] cells = {
                {EdgeCellDescriptor.neighbourWord(in, 50), EdgeCellDescriptor.edgeWord(1, 3)},
                {EdgeCellDescriptor.neighbourWord(out, 20), EdgeCellDescriptor.edgeWord(9, 8)},
                {EdgeCellDescriptor.neighbourWord(out, 50), EdgeCellDescriptor.edgeWord(2, 3)},
                {EdgeCellDescriptor.neighbourWord(out, 20), EdgeCellDescriptor.edgeWord(0, 2)},
                {EdgeCellDescriptor.neighbourWord(out, 50), EdgeCellDescriptor.edgeWord(0, 1)},
                {EdgeCellDescriptor.neighbourWord(in, 10), EdgeCellDescriptor.edgeWord(0, Integer.MAX_VALUE)},
            };
            for (long[] c : cells) {
                assertTrue(edges.insert(owners, v, HEAD, c[0], c[1]));
            }
            // Same direction, neighbour and edge slot: a duplicate, whatever the label.
            assertFalse(edges.insert(owners, v, HEAD, EdgeCellDescriptor.neighbourWord(in, 50), EdgeCellDescriptor.edgeWord(7, 3)));
            List<long[]> expected = new ArrayList<>(List.of(cells));
            expected.sort(Comparator.<long[]>comparingInt(c -> EdgeCellDescriptor.direction(c[0]))
                    .thenComparingLong(c -> EdgeCellDescriptor.neighbour(c[0]))
                    .thenComparingInt(c -> EdgeCellDescriptor.edgeSlot(c[1])));
            RowCursor cursor = new RowCursor(edges);
            cursor.open(owners, v, HEAD);
            for (long[] c : expected) {
                assertTrue(cursor.advance());
                assertEquals(c[0], cursor.word0);
                assertEquals(c[1], cursor.word1);
            }
            assertFalse(cursor.advance());
            assertFalse(cursor.advance(), "an exhausted cursor stays exhausted");
            assertEquals(EdgeCellDescriptor.OUT, EdgeCellDescriptor.direction(expected.get(3)[0]));
            assertEquals(EdgeCellDescriptor.IN, EdgeCellDescriptor.direction(expected.get(4)[0]), "IN cells follow every OUT cell");
            // Removal matches on the key, not the label.
            assertTrue(edges.remove(owners, v, HEAD, EdgeCellDescriptor.neighbourWord(out, 50), EdgeCellDescriptor.edgeWord(0, 3)));
            assertFalse(edges.remove(owners, v, HEAD, EdgeCellDescriptor.neighbourWord(out, 50), EdgeCellDescriptor.edgeWord(0, 3)));
            assertTrue(edges.remove(owners, v, HEAD, EdgeCellDescriptor.neighbourWord(in, 50), EdgeCellDescriptor.edgeWord(0, 3)));
            cursor.open(owners, v, HEAD);
            int n = 0;
            while (cursor.advance()) {
                n++;
            }
            assertEquals(4, n);
        }
    }

    @Test
    void layoutMismatchAndBadCellSizesAreRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new PropertyRowLists(rowPool, new SeqLocks(1), CAP + 1));
        assertTrue(e.getMessage().contains("pool=rows"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new SeqLocks(3));
        assertThrows(IllegalArgumentException.class, () -> new SeqLocks(0));
        assertThrows(IllegalArgumentException.class, () -> EdgeCellDescriptor.neighbourWord(3, 0));
        assertThrows(IllegalArgumentException.class, () -> EdgeCellDescriptor.neighbourWord(EdgeCellDescriptor.OUT, -1));
        assertThrows(IllegalArgumentException.class, () -> EdgeCellDescriptor.edgeWord(-1, 0));
        assertThrows(IllegalArgumentException.class, () -> PropertyCellDescriptor.word(-1, 0));
    }

    @Test
    void seqLocksInvalidateReadersAcrossAWrite() {
        SeqLocks locks = new SeqLocks(16);
        for (int slot = 0; slot < 1000; slot++) {
            int stripe = locks.stripe(VertexHeaderDescriptor.EDGE_ROW_OFFSET, slot);
            assertTrue(stripe >= 0 && stripe < 16 * 8 && stripe % 8 == 0, "stripe " + stripe);
        }
        int stripe = locks.stripe(1, 2);
        long seq = locks.beginRead(stripe);
        assertEquals(0, seq % 2);
        assertTrue(locks.validate(stripe, seq));
        long locked = locks.lock(stripe);
        assertEquals(1, locked % 2);
        assertFalse(locks.validate(stripe, seq));
        locks.unlock(stripe, locked);
        assertFalse(locks.validate(stripe, seq), "a finished write still invalidates older reads");
        long again = locks.beginRead(stripe);
        assertEquals(seq + 2, again);
        assertTrue(locks.validate(stripe, again));
    }

    // ------------------------------------------------------------ through GraphStore

    @Test
    void storeAppendsFillEdgeRows() {
        int cells = 5;
        try (GraphStore store = GraphStore.open(config(StoreConfig.EDGE_ROW_CELLS, cells))) {
            int label = store.labels().intern("e");
            long hub = store.addVertex(label, 1, Long.MAX_VALUE);
            for (int n = 1; n <= 42; n++) {
                long neighbour = store.addVertex(label, 1, Long.MAX_VALUE);
                store.addEdge(hub, neighbour, label, 1, Long.MAX_VALUE);
                assertEquals(ceilDiv(n, cells), store.edgeRowCount(hub), "after " + n + " edges");
                assertEquals(1, store.edgeRowCount(neighbour));
            }
            assertEquals(ceilDiv(42, cells) + 42, (long) store.liveSlots().get("edge-row"));
        }
    }

    @Test
    void storeKeepsRandomAdjacencySortedAndCompacts() {
        int cells = 4;
        Random random = new Random(99);
        try (GraphStore store = GraphStore.open(config(StoreConfig.EDGE_ROW_CELLS, cells))) {
            int label = store.labels().intern("e");
            long hub = store.addVertex(label, 1, Long.MAX_VALUE);
            List<Long> neighbours = new ArrayList<>();
            for (int i = 0; i < 150; i++) {
                neighbours.add(store.addVertex(label, 1, Long.MAX_VALUE));
            }
            // (direction, neighbour, edge slot): OUT cells (0) before IN cells (1).
            Comparator<long[]> order = Comparator.<long[]>comparingLong(c -> c[2]).thenComparingLong(c -> c[0]).thenComparingLong(c -> c[1]);
            TreeSet<long[]> model = new TreeSet<>(order);
            List<Long> edgeIds = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                long neighbour = neighbours.get(random.nextInt(neighbours.size()));
                boolean out = random.nextBoolean();
                long edge = out ? store.addEdge(hub, neighbour, label, 1, 2) : store.addEdge(neighbour, hub, label, 1, 2);
                edgeIds.add(edge);
                assertTrue(model.add(new long[] {neighbour, ElementIds.slot(edge), out ? 0 : 1}));
            }
            Collections.shuffle(edgeIds, random);
            for (long edge : edgeIds.subList(0, 250)) {
                boolean out = store.edgeOutVertex(edge) == hub;
                long other = out ? store.edgeInVertex(edge) : store.edgeOutVertex(edge);
                assertTrue(model.remove(new long[] {other, ElementIds.slot(edge), out ? 0 : 1}));
                store.removeEdge(edge);
            }
            List<long[]> actual = new ArrayList<>();
            for (StoreTestSupport.Cell c : StoreTestSupport.adjacency(store, hub)) {
                actual.add(new long[] {c.neighbour(), c.edgeSlot(), c.direction() == EdgeDirection.OUT ? 0 : 1});
            }
            assertEquals(model.size(), actual.size());
            int i = 0;
            for (long[] expected : model) {
                assertEquals(0, order.compare(expected, actual.get(i++)), "cell " + i);
            }
            int rowsBefore = store.edgeRowCount(hub);
            long liveBefore = store.liveSlots().get("edge-row");
            int expectedRows = ceilDiv(model.size(), cells);
            assertTrue(rowsBefore > expectedRows, "removals leave slack: rows=" + rowsBefore);
            int freed = store.compactEdges(hub);
            assertEquals(rowsBefore - expectedRows, freed);
            assertEquals(expectedRows, store.edgeRowCount(hub));
            assertEquals(liveBefore - freed, (long) store.liveSlots().get("edge-row"));
            List<long[]> after = new ArrayList<>();
            for (StoreTestSupport.Cell c : StoreTestSupport.adjacency(store, hub)) {
                after.add(new long[] {c.neighbour(), c.edgeSlot(), c.direction() == EdgeDirection.OUT ? 0 : 1});
            }
            assertEquals(actual.size(), after.size());
            for (int k = 0; k < after.size(); k++) {
                assertEquals(0, order.compare(actual.get(k), after.get(k)), "compaction keeps cell " + k);
            }
        }
    }
}
