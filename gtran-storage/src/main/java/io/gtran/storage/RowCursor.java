package io.gtran.storage;

import static io.gtran.storage.RowDescriptor.COUNT_OFFSET;
import static io.gtran.storage.RowDescriptor.NEXT_OFFSET;
import static io.gtran.storage.RowDescriptor.NO_ROW;

import java.nio.ByteBuffer;

/**
 * Pull-style optimistic reader of one row-list. Never blocks a writer.
 *
 * <p>It copies one row's cells at a time and hands them out only after checking that no writer
 * touched the list's stripe meanwhile. If one did, it starts again from the head and skips every
 * cell whose key is not after the last cell it already returned; since cells are in key order and
 * keys are unique, each cell present throughout the scan is returned exactly once, in order,
 * even across concurrent inserts, removals, splits and compaction.
 *
 * <p>A cursor is reusable ({@link #open}) and not thread-safe.
 */
class RowCursor {
    private final RowLists lists;
    private final long[] buffer;
    private SlotPool owners;
    private int ownerSlot;
    private int headField;
    private int stripe;
    private long seq;
    private int nextRow;
    private int buffered;
    private int position;
    private boolean started;
    /** Set by a restart after cells were returned: skip cells up to (last0, last1). */
    private boolean skipping;
    private boolean hasLast;
    private long last0;
    private long last1;
    /** The current cell's words, valid after {@link #advance()} returned true. */
    long word0;
    long word1;

    RowCursor(RowLists lists) {
        this.lists = lists;
        this.buffer = new long[lists.cellsPerRow * 2];
    }

    /** Positions the cursor before the first cell of the list headed at the owner's field. */
    final void open(SlotPool owners, int ownerSlot, int headField) {
        this.owners = owners;
        this.ownerSlot = ownerSlot;
        this.headField = headField;
        this.stripe = lists.locks.stripe(headField, ownerSlot);
        this.started = false;
        this.skipping = false;
        this.hasLast = false;
        this.buffered = 0;
        this.position = 0;
    }

    /** Moves to the next cell; false at the end of the list. */
    final boolean advance() {
        if (!started) {
            restart();
            started = true;
        }
        while (true) {
            while (position < buffered) {
                long w0 = buffer[position * 2];
                long w1 = buffer[position * 2 + 1];
                position++;
                if (skipping) {
                    if (lists.compare(w0, w1, last0, last1) <= 0) {
                        continue; // already returned before the restart
                    }
                    skipping = false; // keys only grow from here on
                }
                hasLast = true;
                last0 = w0;
                last1 = w1;
                word0 = w0;
                word1 = w1;
                return true;
            }
            if (nextRow == NO_ROW) {
                return false;
            }
            load(nextRow);
        }
    }

    private void restart() {
        skipping = hasLast;
        seq = lists.locks.beginRead(stripe);
        nextRow = owners.getIntAcquire(ownerSlot, headField);
        buffered = 0;
        position = 0;
    }

    /** Copies a row into the buffer, starting over from the head whenever a writer intervened. */
    private void load(int row) {
        SlotPool rows = lists.rows;
        while (true) {
            // An optimistic reader may follow a link into memory a writer has just recycled: bound
            // every value it read before trusting it, then let validation decide.
            ByteBuffer memory = rows.inRange(row) ? rows.buffer(row) : null;
            if (memory != null) {
                int base = rows.offset(row);
                int count = memory.getInt(base + COUNT_OFFSET);
                int next = memory.getInt(base + NEXT_OFFSET);
                if (count >= 0 && count <= lists.cellsPerRow) {
                    copyCells(memory, base + RowDescriptor.CELLS_OFFSET, rows.sideOffset(row), count);
                    if (lists.locks.validate(stripe, seq)) {
                        buffered = count;
                        position = 0;
                        nextRow = next;
                        return;
                    }
                }
            }
            restart();
            if (nextRow == NO_ROW) {
                return;
            }
            row = nextRow;
        }
    }

    private void copyCells(ByteBuffer memory, int cells, int side, int count) {
        if (lists.wordsPerCell == 2) {
            for (int i = 0; i < count; i++) {
                buffer[i * 2] = memory.getLong(cells + i * 8);
                buffer[i * 2 + 1] = memory.getLong(side + i * 8);
            }
        } else {
            for (int i = 0, at = cells; i < count; i++, at += 8) {
                buffer[i * 2] = memory.getLong(at);
                buffer[i * 2 + 1] = 0L;
            }
        }
    }
}
