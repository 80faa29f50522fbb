package io.gtran.storage;

/**
 * The edge cells a restore ({@link StoreRestorer}) puts into its local vertices' edge row-lists,
 * worked out and checked before anything is built: for each edge, an OUT cell for its out-vertex
 * and an IN cell for its in-vertex where that vertex is on this node (a self-loop gives its vertex
 * both), as {@link GraphStore#addEdge} makes them. They are grouped by vertex slot (a counting
 * sort) and each vertex's sorted into the row-lists' key order, so that {@link #build} writes each
 * list in one pass ({@link RowLists#buildSorted}) rather than walking it from its head for every
 * cell. Held in primitive arrays, 16 bytes a cell and 4 a vertex slot up to the highest with a
 * cell: no object per cell.
 */
final class AdjacencyPlan {
    private final long[] words0;
    private final long[] words1;
    /** The cells of vertex slot s are {@code first[s] .. first[s + 1] - 1}. */
    private final int[] first;

    private AdjacencyPlan(long[] words0, long[] words1, int[] first) {
        this.words0 = words0;
        this.words1 = words1;
        this.first = first;
    }

    /**
     * The cells of the edges declared in the given columns (one entry per edge, endpoints and label
     * already checked), for the vertices of node {@code nodeId}, in the key order of {@code order}.
     *
     * @throws IllegalStateException naming the edge if two cells of one vertex have the same key:
     *                               the declarations are corrupt (it takes one edge slot declared
     *                               twice, which {@link SlotPlan#of} refuses before this runs)
     */
    static AdjacencyPlan of(int nodeId, RowLists order, LongColumn edgeIds, LongColumn outVertices, LongColumn inVertices,
            LongColumn labels) {
        int slots = 0; // one past the highest slot of a local endpoint
        for (int i = 0; i < edgeIds.size(); i++) {
            slots = Math.max(slots, Math.max(slotAfter(nodeId, outVertices.get(i)), slotAfter(nodeId, inVertices.get(i))));
        }
        // first[s] counts slot s's cells, then (summed) marks where they end; placing each cell
        // below the end moves it down to where they start. first[slots] stays the total.
        int[] first = new int[slots + 1];
        for (int i = 0; i < edgeIds.size(); i++) {
            countLocal(first, nodeId, outVertices.get(i));
            countLocal(first, nodeId, inVertices.get(i));
        }
        for (int s = 1; s <= slots; s++) {
            first[s] += first[s - 1];
        }
        long[] words0 = new long[first[slots]];
        long[] words1 = new long[first[slots]];
        for (int i = edgeIds.size() - 1; i >= 0; i--) { // backwards, so each vertex's cells stay in declaration order
            long out = outVertices.get(i);
            long in = inVertices.get(i);
            long edgeWord = EdgeCellDescriptor.edgeWord((int) labels.get(i), ElementIds.slot(edgeIds.get(i)));
            if (ElementIds.node(out) == nodeId) {
                int at = --first[ElementIds.slot(out)];
                words0[at] = EdgeCellDescriptor.neighbourWord(EdgeCellDescriptor.OUT, in);
                words1[at] = edgeWord;
            }
            if (ElementIds.node(in) == nodeId) {
                int at = --first[ElementIds.slot(in)];
                words0[at] = EdgeCellDescriptor.neighbourWord(EdgeCellDescriptor.IN, out);
                words1[at] = edgeWord;
            }
        }
        CellSorter sorter = new CellSorter(order);
        for (int s = 0; s < slots; s++) {
            if (first[s + 1] - first[s] > 1) {
                sorter.sort(words0, words1, first[s], first[s + 1]);
                checkNoTwin(order, edgeIds, words0, words1, first[s], first[s + 1]);
            }
        }
        return new AdjacencyPlan(words0, words1, first);
    }

    /** One past the slot of {@code endpoint} if it is on node {@code nodeId}, else 0. */
    private static int slotAfter(int nodeId, long endpoint) {
        return ElementIds.node(endpoint) == nodeId ? ElementIds.slot(endpoint) + 1 : 0;
    }

    private static void countLocal(int[] counts, int nodeId, long endpoint) {
        if (ElementIds.node(endpoint) == nodeId) {
            counts[ElementIds.slot(endpoint)]++;
        }
    }

    /** Throws, naming the edge, if two neighbouring cells of a sorted range have the same key. */
    private static void checkNoTwin(RowLists order, LongColumn edgeIds, long[] words0, long[] words1, int from, int to) {
        for (int i = from + 1; i < to; i++) {
            if (order.compare(words0[i - 1], words1[i - 1], words0[i], words1[i]) == 0) {
                int edgeSlot = EdgeCellDescriptor.edgeSlot(words1[i]);
                long edge = ElementIds.NONE;
                for (int e = 0; e < edgeIds.size() && edge == ElementIds.NONE; e++) {
                    edge = ElementIds.slot(edgeIds.get(e)) == edgeSlot ? edgeIds.get(e) : ElementIds.NONE;
                }
                throw new IllegalStateException("edge cell declared twice: edge " + ElementIds.toString(edge) + " neighbour "
                        + ElementIds.toString(EdgeCellDescriptor.neighbour(words0[i])));
            }
        }
    }

    /**
     * Writes each local vertex's list, in vertex-slot order, so that in a fresh row pool the lists
     * lie one after another. The vertices must exist and have no edge cells yet.
     *
     * @throws StoreCapacityException if the edge rows run out; the lists built before stay, the one
     *                                being built gives its rows back, and the rest are not begun
     */
    void build(GraphStore store) {
        for (int s = 0; s + 1 < first.length; s++) {
            if (first[s] < first[s + 1]) {
                store.buildEdgeList(s, words0, words1, first[s], first[s + 1]);
            }
        }
    }
}
