package io.gtran.storage;

/**
 * Element ids: every id names the node that owns the element, so any node can route any id
 * without a look-up, and every id is below 2^53, so clients that hold numbers as doubles
 * (JavaScript) hold it exactly. The fields that stay zero longest sit highest, so the ids of a
 * small graph are small numbers (the first vertex on node 0 is 4097, on node 3 it is 4109).
 *
 * <pre>
 *   52          43 42                              12 11          2 1  0
 *  +--------------+----------------------------------+-------------+----+
 *  | generation 10|            slot (31)             |  node (10)  |kind|   vertex, edge
 *  +--------------+----------------------------------+-------------+----+
 *  |  key id (10) |        vertex's slot (31)        |  node (10)  | 3  |   vertex property, derived
 *  +--------------+----------------------------------+-------------+----+
 *  |                  counter (41)                   |  node (10)  | 0  |   vertex property, counted
 *  +-------------------------------------------------+-------------+----+
 * </pre>
 *
 * <ul>
 *   <li>kind: {@link #VERTEX}, {@link #EDGE}, or one of the two kinds of vertex-property id, so
 *       ids of different kinds are never equal and an edge id never names a vertex;</li>
 *   <li>node: the owning node, 0..{@value #MAX_NODE};</li>
 *   <li>slot: the header's index in its owner's vertex or edge table (slot 0 is never handed out,
 *       so generated ids do not meet the small numbers users tend to supply as their own ids);</li>
 *   <li>generation: bumped each time the slot is reused, so an id kept past its element's
 *       deletion does not silently name the element that later reuses the slot. A slot whose
 *       generation is spent is retired rather than reused (see {@code HeaderTable}), so ids never
 *       repeat.</li>
 * </ul>
 * A vertex property's id is derived from its vertex's id and its key's id while both fit ({@link
 * #vertexPropertyId}); any other vertex property gets a counted id ({@link #countedPropertyId}).
 * Ids are always positive, so 0 and negative values are free for sentinels ({@link #NONE}).
 */
public final class ElementIds {
    public static final int KIND_BITS = 2;
    public static final int NODE_BITS = 10;
    public static final int SLOT_BITS = 31;
    public static final int GENERATION_BITS = 10;
    public static final int KEY_BITS = GENERATION_BITS;
    public static final int NODE_SHIFT = KIND_BITS;
    public static final int SLOT_SHIFT = NODE_SHIFT + NODE_BITS;
    public static final int GENERATION_SHIFT = SLOT_SHIFT + SLOT_BITS;
    /** Every id is below this: 2^53, the end of the integers a double holds exactly. */
    public static final long LIMIT = 1L << (GENERATION_SHIFT + GENERATION_BITS);
    public static final int KIND_MASK = (1 << KIND_BITS) - 1;
    public static final int NODE_MASK = (1 << NODE_BITS) - 1;
    public static final long SLOT_MASK = (1L << SLOT_BITS) - 1;
    public static final int GENERATION_MASK = (1 << GENERATION_BITS) - 1;
    public static final int MAX_NODE = NODE_MASK;
    public static final int MAX_GENERATION = GENERATION_MASK;
    /** The largest key id a derived vertex-property id holds. */
    public static final int MAX_DERIVED_KEY = (1 << KEY_BITS) - 1;
    /** The largest counter a counted vertex-property id holds. */
    public static final long MAX_COUNTER = (1L << (SLOT_BITS + GENERATION_BITS)) - 1;

    /** Kind of a vertex-property id drawn from a counter. */
    public static final int COUNTED_PROPERTY = 0;
    public static final int VERTEX = 1;
    public static final int EDGE = 2;
    /** Kind of a vertex-property id derived from its vertex and key. */
    public static final int DERIVED_PROPERTY = 3;

    /** Not an id: no kind and field combination gives 0. */
    public static final long NONE = 0L;

    private ElementIds() {
    }

    /** A vertex's id: see the class comment. */
    public static long vertexId(int node, int generation, int slot) {
        return compose(VERTEX, node, generation, slot);
    }

    public static long edgeId(int node, int generation, int slot) {
        return compose(EDGE, node, generation, slot);
    }

    /** The id of a vertex or edge ({@code kind} {@link #VERTEX} or {@link #EDGE}). */
    public static long compose(int kind, int node, int generation, int slot) {
        if (kind != VERTEX && kind != EDGE) {
            throw new IllegalArgumentException("kind must be VERTEX(1) or EDGE(2): kind=" + kind);
        }
        checkNode(node);
        if (slot < 0) {
            throw new IllegalArgumentException("slot must not be negative: slot=" + slot);
        }
        if (generation < 0 || generation > MAX_GENERATION) {
            throw new IllegalArgumentException("generation out of range: generation=" + generation + " max=" + MAX_GENERATION);
        }
        return fields(kind, node, slot, generation);
    }

    /**
     * The id of the first property under {@code keyId} of the vertex {@code vertexId}: unique among
     * the live vertices of the cluster, or {@link #NONE} if the key id is too large to be part of it.
     */
    public static long vertexPropertyId(long vertexId, int keyId) {
        if (keyId < 0 || keyId > MAX_DERIVED_KEY) {
            return NONE;
        }
        return fields(DERIVED_PROPERTY, node(vertexId), slot(vertexId), keyId);
    }

    /**
     * A vertex-property id from a node's counter (1..{@link #MAX_COUNTER}).
     *
     * @throws IllegalArgumentException if the counter is outside that range
     */
    public static long countedPropertyId(int node, long counter) {
        checkNode(node);
        if (counter < 1 || counter > MAX_COUNTER) {
            throw new IllegalArgumentException("vertex property id counter out of range: counter=" + counter + " max=" + MAX_COUNTER);
        }
        return counter << SLOT_SHIFT | (long) node << NODE_SHIFT | COUNTED_PROPERTY;
    }

    private static long fields(int kind, int node, int slot, int high) {
        return (long) high << GENERATION_SHIFT | (long) slot << SLOT_SHIFT | (long) node << NODE_SHIFT | kind;
    }

    private static void checkNode(int node) {
        if (node < 0 || node > MAX_NODE) {
            throw new IllegalArgumentException("node out of range: node=" + node + " max=" + MAX_NODE);
        }
    }

    public static int kind(long id) {
        return (int) id & KIND_MASK;
    }

    public static int node(long id) {
        return (int) (id >>> NODE_SHIFT) & NODE_MASK;
    }

    public static int generation(long id) {
        return (int) (id >>> GENERATION_SHIFT) & GENERATION_MASK;
    }

    public static int slot(long id) {
        return (int) ((id >>> SLOT_SHIFT) & SLOT_MASK);
    }

    /** Whether the id is an edge's; false for vertex ids and vertex-property ids. */
    public static boolean isEdge(long id) {
        return kind(id) == EDGE;
    }

    public static boolean isVertex(long id) {
        return kind(id) == VERTEX;
    }

    /** True for values that can be vertex or edge ids at all: in range and of one of those kinds. */
    public static boolean isWellFormed(long id) {
        return id > 0 && id < LIMIT && (kind(id) == VERTEX || kind(id) == EDGE);
    }

    public static String toString(long id) {
        if (!isWellFormed(id)) {
            return "id=" + id;
        }
        return "id=" + id + "(" + (isEdge(id) ? "edge" : "vertex") + ",node=" + node(id) + ",gen=" + generation(id)
                + ",slot=" + slot(id) + ")";
    }
}
