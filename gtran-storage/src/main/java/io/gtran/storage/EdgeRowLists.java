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

    /** Optimistic attempts before {@link #readNeighbours} takes the stripe lock to guarantee progress. */
    private static final int OPTIMISTIC_ATTEMPTS = 8;

    /**
     * Copies the neighbour ids of the list's cells that match {@code directionMask} (bit 1 OUT,
     * bit 2 IN) and {@code label} ({@link EdgeCursor#ANY_LABEL} for any) into {@code out}, in list
     * order, as one consistent snapshot of the list. Returns the number of matching cells; if that
     * is more than {@code out.length}, only the first {@code out.length} were written and the
     * caller should retry with a larger array.
     */
    int readNeighbours(SlotPool owners, int ownerSlot, int headField, int directionMask, int label, long[] out) {
        int stripe = locks.stripe(headField, ownerSlot);
        for (int attempt = 0; attempt < OPTIMISTIC_ATTEMPTS; attempt++) {
            long seq = locks.beginRead(stripe);
            int n = scanNeighbours(owners.getIntAcquire(ownerSlot, headField), directionMask, label, out);
            if (n >= 0 && locks.validate(stripe, seq)) {
                return n;
            }
        }
        // Writers kept getting in the way: read under the lock, like a writer.
        long locked = locks.lock(stripe);
        try {
            return scanNeighbours(owners.getInt(ownerSlot, headField), directionMask, label, out);
        } finally {
            locks.unlock(stripe, locked);
        }
    }

    /** One pass over the rows; -1 if what it read cannot be a list (a writer moved it: retry). */
    private int scanNeighbours(int row, int directionMask, int label, long[] out) {
        boolean wantOut = (directionMask & EdgeDirection.OUT.mask) != 0;
        boolean wantIn = (directionMask & EdgeDirection.IN.mask) != 0;
        int n = 0;
        int rowsSeen = 0;
        int maxRows = rows.highWater();
        while (row != RowDescriptor.NO_ROW) {
            java.nio.ByteBuffer memory = rows.inRange(row) ? rows.buffer(row) : null;
            if (memory == null || ++rowsSeen > maxRows) {
                return -1; // a recycled link, or a cycle through recycled rows
            }
            int base = rows.offset(row);
            int count = memory.getInt(base + RowDescriptor.COUNT_OFFSET);
            if (count < 0 || count > cellsPerRow) {
                return -1;
            }
            int at = base + RowDescriptor.CELLS_OFFSET;
            for (int i = 0; i < count; i++, at += EdgeCellDescriptor.LENGTH) {
                long w0 = memory.getLong(at);
                if (w0 < 0) {
                    // IN cells follow every OUT cell.
                    if (!wantIn) {
                        return n;
                    }
                } else if (!wantOut) {
                    continue;
                }
                if (label != EdgeCursor.ANY_LABEL
                        && EdgeCellDescriptor.label(memory.getLong(at + EdgeCellDescriptor.EDGE_WORD_OFFSET)) != label) {
                    continue;
                }
                if (n < out.length) {
                    out[n] = w0 & ~EdgeCellDescriptor.IN_BIT;
                }
                n++;
            }
            row = memory.getInt(base + RowDescriptor.NEXT_OFFSET);
        }
        return n;
    }

    @Override
    int compare(long a0, long a1, long b0, long b1) {
        // Unsigned: the IN bit (63) puts every IN cell after every OUT cell.
        int c = Long.compareUnsigned(a0, b0);
        return c != 0 ? c : Integer.compareUnsigned(EdgeCellDescriptor.edgeSlot(a1), EdgeCellDescriptor.edgeSlot(b1));
    }
}
