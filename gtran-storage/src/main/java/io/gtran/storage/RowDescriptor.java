package io.gtran.storage;

/**
 * Layout of one row of a row-list: a small header followed by a fixed number of fixed-size cells.
 *
 * <pre>
 *   0         4         8
 *  +---------+---------+----------------+----------------+-----+----------------+
 *  |  next   |  count  |    cell 0      |    cell 1      | ... | cell cap-1     |
 *  +---------+---------+----------------+----------------+-----+----------------+
 *                      ^ CELLS_OFFSET, each cell cellBytes long
 * </pre>
 *
 * next is the following row's slot ({@link #NO_ROW} at the tail); count is how many leading cells
 * are in use. Cells within a row and across the list are kept in key order. Edge cells are laid
 * out by {@link EdgeCellDescriptor}, VP/EP cells by {@link PropertyCellDescriptor}.
 */
public final class RowDescriptor {
    /** The empty link: no row. Row slots are non-negative. */
    public static final int NO_ROW = -1;
    public static final int NEXT_OFFSET = 0;
    public static final int COUNT_OFFSET = NEXT_OFFSET + Integer.BYTES;
    public static final int CELLS_OFFSET = COUNT_OFFSET + Integer.BYTES;

    private RowDescriptor() {
    }

    /** Bytes of a row holding {@code cellsPerRow} cells of {@code cellBytes} bytes each. */
    public static int length(int cellsPerRow, int cellBytes) {
        return CELLS_OFFSET + cellsPerRow * cellBytes;
    }

    public static int cellOffset(int cell, int cellBytes) {
        return CELLS_OFFSET + cell * cellBytes;
    }
}
