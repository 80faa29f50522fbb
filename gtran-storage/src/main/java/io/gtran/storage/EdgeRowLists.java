package io.gtran.storage;

/**
 * Edge row-lists: a vertex's adjacency as rows of {@link EdgeCellDescriptor edge cells}, ordered by
 * (direction, neighbour id, edge slot): OUT cells first, then IN cells. The direction is part of
 * the key because a self-loop puts an OUT and an IN cell with the same neighbour and edge slot
 * into one list.
 */
final class EdgeRowLists extends RowLists {
    EdgeRowLists(SlotPool rows, SeqLocks locks, int cellsPerRow) {
        super(rows, locks, cellsPerRow, EdgeCellDescriptor.LENGTH, StoreConfig.EDGE_ROWS_MAX);
    }

    @Override
    int compare(long a0, long a1, long b0, long b1) {
        // Unsigned: the IN bit (63) puts every IN cell after every OUT cell.
        int c = Long.compareUnsigned(a0, b0);
        return c != 0 ? c : Integer.compareUnsigned(EdgeCellDescriptor.edgeSlot(a1), EdgeCellDescriptor.edgeSlot(b1));
    }
}
