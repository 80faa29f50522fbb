package io.gtran.core;

import io.gtran.storage.ElementIds;
import io.gtran.txn.Transaction;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.ElementNotFoundException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.util.ElementHelper;

/**
 * Writes many elements in this thread's transaction, for loaders ({@link GtranGraph#bulk()}): a
 * vertex is added at once, as {@link GtranGraph#addVertex} adds it; edges are queued and added by
 * {@link #flush}, each as {@link Vertex#addEdge} adds it (same halves, checks, ids, indexes and
 * conflicts), but on a cluster with one request per other node for each kind of step (the
 * endpoints' ids, the edges, their mirrors, the claims and bindings of their ids, their
 * properties) where {@code addEdge} sends several per edge (docs/cluster-transactions.md,
 * "Execution": batched writes, which lists what still costs a request per element). Send each batch to the node
 * that keeps most of its out-vertices: an edge lives with its out-vertex.
 *
 * <p>{@link #addVertex} fails as {@code graph.addVertex} does, and {@link #addEdge} refuses a bad
 * edge without writing anything or touching the transaction (the edges queued before stay). A
 * {@link #flush} that fails undoes the whole transaction at once and leaves it awaiting rollback,
 * as a conflict does ({@code GtranTransaction}): nothing of the batch, or of what the transaction
 * wrote before, is left, and a caller who goes on is refused until it rolls back (Gremlin Server
 * rolls back a failed sessionless request itself). It throws what {@code Vertex.addEdge} would have
 * thrown for the edge at fault, or an {@code IllegalStateException} naming an end that is missing.
 *
 * <pre>{@code
 * GtranBulk bulk = graph.bulk();
 * bulk.addEdge("e1", "v1", "v2", "knows", Map.of("since", 2020));
 * bulk.flush(); // then commit the transaction
 * }</pre>
 */
public final class GtranBulk {
    private final GtranGraph graph;
    private final List<Queued> queued = new ArrayList<>();

    /** An edge waiting for {@link #flush}: checked when queued, so a bad one fails where it is given. */
    private record Queued(Object id, Object out, Object in, String label, Map<String, ?> properties) {
    }

    GtranBulk(GtranGraph graph) {
        this.graph = graph;
    }

    /**
     * Adds a vertex now: label {@code label}, user-supplied id {@code id} (null: one is made) and
     * {@code properties} (may be null); see {@link GtranGraph#addVertex}.
     */
    public Vertex addVertex(Object id, String label, Map<String, ?> properties) {
        List<Object> keyValues = new ArrayList<>();
        keyValues.add(T.label);
        keyValues.add(label);
        if (id != null) {
            keyValues.add(T.id);
            keyValues.add(id);
        }
        if (properties != null) {
            properties.forEach((key, value) -> {
                keyValues.add(key);
                keyValues.add(value);
            });
        }
        return graph.addVertex(keyValues.toArray());
    }

    /**
     * Queues an edge from the vertex with id {@code outId} to the vertex with id {@code inId}
     * (ids as {@code g.V(id)} takes them, or the vertices), with user-supplied id {@code id} (null:
     * one is made) and {@code properties} (may be null); {@link #flush} adds it.
     *
     * @throws RuntimeException TinkerPop's exception for a bad label, id type or property, as {@code
     *                          addEdge} throws it, or IllegalArgumentException for a null vertex id;
     *                          nothing is queued or written
     */
    public void addEdge(Object id, Object outId, Object inId, String label, Map<String, ?> properties) {
        if (outId == null || inId == null) {
            throw new IllegalArgumentException("an edge needs both vertices: out=" + outId + ", in=" + inId + ", id=" + id);
        }
        ElementHelper.validateLabel(label);
        if (id != null) {
            GtranIds.normalize(id, Edge.class);
        }
        Map<String, Object> copy = null; // a copy: the caller may reuse its map for the next edge
        if (properties != null) {
            copy = new java.util.LinkedHashMap<>(properties);
            copy.forEach((key, value) -> {
                if (value != null || graph.allowNullPropertyValues) {
                    ElementHelper.validateProperty(key, value);
                }
            });
        }
        queued.add(new Queued(id, outId, inId, label, copy));
    }

    /** Edges queued and not yet flushed. */
    public int queued() {
        return queued.size();
    }

    /**
     * Adds the queued edges in this thread's transaction; returns how many. The transaction is not
     * committed: commit it (a sessionless Gremlin Server request commits when its script ends).
     *
     * @throws IllegalStateException naming the edge whose vertex does not exist (the transaction is undone and awaits rollback)
     */
    public int flush() {
        List<Queued> edges = List.copyOf(queued);
        queued.clear();
        if (edges.isEmpty()) {
            return 0;
        }
        GtranTransaction.Scope scope = graph.transaction().scope();
        try {
            Transaction txn = scope.txn();
            Map<Object, Long> internal = vertices(txn, edges);
            int n = edges.size();
            long[] outs = new long[n];
            long[] ins = new long[n];
            int[] labels = new int[n];
            for (int i = 0; i < n; i++) {
                Queued e = edges.get(i);
                outs[i] = vertex(internal, e.out(), e);
                ins[i] = vertex(internal, e.in(), e);
                labels[i] = graph.store.labels().intern(e.label());
            }
            long[] made = txn.addEdges(outs, ins, labels);
            Object[] shown = bindIds(txn, edges, made, outs, ins, labels);
            for (int i = 0; i < n; i++) {
                graph.indexes.edgeLabelAdded(labels[i], made[i]);
            }
            writeProperties(scope, edges, made, shown, outs, ins);
            return n;
        } catch (RuntimeException e) {
            throw scope.failedPartWay(scope.translate(e instanceof ElementNotFoundException missing
                    ? new IllegalStateException("an end of an edge in this batch was removed or never existed: "
                            + missing.getMessage(), missing)
                    : e));
        }
    }

    /** The internal ids of the edges' endpoints, by the object given: those given by id looked up once each, all at once. */
    private Map<Object, Long> vertices(Transaction txn, List<Queued> edges) {
        Map<Object, Long> internal = new HashMap<>();
        Map<Object, Integer> asked = new HashMap<>(); // an end given by id, and where in the look-up it is
        List<Object> ids = new ArrayList<>();
        for (Queued e : edges) {
            for (Object end : new Object[] {e.out(), e.in()}) {
                if (end instanceof GtranVertex v && v.graph == graph) {
                    internal.put(end, v.internalId);
                } else if (!asked.containsKey(end)) {
                    asked.put(end, ids.size());
                    ids.add(end instanceof Vertex v ? v.id() : end);
                }
            }
        }
        long[] found = graph.ids.resolveVertices(txn, ids.toArray());
        asked.forEach((end, k) -> internal.put(end, found[k]));
        return internal;
    }

    private static long vertex(Map<Object, Long> internal, Object end, Queued edge) {
        long id = internal.get(end);
        if (id == ElementIds.NONE) {
            throw new IllegalStateException("no vertex with id " + (end instanceof Vertex v ? v.id() : end) + " for edge "
                    + describe(edge));
        }
        return id;
    }

    /**
     * Binds the user-supplied ids all at once and returns the ids the edges show (null: their
     * own); an edge without one takes another number while a user's id names its own.
     */
    private Object[] bindIds(Transaction txn, List<Queued> edges, long[] made, long[] outs, long[] ins, int[] labels) {
        Object[] shown = new Object[edges.size()];
        List<Integer> given = new ArrayList<>();
        for (int i = 0; i < edges.size(); i++) {
            if (edges.get(i).id() != null) {
                given.add(i);
                continue;
            }
            while (graph.ids.shadowed(txn, made[i], ElementKind.EDGE)) {
                txn.removeEdge(made[i]);
                made[i] = txn.addEdge(outs[i], ins[i], labels[i]);
            }
        }
        if (given.isEmpty()) {
            return shown;
        }
        Object[] ids = new Object[given.size()];
        long[] internals = new long[given.size()];
        for (int k = 0; k < ids.length; k++) {
            ids[k] = edges.get(given.get(k)).id();
            internals[k] = made[given.get(k)];
        }
        Object[] bound = graph.ids.bindEdges(txn, ids, internals);
        for (int k = 0; k < ids.length; k++) {
            shown[given.get(k)] = bound[k];
        }
        return shown;
    }

    /**
     * The edges' properties: those of keys without an index all at once (one request per other
     * node), the others, and null values, one by one as {@code Edge.property} writes them.
     */
    private void writeProperties(GtranTransaction.Scope scope, List<Queued> edges, long[] made, Object[] shown, long[] outs,
                                 long[] ins) {
        List<long[]> at = new ArrayList<>(); // {edge index, key id}
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < edges.size(); i++) {
            Queued e = edges.get(i);
            if (e.properties() == null) {
                continue;
            }
            GtranEdge edge = null;
            for (Map.Entry<String, ?> p : e.properties().entrySet()) {
                Object value = p.getValue();
                if (value != null && !graph.indexes.isIndexed(true, p.getKey())) {
                    at.add(new long[] {i, graph.store.propertyKeys().intern(p.getKey())});
                    values.add(PropertyValues.toStored(value));
                } else if (value != null || graph.allowNullPropertyValues) {
                    edge = edge != null ? edge : new GtranEdge(graph, made[i], shown[i], e.label(), outs[i], ins[i]);
                    edge.writeProperty(scope, p.getKey(), value);
                }
            }
        }
        long[] owners = new long[at.size()];
        int[] keys = new int[at.size()];
        for (int k = 0; k < owners.length; k++) {
            owners[k] = made[(int) at.get(k)[0]];
            keys[k] = (int) at.get(k)[1];
        }
        scope.txn().setEdgeProperties(owners, keys, values.toArray());
    }

    private static String describe(Queued e) {
        return (e.id() == null ? "" : e.id() + " ") + e.out() + " -" + e.label() + "-> " + e.in();
    }
}
