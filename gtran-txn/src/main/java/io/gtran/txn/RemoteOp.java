package io.gtran.txn;

import io.gtran.storage.EdgeCursor;
import io.gtran.storage.EdgeDirection;
import io.gtran.storage.GraphStore;
import io.gtran.txn.protocol.Wire;
import java.util.Map;

/**
 * The operations a transaction runs on another node's elements (docs/cluster-transactions.md,
 * "Execution"): each is one {@link Transaction} method, sent by the coordinator with its arguments
 * and run by the owner under the transaction's participant context there. Labels and property
 * keys travel by name (every member gives a name the same id, see {@code Dictionary.Authority};
 * the name keeps a request readable on its own). The owner interns a name it has not seen even
 * for a read: the read finds nothing, but it is recorded under the name's id, so
 * SR validation here catches a writer that adds the first element, edge or property by that name.
 */
enum RemoteOp {
    EXISTS, LABEL, EDGE_OUT, EDGE_IN, PROPERTY, PROPERTIES, EDGES, SCAN, VISIBLE, COUNT, RECORD_READ, RECORD_WRITE,
    ADD_VERTEX, ADD_EDGE, REMOVE_EDGE, REMOVE_VERTEX, SET_PROPERTY, REMOVE_PROPERTY,
    /** An edge's mirror at its in-vertex's node, added or removed with the edge (see {@link Mirrors}). */
    ADD_MIRROR, REMOVE_MIRROR,
    /** A vertex's edges with the vertex at each one's other end. */
    ADJACENT,
    /** {@link #ADJACENT} of many vertices of the owner in one request. */
    ADJACENT_MANY,
    /** User-supplied ids, bound and looked up at the node that keeps them (see {@link Transaction#bindExternalId}). */
    BIND_ID, RESOLVE_ID, EXPOSED_ID, SHADOWED_ID,
    /** A number an edge's user-supplied id names, at the member whose edge slot it is (see {@link ExternalIds#reserve}). */
    RESERVE_ID,
    /** {@link #EXPOSED_ID} of many elements of the owner in one request. */
    EXPOSED_MANY,
    /** Property-value indexes at each node (see {@link Transaction#indexWrite} and the methods after it). */
    INDEX_WRITE, INDEX_LOOKUP, INDEX_FILL, INDEX_CHANGE,
    /** A page of a {@link #SCAN}: from a slot, at most so many elements (see {@link MemberScan}). */
    SCAN_PAGE,
    /**
     * Labels and/or properties (some keys, or all) of many elements of the owner in one request:
     * per element, whether it is seen, then what {@link #LABEL} and {@link #PROPERTY} (each key)
     * or {@link #PROPERTIES} answer, read by the same {@link Transaction} methods, so recorded as
     * the same reads (see {@link Transaction#readMany}).
     */
    READ_MANY,
    /** The end of a read-only transaction: wait for what it pre-read here to commit. */
    RESOLVE;

    private static final RemoteOp[] VALUES = values();

    static RemoteOp of(int ordinal) {
        if (ordinal >= VALUES.length) {
            throw new IllegalStateException("unknown remote operation: " + ordinal);
        }
        return VALUES[ordinal];
    }

    /** A label id of the sender's dictionary as it travels: its name, or null for any label. */
    static String labelName(GraphStore store, int label) {
        return label == EdgeCursor.ANY_LABEL ? null : store.labels().name(label);
    }

    /**
     * Runs the operation {@code in} holds on {@code txn} (a participant context) and writes its
     * result to {@code out}. Exceptions are the transaction's own.
     */
    static void execute(Transaction txn, GraphStore store, Wire.Reader in, Wire.Writer out) {
        RemoteOp op = of(in.getByte());
        switch (op) {
            case EXISTS -> out.putBoolean(txn.exists(kind(in), in.getLong()));
            case LABEL -> {
                ElementKind kind = kind(in);
                long id = in.getLong();
                int label = kind == ElementKind.VERTEX ? txn.vertexLabel(id) : txn.edgeLabel(id);
                out.putString(store.labels().name(label));
            }
            case EDGE_OUT -> out.putLong(txn.edgeOutVertex(in.getLong()));
            case EDGE_IN -> out.putLong(txn.edgeInVertex(in.getLong()));
            case PROPERTY -> {
                ElementKind kind = kind(in);
                long id = in.getLong();
                int key = store.propertyKeys().intern(in.getString());
                out.putValue(kind == ElementKind.VERTEX ? txn.vertexProperty(id, key) : txn.edgeProperty(id, key));
            }
            case PROPERTIES -> {
                ElementKind kind = kind(in);
                long id = in.getLong();
                putProperties(store, out, kind == ElementKind.VERTEX ? txn.vertexProperties(id) : txn.edgeProperties(id));
            }
            case EDGES -> {
                long vertex = in.getLong();
                EdgeDirection direction = EdgeDirection.values()[in.getByte()];
                out.putLongs(txn.edges(vertex, direction, label(store, in.getString())));
            }
            case SCAN -> {
                ElementKind kind = kind(in);
                int label = label(store, in.getString());
                out.putLongs(kind == ElementKind.VERTEX ? txn.vertices(label) : txn.allEdges(label));
            }
            case SCAN_PAGE -> {
                ElementKind kind = kind(in);
                int label = label(store, in.getString());
                int fromSlot = in.getInt();
                int max = in.getInt();
                int[] next = new int[1];
                long[] page = txn.scanPageHere(kind, label, fromSlot, max, next);
                out.putInt(next[0]).putLongs(page);
            }
            case VISIBLE -> {
                ElementKind kind = kind(in);
                long[] ids = in.getLongs();
                out.putLongs(kind == ElementKind.VERTEX ? txn.visibleVertices(ids) : txn.visibleEdges(ids));
            }
            case COUNT -> {
                ElementKind kind = kind(in);
                int label = label(store, in.getString());
                out.putLong(kind == ElementKind.VERTEX ? txn.countVertices(label) : txn.countEdges(label));
            }
            case RECORD_READ, RECORD_WRITE -> {
                ConflictKey.Kind kind = ConflictKey.Kind.values()[in.getByte()];
                long element = in.getLong();
                long detail = kind == ConflictKey.Kind.PROPERTY ? store.propertyKeys().intern(in.getString()) : in.getLong();
                ConflictKey key = new ConflictKey(kind, element, detail);
                if (op == RECORD_READ) {
                    txn.recordRead(key);
                } else {
                    txn.recordWrite(key);
                }
            }
            case ADD_VERTEX -> out.putLong(txn.addVertex(store.labels().intern(in.getString())));
            case ADD_EDGE -> {
                long from = in.getLong();
                long to = in.getLong();
                out.putLong(txn.addEdge(from, to, store.labels().intern(in.getString())));
            }
            case REMOVE_EDGE -> out.putLong(txn.removeEdgeHere(in.getLong()));
            case ADD_MIRROR -> {
                long edge = in.getLong();
                long from = in.getLong();
                long to = in.getLong();
                txn.addMirror(edge, from, to, store.labels().intern(in.getString()));
            }
            case REMOVE_MIRROR -> txn.removeMirror(in.getLong());
            case ADJACENT -> {
                long vertex = in.getLong();
                EdgeDirection direction = EdgeDirection.values()[in.getByte()];
                out.putLongs(txn.adjacent(vertex, direction, label(store, in.getString())));
            }
            case REMOVE_VERTEX -> txn.removeVertex(in.getLong());
            case SET_PROPERTY -> {
                ElementKind kind = kind(in);
                long id = in.getLong();
                int key = store.propertyKeys().intern(in.getString());
                Object value = in.getValue();
                if (kind == ElementKind.VERTEX) {
                    txn.setVertexProperty(id, key, value);
                } else {
                    txn.setEdgeProperty(id, key, value);
                }
            }
            case REMOVE_PROPERTY -> {
                ElementKind kind = kind(in);
                long id = in.getLong();
                int key = store.propertyKeys().intern(in.getString());
                out.putBoolean(kind == ElementKind.VERTEX ? txn.removeVertexProperty(id, key) : txn.removeEdgeProperty(id, key));
            }
            case ADJACENT_MANY -> {
                long[] vertices = in.getLongs();
                EdgeDirection direction = EdgeDirection.values()[in.getByte()];
                int[] labels = new int[in.getInt()];
                for (int i = 0; i < labels.length; i++) {
                    labels[i] = label(store, in.getString());
                }
                for (long[] pairs : txn.adjacentManyHere(vertices, direction, labels)) {
                    out.putBoolean(pairs != null);
                    if (pairs != null) {
                        out.putLongs(pairs);
                    }
                }
            }
            case BIND_ID -> {
                ElementKind kind = kind(in);
                Object given = in.getValue();
                Object canonical = in.getValue();
                long internal = in.getLong();
                Object shown;
                try {
                    shown = txn.engine.externalIds().bind(txn, kind, given, canonical, internal);
                } catch (ExternalIdTakenException taken) {
                    out.putBoolean(false);
                    return;
                }
                out.putBoolean(true).putValue(shown);
            }
            case RESERVE_ID -> {
                Object given = in.getValue();
                long number = in.getLong();
                try {
                    txn.engine.externalIds().reserve(txn, given, number);
                } catch (ExternalIdTakenException taken) {
                    out.putBoolean(false);
                    return;
                }
                out.putBoolean(true);
            }
            case RESOLVE_ID -> {
                ElementKind kind = kind(in);
                out.putLong(txn.engine.externalIds().resolve(txn, kind, in.getValue(), null));
            }
            case EXPOSED_ID -> out.putValue(txn.engine.externalIds().exposed(kind(in), in.getLong()));
            case EXPOSED_MANY -> {
                ElementKind kind = kind(in);
                for (long id : in.getLongs()) {
                    out.putValue(txn.engine.externalIds().exposed(kind, id));
                }
            }
            case INDEX_WRITE -> {
                ElementKind kind = kind(in);
                long element = in.getLong();
                String key = in.getString();
                txn.indexWrite(kind, element, key, values(in), values(in));
            }
            case INDEX_LOOKUP -> {
                ElementKind kind = kind(in);
                String key = in.getString();
                int mode = in.getByte();
                long[] candidates = txn.indexLookUpHere(kind, key, mode, values(in));
                out.putBoolean(candidates != null);
                if (candidates != null) {
                    out.putLongs(candidates);
                }
            }
            case INDEX_FILL -> {
                ElementKind kind = kind(in);
                String key = in.getString();
                long[] elements = in.getLongs();
                Object[] values = new Object[elements.length];
                for (int i = 0; i < values.length; i++) {
                    values[i] = in.getValue();
                }
                txn.indexFillHere(kind, key, elements, values);
            }
            case INDEX_CHANGE -> {
                Transaction.IndexChange change = Transaction.IndexChange.values()[in.getByte()];
                ElementKind kind = kind(in);
                txn.indexChangeHere(change, kind, in.getString(), in.getBoolean());
            }
            case READ_MANY -> readMany(txn, store, in, out);
            case SHADOWED_ID -> out.putBoolean(txn.engine.externalIds().shadowed(kind(in), in.getLong()));
            case RESOLVE -> txn.resolvePreReads();
            default -> throw new IllegalStateException("unhandled remote operation: " + op);
        }
    }

    /** Values written as a count, then each value. */
    private static Object[] values(Wire.Reader in) {
        Object[] values = new Object[in.getInt()];
        for (int i = 0; i < values.length; i++) {
            values[i] = in.getValue();
        }
        return values;
    }

    /** {@link #READ_MANY} at the owner: the single reads' own methods, element by element. */
    private static void readMany(Transaction txn, GraphStore store, Wire.Reader in, Wire.Writer out) {
        ElementKind kind = kind(in);
        long[] ids = in.getLongs();
        boolean labels = in.getBoolean();
        int n = in.getInt();
        int[] keys = n < 0 ? null : new int[n];
        for (int i = 0; i < n; i++) {
            keys[i] = store.propertyKeys().intern(in.getString());
        }
        boolean vertex = kind == ElementKind.VERTEX;
        for (long id : ids) {
            boolean seen = txn.exists(kind, id);
            out.putBoolean(seen);
            if (!seen) {
                continue;
            }
            if (labels) {
                out.putString(store.labels().name(vertex ? txn.vertexLabel(id) : txn.edgeLabel(id)));
            }
            if (keys == null) {
                putProperties(store, out, vertex ? txn.vertexProperties(id) : txn.edgeProperties(id));
                continue;
            }
            for (int key : keys) {
                out.putValue(vertex ? txn.vertexProperty(id, key) : txn.edgeProperty(id, key));
            }
        }
    }

    /** Every property of an element, keys by name: what {@link #PROPERTIES} answers. */
    private static void putProperties(GraphStore store, Wire.Writer out, Map<Integer, Object> properties) {
        out.putInt(properties.size());
        properties.forEach((key, value) -> out.putString(store.propertyKeys().name(key)).putValue(value));
    }

    private static ElementKind kind(Wire.Reader in) {
        return ElementKind.values()[in.getByte()];
    }

    /** A label sent by name (null: any label) as this node's id, interned if this node never saw it (see above). */
    private static int label(GraphStore store, String name) {
        return name == null ? EdgeCursor.ANY_LABEL : store.labels().intern(name);
    }
}
