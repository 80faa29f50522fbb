package io.gtran.core;

import io.gtran.storage.ElementIds;
import io.gtran.storage.ExternalIdMap;
import io.gtran.storage.GraphStore;
import io.gtran.txn.ConflictKey;
import io.gtran.txn.Transaction;
import io.gtran.txn.TxnWords;
import java.util.UUID;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Element;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.util.TransactionException;

/**
 * Element ids as TinkerPop users see them. A vertex or edge created without an id is known by
 * its internal id (a {@code Long}, see {@link ElementIds}). A user-supplied id is kept in the
 * store's {@link ExternalIdMap}: integral numbers as {@code Long}, strings, UUIDs; anything else
 * is refused. Look-ups accept the same types, an element, and the string form of a numeric or
 * UUID id.
 *
 * <p>Binding an external id is part of the transaction: a concurrent creation of the same id
 * aborts one of the two creators, and an abort unbinds it again. Look-ups record a read of the
 * id, so at SR a transaction that looked up an absent id conflicts with one that creates it.
 */
final class GtranIds {
    private static final long VERTEX_ID_KEY = 0x5645_5254_4558_4944L; // "VERTEXID"
    private static final long EDGE_ID_KEY = 0x4544_4745_4944_0000L;   // "EDGEID"

    private final GtranGraph graph;
    private final GraphStore store;

    GtranIds(GtranGraph graph) {
        this.graph = graph;
        this.store = graph.store;
    }

    /**
     * The canonical form of a user-supplied id: integral numbers as Long, strings, UUIDs.
     *
     * @throws IllegalArgumentException (TinkerPop's exception for the element kind) for any other type
     */
    static Object normalize(Object id, Class<? extends Element> kind) {
        if (id instanceof Long || id instanceof String || id instanceof UUID) {
            return id;
        }
        if (id instanceof Integer || id instanceof Short || id instanceof Byte) {
            return ((Number) id).longValue();
        }
        if (kind == Edge.class) {
            throw Edge.Exceptions.userSuppliedIdsOfThisTypeNotSupported();
        }
        if (kind == org.apache.tinkerpop.gremlin.structure.VertexProperty.class) {
            throw org.apache.tinkerpop.gremlin.structure.VertexProperty.Exceptions.userSuppliedIdsOfThisTypeNotSupported();
        }
        throw Vertex.Exceptions.userSuppliedIdsOfThisTypeNotSupported();
    }

    /** {@code id} itself, once {@link #normalize} accepts its type. */
    static Object validated(Object id, Class<? extends Element> kind) {
        normalize(id, kind);
        return id;
    }

    /** Binds {@code external} to the new vertex {@code internal} in {@code scope}'s transaction; returns the canonical id. */
    Object bindVertex(GtranTransaction.Scope scope, Object external, long internal) {
        return bind(scope, external, normalize(external, Vertex.class), internal, false);
    }

    Object bindEdge(GtranTransaction.Scope scope, Object external, long internal) {
        return bind(scope, external, normalize(external, Edge.class), internal, true);
    }

    /** Binds {@code given} (canonical form {@code id}); returns the id the element shows: {@code given}, type kept. */
    private Object bind(GtranTransaction.Scope scope, Object given, Object id, long internal, boolean edge) {
        ExternalIdMap map = edge ? store.externalEdgeIds() : store.externalVertexIds();
        Transaction txn = scope.txn();
        txn.recordWrite(key(id, edge));
        if (id instanceof Long number && number == internal) {
            return number; // the element's own internal id: nothing to map
        }
        if (id instanceof Long number && ElementIds.isWellFormed(number) && exists(txn, number, edge)
                && (!map.created() || map.externalId(number) == null)) {
            throw alreadyExists(given, edge); // the internal id of a live element known by it
        }
        synchronized (map) {
            if (!map.put(given, internal)) {
                long previous = map.internalId(id);
                if (previous != ExternalIdMap.ABSENT && !replaceable(txn, previous, edge, id)) {
                    throw alreadyExists(given, edge);
                }
                Object previousGiven = map.externalId(previous);
                map.remove(previous);
                if (!map.put(given, internal)) {
                    throw new IllegalStateException("external id could not be bound: id=" + id);
                }
                scope.onAbort(() -> {
                    synchronized (map) {
                        map.remove(internal);
                        if (previous != ExternalIdMap.ABSENT) {
                            map.put(previousGiven == null ? id : previousGiven, previous);
                        }
                    }
                });
            } else {
                scope.onAbort(() -> {
                    synchronized (map) {
                        map.remove(internal);
                    }
                });
            }
        }
        return given;
    }

    /**
     * Whether the element {@code previous}, bound to {@code id}, is gone for good so the id may be
     * bound again: freed, or deleted by a committed transaction or by this one.
     *
     * @throws TransactionException if another running transaction creates or deletes it
     */
    private boolean replaceable(Transaction txn, long previous, boolean edge, Object id) {
        if (!(edge ? store.containsEdge(previous) : store.containsVertex(previous))) {
            return true; // freed by GC
        }
        if (exists(txn, previous, edge)) {
            return false; // this transaction sees it: the id is taken
        }
        long begin = edge ? store.edgeBeginTime(previous) : store.vertexBeginTime(previous);
        long end = edge ? store.edgeEndTime(previous) : store.vertexEndTime(previous);
        if (TxnWords.isTxnId(begin) && begin != txn.id() || TxnWords.isTxnId(end) && end != txn.id()) {
            throw new TransactionException("id " + id + " is being " + (TxnWords.isTxnId(begin) ? "created" : "deleted")
                    + " by another transaction: retry this one");
        }
        if (end == TxnWords.INFINITY && begin != TxnWords.NEVER) {
            return false; // committed and alive, created after this transaction began
        }
        return true; // deleted (by a committed transaction or this one) or aborted
    }

    private boolean exists(Transaction txn, long internal, boolean edge) {
        return edge ? txn.edgeExists(internal) : txn.vertexExists(internal);
    }

    private static RuntimeException alreadyExists(Object id, boolean edge) {
        return edge ? Graph.Exceptions.edgeWithIdAlreadyExists(id) : Graph.Exceptions.vertexWithIdAlreadyExists(id);
    }

    /**
     * The internal id a user's id names for {@code txn}, or {@link ElementIds#NONE}: an external id
     * bound in the map, else an internal id given as a number.
     */
    long resolve(Transaction txn, Object id, boolean edge) {
        ExternalIdMap map = edge ? store.externalEdgeIds() : store.externalVertexIds();
        Object canonical = canonical(id);
        if (canonical == null) {
            return ElementIds.NONE;
        }
        if (map.created()) {
            txn.recordRead(key(canonical, edge));
            long internal = map.internalId(canonical);
            if (internal == ExternalIdMap.ABSENT && canonical instanceof String s) {
                Object parsed = parse(s);
                if (parsed != null) {
                    canonical = parsed;
                    internal = map.internalId(parsed);
                }
            }
            if (internal != ExternalIdMap.ABSENT) {
                return internal;
            }
        } else if (canonical instanceof String s) {
            canonical = parse(s);
        }
        if (canonical instanceof Long number && ElementIds.isWellFormed(number) && ElementIds.isEdge(number) == edge
                && ElementIds.node(number) == store.nodeId()) {
            return number;
        }
        return ElementIds.NONE;
    }

    /** The id to show for an element known by its internal id: its external id, if it has one. */
    Object exposed(long internal, boolean edge) {
        ExternalIdMap map = edge ? store.externalEdgeIds() : store.externalVertexIds();
        if (!map.created()) {
            return internal;
        }
        Object external = map.externalId(internal);
        return external == null ? internal : external;
    }

    private static Object canonical(Object id) {
        if (id instanceof Long || id instanceof String || id instanceof UUID) {
            return id;
        }
        if (id instanceof Integer || id instanceof Short || id instanceof Byte) {
            return ((Number) id).longValue();
        }
        if (id instanceof Double || id instanceof Float) {
            double d = ((Number) id).doubleValue();
            return d == Math.rint(d) && !Double.isInfinite(d) ? (Object) (long) d : null;
        }
        if (id instanceof java.math.BigInteger big && big.bitLength() < 64) {
            return big.longValue();
        }
        return null; // no element can have such an id
    }

    /** A numeric or UUID id written as a string, or null. */
    private static Object parse(String s) {
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException notLong) {
            try {
                return UUID.fromString(s.trim());
            } catch (IllegalArgumentException notUuid) {
                return null;
            }
        }
    }

    private static ConflictKey key(Object canonical, boolean edge) {
        return ConflictKey.custom(edge ? EDGE_ID_KEY : VERTEX_ID_KEY, canonical.hashCode() * 0x9E37_79B9_7F4A_7C15L + canonical.getClass().getName().hashCode());
    }
}
