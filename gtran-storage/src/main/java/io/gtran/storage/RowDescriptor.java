package io.gtran.storage;

/**
 * Layout of one row of a row-list: a small header followed by a fixed number of cells.
 *
 * <pre>
 *   0         4         8
 *  +---------+---------+----------+----------+-----+--------------+
 *  |  next   |  count  |  word 0  |  word 0  | ... |    word 0    |   the row
 *  |         |         |  cell 0  |  cell 1  |     |  cell cap-1  |
 *  +---------+---------+----------+----------+-----+--------------+
 *                      ^ CELLS_OFFSET, 8 bytes a cell
 *
 *  +----------+----------+-----+--------------+
 *  |  word 1  |  word 1  | ... |    word 1    |   the row's side part (two-word cells only)
 *  |  cell 0  |  cell 1  |     |  cell cap-1  |
 *  +----------+----------+-----+--------------+
 *  ^ SlotPool.sideOffset(row), 8 bytes a cell
 * </pre>
 *
 * next is the following row's slot ({@link #NO_ROW} at the tail); count is how many leading cells
 * are in use. Cells within a row and across the list are kept in key order. A cell is one or two
 * 8-byte words. Word 0 of every cell sits in the row; word 1 of a two-word cell sits in the row's
 * {@link SlotPool#withSideParts side part}, which its pool keeps away from the rows, so that a scan
 * needing word 0 only (an edge list's neighbour ids) reads 8 bytes a cell, consecutive in memory.
 * Edge cells are laid out by {@link EdgeCellDescriptor}, VP/EP cells (one word) by
 * {@link PropertyCellDescriptor}.
 */
final class RowDescriptor {
    /** The empty link: no row. Row slots are non-negative. */
    public static final int NO_ROW = -1;
    public static final int NEXT_OFFSET = 0;
    public static final int COUNT_OFFSET = NEXT_OFFSET + Integer.BYTES;
    public static final int CELLS_OFFSET = COUNT_OFFSET + Integer.BYTES;

    private RowDescriptor() {
    }

    /** Bytes of a row and its side part together, for cells of {@code cellBytes} (8 or 16) bytes. */
    public static int length(int cellsPerRow, int cellBytes) {
        return rowLength(cellsPerRow) + sideLength(cellsPerRow, cellBytes);
    }

    /** Bytes of the row itself: the header and word 0 of each cell. */
    public static int rowLength(int cellsPerRow) {
        return CELLS_OFFSET + cellsPerRow * Long.BYTES;
    }

    /** Bytes of the row's side part: word 1 of each cell, or 0 for one-word cells. */
    public static int sideLength(int cellsPerRow, int cellBytes) {
        return cellsPerRow * (cellBytes - Long.BYTES);
    }

    /** Offset of a cell's word 0 within the row. */
    public static int cellOffset(int cell) {
        return CELLS_OFFSET + cell * Long.BYTES;
    }

    /** Offset of a two-word cell's word 1 within the row's side part. */
    public static int sideCellOffset(int cell) {
        return cell * Long.BYTES;
    }
}
