package io.gtran.storage;

/**
 * Edge row-lists: a vertex's adjacency as rows of {@link EdgeCellDescriptor edge cells}, ordered by
 * (neighbour id, edge slot, direction). The direction is part of the key because a self-loop puts
 * an OUT and an IN cell with the same neighbour and edge slot into one list.
 */
final class EdgeRowLists extends RowLists {
    EdgeRowLists(SlotPool rows, SeqLocks locks, int cellsPerRow) {
        super(rows, locks, cellsPerRow, EdgeCellDescriptor.LENGTH, StoreConfig.EDGE_ROWS_MAX);
    }

    @Override
    int compare(long a0, long a1, long b0, long b1) {
        int c = Long.compare(a0, b0);
        if (c != 0) {
            return c;
        }
        c = Integer.compareUnsigned(EdgeCellDescriptor.edgeSlot(a1), EdgeCellDescriptor.edgeSlot(b1));
        return c != 0 ? c : Integer.compare(EdgeCellDescriptor.direction(a1), EdgeCellDescriptor.direction(b1));
    }
}
