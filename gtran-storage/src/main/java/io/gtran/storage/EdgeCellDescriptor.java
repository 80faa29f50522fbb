package io.gtran.storage;

/**
 * Layout of an edge cell in a vertex's edge row-list: one adjacent edge as seen from the vertex.
 * A cell is two words. Word 0 sits in the row, word 1 in the row's side part (see
 * {@link RowDescriptor}), so a scan that wants neighbour ids only reads word 0, 8 bytes a cell.
 *
 * <pre>
 *   63 62                                                                  0
 *  +--+--------------------------------------------------------------------+
 *  |d |                       neighbour vertex id                          |   word 0 (row)
 *  +--+--+-----------------------------+-----------------------------------+
 *  |  0  |        label id (30)        |          edge slot (32)           |   word 1 (side part)
 *  +-----+-----------------------------+-----------------------------------+
 *   63 62 61                         32 31                                0
 * </pre>
 *
 * d is the direction seen from the row-list's owner: 0 for {@link #OUT}, 1 for {@link #IN}.
 * Vertex ids never use bit 63, so d costs no space. Cells are ordered by word 0 read unsigned,
 * then by edge slot: all OUT cells of a vertex (by neighbour) come before all its IN cells (by
 * neighbour), so an OUT scan stops at the first IN cell, and a row whose last word 0 is an OUT one
 * holds OUT cells only. A self-loop's two cells differ. The order is unique, so a scan can resume
 * after any cell. The edge slot names the edge header in this node's edge table.
 */
final class EdgeCellDescriptor {
    /** Bytes of a cell: word 0 in the row plus word 1 in the side part. */
    public static final int LENGTH = 2 * Long.BYTES;

    public static final int OUT = 1;
    public static final int IN = 2;

    /** Set in word 0 of an IN cell. */
    public static final long IN_BIT = Long.MIN_VALUE;
    public static final int EDGE_SLOT_BITS = 32;
    public static final int LABEL_BITS = 30;
    public static final int LABEL_SHIFT = EDGE_SLOT_BITS;
    public static final long EDGE_SLOT_MASK = (1L << EDGE_SLOT_BITS) - 1;
    public static final int LABEL_MASK = (1 << LABEL_BITS) - 1;
    public static final int MAX_LABEL = LABEL_MASK;

    private EdgeCellDescriptor() {
    }

    /** Word 0: the neighbour's id, with the direction in bit 63. */
    public static long neighbourWord(int direction, long neighbour) {
        if (direction != OUT && direction != IN) {
            throw new IllegalArgumentException("direction must be OUT(1) or IN(2): direction=" + direction);
        }
        if (neighbour < 0) {
            throw new IllegalArgumentException("neighbour id must not be negative: neighbour=" + neighbour);
        }
        return direction == IN ? neighbour | IN_BIT : neighbour;
    }

    public static long neighbour(long neighbourWord) {
        return neighbourWord & ~IN_BIT;
    }

    /** {@link #OUT} or {@link #IN}. */
    public static int direction(long neighbourWord) {
        return neighbourWord < 0 ? IN : OUT;
    }

    /** Word 1: label and edge slot. */
    public static long edgeWord(int label, int edgeSlot) {
        if (label < 0 || label > MAX_LABEL) {
            throw new IllegalArgumentException("label id out of range: label=" + label + " max=" + MAX_LABEL);
        }
        return ((long) label << LABEL_SHIFT) | (edgeSlot & EDGE_SLOT_MASK);
    }

    public static int label(long edgeWord) {
        return (int) (edgeWord >>> LABEL_SHIFT) & LABEL_MASK;
    }

    public static int edgeSlot(long edgeWord) {
        return (int) (edgeWord & EDGE_SLOT_MASK);
    }
}
