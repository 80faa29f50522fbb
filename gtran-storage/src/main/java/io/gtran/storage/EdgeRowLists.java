package io.gtran.storage;

import java.lang.ref.Reference;
import java.nio.ByteBuffer;

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
            int head = owners.getIntAcquire(ownerSlot, headField);
            int n = directionMask == EdgeCellDescriptor.OUT && label == EdgeCursor.ANY_LABEL
                    ? scanOutNeighbours(head, out) : scanNeighbours(head, directionMask, label, out);
            if (n >= 0 && locks.validate(stripe, seq)) {
                return n;
            }
        }
        return readNeighboursLocked(owners, ownerSlot, headField, stripe, directionMask, label, out);
    }

    /** Writers kept getting in the way of {@link #readNeighbours}: read under the lock, like a writer. */
    private int readNeighboursLocked(SlotPool owners, int ownerSlot, int headField, int stripe, int directionMask, int label,
            long[] out) {
        long locked = locks.lock(stripe);
        try {
            return scanNeighbours(owners.getInt(ownerSlot, headField), directionMask, label, out);
        } finally {
            locks.unlock(stripe, locked);
        }
    }

    /**
     * {@link #scanNeighbours} for OUT cells of any label, the common case, in the tightest loop:
     * a list's OUT cells come first, so it copies neighbour words until the first IN cell.
     */
    private int scanOutNeighbours(int row, long[] out) {
        int n = 0;
        int rowsSeen = 0;
        int maxRows = rows.highWater();
        int rowLimit = rowLimit(maxRows);
        while (row != RowDescriptor.NO_ROW) {
            if (row < 0 || row >= maxRows || ++rowsSeen > rowLimit) {
                return -1; // a recycled link, or a cycle through recycled rows
            }
            ByteBuffer chunk = rows.buffer(row);
            if (chunk == null) {
                return -1; // a link into a chunk released since (see SlotPool#releaseWhollyFreeChunks)
            }
            long base = DirectMemory.address(chunk) + rows.offset(row);
            int count = DirectMemory.getInt(base + RowDescriptor.COUNT_OFFSET);
            if (count < 0 || count > cellsPerRow) {
                Reference.reachabilityFence(chunk); // after the count's read, as after every read
                return -1;
            }
            long cells = base + RowDescriptor.CELLS_OFFSET;
            if (count > 0 && n + count <= out.length && DirectMemory.getLong(cells + (long) (count - 1) * Long.BYTES) >= 0) {
                // The row's last cell is OUT, so all of them are: copy the row's words whole.
                DirectMemory.copyLongs(cells, out, n, count);
                n += count;
            } else {
                for (int i = 0; i < count; i++) {
                    long w0 = DirectMemory.getLong(cells + (long) i * Long.BYTES);
                    if (w0 < 0) {
                        Reference.reachabilityFence(chunk);
                        return n; // the first IN cell: no OUT cell follows
                    }
                    if (n < out.length) {
                        out[n] = w0;
                    }
                    n++;
                }
            }
            row = DirectMemory.getInt(base + RowDescriptor.NEXT_OFFSET);
            Reference.reachabilityFence(chunk);
        }
        return n;
    }

    /**
     * One pass over the rows; -1 if what it read cannot be a list (a writer moved it: retry).
     * Reads by address ({@link DirectMemory}): a row is used only once its slot is below the
     * pool's high-water mark and its chunk is there (not released), and a cell only below the row's count, once the
     * count is known to be at most the row's capacity; so every read stays inside the chunk,
     * whatever a concurrent writer left in the words.
     */
    private int scanNeighbours(int row, int directionMask, int label, long[] out) {
        boolean wantOut = (directionMask & EdgeDirection.OUT.mask) != 0;
        boolean wantIn = (directionMask & EdgeDirection.IN.mask) != 0;
        boolean anyLabel = label == EdgeCursor.ANY_LABEL;
        int n = 0;
        int rowsSeen = 0;
        int maxRows = rows.highWater();
        int rowLimit = rowLimit(maxRows);
        while (row != RowDescriptor.NO_ROW) {
            if (row < 0 || row >= maxRows || ++rowsSeen > rowLimit) {
                return -1; // a recycled link, or a cycle through recycled rows
            }
            ByteBuffer chunk = rows.buffer(row);
            if (chunk == null) {
                return -1; // a link into a chunk released since (see SlotPool#releaseWhollyFreeChunks)
            }
            long chunkAddress = DirectMemory.address(chunk);
            long base = chunkAddress + rows.offset(row);
            int count = DirectMemory.getInt(base + RowDescriptor.COUNT_OFFSET);
            if (count < 0 || count > cellsPerRow) {
                Reference.reachabilityFence(chunk); // after the count's read, as after every read
                return -1;
            }
            long cells = base + RowDescriptor.CELLS_OFFSET;
            long side = chunkAddress + rows.sideOffset(row);
            for (int i = 0; i < count; i++) {
                long w0 = DirectMemory.getLong(cells + (long) i * Long.BYTES);
                if (w0 < 0) {
                    // IN cells follow every OUT cell.
                    if (!wantIn) {
                        Reference.reachabilityFence(chunk);
                        return n;
                    }
                } else if (!wantOut) {
                    continue;
                }
                if (!anyLabel && EdgeCellDescriptor.label(DirectMemory.getLong(side + (long) i * Long.BYTES)) != label) {
                    continue;
                }
                if (n < out.length) {
                    out[n] = w0 & ~EdgeCellDescriptor.IN_BIT;
                }
                n++;
            }
            row = DirectMemory.getInt(base + RowDescriptor.NEXT_OFFSET);
            Reference.reachabilityFence(chunk);
        }
        return n;
    }

    /**
     * Rows a scan follows before it takes itself to be going round a cycle of recycled rows (a
     * stale reader: -1, retry): no list has more rows than the pool, and none more than fit an int
     * count of cells, so the count never overflows.
     */
    private int rowLimit(int highWater) {
        return Math.min(highWater, Integer.MAX_VALUE / cellsPerRow);
    }

    /** IN cells are the back part: an OUT scan stops at the first one (see {@link RowLists#relocateFront}). */
    @Override
    boolean isBackCell(long w0) {
        return w0 < 0;
    }

    @Override
    int compare(long a0, long a1, long b0, long b1) {
        // Unsigned: the IN bit (63) puts every IN cell after every OUT cell.
        int c = Long.compareUnsigned(a0, b0);
        return c != 0 ? c : Integer.compareUnsigned(EdgeCellDescriptor.edgeSlot(a1), EdgeCellDescriptor.edgeSlot(b1));
    }
}
