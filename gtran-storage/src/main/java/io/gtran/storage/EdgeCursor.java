package io.gtran.storage;

/**
 * Scans one vertex's adjacency, OUT edges first then IN edges, each in (neighbour id, edge) order,
 * filtering by direction and label in the scan itself; an OUT scan ends at the first IN cell. Obtain one from {@link GraphStore#newEdgeCursor()} and reuse it; not thread-safe.
 *
 * <pre>{@code
 * EdgeCursor c = store.newEdgeCursor();
 * c.open(vertexId, EdgeDirection.OUT, knowsLabel);
 * while (c.next()) { visit(c.neighbour(), c.edgeId()); }
 * }</pre>
 *
 * Cells are returned whatever their edge's begin/end times: visibility is the transaction layer's
 * business. A concurrent writer never makes the cursor return a cell twice or out of order.
 */
public final class EdgeCursor extends RowCursor {
    /** Label filter meaning every label. */
    public static final int ANY_LABEL = -1;

    private final GraphStore store;
    private int directionMask;
    private int label;
    private int[] labels;

    EdgeCursor(GraphStore store, EdgeRowLists lists) {
        super(lists);
        this.store = store;
    }

    /**
     * Positions the cursor before the first matching cell of {@code vertexId}.
     *
     * @param label a label id, or {@link #ANY_LABEL}
     * @throws UnknownElementException if the vertex is not live on this node
     */
    public EdgeCursor open(long vertexId, EdgeDirection direction, int label) {
        int slot = store.vertices.slotOf(vertexId);
        open(store.vertices.headers, slot, VertexHeaderDescriptor.EDGE_ROW_OFFSET);
        this.directionMask = direction.mask;
        this.label = label;
        this.labels = null;
        return this;
    }

    /** As {@link #open(long, EdgeDirection, int)} with any of several labels (empty: any label). */
    public EdgeCursor open(long vertexId, EdgeDirection direction, int... labels) {
        open(vertexId, direction, ANY_LABEL);
        this.labels = labels.length == 0 ? null : labels.clone();
        return this;
    }

    /** Advances to the next matching cell; false when there is none. */
    public boolean next() {
        while (advance()) {
            if (word0 < 0) {
                // An IN cell: every OUT cell came before it, so an OUT-only scan is complete.
                if ((directionMask & EdgeDirection.IN.mask) == 0) {
                    return false;
                }
            } else if ((directionMask & EdgeDirection.OUT.mask) == 0) {
                continue;
            }
            if (label == ANY_LABEL && labels == null) {
                return true;
            }
            int cellLabel = EdgeCellDescriptor.label(word1);
            if ((label == ANY_LABEL || cellLabel == label) && (labels == null || contains(labels, cellLabel))) {
                return true;
            }
        }
        return false;
    }

    public long neighbour() {
        return EdgeCellDescriptor.neighbour(word0);
    }

    public EdgeDirection direction() {
        return word0 < 0 ? EdgeDirection.IN : EdgeDirection.OUT;
    }

    public int label() {
        return EdgeCellDescriptor.label(word1);
    }

    /** The edge header's slot in this node's edge table. */
    public int edgeSlot() {
        return EdgeCellDescriptor.edgeSlot(word1);
    }

    /** The edge's id, read from its header. */
    public long edgeId() {
        return store.edges.idOfSlot(edgeSlot());
    }

    private static boolean contains(int[] values, int value) {
        for (int v : values) {
            if (v == value) {
                return true;
            }
        }
        return false;
    }
}
