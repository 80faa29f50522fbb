package io.gtran.txn;

import io.gtran.storage.EdgeCursor;
import io.gtran.storage.GraphStore;
import io.gtran.txn.common.ConflictKey;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.ExternalIdTakenException;
import io.gtran.txn.protocol.Op;
import io.gtran.txn.protocol.Wire;
import java.util.Map;

/**
 * Runs the operations a transaction sends to another node's elements ({@link Op},
 * docs/cluster-transactions.md, "Execution"), each as the {@link Transaction} method of the same
 * name under the transaction's part on the owner. Labels and property keys arrive by name (every
 * member gives a name the same id, see {@code Dictionary.Authority}). The owner interns a name it
 * has not seen even for a read: the read finds nothing, but it is recorded under the name's id, so
 * SR validation here catches a writer that adds the first element, edge or property by that name.
 */
final class RemoteOp {
    private RemoteOp() {
    }

    /** A label id of the sender's dictionary as it travels: its name, or null for any label. */
    static String labelName(GraphStore store, int label) {
        return label == EdgeCursor.ANY_LABEL ? null : store.labels().name(label);
    }

    /**
     * Runs {@code op} on {@code txn} (a participant's part) and writes its result to {@code out}.
     * Exceptions are the transaction's own.
     */
    static void execute(Transaction txn, GraphStore store, Op op, Wire.Writer out) {
        switch (op.type()) {
            case EXISTS -> {
                Op.Exists o = (Op.Exists) op;
                out.putBoolean(txn.exists(o.kind(), o.element()));
            }
            case LABEL -> {
                Op.Label o = (Op.Label) op;
                int label = o.kind() == ElementKind.VERTEX ? txn.vertexLabel(o.element()) : txn.edgeLabel(o.element());
                out.putString(store.labels().name(label));
            }
            case EDGE_OUT -> out.putLong(txn.edgeOutVertex(((Op.EdgeEnd) op).edge()));
            case EDGE_IN -> out.putLong(txn.edgeInVertex(((Op.EdgeEnd) op).edge()));
            case PROPERTY -> {
                Op.Property o = (Op.Property) op;
                out.putValue(property(txn, o.kind(), o.element(), store.propertyKeys().intern(o.key())));
            }
            case PROPERTIES -> {
                Op.Properties o = (Op.Properties) op;
                putProperties(store, out, properties(txn, o.kind(), o.element()));
            }
            case EDGES, ADJACENT -> {
                Op.Edges o = (Op.Edges) op;
                int label = label(store, o.label());
                out.putLongs(o.pairs() ? txn.adjacent(o.vertex(), o.direction(), label) : txn.edges(o.vertex(), o.direction(), label));
            }
            case SCAN -> {
                Op.Scan o = (Op.Scan) op;
                int label = label(store, o.label());
                out.putLongs(o.kind() == ElementKind.VERTEX ? txn.vertices(label) : txn.allEdges(label));
            }
            case COUNT -> {
                Op.Scan o = (Op.Scan) op;
                int label = label(store, o.label());
                out.putLong(o.kind() == ElementKind.VERTEX ? txn.countVertices(label) : txn.countEdges(label));
            }
            case SCAN_PAGE -> {
                Op.ScanPage o = (Op.ScanPage) op;
                int[] next = new int[1];
                long[] page = txn.scans.scanPageHere(o.kind(), label(store, o.label()), o.fromSlot(), o.max(), next);
                out.putInt(next[0]).putLongs(page);
            }
            case VISIBLE -> {
                Op.Visible o = (Op.Visible) op;
                out.putLongs(o.kind() == ElementKind.VERTEX ? txn.visibleVertices(o.ids()) : txn.visibleEdges(o.ids()));
            }
            case RECORD -> {
                Op.Record o = (Op.Record) op;
                long detail = o.kind() == ConflictKey.Kind.PROPERTY ? store.propertyKeys().intern(o.propertyKey()) : o.detail();
                ConflictKey key = new ConflictKey(o.kind(), o.element(), detail);
                if (o.write()) {
                    txn.recordWrite(key);
                } else {
                    txn.recordRead(key);
                }
            }
            case ADD_VERTEX -> out.putLong(txn.addVertex(store.labels().intern(((Op.AddVertex) op).label())));
            case ADD_EDGE -> {
                Op.AddEdge o = (Op.AddEdge) op;
                out.putLong(txn.addEdge(o.outVertex(), o.inVertex(), store.labels().intern(o.label())));
            }
            case REMOVE_EDGE -> out.putLong(txn.removeEdgeHere(((Op.RemoveEdge) op).edge()));
            case REMOVE_VERTEX -> txn.removeVertex(((Op.RemoveVertex) op).vertex());
            case ADD_MIRROR -> {
                Op.AddMirror o = (Op.AddMirror) op;
                txn.crossEdges.addMirror(o.edge(), o.outVertex(), o.inVertex(), store.labels().intern(o.label()));
            }
            case REMOVE_MIRROR -> txn.crossEdges.removeMirror(((Op.RemoveMirror) op).edge());
            case SET_PROPERTY, REMOVE_PROPERTY -> writeProperty(txn, store, (Op.WriteProperty) op, out);
            case ADJACENT_MANY -> {
                Op.AdjacentMany o = (Op.AdjacentMany) op;
                int[] labels = new int[o.labels().length];
                for (int i = 0; i < labels.length; i++) {
                    labels[i] = label(store, o.labels()[i]);
                }
                for (long[] pairs : txn.adjacency.manyHere(o.vertices(), o.direction(), labels)) {
                    out.putBoolean(pairs != null);
                    if (pairs != null) {
                        out.putLongs(pairs);
                    }
                }
            }
            case BIND_ID -> {
                Op.BindId o = (Op.BindId) op;
                Object shown;
                try {
                    shown = txn.engine.externalIds().bind(txn, o.kind(), o.given(), o.canonical(), o.internal());
                } catch (ExternalIdTakenException taken) {
                    out.putBoolean(false);
                    return;
                }
                out.putBoolean(true).putValue(shown);
            }
            case RESERVE_ID -> {
                Op.ReserveId o = (Op.ReserveId) op;
                try {
                    txn.engine.externalIds().reserve(txn, o.given(), o.number());
                } catch (ExternalIdTakenException taken) {
                    out.putBoolean(false);
                    return;
                }
                out.putBoolean(true);
            }
            case CLAIM_ID -> {
                Op.ClaimId o = (Op.ClaimId) op;
                out.putLong(txn.engine.externalIds().claimEdgeId(txn, o.canonical(), o.internal(), o.replacing()));
            }
            case ID_HOLDER_GONE -> {
                Op.IdHolderGone o = (Op.IdHolderGone) op;
                out.putBoolean(txn.engine.externalIds().edgeGone(txn, o.holder(), o.canonical()));
            }
            case RESOLVE_ID -> {
                Op.ResolveId o = (Op.ResolveId) op;
                out.putLong(txn.engine.externalIds().resolve(txn, o.kind(), o.canonical(), null));
            }
            case EXPOSED_ID -> {
                Op.ElementId o = (Op.ElementId) op;
                out.putValue(txn.engine.externalIds().exposed(o.kind(), o.internal()));
            }
            case SHADOWED_ID -> {
                Op.ElementId o = (Op.ElementId) op;
                out.putBoolean(txn.engine.externalIds().shadowed(o.kind(), o.internal()));
            }
            case EXPOSED_MANY -> {
                Op.ExposedMany o = (Op.ExposedMany) op;
                for (long id : o.internals()) {
                    out.putValue(txn.engine.externalIds().exposed(o.kind(), id));
                }
            }
            case INDEX_WRITE -> {
                Op.IndexWrite o = (Op.IndexWrite) op;
                txn.indexes().write(o.kind(), o.element(), o.key(), o.before(), o.after());
            }
            case INDEX_LOOKUP -> {
                Op.IndexLookUp o = (Op.IndexLookUp) op;
                long[] candidates = txn.indexes().lookUpHere(o.kind(), o.key(), o.mode(), o.values());
                out.putBoolean(candidates != null);
                if (candidates != null) {
                    out.putLongs(candidates);
                }
            }
            case INDEX_FILL -> {
                Op.IndexFill o = (Op.IndexFill) op;
                txn.indexes().fillHere(o.kind(), o.key(), o.elements(), o.values());
            }
            case INDEX_CHANGE -> {
                Op.IndexChangeOf o = (Op.IndexChangeOf) op;
                txn.indexes().changeHere(o.change(), o.kind(), o.key(), o.ordered());
            }
            case READ_MANY -> readMany(txn, store, (Op.ReadMany) op, out);
            case RESOLVE -> txn.resolvePreReads();
            case MANY -> {
                for (Op one : ((Op.Many) op).ops()) {
                    execute(txn, store, one, out); // the first that throws is the answer; those before stay done
                }
            }
            default -> throw new IllegalStateException("unhandled remote operation: " + op.type());
        }
    }

    private static void writeProperty(Transaction txn, GraphStore store, Op.WriteProperty o, Wire.Writer out) {
        int key = store.propertyKeys().intern(o.key());
        boolean vertex = o.kind() == ElementKind.VERTEX;
        if (o.remove()) {
            out.putBoolean(vertex ? txn.removeVertexProperty(o.element(), key) : txn.removeEdgeProperty(o.element(), key));
        } else if (vertex) {
            txn.setVertexProperty(o.element(), key, o.value());
        } else {
            txn.setEdgeProperty(o.element(), key, o.value());
        }
    }

    /** {@link Op.ReadMany} at the owner: the single reads' own methods, element by element. */
    private static void readMany(Transaction txn, GraphStore store, Op.ReadMany o, Wire.Writer out) {
        int[] keys = o.keys() == null ? null : new int[o.keys().length];
        for (int i = 0; keys != null && i < keys.length; i++) {
            keys[i] = store.propertyKeys().intern(o.keys()[i]);
        }
        boolean vertex = o.kind() == ElementKind.VERTEX;
        for (long id : o.ids()) {
            boolean seen = txn.exists(o.kind(), id);
            out.putBoolean(seen);
            if (!seen) {
                continue;
            }
            if (o.labels()) {
                out.putString(store.labels().name(vertex ? txn.vertexLabel(id) : txn.edgeLabel(id)));
            }
            if (keys == null) {
                putProperties(store, out, properties(txn, o.kind(), id));
                continue;
            }
            for (int key : keys) {
                out.putValue(property(txn, o.kind(), id, key));
            }
        }
    }

    private static Object property(Transaction txn, ElementKind kind, long id, int key) {
        return kind == ElementKind.VERTEX ? txn.vertexProperty(id, key) : txn.edgeProperty(id, key);
    }

    private static Map<Integer, Object> properties(Transaction txn, ElementKind kind, long id) {
        return kind == ElementKind.VERTEX ? txn.vertexProperties(id) : txn.edgeProperties(id);
    }

    /** Every property of an element, keys by name: what {@link Op.Properties} answers. */
    private static void putProperties(GraphStore store, Wire.Writer out, Map<Integer, Object> properties) {
        out.putInt(properties.size());
        properties.forEach((key, value) -> out.putString(store.propertyKeys().name(key)).putValue(value));
    }

    /** A label sent by name (null: any label) as this node's id, interned if this node never saw it (see above). */
    private static int label(GraphStore store, String name) {
        return name == null ? EdgeCursor.ANY_LABEL : store.labels().intern(name);
    }
}
