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

    public ExternalIdMap externalVertexIds() {
        return externalVertexIds;
    }

    public ExternalIdMap externalEdgeIds() {
        return externalEdgeIds;
    }

    // ---------------------------------------------------------------- vertices

    /** Creates a vertex header with no edges and no properties; returns its id. */
    public long addVertex(int label, long beginTime, long endTime) {
        checkLabel(label);
        return vertices.create(label, beginTime, endTime);
    }

    public boolean containsVertex(long vertexId) {
        return vertices.contains(vertexId);
    }

    public int vertexLabel(long vertexId) {
        int slot = vertices.slotOf(vertexId);
        int value = vertices.label(slot);
        vertices.recheck(slot, vertexId);
        return value;
    }

    public long vertexBeginTime(long vertexId) {
        int slot = vertices.slotOf(vertexId);
        long value = vertices.beginTime(slot);
        vertices.recheck(slot, vertexId);
        return value;
    }

    public long vertexEndTime(long vertexId) {
        int slot = vertices.slotOf(vertexId);
        long value = vertices.endTime(slot);
        vertices.recheck(slot, vertexId);
        return value;
    }

    public boolean compareAndSetVertexBeginTime(long vertexId, long expected, long value) {
        return vertices.compareAndSetBeginTime(vertices.slotOf(vertexId), expected, value);
    }

    public boolean compareAndSetVertexEndTime(long vertexId, long expected, long value) {
        return vertices.compareAndSetEndTime(vertices.slotOf(vertexId), expected, value);
    }

    public int vertexCount() {
        return vertices.live();
    }

    /** The id in header slot {@code slot} if that slot holds a live vertex, else {@link ElementIds#NONE}; for full scans. */
    public long vertexIdAtSlot(int slot) {
        return liveIdAtSlot(vertices, slot);
    }

    /** One past the highest vertex slot ever used; full scans run slots [0, this). */
    public int vertexSlotLimit() {
        return vertices.headers.highWater();
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
        boolean outLocal = ElementIds.node(outVertex) == config.nodeId;
        boolean inLocal = ElementIds.node(inVertex) == config.nodeId;
        int outSlot = outLocal ? vertices.slotOf(outVertex) : SlotPool.NO_SLOT;
        int inSlot = inLocal ? vertices.slotOf(inVertex) : SlotPool.NO_SLOT;
        if (!outLocal && !inLocal) {
            throw new UnknownElementException("edge has no endpoint on node " + config.nodeId + ": out="
                    + ElementIds.toString(outVertex) + " in=" + ElementIds.toString(inVertex));
        }
        if (!ElementIds.isWellFormed(outVertex) || !ElementIds.isWellFormed(inVertex)) {
            throw new UnknownElementException("edge endpoint is not a gtran vertex id: out=" + outVertex + " in=" + inVertex);
        }
        long edgeId = edges.create(outVertex, inVertex, label, beginTime, endTime);
        int edgeSlot = ElementIds.slot(edgeId);
        boolean outInserted = false;
        try {
            if (outLocal) {
                insertCell(outSlot, EdgeCellDescriptor.neighbourWord(EdgeCellDescriptor.OUT, inVertex),
                        EdgeCellDescriptor.edgeWord(label, edgeSlot), edgeId);
                outInserted = true;
            }
            if (inLocal) {
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
        return edgeId;
    }

    private void insertCell(int vertexSlot, long neighbourWord, long edgeWord, long edgeId) {
        // Cell keys are unique (direction, neighbour, edge slot) and the edge slot is fresh, so a
        // refusal means the list is corrupt: fail loudly rather than lose half an edge.
        if (!edgeLists.insert(vertices.headers, vertexSlot, VertexHeaderDescriptor.EDGE_ROW_OFFSET, neighbourWord, edgeWord)) {
            throw new IllegalStateException("edge cell already present: edge " + ElementIds.toString(edgeId)
                    + " neighbour " + ElementIds.toString(EdgeCellDescriptor.neighbour(neighbourWord)));
        }
    }

    public boolean containsEdge(long edgeId) {
        return edges.contains(edgeId);
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

    public int edgeLabel(long edgeId) {
        int slot = edges.slotOf(edgeId);
        int value = edges.label(slot);
        edges.recheck(slot, edgeId);
        return value;
    }

    public long edgeBeginTime(long edgeId) {
        int slot = edges.slotOf(edgeId);
        long value = edges.beginTime(slot);
        edges.recheck(slot, edgeId);
        return value;
    }

    public long edgeEndTime(long edgeId) {
        int slot = edges.slotOf(edgeId);
        long value = edges.endTime(slot);
        edges.recheck(slot, edgeId);
        return value;
    }

    public boolean compareAndSetEdgeBeginTime(long edgeId, long expected, long value) {
        return edges.compareAndSetBeginTime(edges.slotOf(edgeId), expected, value);
    }

    public boolean compareAndSetEdgeEndTime(long edgeId, long expected, long value) {
        return edges.compareAndSetEndTime(edges.slotOf(edgeId), expected, value);
    }

    public int edgeCount() {
        return edges.live();
    }

    /** The id in edge slot {@code slot} if it holds a live edge, else {@link ElementIds#NONE}; for full scans. */
    public long edgeIdAtSlot(int slot) {
        return liveIdAtSlot(edges, slot);
    }

    /**
     * The id in a header slot, or {@link ElementIds#NONE}. An allocated slot is not yet (or no
     * longer) live while its id word holds the previous element's dead marker: between allocation
     * and publication of the new id, and between the marker and the free on removal.
     */
    private static long liveIdAtSlot(HeaderTable table, int slot) {
        if (!table.headers.isAllocated(slot)) {
            return ElementIds.NONE;
        }
        long id = table.idOfSlot(slot);
        return ElementIds.isWellFormed(id) ? id : ElementIds.NONE;
    }

    public int edgeSlotLimit() {
        return edges.headers.highWater();
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

    // ---------------------------------------------------------------- properties

    /**
     * Adds a full version (own begin/end time) of a vertex property as its newest, linked to the
     * previous newest. Returns the new version's handle.
     */
    public int addVertexPropertyVersion(long vertexId, int keyId, Object value, long beginTime, long endTime) {
        return vertexProperties.addVersion(vertexId, keyId, older -> mvStore.createVersion(value, beginTime, endTime, older));
    }

    /** As {@link #addVertexPropertyVersion} for bytes a layer above serialized. */
    public int addSerializedVertexPropertyVersion(long vertexId, int keyId, byte[] serialized, long beginTime, long endTime) {
        return vertexProperties.addVersion(vertexId, keyId, older -> mvStore.createSerializedVersion(serialized, beginTime, endTime, older));
    }

    public int addEdgePropertyVersion(long edgeId, int keyId, Object value, long beginTime, long endTime) {
        return edgeProperties.addVersion(edgeId, keyId, older -> mvStore.createVersion(value, beginTime, endTime, older));
    }

    public int addSerializedEdgePropertyVersion(long edgeId, int keyId, byte[] serialized, long beginTime, long endTime) {
        return edgeProperties.addVersion(edgeId, keyId, older -> mvStore.createSerializedVersion(serialized, beginTime, endTime, older));
    }

    /**
     * Gives a vertex property its first version as a {@link BaseVersionDescriptor base version},
     * whose begin/end time are the vertex's: for properties written by the same write that
     * created the vertex. Returns the version handle.
     *
     * @throws IllegalStateException if the property already has a version
     */
    public int addVertexPropertyBase(long vertexId, int keyId, Object value) {
        return vertexProperties.addBase(vertexId, keyId, () -> mvStore.createBaseVersion(value));
    }

    public int addSerializedVertexPropertyBase(long vertexId, int keyId, byte[] serialized) {
        return vertexProperties.addBase(vertexId, keyId, () -> mvStore.createSerializedBaseVersion(serialized));
    }

    /** As {@link #addVertexPropertyBase} for an edge property; validity is the edge's. */
    public int addEdgePropertyBase(long edgeId, int keyId, Object value) {
        return edgeProperties.addBase(edgeId, keyId, () -> mvStore.createBaseVersion(value));
    }

    public int addSerializedEdgePropertyBase(long edgeId, int keyId, byte[] serialized) {
        return edgeProperties.addBase(edgeId, keyId, () -> mvStore.createSerializedBaseVersion(serialized));
    }

    /**
     * Swings a vertex property's newest-version link from {@code expected} to {@code replacement}
     * (for instance a base version to its {@link MvStore#materialize materialized} tuple). Returns
     * false, changing nothing, if the newest version is no longer {@code expected}.
     *
     * @throws IllegalArgumentException if {@code replacement} is not a live version, or the key id is unknown
     */
    public boolean replaceVertexPropertyVersion(long vertexId, int keyId, int expected, int replacement) {
        return vertexProperties.replaceVersion(vertexId, keyId, expected, replacement);
    }

    public boolean replaceEdgePropertyVersion(long edgeId, int keyId, int expected, int replacement) {
        return edgeProperties.replaceVersion(edgeId, keyId, expected, replacement);
    }

    /**
     * Links a version made with {@link MvStore#createVersion} (or a base version) as the newest
     * of a vertex property, if the newest is still {@code expectedNewest}
     * ({@link MvTupleDescriptor#NO_TUPLE}: no version yet). Unlike {@link #addVertexPropertyVersion},
     * which always links on top of whatever is newest, this is a compare-and-link: false, changing
     * nothing, if another writer linked first. The caller chose the version's older link.
     *
     * @throws IllegalArgumentException if {@code version} is not live or the key id is unknown
     */
    public boolean linkVertexPropertyVersion(long vertexId, int keyId, int expectedNewest, int version) {
        return vertexProperties.linkVersion(vertexId, keyId, expectedNewest, version);
    }

    public boolean linkEdgePropertyVersion(long edgeId, int keyId, int expectedNewest, int version) {
        return edgeProperties.linkVersion(edgeId, keyId, expectedNewest, version);
    }

    /**
     * Removes a vertex property's cell if it still links {@code expectedNewest}, freeing no
     * version: the caller frees the unlinked chain when no reader can still be walking it.
     */
    public boolean unlinkVertexProperty(long vertexId, int keyId, int expectedNewest) {
        return vertexProperties.unlink(vertexId, keyId, expectedNewest);
    }

    public boolean unlinkEdgeProperty(long edgeId, int keyId, int expectedNewest) {
        return edgeProperties.unlink(edgeId, keyId, expectedNewest);
    }

    /** The newest version of a vertex property, or {@link MvTupleDescriptor#NO_TUPLE}. */
    public int vertexPropertyVersion(long vertexId, int keyId) {
        return vertexProperties.newestVersion(vertexId, keyId);
    }

    public int edgePropertyVersion(long edgeId, int keyId) {
        return edgeProperties.newestVersion(edgeId, keyId);
    }

    public PropertyCursor newVertexPropertyCursor() {
        return vertexProperties.newCursor();
    }

    public PropertyCursor newEdgePropertyCursor() {
        return edgeProperties.newCursor();
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

    /** Removes a vertex property's cell and frees all its versions. Returns false if it had none. */
    public boolean removeVertexProperty(long vertexId, int keyId) {
        return vertexProperties.remove(vertexId, keyId);
    }

    public boolean removeEdgeProperty(long edgeId, int keyId) {
        return edgeProperties.remove(edgeId, keyId);
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
        if (label < 0 || label >= labels.size()) {
            throw new IllegalArgumentException("unknown label id: " + label + "; intern labels through labels()");
        }
    }
}
