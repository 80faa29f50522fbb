// Over 600 lines: insertion, removal, merging, compaction and bulk building share the row-chain invariants and must change together.
package io.gtran.storage;

import static io.gtran.storage.RowDescriptor.CELLS_OFFSET;
import static io.gtran.storage.RowDescriptor.COUNT_OFFSET;
import static io.gtran.storage.RowDescriptor.NEXT_OFFSET;
import static io.gtran.storage.RowDescriptor.NO_ROW;

import java.util.function.IntUnaryOperator;

/**
 * Row-lists: chains of fixed-size rows of fixed-size cells, kept in key order, owned by a header
 * slot of another pool (a vertex or an edge) whose int field holds the head row.
 *
 * <p>Writes take the owner's {@link SeqLocks} stripe; reads are optimistic and validate against
 * it (see {@link RowCursor}). Insertion fills the target row; when it is full, one cell moves to
 * a neighbouring row that has room; only when neither neighbour has room is a new row taken, and
 * then the full row and its full successor are spread over three rows (a lone full tail row is
 * halved), so a new row is taken only when the rows around the insertion point are full. Appends at the tail
 * of a full tail row start a new row and leave every earlier row full. Removal merges a row into
 * its neighbour when both fit in one, and {@link #compact} repacks a whole list densely;
 * {@link #buildSorted} makes a new list in that dense shape from cells sorted beforehand.
 *
 * <p>A cell is one or two 8-byte words (w0, w1); subclasses define the key order of cells.
 */
abstract class RowLists {
    final SlotPool rows;
    final SeqLocks locks;
    final int cellsPerRow;
    final int wordsPerCell;
    private final String capacityKey;

    RowLists(SlotPool rows, SeqLocks locks, int cellsPerRow, int cellBytes, String capacityKey) {
        if (cellBytes != 8 && cellBytes != 16) {
            throw new IllegalArgumentException("cellBytes must be 8 or 16: cellBytes=" + cellBytes);
        }
        if (rows.slotSize() != RowDescriptor.rowLength(cellsPerRow) || rows.sideSize() != RowDescriptor.sideLength(cellsPerRow, cellBytes)) {
            throw new IllegalArgumentException("row pool does not match layout: pool=" + rows.name()
                    + " slotSize=" + rows.slotSize() + " sideSize=" + rows.sideSize() + " expected slotSize="
                    + RowDescriptor.rowLength(cellsPerRow) + " sideSize=" + RowDescriptor.sideLength(cellsPerRow, cellBytes)
                    + " (make it with RowLists.newRowPool)");
        }
        this.rows = rows;
        this.locks = locks;
        this.cellsPerRow = cellsPerRow;
        this.wordsPerCell = cellBytes / Long.BYTES;
        this.capacityKey = capacityKey;
    }

    /**
     * A pool for rows of {@code cellsPerRow} cells of {@code cellBytes} (8 or 16) bytes: each slot
     * a row, with a {@link SlotPool#withSideParts side part} for word 1 of two-word cells. Its
     * chunks hold {@code slotsPerChunk} rows.
     */
    static SlotPool newRowPool(String name, int cellsPerRow, int cellBytes, int slotsPerChunk, int maxRows) {
        int side = RowDescriptor.sideLength(cellsPerRow, cellBytes);
        int row = RowDescriptor.rowLength(cellsPerRow);
        return side == 0 ? new SlotPool(name, row, slotsPerChunk, maxRows) : SlotPool.withSideParts(name, row, side, slotsPerChunk, maxRows);
    }

    /** Orders cells by key: negative, zero or positive as (a0, a1) sorts before, with or after (b0, b1). */
    abstract int compare(long a0, long a1, long b0, long b1);

    // ---------------------------------------------------------------- writes

    /**
     * Inserts a cell in key order. Returns false, changing nothing, if a cell with an equal key is
     * already present.
     *
     * @throws StoreCapacityException if a new row was needed and the row pool is exhausted
     */
    final boolean insert(SlotPool owners, int ownerSlot, int headField, long w0, long w1) {
        int stripe = locks.stripe(headField, ownerSlot);
        long locked = locks.lock(stripe);
        try {
            int head = owners.getInt(ownerSlot, headField);
            if (head == NO_ROW) {
                int row = allocateRow();
                putCell(row, 0, w0, w1);
                rows.putInt(row, COUNT_OFFSET, 1);
                rows.putInt(row, NEXT_OFFSET, NO_ROW);
                owners.putIntRelease(ownerSlot, headField, row);
                return true;
            }
            // Find the row the key belongs in: the first whose last key is not below it, unless the
            // key falls in the gap before the next row and this row still has room.
            int prev = NO_ROW;
            int row = head;
            while (true) {
                int count = count(row);
                int next = next(row);
                if (next == NO_ROW || compareToCell(w0, w1, row, count - 1) <= 0) {
                    break;
                }
                if (count < cellsPerRow && compareToCell(w0, w1, next, 0) < 0) {
                    break;
                }
                prev = row;
                row = next;
            }
            int count = count(row);
            int pos = searchPosition(row, count, w0, w1);
            if (pos < count && compareToCell(w0, w1, row, pos) == 0) {
                return false;
            }
            if (count < cellsPerRow) {
                shiftRight(row, pos, count);
                putCell(row, pos, w0, w1);
                rows.putInt(row, COUNT_OFFSET, count + 1);
                return true;
            }
            insertIntoFullRow(prev, row, pos, w0, w1);
            return true;
        } finally {
            locks.unlock(stripe, locked);
        }
    }

    private void insertIntoFullRow(int prev, int row, int pos, long w0, long w1) {
        int next = next(row);
        if (pos > 0 && prev != NO_ROW && count(prev) < cellsPerRow) {
            // Make room by moving this row's first cell to the end of the previous row.
            int prevCount = count(prev);
            copyCell(row, 0, prev, prevCount);
            rows.putInt(prev, COUNT_OFFSET, prevCount + 1);
            shiftLeft(row, 1, pos);
            putCell(row, pos - 1, w0, w1);
            return;
        }
        if (next != NO_ROW && count(next) < cellsPerRow) {
            int nextCount = count(next);
            shiftRight(next, 0, nextCount);
            if (pos == cellsPerRow) {
                // The key sorts after every cell of this row: it opens the next row.
                putCell(next, 0, w0, w1);
            } else {
                copyCell(row, cellsPerRow - 1, next, 0);
                shiftRight(row, pos, cellsPerRow - 1);
                putCell(row, pos, w0, w1);
            }
            rows.putInt(next, COUNT_OFFSET, nextCount + 1);
            return;
        }
        int fresh = allocateRow();
        if (next != NO_ROW) {
            spreadOverThreeRows(prev, row, fresh, next, pos, w0, w1);
            return;
        }
        rows.putInt(fresh, NEXT_OFFSET, next);
        if (pos == cellsPerRow) {
            // Appending past a full row keeps it full and starts a new one.
            putCell(fresh, 0, w0, w1);
            rows.putInt(fresh, COUNT_OFFSET, 1);
        } else {
            int keep = (cellsPerRow + 1) / 2;
            int moved = cellsPerRow - keep;
            for (int i = 0; i < moved; i++) {
                copyCell(row, keep + i, fresh, i);
            }
            if (pos <= keep) {
                shiftRight(row, pos, keep);
                putCell(row, pos, w0, w1);
                rows.putInt(row, COUNT_OFFSET, keep + 1);
                rows.putInt(fresh, COUNT_OFFSET, moved);
            } else {
                int at = pos - keep;
                shiftRight(fresh, at, moved);
                putCell(fresh, at, w0, w1);
                rows.putInt(row, COUNT_OFFSET, keep);
                rows.putInt(fresh, COUNT_OFFSET, moved + 1);
            }
        }
        rows.putInt(row, NEXT_OFFSET, fresh);
    }

    /**
     * This row and the next are full: their cells and the new one are spread evenly over this row,
     * a fresh row linked between them, and the next row (as a B*-tree splits two full nodes into
     * three), so rows stay about two-thirds full rather than half full after a split.
     */
    private void spreadOverThreeRows(int prev, int row, int fresh, int next, int pos, long w0, long w1) {
        int total = 2 * cellsPerRow + 1;
        long[] cells = new long[total * 2];
        int n = 0;
        for (int i = 0; i <= cellsPerRow; i++) {
            if (i == pos) {
                cells[n++] = w0;
                cells[n++] = w1;
            }
            if (i < cellsPerRow) {
                cells[n++] = word0(row, i);
                cells[n++] = word1(row, i);
            }
        }
        for (int i = 0; i < cellsPerRow; i++) {
            cells[n++] = word0(next, i);
            cells[n++] = word1(next, i);
        }
        int first = (total + 2) / 3;
        int second = (total - first + 1) / 2;
        int third = total - first - second;
        int from = fillRow(row, cells, 0, first);
        from = fillRow(fresh, cells, from, second);
        fillRow(next, cells, from, third);
        rows.putInt(fresh, NEXT_OFFSET, next);
        rows.putInt(row, NEXT_OFFSET, fresh);
        // The outer rows now have room: keep "no two neighbouring rows fit in one" at both ends.
        int after = next(next);
        if (after != NO_ROW && third + count(after) <= cellsPerRow) {
            appendRow(next, after);
            rows.putInt(next, NEXT_OFFSET, next(after));
            rows.free(after);
        }
        if (prev != NO_ROW && count(prev) + first <= cellsPerRow) {
            appendRow(prev, row);
            rows.putInt(prev, NEXT_OFFSET, fresh);
            rows.free(row);
        }
    }

    /** Writes {@code count} cells from {@code cells} starting at cell {@code from}; returns the cell after them. */
    private int fillRow(int row, long[] cells, int from, int count) {
        for (int i = 0; i < count; i++) {
            putCell(row, i, cells[(from + i) * 2], cells[(from + i) * 2 + 1]);
        }
        rows.putInt(row, COUNT_OFFSET, count);
        return from + count;
    }

    /**
     * Returned by {@link #removeCell} when no cell has the key. No cell's first word can equal it:
     * property cells have a non-negative key id in their top bits, and an edge cell with this
     * word would be an IN cell from neighbour 0, which is never an id.
     */
    static final long NOT_REMOVED = Long.MIN_VALUE;

    /**
     * Removes the cell whose key equals (w0, w1), merging its row with a neighbour when the two
     * then fit in one row and freeing a row that becomes empty. Returns false if no such cell.
     */
    final boolean remove(SlotPool owners, int ownerSlot, int headField, long w0, long w1) {
        return removeCell(owners, ownerSlot, headField, w0, w1) != NOT_REMOVED;
    }

    /**
     * As {@link #remove}, returning the removed cell's first word as it was stored (for a property
     * cell, with its version link), or {@link #NOT_REMOVED}.
     */
    final long removeCell(SlotPool owners, int ownerSlot, int headField, long w0, long w1) {
        return removeCellIf(owners, ownerSlot, headField, w0, w1, ANY_WORD);
    }

    /** Matches any stored first word in {@link #removeCellIf}. */
    static final long ANY_WORD = Long.MIN_VALUE;

    /**
     * As {@link #removeCell}, but removes the cell only if its stored first word equals
     * {@code expectedWord0} (or that is {@link #ANY_WORD}): a compare-and-remove.
     */
    final long removeCellIf(SlotPool owners, int ownerSlot, int headField, long w0, long w1, long expectedWord0) {
        int stripe = locks.stripe(headField, ownerSlot);
        long locked = locks.lock(stripe);
        try {
            int prev = NO_ROW;
            int row = owners.getInt(ownerSlot, headField);
            while (row != NO_ROW) {
                int count = count(row);
                if (compareToCell(w0, w1, row, count - 1) <= 0) {
                    int pos = searchPosition(row, count, w0, w1);
                    if (pos == count || compareToCell(w0, w1, row, pos) != 0) {
                        return NOT_REMOVED;
                    }
                    long removed = word0(row, pos);
                    if (expectedWord0 != ANY_WORD && removed != expectedWord0) {
                        return NOT_REMOVED;
                    }
                    shiftLeft(row, pos + 1, count);
                    rows.putInt(row, COUNT_OFFSET, count - 1);
                    mergeAround(owners, ownerSlot, headField, prev, row);
                    return removed;
                }
                prev = row;
                row = next(row);
            }
            return NOT_REMOVED;
        } finally {
            locks.unlock(stripe, locked);
        }
    }

    /** After a removal from {@code row}: drop it if empty, else merge it with a neighbour that fits. */
    private void mergeAround(SlotPool owners, int ownerSlot, int headField, int prev, int row) {
        int count = count(row);
        int next = next(row);
        if (count == 0) {
            unlink(owners, ownerSlot, headField, prev, row, next);
            return;
        }
        if (next != NO_ROW && count + count(next) <= cellsPerRow) {
            appendRow(row, next);
            rows.putInt(row, NEXT_OFFSET, next(next));
            rows.free(next);
            return;
        }
        if (prev != NO_ROW && count(prev) + count <= cellsPerRow) {
            appendRow(prev, row);
            unlink(owners, ownerSlot, headField, prev, row, next);
        }
    }

    /**
     * Repacks the list so that every row but the last is full, freeing the rows no longer needed.
     * Returns the number of rows freed. Cell order is unchanged.
     */
    final int compact(SlotPool owners, int ownerSlot, int headField) {
        int stripe = locks.stripe(headField, ownerSlot);
        long locked = locks.lock(stripe);
        try {
            return compactLocked(owners, ownerSlot, headField);
        } finally {
            locks.unlock(stripe, locked);
        }
    }

    /** {@link #compact} for a caller that holds the list's stripe. */
    private int compactLocked(SlotPool owners, int ownerSlot, int headField) {
        int head = owners.getInt(ownerSlot, headField);
        if (head == NO_ROW) {
            return 0;
        }
        // The write position never passes the read position, so copying in place is safe.
        int writeRow = head;
        int writePos = 0;
        int readRow = head;
        while (readRow != NO_ROW) {
            int count = count(readRow);
            for (int i = 0; i < count; i++) {
                if (writePos == cellsPerRow) {
                    rows.putInt(writeRow, COUNT_OFFSET, cellsPerRow);
                    writeRow = next(writeRow);
                    writePos = 0;
                }
                if (writeRow != readRow || writePos != i) {
                    copyCell(readRow, i, writeRow, writePos);
                }
                writePos++;
            }
            readRow = next(readRow);
        }
        if (writePos == 0) {
            // Every cell was removed: the list is empty.
            owners.putIntRelease(ownerSlot, headField, NO_ROW);
            return freeChain(head);
        }
        rows.putInt(writeRow, COUNT_OFFSET, writePos);
        int rest = next(writeRow);
        rows.putInt(writeRow, NEXT_OFFSET, NO_ROW);
        return freeChain(rest);
    }

    /**
     * Builds the whole list of an owner that has none from cells already in key order: cell i is
     * {@code (w0[i], w1[i])} for {@code from <= i < to}, each sorting after the one before. They
     * fill fresh rows front to back, every row full but the last, each linked to the next, and the
     * owner's field is set to the first row once all are written: the list {@link #compact} leaves,
     * made in one pass instead of one {@link #insert} (a walk from the head) a cell. Nothing for an
     * empty range. A later insert into a full row hands a cell on or spreads rows, as after
     * {@code compact}.
     *
     * @throws IllegalArgumentException naming the index if a cell does not sort after the one
     *                                  before it (an equal one included); nothing is built
     * @throws IllegalStateException    if the owner has a list already
     * @throws StoreCapacityException   if the row pool runs out; the rows taken are freed and the
     *                                  owner keeps no list
     */
    final void buildSorted(SlotPool owners, int ownerSlot, int headField, long[] w0, long[] w1, int from, int to) {
        if (from < 0 || to < from || to > w0.length || to > w1.length) {
            throw new IllegalArgumentException("cell range out of bounds: from=" + from + " to=" + to + " w0.length="
                    + w0.length + " w1.length=" + w1.length);
        }
        for (int i = from + 1; i < to; i++) {
            if (compare(w0[i - 1], w1[i - 1], w0[i], w1[i]) >= 0) {
                throw new IllegalArgumentException("cells must be in strictly increasing key order: index=" + i
                        + " does not sort after index=" + (i - 1));
            }
        }
        if (from == to) {
            return;
        }
        int stripe = locks.stripe(headField, ownerSlot);
        long locked = locks.lock(stripe);
        try {
            if (owners.getInt(ownerSlot, headField) != NO_ROW) {
                throw new IllegalStateException("the owner has a list already: ownerSlot=" + ownerSlot);
            }
            int head = NO_ROW;
            int last = NO_ROW;
            for (int at = from; at < to; at += cellsPerRow) {
                int row = rows.allocate();
                if (row == SlotPool.NO_SLOT) {
                    freeChain(head);
                    throw StoreCapacityException.poolExhausted(rows, capacityKey);
                }
                int count = Math.min(cellsPerRow, to - at);
                for (int i = 0; i < count; i++) {
                    putCell(row, i, w0[at + i], w1[at + i]);
                }
                rows.putInt(row, COUNT_OFFSET, count);
                rows.putInt(row, NEXT_OFFSET, NO_ROW);
                if (last == NO_ROW) {
                    head = row;
                } else {
                    rows.putInt(last, NEXT_OFFSET, row);
                }
                last = row;
            }
            owners.putIntRelease(ownerSlot, headField, head);
        } finally {
            locks.unlock(stripe, locked);
        }
    }

    /**
     * Moves the list into consecutive fresh rows, every one full but the last, and frees the old
     * rows: a scan of the list then reads memory front to back. A list longer than a chunk gets
     * one run per chunk, chained. Returns the number of rows the list shrank by (possibly 0).
     * Falls back to {@link #compact} in place when the pool has no fresh slots for the runs. A
     * list already laid out this way is left where it is.
     */
    final int relocate(SlotPool owners, int ownerSlot, int headField) {
        return relocate(owners, ownerSlot, headField, NO_ROW, false, false, true);
    }

    /**
     * The first step of a split relocation: as {@link #relocate}, but only the list's front part
     * goes into fresh runs; the back part is packed into the first of the list's old rows (no fresh
     * memory, so the next list's front part follows this one's directly), for {@link #relocateBack}
     * to lay out later. The front part is every row up to and including the one that holds the
     * first {@link #isBackCell back cell}, so a scan that stops at that cell reads the front part
     * only. The fresh runs start at {@code wantedHead} if the pool's next run does, else at the
     * start of a chunk ({@link SlotPool#allocateRunFrom}). If {@code mayStay}, a packed list whose
     * front part already lies where {@link #placedAt} accepts for {@code wantedHead} and
     * {@code follows} is left where it is. Returns the number of rows the list shrank by.
     */
    final int relocateFront(SlotPool owners, int ownerSlot, int headField, int wantedHead, boolean follows, boolean mayStay) {
        return relocate(owners, ownerSlot, headField, wantedHead, true, follows, mayStay);
    }

    /**
     * True for a cell of a list's back part. Cells are in key order, so back cells follow every
     * front cell. No cell is a back cell unless a subclass says so.
     */
    boolean isBackCell(long w0) {
        return false;
    }

    private int relocate(SlotPool owners, int ownerSlot, int headField, int wantedHead, boolean split, boolean follows,
            boolean mayStay) {
        int stripe = locks.stripe(headField, ownerSlot);
        long locked = locks.lock(stripe);
        try {
            int head = owners.getInt(ownerSlot, headField);
            if (head == NO_ROW) {
                return 0;
            }
            int cells = 0;
            int firstBack = -1; // cell index of the first back cell, -1 if none
            int oldRows = 0;
            for (int row = head; row != NO_ROW; row = next(row)) {
                int count = count(row);
                if (split && firstBack < 0 && count > 0 && isBackCell(word0(row, count - 1))) {
                    for (int i = 0; i < count; i++) {
                        if (isBackCell(word0(row, i))) {
                            firstBack = cells + i;
                            break;
                        }
                    }
                }
                cells += count;
                oldRows++;
            }
            if (cells == 0) {
                return compactLocked(owners, ownerSlot, headField); // only empty rows: frees them
            }
            int needed = (cells + cellsPerRow - 1) / cellsPerRow;
            // Front rows: through the one that holds the first back cell, once the list is packed.
            int front = !split ? needed : firstBack < 0 ? needed : firstBack / cellsPerRow + 1;
            if (mayStay && placedAt(head, wantedHead, follows) && laidOut(head, front)) {
                return 0;
            }
            int[] target = new int[needed];
            if (!takeRuns(target, front, wantedHead)) {
                return compactLocked(owners, ownerSlot, headField);
            }
            int taken = front;
            // The back part reuses the old rows, in list order. Cell g is read from old row g / cells
            // per row or later, and written to old row g / cells per row - front or earlier: never
            // over a cell not yet read, and the old rows' links are rewritten only after the copy.
            int[] old = new int[oldRows];
            int o = 0;
            for (int row = head; row != NO_ROW; row = next(row)) {
                old[o++] = row;
            }
            for (int r = 0; taken < needed; r++) {
                target[taken++] = old[r];
            }
            int written = 0;
            for (int row = head; row != NO_ROW; row = next(row)) {
                int count = count(row);
                for (int i = 0; i < count; i++, written++) {
                    copyCell(row, i, target[written / cellsPerRow], written % cellsPerRow);
                }
            }
            for (int r = 0; r < needed; r++) {
                rows.putInt(target[r], COUNT_OFFSET, r < needed - 1 ? cellsPerRow : cells - r * cellsPerRow);
                rows.putInt(target[r], NEXT_OFFSET, r < needed - 1 ? target[r + 1] : NO_ROW);
            }
            owners.putIntRelease(ownerSlot, headField, target[0]);
            for (int r = needed - front; r < oldRows; r++) {
                rows.free(old[r]); // old rows the back part did not reuse
            }
            return oldRows - needed;
        } finally {
            locks.unlock(stripe, locked);
        }
    }

    /**
     * True when the list is packed (every row full but the last) and its first {@code front} rows
     * are consecutive but where a run had to start on a new chunk.
     */
    private boolean laidOut(int head, int front) {
        int perRun = rows.slotsPerChunk();
        int jumps = 0;
        int index = 0;
        for (int row = head; row != NO_ROW; row = next(row), index++) {
            int next = next(row);
            if (next == NO_ROW) {
                break;
            }
            if (count(row) != cellsPerRow) {
                return false;
            }
            if (index + 1 < front && next != row + 1) {
                jumps++;
            }
        }
        return jumps <= (front - 1) / perRun;
    }

    /**
     * True when a part starting at {@code first} lies where a pass laying parts out one after
     * another puts it ({@code wanted} {@link RowDescriptor#NO_ROW}: anywhere). Unless it
     * {@code follows} another part, only at {@code wanted}, where its region starts. If it does,
     * the previous part having ended just before {@code wanted}: there, or at the start of a
     * chunk, where a run goes that could not start there ({@link SlotPool#allocateRunFrom}).
     */
    private boolean placedAt(int first, int wanted, boolean follows) {
        if (wanted == NO_ROW) {
            return true;
        }
        return first == wanted || (follows && rows.startsChunk(first));
    }

    /**
     * Fills {@code target[0 .. count)} with fresh consecutive rows, one run per chunk, the first
     * at {@code wanted} if the pool's next run starts there (see {@link SlotPool#allocateRunFrom};
     * {@link RowDescriptor#NO_ROW}: anywhere). If the pool has no room, frees what it took and
     * returns false.
     */
    private boolean takeRuns(int[] target, int count, int wanted) {
        int perRun = rows.slotsPerChunk();
        int taken = 0;
        int from = wanted < 0 ? SlotPool.NO_SLOT : wanted;
        while (taken < count) {
            int length = Math.min(perRun, count - taken);
            int run = rows.allocateRunFrom(from, length);
            if (run == SlotPool.NO_SLOT) {
                for (int r = 0; r < taken; r++) {
                    rows.free(target[r]);
                }
                return false;
            }
            for (int k = 0; k < length; k++) {
                target[taken++] = run + k;
            }
            from = run + length;
        }
        return true;
    }

    /**
     * The second step of a split relocation: moves the back part of the list (the rows after the
     * one holding the first back cell, see {@link #relocateFront}) into consecutive fresh rows,
     * one run per chunk, row by row as they are, the first at {@code wantedBack} if the pool's next
     * run starts there. If {@code mayStay}, a back part already consecutive and lying where
     * {@link #placedAt} accepts for {@code wantedBack} and {@code follows} is left where it is. Falls back to leaving the
     * list as it is when the pool has no fresh slots. Returns the slot just past the back part's
     * last row, or {@link RowDescriptor#NO_ROW} if the list has no back part.
     */
    final int relocateBack(SlotPool owners, int ownerSlot, int headField, int wantedBack, boolean follows, boolean mayStay) {
        int stripe = locks.stripe(headField, ownerSlot);
        long locked = locks.lock(stripe);
        try {
            int lastFront = lastFrontRow(owners.getInt(ownerSlot, headField));
            if (lastFront == NO_ROW || next(lastFront) == NO_ROW) {
                return NO_ROW;
            }
            int first = next(lastFront);
            int back = 0;
            int jumps = 0;
            int tail = first;
            for (int row = first; row != NO_ROW; row = next(row)) {
                back++;
                tail = row;
                if (next(row) != NO_ROW && next(row) != row + 1) {
                    jumps++;
                }
            }
            if (mayStay && placedAt(first, wantedBack, follows) && jumps <= (back - 1) / rows.slotsPerChunk()) {
                return tail + 1;
            }
            int[] target = new int[back];
            if (!takeRuns(target, back, wantedBack)) {
                return tail + 1;
            }
            int r = 0;
            for (int row = first; row != NO_ROW; row = next(row), r++) {
                int count = count(row);
                for (int i = 0; i < count; i++) {
                    copyCell(row, i, target[r], i);
                }
                rows.putInt(target[r], COUNT_OFFSET, count);
                rows.putInt(target[r], NEXT_OFFSET, r < back - 1 ? target[r + 1] : NO_ROW);
            }
            rows.putInt(lastFront, NEXT_OFFSET, target[0]);
            freeChain(first);
            return target[back - 1] + 1;
        } finally {
            locks.unlock(stripe, locked);
        }
    }

    /** The row holding the list's first back cell, or its last row if it has none; NO_ROW if empty. */
    private int lastFrontRow(int head) {
        int row = head;
        while (row != NO_ROW) {
            int count = count(row);
            int next = next(row);
            if (next == NO_ROW || (count > 0 && isBackCell(word0(row, count - 1)))) {
                return row;
            }
            row = next;
        }
        return NO_ROW;
    }

    /** The first row of the list's back part (see {@link #relocateBack}), or NO_ROW if it has none. */
    final int firstBackRow(SlotPool owners, int ownerSlot, int headField) {
        return readLocked(owners, ownerSlot, headField, head -> {
            int lastFront = lastFrontRow(head);
            return lastFront == NO_ROW ? NO_ROW : next(lastFront);
        });
    }

    /** The row slot just past the list's front part (see {@link #relocateFront}), or NO_ROW for an empty list. */
    final int rowAfterFront(SlotPool owners, int ownerSlot, int headField) {
        return readLocked(owners, ownerSlot, headField, head -> {
            int lastFront = lastFrontRow(head);
            return lastFront == NO_ROW ? NO_ROW : lastFront + 1;
        });
    }

    /** Applies {@code read} to the list's head row under the list's stripe: for compaction and statistics, not hot paths. */
    private int readLocked(SlotPool owners, int ownerSlot, int headField, IntUnaryOperator read) {
        int stripe = locks.stripe(headField, ownerSlot);
        long locked = locks.lock(stripe);
        try {
            return read.applyAsInt(owners.getInt(ownerSlot, headField));
        } finally {
            locks.unlock(stripe, locked);
        }
    }

    /** Frees {@code row} and every row after it; the caller has unlinked them. Returns how many. */
    private int freeChain(int row) {
        int freed = 0;
        while (row != NO_ROW) {
            int next = next(row);
            rows.free(row);
            freed++;
            row = next;
        }
        return freed;
    }

    private void freeRun(int first, int length) {
        for (int row = first; row < first + length; row++) {
            rows.free(row);
        }
    }

    /** Frees every row of the list and empties it. Returns the number of rows freed. */
    final int clear(SlotPool owners, int ownerSlot, int headField) {
        int stripe = locks.stripe(headField, ownerSlot);
        long locked = locks.lock(stripe);
        try {
            int head = owners.getInt(ownerSlot, headField);
            owners.putIntRelease(ownerSlot, headField, NO_ROW);
            return freeChain(head);
        } finally {
            locks.unlock(stripe, locked);
        }
    }

    // ---------------------------------------------------------------- statistics

    /** Rows in the list, counted under the lock; for tests and statistics, not hot paths. */
    final int rowCount(SlotPool owners, int ownerSlot, int headField) {
        return readLocked(owners, ownerSlot, headField, head -> {
            int n = 0;
            for (int row = head; row != NO_ROW; row = next(row)) {
                n++;
            }
            return n;
        });
    }

    // ---------------------------------------------------------------- cell helpers

    final int count(int row) {
        return rows.getInt(row, COUNT_OFFSET);
    }

    final int next(int row) {
        return rows.getInt(row, NEXT_OFFSET);
    }

    final long word0(int row, int cell) {
        return rows.getLong(row, RowDescriptor.cellOffset(cell));
    }

    final long word1(int row, int cell) {
        return wordsPerCell == 2 ? rows.getSideLong(row, RowDescriptor.sideCellOffset(cell)) : 0L;
    }

    final void putCell(int row, int cell, long w0, long w1) {
        rows.putLong(row, RowDescriptor.cellOffset(cell), w0);
        if (wordsPerCell == 2) {
            rows.putSideLong(row, RowDescriptor.sideCellOffset(cell), w1);
        }
    }

    final int compareToCell(long w0, long w1, int row, int cell) {
        return compare(w0, w1, word0(row, cell), word1(row, cell));
    }

    /** First position in the row whose cell does not sort before (w0, w1). */
    final int searchPosition(int row, int count, long w0, long w1) {
        int lo = 0;
        int hi = count;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (compareToCell(w0, w1, row, mid) > 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    final void copyCell(int fromRow, int fromCell, int toRow, int toCell) {
        putCell(toRow, toCell, word0(fromRow, fromCell), word1(fromRow, fromCell));
    }

    /** Moves cells [from, to) one position right. */
    private void shiftRight(int row, int from, int to) {
        for (int i = to; i > from; i--) {
            copyCell(row, i - 1, row, i);
        }
    }

    /** Moves cells [from, to) one position left. */
    private void shiftLeft(int row, int from, int to) {
        for (int i = from; i < to; i++) {
            copyCell(row, i, row, i - 1);
        }
    }

    /** Appends every cell of {@code source} to {@code target}; the caller has checked they fit. */
    private void appendRow(int target, int source) {
        int targetCount = count(target);
        int sourceCount = count(source);
        for (int i = 0; i < sourceCount; i++) {
            copyCell(source, i, target, targetCount + i);
        }
        rows.putInt(target, COUNT_OFFSET, targetCount + sourceCount);
    }

    private void unlink(SlotPool owners, int ownerSlot, int headField, int prev, int row, int next) {
        if (prev == NO_ROW) {
            owners.putIntRelease(ownerSlot, headField, next);
        } else {
            rows.putInt(prev, NEXT_OFFSET, next);
        }
        rows.free(row);
    }

    private int allocateRow() {
        int row = rows.allocate();
        if (row == SlotPool.NO_SLOT) {
            throw StoreCapacityException.poolExhausted(rows, capacityKey);
        }
        return row;
    }
}
