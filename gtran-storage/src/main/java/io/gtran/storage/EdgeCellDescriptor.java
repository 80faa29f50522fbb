package io.gtran.storage;

/**
 * Layout of an edge cell in a vertex's edge row-list: one adjacent edge as seen from the vertex.
 *
 * <pre>
 *   0                   8
 *  +-------------------+--+-----------------------------+----------------------+
 *  |  neighbour id     |d |      label id (30)          |  edge slot (32)      |
 *  +-------------------+--+-----------------------------+----------------------+
 *                       63 62                         32 31                   0   (second word)
 * </pre>
 *
 * d is the direction seen from the row-list's owner ({@link #OUT} or {@link #IN}); a self-loop has
 * one cell of each. The edge slot names the edge header in this node's edge table. Cells are
 * ordered by (neighbour id, edge slot, direction), which is unique (the direction tells a
 * self-loop's two cells apart), so a scan can resume after any cell.
 */
public final class EdgeCellDescriptor {
    public static final int NEIGHBOUR_OFFSET = 0;
    public static final int EDGE_WORD_OFFSET = NEIGHBOUR_OFFSET + Long.BYTES;
    public static final int LENGTH = EDGE_WORD_OFFSET + Long.BYTES;

    public static final int OUT = 1;
    public static final int IN = 2;

    public static final int EDGE_SLOT_BITS = 32;
    public static final int LABEL_BITS = 30;
    public static final int LABEL_SHIFT = EDGE_SLOT_BITS;
    public static final int DIRECTION_SHIFT = LABEL_SHIFT + LABEL_BITS;
    public static final long EDGE_SLOT_MASK = (1L << EDGE_SLOT_BITS) - 1;
    public static final int LABEL_MASK = (1 << LABEL_BITS) - 1;
    public static final int MAX_LABEL = LABEL_MASK;

    private EdgeCellDescriptor() {
    }

    public static long edgeWord(int direction, int label, int edgeSlot) {
        if (direction != OUT && direction != IN) {
            throw new IllegalArgumentException("direction must be OUT(1) or IN(2): direction=" + direction);
        }
        if (label < 0 || label > MAX_LABEL) {
            throw new IllegalArgumentException("label id out of range: label=" + label + " max=" + MAX_LABEL);
        }
        return ((long) direction << DIRECTION_SHIFT) | ((long) label << LABEL_SHIFT) | (edgeSlot & EDGE_SLOT_MASK);
    }

    public static int direction(long edgeWord) {
        return (int) (edgeWord >>> DIRECTION_SHIFT);
    }

    public static int label(long edgeWord) {
        return (int) (edgeWord >>> LABEL_SHIFT) & LABEL_MASK;
    }

    public static int edgeSlot(long edgeWord) {
        return (int) (edgeWord & EDGE_SLOT_MASK);
    }
}
