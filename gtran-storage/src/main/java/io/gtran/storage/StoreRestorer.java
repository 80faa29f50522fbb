package io.gtran.storage;

import java.util.Arrays;

/**
 * Rebuilds a {@link GraphStore}'s vertices and edges at exactly the ids they had before a restart,
 * so ids that users hold keep naming the same elements. Obtain one from
 * {@link GraphStore#restorer()} on a store in which nothing has been allocated yet, declare every
 * live element and the last id of every slot that was used and is free now, in any order, then
 * call {@link #finish()}, which builds them all. Declarations are buffered in primitive arrays, a
 * few dozen bytes an element (and, in {@code finish}, 16 bytes an edge cell), and checked one by
 * one as they come; what needs them all together is checked in {@code finish} before anything is
 * built.
 *
 * <p>After {@code finish}, each vertex and edge is live at its declared id with its label and its
 * begin and end time words, and each edge has its cells in its local endpoints' row-lists, the
 * cells {@link GraphStore#addEdge} makes. Each list is written whole, in one pass, packed as
 * {@link GraphStore#compactEdges} leaves a list: every row full but the last. A slot that holds
 * no live element is free: the next element there takes the generation after the highest dead id declared for it (a slot whose
 * generation is spent is retired, as on removal), or generation 0 if no dead id was declared. So
 * {@code addVertex} and {@code addEdge} never hand out a restored id or a declared dead id. Right
 * after {@code finish}, the free slots are handed out lowest first. Properties and external ids are not restored here:
 * add them afterwards through {@link GraphStore#vertices()} and {@link GraphStore#edges()}.
 *
 * <p>Labels must be known to the store's {@link GraphStore#labels() label dictionary} by the time
 * of {@code finish} ({@link Dictionary#restore}). Not thread-safe, and the store must not be used
 * until {@code finish} returns. Single use: any call after {@code finish} throws
 * {@link IllegalStateException}.
 */
public final class StoreRestorer {
    private final GraphStore store;
    private final LongColumn vertexIds = new LongColumn();
    private final LongColumn vertexLabels = new LongColumn();
    private final LongColumn vertexBeginTimes = new LongColumn();
    private final LongColumn vertexEndTimes = new LongColumn();
    private final LongColumn edgeIds = new LongColumn();
    private final LongColumn edgeOutVertices = new LongColumn();
    private final LongColumn edgeInVertices = new LongColumn();
    private final LongColumn edgeLabels = new LongColumn();
    private final LongColumn edgeBeginTimes = new LongColumn();
    private final LongColumn edgeEndTimes = new LongColumn();
    private final LongColumn deadVertexIds = new LongColumn();
    private final LongColumn deadEdgeIds = new LongColumn();
    private boolean finished;

    StoreRestorer(GraphStore store) {
        this.store = store;
    }

    /**
     * Declares a live vertex at exactly {@code id}.
     *
     * @throws IllegalArgumentException naming the id if it is not a vertex id of this node that a
     *                                  vertex header can carry
     */
    public void vertex(long id, int label, long beginTime, long endTime) {
        checkNotFinished();
        store.vertices.checkIssuable(id, "vertex");
        vertexIds.add(id);
        vertexLabels.add(label);
        vertexBeginTimes.add(beginTime);
        vertexEndTimes.add(endTime);
    }

    /**
     * Declares a live edge at exactly {@code id}. An endpoint on this node must be declared as a
     * live vertex too (by {@code finish}); one on another node is taken as it is, as
     * {@link GraphStore#addEdge} takes it.
     *
     * @throws IllegalArgumentException naming the ids if {@code id} is not an edge id of this node
     *                                  that an edge header can carry, an endpoint is not a vertex id,
     *                                  or neither endpoint is on this node
     */
    public void edge(long id, long outVertex, long inVertex, int label, long beginTime, long endTime) {
        checkNotFinished();
        store.edges.checkIssuable(id, "edge");
        checkIsVertex(id, outVertex);
        checkIsVertex(id, inVertex);
        if (ElementIds.node(outVertex) != store.nodeId() && ElementIds.node(inVertex) != store.nodeId()) {
            throw new IllegalArgumentException("edge " + ElementIds.toString(id) + " has no endpoint on node " + store.nodeId()
                    + ": out=" + ElementIds.toString(outVertex) + " in=" + ElementIds.toString(inVertex));
        }
        edgeIds.add(id);
        edgeOutVertices.add(outVertex);
        edgeInVertices.add(inVertex);
        edgeLabels.add(label);
        edgeBeginTimes.add(beginTime);
        edgeEndTimes.add(endTime);
    }

    /**
     * Declares the id of a removed vertex or edge: its slot, unless a live element of a later
     * generation holds it, is free after {@code finish} and hands out the next generation (see the
     * class comment). Of several dead ids on one slot the highest generation counts; one on the
     * slot of a live element and of a lower generation than it says nothing new and is ignored.
     *
     * @throws IllegalArgumentException naming the id if it is not a vertex or edge id of this node
     *                                  that a header can carry
     */
    public void dead(long id) {
        checkNotFinished();
        boolean edge = ElementIds.isEdge(id);
        (edge ? store.edges : store.vertices).checkIssuable(id, "dead");
        (edge ? deadEdgeIds : deadVertexIds).add(id);
    }

    /**
     * Builds every element declared. In order:
     * <ol>
     *   <li>checks what needs the declarations together, building nothing if one fails: no two live
     *       elements on one slot, no dead id of a live element's slot as young as the live one, every
     *       label known, every local endpoint of an edge declared as a live vertex; then gathers
     *       each local vertex's edge cells and sorts them into row-list order ({@link AdjacencyPlan});</li>
     *   <li>creates the vertices in increasing slot order, then the edges, taking the slots between
     *       them on the way, then writes each local vertex's edge row-list in one pass, in vertex-slot
     *       order;</li>
     *   <li>frees the slots taken on the way, each with the dead marker of its dead id if it has one.</li>
     * </ol>
     * A refused check leaves the store as it was, so a new restorer can start over. A store that
     * runs out of room in step 2 (edge rows: {@link StoreCapacityException}) is left part built:
     * close it and restore into one with more room.
     *
     * @throws IllegalArgumentException naming the id(s) if a check of step 1 fails
     * @throws IllegalStateException    if called twice, or if something was allocated in the store since
     *                                  {@link GraphStore#restorer()}, or (in step 1, naming the edge) if two
     *                                  cells of one vertex are alike: corrupt declarations, which the slot
     *                                  check refuses first
     */
    public void finish() {
        checkNotFinished();
        finished = true;
        store.checkRestorable();
        SlotPlan vertexPlan = SlotPlan.of(vertexIds, deadVertexIds);
        SlotPlan edgePlan = SlotPlan.of(edgeIds, deadEdgeIds);
        checkLabels(vertexIds, vertexLabels);
        checkLabels(edgeIds, edgeLabels);
        checkLocalEndpoints();
        AdjacencyPlan adjacency = AdjacencyPlan.of(store.nodeId(), store.edgeLists, edgeIds, edgeOutVertices, edgeInVertices,
                edgeLabels);
        PassedSlots passedVertices = new PassedSlots();
        vertexPlan.build(store.vertices, passedVertices, (index, passed) -> store.vertices.createAt(vertexIds.get(index), passed,
                (int) vertexLabels.get(index), vertexBeginTimes.get(index), vertexEndTimes.get(index)));
        PassedSlots passedEdges = new PassedSlots();
        edgePlan.build(store.edges, passedEdges, (index, passed) -> store.edges.createAt(edgeIds.get(index), passed,
                edgeOutVertices.get(index), edgeInVertices.get(index), (int) edgeLabels.get(index), edgeBeginTimes.get(index),
                edgeEndTimes.get(index)));
        adjacency.build(store);
        passedVertices.freeAll(store.vertices);
        passedEdges.freeAll(store.edges);
    }

    private void checkLabels(LongColumn ids, LongColumn labels) {
        for (int i = 0; i < ids.size(); i++) {
            int label = (int) labels.get(i);
            if (!store.labels().knows(label)) {
                throw new IllegalArgumentException(ElementIds.toString(ids.get(i)) + " has the unknown label id " + label
                        + "; restore the label dictionary first");
            }
        }
    }

    private void checkLocalEndpoints() {
        long[] live = vertexIds.toArray();
        Arrays.sort(live);
        for (int i = 0; i < edgeIds.size(); i++) {
            checkDeclared(live, edgeIds.get(i), edgeOutVertices.get(i));
            checkDeclared(live, edgeIds.get(i), edgeInVertices.get(i));
        }
    }

    /** Throws unless {@code endpoint} is on another node or among the {@code live} vertex ids (sorted). */
    private void checkDeclared(long[] live, long edge, long endpoint) {
        if (ElementIds.node(endpoint) == store.nodeId() && Arrays.binarySearch(live, endpoint) < 0) {
            throw new IllegalArgumentException("edge " + ElementIds.toString(edge) + " has the endpoint "
                    + ElementIds.toString(endpoint) + ", which is not declared as a live vertex");
        }
    }

    private static void checkIsVertex(long edge, long endpoint) {
        if (!ElementIds.isWellFormed(endpoint) || !ElementIds.isVertex(endpoint)) {
            throw new IllegalArgumentException("edge " + ElementIds.toString(edge) + " has an endpoint that is not a vertex id: "
                    + ElementIds.toString(endpoint));
        }
    }

    private void checkNotFinished() {
        if (finished) {
            throw new IllegalStateException("this restorer has finished; a store is restored once");
        }
    }
}
