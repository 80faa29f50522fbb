package io.gtran.storage;

import static io.gtran.storage.RowDescriptor.NO_ROW;

/**
 * VP/EP row-lists: an element's property keys as rows of {@link PropertyCellDescriptor property
 * cells}, ordered by key id, each linking to the newest MV-tuple of that property.
 */
final class PropertyRowLists extends RowLists {
    /** Returned by {@link #find} when the element has no cell for the key. */
    static final long NOT_FOUND = -1L;

    PropertyRowLists(SlotPool rows, SeqLocks locks, int cellsPerRow) {
        super(rows, locks, cellsPerRow, PropertyCellDescriptor.LENGTH, StoreConfig.PROPERTY_ROWS_MAX);
    }

    @Override
    int compare(long a0, long a1, long b0, long b1) {
        return Integer.compare(PropertyCellDescriptor.keyId(a0), PropertyCellDescriptor.keyId(b0));
    }

    /**
     * The cell word for {@code keyId}, or {@link #NOT_FOUND}; an optimistic, validated read.
     *
     * <p>The walk may follow a link into a row a writer has just freed, whose link word then holds
     * the free-list link: a row freed right after the slot below it links to itself. So the walk is
     * bounded by the pool's high-water mark, like {@link EdgeRowLists#readNeighbours}, and a
     * position read from cells that changed under it is refused, rather than looping or reading
     * past the row before validation.
     */
    long find(SlotPool owners, int ownerSlot, int headField, int keyId) {
        int stripe = locks.stripe(headField, ownerSlot);
        long probe = PropertyCellDescriptor.word(keyId, 0);
        while (true) {
            long seq = locks.beginRead(stripe);
            long found = NOT_FOUND;
            boolean sane = true;
            int rowsSeen = 0;
            int maxRows = rows.highWater();
            int row = owners.getIntAcquire(ownerSlot, headField);
            while (row != NO_ROW) {
                if (!rows.inRange(row) || rows.buffer(row) == null || ++rowsSeen > maxRows) {
                    sane = false; // a recycled link, or a cycle through recycled rows
                    break;
                }
                int count = count(row);
                if (count <= 0 || count > cellsPerRow) {
                    sane = false;
                    break;
                }
                if (compareToCell(probe, 0, row, count - 1) <= 0) {
                    int pos = searchPosition(row, count, probe, 0);
                    if (pos == count) {
                        sane = false; // the last cell changed between two reads
                        break;
                    }
                    long word = word0(row, pos);
                    if (PropertyCellDescriptor.keyId(word) == keyId) {
                        found = word;
                    }
                    break;
                }
                row = next(row);
            }
            if (sane && locks.validate(stripe, seq)) {
                return found;
            }
        }
    }

    /**
     * Swings the tuple link of {@code keyId}'s cell from {@code expectedTuple} to {@code newTuple}.
     * Returns false, changing nothing, if the cell is missing or links elsewhere.
     */
    boolean replaceTuple(SlotPool owners, int ownerSlot, int headField, int keyId, int expectedTuple, int newTuple) {
        int stripe = locks.stripe(headField, ownerSlot);
        long locked = locks.lock(stripe);
        try {
            long probe = PropertyCellDescriptor.word(keyId, 0);
            for (int row = owners.getInt(ownerSlot, headField); row != NO_ROW; row = next(row)) {
                int count = count(row);
                if (compareToCell(probe, 0, row, count - 1) <= 0) {
                    int pos = searchPosition(row, count, probe, 0);
                    long word = word0(row, pos);
                    if (PropertyCellDescriptor.keyId(word) != keyId || PropertyCellDescriptor.tupleSlot(word) != expectedTuple) {
                        return false;
                    }
                    putCell(row, pos, PropertyCellDescriptor.word(keyId, newTuple), 0L);
                    return true;
                }
            }
            return false;
        } finally {
            locks.unlock(stripe, locked);
        }
    }
}
