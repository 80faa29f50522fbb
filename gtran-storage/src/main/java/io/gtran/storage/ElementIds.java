package io.gtran.storage;

/**
 * Internal element ids: every id names the node that owns the element, so any node can route any
 * id without a look-up.
 *
 * <pre>
 *   63  62        53 52               32 31                               0
 *  +---+------------+-------------------+----------------------------------+
 *  | 0 |  node (10) | generation (21)   |          slot (32)               |
 *  +---+------------+-------------------+----------------------------------+
 * </pre>
 *
 * <ul>
 *   <li>node: the owning node, 0..{@value #MAX_NODE};</li>
 *   <li>generation: bumped each time the slot is recycled, so an id kept past its element's
 *       deletion does not silently name the element that later reuses the slot. Its lowest bit
 *       is the kind ({@link #isEdge}: 0 for vertices, 1 for edges), so a vertex id and an edge id
 *       are never equal and an edge id never names a vertex;</li>
 *   <li>slot: the header's index in its owner's vertex or edge table.</li>
 * </ul>
 * Ids are always positive, so 0 and negative values are free for sentinels ({@link #NONE}).
 */
public final class ElementIds {
    public static final int SLOT_BITS = 32;
    public static final int GENERATION_BITS = 21;
    public static final int NODE_BITS = 10;
    public static final int GENERATION_SHIFT = SLOT_BITS;
    public static final int NODE_SHIFT = SLOT_BITS + GENERATION_BITS;
    public static final long SLOT_MASK = (1L << SLOT_BITS) - 1;
    public static final int GENERATION_MASK = (1 << GENERATION_BITS) - 1;
    public static final int NODE_MASK = (1 << NODE_BITS) - 1;
    public static final int MAX_NODE = NODE_MASK;
    /** Not an id: ids are positive and slot 0 of generation 0 on node 0 is never handed out. */
    public static final long NONE = 0L;

    private ElementIds() {
    }

    public static long compose(int node, int generation, int slot) {
        if (node < 0 || node > MAX_NODE) {
            throw new IllegalArgumentException("node out of range: node=" + node + " max=" + MAX_NODE);
        }
        if (slot < 0) {
            throw new IllegalArgumentException("slot must not be negative: slot=" + slot);
        }
        return ((long) node << NODE_SHIFT) | ((long) (generation & GENERATION_MASK) << GENERATION_SHIFT) | slot;
    }

    public static int node(long id) {
        return (int) (id >>> NODE_SHIFT) & NODE_MASK;
    }

    public static int generation(long id) {
        return (int) (id >>> GENERATION_SHIFT) & GENERATION_MASK;
    }

    public static int slot(long id) {
        return (int) (id & SLOT_MASK);
    }

    /** Whether the id is an edge's (the generation's lowest bit); false for vertex ids. */
    public static boolean isEdge(long id) {
        return (generation(id) & 1) == 1;
    }

    /**
     * The first generation of a slot of a table of vertices ({@code edge} false) or edges: 2 or 3,
     * never 0, so no id is {@link #NONE}.
     */
    public static int firstGeneration(boolean edge) {
        return edge ? 3 : 2;
    }

    /**
     * The generation after {@code generation} for the same kind: two on, wrapping inside {@link
     * #GENERATION_BITS} to {@link #firstGeneration} rather than 0 or 1.
     */
    public static int nextGenerationOfKind(int generation) {
        int next = (generation + 2) & GENERATION_MASK;
        return next < 2 ? next + 2 : next;
    }

    /** The generation that follows {@code generation}, wrapping inside {@link #GENERATION_BITS}. */
    public static int nextGeneration(int generation) {
        return (generation + 1) & GENERATION_MASK;
    }

    /** True for values that can be ids at all: positive and with a non-negative slot. */
    public static boolean isWellFormed(long id) {
        return id > 0 && slot(id) >= 0;
    }

    public static String toString(long id) {
        return "id=" + id + "(node=" + node(id) + ",gen=" + generation(id) + ",slot=" + slot(id) + ")";
    }
}
