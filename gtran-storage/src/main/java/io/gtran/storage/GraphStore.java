package io.gtran.storage;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One node's G-Tran data store (paper §4.2): the vertex table, the edge table, edge row-lists,
 * VP/EP row-lists and the MV-KVS, all in pools of fixed-size slots in direct buffers.
 *
 * <p>The store knows nothing of transactions or TinkerPop. Begin/end time words are opaque longs
 * that callers set at creation and later change with the CAS methods; the MV-OCC layer gives them
 * meaning. Reads are lock-free and safe against concurrent writers; structural writes to one
 * element's row-list are serialized by that list's lock stripe. Removal and recycling
 * ({@code remove*}, {@code free*}, {@code compact*}) are for the garbage collector, which must
 * guarantee that no transaction can still need what it frees.
 *
 * <p>Errors: ids that name no live element raise {@link UnknownElementException}; full pools
 * raise {@link StoreCapacityException}; over-long values raise {@link ValueTooLargeException}.
 * A call that fails leaves the store as it was.
 */
public final class GraphStore implements AutoCloseable {
    final StoreConfig config;
    final VertexTable vertices;
    final EdgeTable edges;
    final EdgeRowLists edgeLists;
    final PropertyRowLists vertexPropertyLists;
    final PropertyRowLists edgePropertyLists;
    final MvStore mvStore;
    private final SeqLocks locks;
    private final SlotPool edgeRows;
    private final SlotPool vertexPropertyRows;
    private final SlotPool edgePropertyRows;
    private final Dictionary labels;
    private final Dictionary propertyKeys;
    private final ExternalIdMap externalVertexIds;
    private final ExternalIdMap externalEdgeIds;
    private final ElementProperties vertexProperties;
    private final ElementProperties edgeProperties;
    /** What vertices and edges share, as {@link #vertices()} and {@link #edges()} hand it out. */
    private final StoreElementTable vertexTable;
    private final StoreElementTable edgeTable;
    /** Where {@link #compactAllEdges} last began its region of front parts, and of back parts (NO_ROW: not yet). */
    private int edgeFrontRegion = RowDescriptor.NO_ROW;
    private int edgeBackRegion = RowDescriptor.NO_ROW;

    private GraphStore(StoreConfig config) {
        this.config = config;
        this.locks = new SeqLocks(config.lockStripes);
        this.vertices = new VertexTable(config);
        this.edges = new EdgeTable(config);
        int edgeRowBytes = RowDescriptor.length(config.edgeRowCells, EdgeCellDescriptor.LENGTH);
        this.edgeRows = RowLists.newRowPool("edge-row", config.edgeRowCells, EdgeCellDescriptor.LENGTH,
                config.edgeRowsPerChunk(edgeRowBytes), config.edgeRowsMax);
        int vpRowBytes = RowDescriptor.length(config.vertexPropertyRowCells, PropertyCellDescriptor.LENGTH);
        this.vertexPropertyRows = RowLists.newRowPool("vertex-property-row", config.vertexPropertyRowCells, PropertyCellDescriptor.LENGTH,
                config.slotsPerChunk(vpRowBytes), config.propertyRowsMax);
        int epRowBytes = RowDescriptor.length(config.edgePropertyRowCells, PropertyCellDescriptor.LENGTH);
        this.edgePropertyRows = RowLists.newRowPool("edge-property-row", config.edgePropertyRowCells, PropertyCellDescriptor.LENGTH,
                config.slotsPerChunk(epRowBytes), config.propertyRowsMax);
        this.edgeLists = new EdgeRowLists(edgeRows, locks, config.edgeRowCells);
        this.vertexPropertyLists = new PropertyRowLists(vertexPropertyRows, locks, config.vertexPropertyRowCells);
        this.edgePropertyLists = new PropertyRowLists(edgePropertyRows, locks, config.edgePropertyRowCells);
        this.mvStore = new MvStore(config);
        this.labels = new Dictionary("label", StoreConfig.LABELS_MAX, config.labelsMax);
        this.propertyKeys = new Dictionary("property key", StoreConfig.PROPERTY_KEYS_MAX, config.propertyKeysMax);
        this.externalVertexIds = new ExternalIdMap("gtran-node" + config.nodeId + "-vertex-ids", config.externalIdsMax);
        this.externalEdgeIds = new ExternalIdMap("gtran-node" + config.nodeId + "-edge-ids", config.externalIdsMax);
        this.vertexProperties = new ElementProperties(vertexPropertyLists, vertices, VertexHeaderDescriptor.PROPERTY_ROW_OFFSET,
                mvStore, propertyKeys);
        this.edgeProperties = new ElementProperties(edgePropertyLists, edges, EdgeHeaderDescriptor.PROPERTY_ROW_OFFSET,
                mvStore, propertyKeys);
        this.vertexTable = new StoreElementTable(vertices, vertexProperties, mvStore, externalVertexIds);
        this.edgeTable = new StoreElementTable(edges, edgeProperties, mvStore, externalEdgeIds);
    }

    public static GraphStore open(StoreConfig config) {
        return new GraphStore(config);
    }

    public StoreConfig config() {
        return config;
    }

    public int nodeId() {
        return config.nodeId;
    }

    public Dictionary labels() {
        return labels;
    }

    public Dictionary propertyKeys() {
        return propertyKeys;
    }

    public MvStore mvStore() {
        return mvStore;
    }

    /** The vertex table: what vertices share with edges (header words, properties, external ids). */
    public ElementTable vertices() {
        return vertexTable;
    }

    /** The edge table: what edges share with vertices; endpoints and adjacency are the store's own methods. */
    public ElementTable edges() {
        return edgeTable;
    }

    /**
     * A restorer that rebuilds this store's vertices and edges at their old ids (see
     * {@link StoreRestorer}).
     *
     * @throws IllegalStateException if a vertex or an edge has been allocated here already
     */
    public StoreRestorer restorer() {
        checkRestorable();
        return new StoreRestorer(this);
    }

    /** Throws unless nothing has been allocated in the vertex and edge tables but the reserved slot 0. */
    void checkRestorable() {
        int vertexSlots = vertices.headers.highWater() - 1;
        int edgeSlots = edges.headers.highWater() - 1;
        if (vertexSlots != 0 || edgeSlots != 0) {
            throw new IllegalStateException("a restore needs a store in which nothing was allocated yet: vertex slots used="
                    + vertexSlots + " edge slots used=" + edgeSlots);
        }
    }

    // ---------------------------------------------------------------- vertices

    /** Creates a vertex header with no edges and no properties; returns its id. */
    public long addVertex(int label, long beginTime, long endTime) {
        checkLabel(label);
        return vertices.create(label, beginTime, endTime);
    }

    // ---------------------------------------------------------------- edges

    /**
     * Creates an edge header and the edge cells of whichever endpoints live on this node (a
     * self-loop gets one OUT and one IN cell). At least one endpoint must be local.
     *
     * @throws UnknownElementException if a local endpoint is not live, or neither endpoint is local
     */
    public long addEdge(long outVertex, long inVertex, int label, long beginTime, long endTime) {
        checkLabel(label);
        int outSlot = localVertexSlot(outVertex);
        int inSlot = localVertexSlot(inVertex);
        if (outSlot == SlotPool.NO_SLOT && inSlot == SlotPool.NO_SLOT) {
            throw new UnknownElementException("edge has no endpoint on node " + config.nodeId + ": out="
                    + ElementIds.toString(outVertex) + " in=" + ElementIds.toString(inVertex));
        }
        if (!ElementIds.isWellFormed(outVertex) || !ElementIds.isWellFormed(inVertex)) {
            throw new UnknownElementException("edge endpoint is not a gtran vertex id: out=" + outVertex + " in=" + inVertex);
        }
        long edgeId = edges.create(outVertex, inVertex, label, beginTime, endTime);
        insertEdgeCells(edgeId, outVertex, inVertex, label, outSlot, inSlot);
        return edgeId;
    }

    /** The header slot of a vertex on this node, or {@link SlotPool#NO_SLOT} for one on another node. */
    int localVertexSlot(long vertexId) {
        return ElementIds.node(vertexId) == config.nodeId ? vertices.slotOf(vertexId) : SlotPool.NO_SLOT;
    }

    /**
     * Puts the cells of an edge just created into the row-lists of its local endpoints, at the given
     * vertex slots ({@link SlotPool#NO_SLOT}: the endpoint is on another node). If that fails, it
     * takes out what it put in and frees the edge's header before it throws.
     */
    private void insertEdgeCells(long edgeId, long outVertex, long inVertex, int label, int outSlot, int inSlot) {
        int edgeSlot = ElementIds.slot(edgeId);
        boolean outInserted = false;
        try {
            if (outSlot != SlotPool.NO_SLOT) {
                insertCell(outSlot, EdgeCellDescriptor.neighbourWord(EdgeCellDescriptor.OUT, inVertex),
                        EdgeCellDescriptor.edgeWord(label, edgeSlot), edgeId);
                outInserted = true;
            }
            if (inSlot != SlotPool.NO_SLOT) {
                insertCell(inSlot, EdgeCellDescriptor.neighbourWord(EdgeCellDescriptor.IN, outVertex),
                        EdgeCellDescriptor.edgeWord(label, edgeSlot), edgeId);
            }
        } catch (RuntimeException e) {
            // Undo the half-made edge so a failed call leaves nothing behind. The OUT cell may have
            // spread two full rows over three; removing it does not merge them back (no two of the
            // three fit in one), so repack the list, or the failed call would keep the row it took,
            // often the pool's last one.
            if (outInserted) {
                edgeLists.remove(vertices.headers, outSlot, VertexHeaderDescriptor.EDGE_ROW_OFFSET,
                        EdgeCellDescriptor.neighbourWord(EdgeCellDescriptor.OUT, inVertex), EdgeCellDescriptor.edgeWord(label, edgeSlot));
                edgeLists.compact(vertices.headers, outSlot, VertexHeaderDescriptor.EDGE_ROW_OFFSET);
            }
            edges.free(edgeSlot);
            throw e;
        }
    }

    private void insertCell(int vertexSlot, long neighbourWord, long edgeWord, long edgeId) {
        // Cell keys are unique (direction, neighbour, edge slot) and the edge slot is fresh, so a
        // refusal means the list is corrupt: fail loudly rather than lose half an edge.
        if (!edgeLists.insert(vertices.headers, vertexSlot, VertexHeaderDescriptor.EDGE_ROW_OFFSET, neighbourWord, edgeWord)) {
            throw new IllegalStateException("edge cell already present: edge " + ElementIds.toString(edgeId)
                    + " neighbour " + ElementIds.toString(EdgeCellDescriptor.neighbour(neighbourWord)));
        }
    }

    /**
     * Writes the whole edge row-list of the vertex at {@code vertexSlot}, which has no edge cells
     * yet, from its cells already in key order, in one pass (see {@link RowLists#buildSorted}): for
     * a restore ({@link AdjacencyPlan}).
     */
    void buildEdgeList(int vertexSlot, long[] neighbourWords, long[] edgeWords, int from, int to) {
        edgeLists.buildSorted(vertices.headers, vertexSlot, VertexHeaderDescriptor.EDGE_ROW_OFFSET, neighbourWords, edgeWords,
                from, to);
    }

    public long edgeOutVertex(long edgeId) {
        int slot = edges.slotOf(edgeId);
        long value = edges.outVertex(slot);
        edges.recheck(slot, edgeId);
        return value;
    }

    public long edgeInVertex(long edgeId) {
        int slot = edges.slotOf(edgeId);
        long value = edges.inVertex(slot);
        edges.recheck(slot, edgeId);
        return value;
    }

    /** A reusable adjacency cursor; see {@link EdgeCursor}. */
    public EdgeCursor newEdgeCursor() {
        return new EdgeCursor(this, edgeLists);
    }

    /**
     * Copies the ids of a vertex's neighbours in {@code direction} along edges labelled
     * {@code label} ({@link EdgeCursor#ANY_LABEL} for any) into {@code out}: OUT neighbours first,
     * then IN, each in id order, one per edge (a neighbour reached by two edges appears twice).
     * The result is one consistent snapshot of the vertex's adjacency. Returns the number of
     * neighbours; if that exceeds {@code out.length}, only {@code out.length} were written and the
     * call should be repeated with an array at least that long. The bulk counterpart of
     * {@link EdgeCursor}, for traversals that need only neighbour ids.
     *
     * @throws UnknownElementException if the vertex is not live on this node
     */
    public int neighbours(long vertexId, EdgeDirection direction, int label, long[] out) {
        return edgeLists.readNeighbours(vertices.headers, vertices.slotOf(vertexId), VertexHeaderDescriptor.EDGE_ROW_OFFSET,
                direction.mask, label, out);
    }

    /** Rows in a vertex's edge row-list; for tests and statistics. */
    public int edgeRowCount(long vertexId) {
        return edgeLists.rowCount(vertices.headers, vertices.slotOf(vertexId), VertexHeaderDescriptor.EDGE_ROW_OFFSET);
    }

    // ---------------------------------------------------------------- recycling (driven by GC)

    /**
     * Cuts a property's version chain after {@code keep} and frees the older versions. Returns how
     * many were freed.
     */
    public int freeVersionsOlderThan(int keep) {
        int cut = mvStore.truncateAfter(keep);
        return mvStore.freeChain(cut);
    }

    /**
     * Removes an edge: its cells from the local endpoints' row-lists (merging rows that become
     * sparse), its properties with all versions, and its header. Its id is refused afterwards.
     */
    public void removeEdge(long edgeId) {
        int slot = edges.slotOf(edgeId);
        long out = edges.outVertex(slot);
        long in = edges.inVertex(slot);
        int label = edges.label(slot);
        int outSlot = vertices.slotOrNoSlot(out);
        if (outSlot != SlotPool.NO_SLOT) {
            edgeLists.remove(vertices.headers, outSlot, VertexHeaderDescriptor.EDGE_ROW_OFFSET,
                    EdgeCellDescriptor.neighbourWord(EdgeCellDescriptor.OUT, in), EdgeCellDescriptor.edgeWord(label, slot));
        }
        int inSlot = vertices.slotOrNoSlot(in);
        if (inSlot != SlotPool.NO_SLOT) {
            edgeLists.remove(vertices.headers, inSlot, VertexHeaderDescriptor.EDGE_ROW_OFFSET,
                    EdgeCellDescriptor.neighbourWord(EdgeCellDescriptor.IN, out), EdgeCellDescriptor.edgeWord(label, slot));
        }
        edgeProperties.freeAll(slot);
        externalEdgeIds.remove(edgeId);
        edges.free(slot);
    }

    /**
     * Removes a vertex with its properties and header. Its edges must have been removed first.
     *
     * @throws IllegalStateException naming the vertex if it still has edge cells
     */
    public void removeVertex(long vertexId) {
        int slot = vertices.slotOf(vertexId);
        if (vertices.headers.getIntAcquire(slot, VertexHeaderDescriptor.EDGE_ROW_OFFSET) != RowDescriptor.NO_ROW) {
            throw new IllegalStateException("vertex still has edges; remove them first: " + ElementIds.toString(vertexId));
        }
        vertexProperties.freeAll(slot);
        externalVertexIds.remove(vertexId);
        vertices.free(slot);
    }

    /**
     * Repacks a vertex's edge row-list densely into consecutive rows (see {@link #compactAllEdges}).
     * Returns how many rows the list shrank by.
     */
    public int compactEdges(long vertexId) {
        return edgeLists.relocate(vertices.headers, vertices.slotOf(vertexId), VertexHeaderDescriptor.EDGE_ROW_OFFSET);
    }

    /**
     * Repacks every vertex's edge row-list densely, in vertex-slot order, into two regions of
     * consecutive full rows, so that scanning the adjacency of vertices in slot order reads memory
     * front to back. The first region holds each list's front part, every row an OUT scan reads (the
     * OUT cells, up to and including the row with the first IN cell), one list right after the
     * previous; the second holds the rest, the rows of IN cells only, in the same order. An OUT scan
     * of the whole graph then streams through the first region and never touches the second. Rows
     * of lists inserted into over time end up scattered over the pool; this pass (after a bulk
     * load, or in the garbage collector's quiet moments) restores locality. Readers are never
     * blocked. Returns how many rows the lists shrank by in total.
     *
     * <p>Run it from one thread (the garbage collector's), not concurrently with
     * {@link #removeVertex}. Lists move into runs of fresh memory (released chunks first, see
     * {@link SlotPool#allocateRun}), and the rows they leave go onto the free list; at the end of
     * the pass every edge-row chunk left wholly free is released
     * ({@link SlotPool#releaseWhollyFreeChunks}). So a pass needs, for the moment, room for the
     * rows it moves, and afterwards the pool holds about what its lists take.
     */
    public synchronized long compactAllEdges() {
        long shrunk = 0;
        int limit = vertices.headers.highWater();
        int head = VertexHeaderDescriptor.EDGE_ROW_OFFSET;
        // A part stays put only if it is laid out where this pass would put it: the first of a
        // region where the last pass began the region, every later one right after the previous
        // part or at the start of a chunk (where a run goes that cannot start there; see
        // SlotPool.allocateRunFrom). So a second pass over a compacted store moves nothing. Before
        // any pass nothing stays, so that no list anchors a region wherever it was loaded. Once a
        // part moves, every later one moves too: it follows the moved part into fresh rows, and the
        // rows it leaves can be released whole. A list whose front part moved has had its back
        // part packed into its old rows, so that part moves too.
        boolean frontStays = edgeFrontRegion != RowDescriptor.NO_ROW;
        int wantedFront = edgeFrontRegion;
        boolean firstFront = true;
        int frontMovedFrom = Integer.MAX_VALUE; // the first vertex slot whose front part moved
        for (int slot = 0; slot < limit; slot++) {
            if (vertices.headers.isAllocated(slot)) {
                int before = vertices.headers.getIntAcquire(slot, head);
                shrunk += edgeLists.relocateFront(vertices.headers, slot, head, wantedFront, !firstFront,
                        frontStays && frontMovedFrom == Integer.MAX_VALUE);
                int after = edgeLists.rowAfterFront(vertices.headers, slot, head);
                if (after != RowDescriptor.NO_ROW) {
                    int now = vertices.headers.getIntAcquire(slot, head);
                    if (frontMovedFrom == Integer.MAX_VALUE && now != before) {
                        frontMovedFrom = slot;
                    }
                    if (firstFront) {
                        edgeFrontRegion = now;
                        firstFront = false;
                    }
                    wantedFront = after;
                }
            }
        }
        boolean backStays = edgeBackRegion != RowDescriptor.NO_ROW;
        int wantedBack = edgeBackRegion;
        boolean firstBack = true;
        boolean backMoved = false;
        for (int slot = 0; slot < limit; slot++) {
            if (vertices.headers.isAllocated(slot)) {
                int before = edgeLists.firstBackRow(vertices.headers, slot, head);
                int after = edgeLists.relocateBack(vertices.headers, slot, head, wantedBack, !firstBack,
                        backStays && !backMoved && slot < frontMovedFrom);
                if (after != RowDescriptor.NO_ROW) {
                    int first = edgeLists.firstBackRow(vertices.headers, slot, head);
                    backMoved |= first != before;
                    if (firstBack) {
                        edgeBackRegion = first;
                        firstBack = false;
                    }
                    wantedBack = after;
                }
            }
        }
        edgeRows.releaseWhollyFreeChunks();
        return shrunk;
    }

    // ---------------------------------------------------------------- statistics

    /** Direct memory reserved by every pool, by pool name, plus "total". */
    public Map<String, Long> reservedBytes() {
        Map<String, Long> out = new LinkedHashMap<>();
        out.put("vertex-header", vertices.headers.reservedBytes());
        out.put("edge-header", edges.headers.reservedBytes());
        out.put("edge-row", edgeRows.reservedBytes());
        out.put("vertex-property-row", vertexPropertyRows.reservedBytes());
        out.put("edge-property-row", edgePropertyRows.reservedBytes());
        out.put("mv-kvs", mvStore.reservedBytes());
        out.put("external-ids", externalVertexIds.offHeapBytes() + externalEdgeIds.offHeapBytes());
        long total = 0;
        for (long v : out.values()) {
            total += v;
        }
        out.put("total", total);
        return out;
    }

    /** Live slots of the structural pools, by pool name; what GC tests watch. */
    public Map<String, Long> liveSlots() {
        Map<String, Long> out = new LinkedHashMap<>();
        out.put("vertex-header", (long) vertices.live()); // elements: the retired slots are not counted
        out.put("edge-header", (long) edges.live());
        out.put("edge-row", (long) edgeRows.liveSlots());
        out.put("vertex-property-row", (long) vertexPropertyRows.liveSlots());
        out.put("edge-property-row", (long) edgePropertyRows.liveSlots());
        out.put("mv-tuple", (long) mvStore.liveVersions()); // full tuples and base versions
        out.put("value", mvStore.liveValues());
        return out;
    }

    @Override
    public void close() {
        vertices.close();
        edges.close();
        edgeRows.close();
        vertexPropertyRows.close();
        edgePropertyRows.close();
        mvStore.close();
        externalVertexIds.close();
        externalEdgeIds.close();
    }

    // ---------------------------------------------------------------- internals

    private void checkLabel(int label) {
        if (!labels.knows(label)) {
            throw new IllegalArgumentException("unknown label id: " + label + "; intern labels through labels()");
        }
    }
}
