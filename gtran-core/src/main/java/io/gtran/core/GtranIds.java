package io.gtran.core;

import io.gtran.storage.ElementIds;
import io.gtran.storage.ExternalIdMap;
import io.gtran.storage.GraphStore;
import io.gtran.txn.ConflictKey;
import io.gtran.txn.ConflictKind;
import io.gtran.txn.Transaction;
import io.gtran.txn.TxnWords;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Element;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;

/**
 * Element ids as TinkerPop users see them. A vertex or edge created without an id is known by
 * its internal id (a {@code Long}, see {@link ElementIds}). A user-supplied id is kept in the
 * store's {@link ExternalIdMap}: integral numbers (shown with the type they were given in, looked
 * up as longs), strings, UUIDs; anything else is refused. Look-ups accept the same types, an
 * element, and the string form of a numeric or UUID id.
 *
 * <p>Binding an external id is part of the transaction: a concurrent creation of the same id
 * aborts one of the two creators, and an abort unbinds it again. Look-ups record a read of the
 * id, so at SR a transaction that looked up an absent id conflicts with one that creates it.
 *
 * <p>When an id is bound again after its element's removal committed, the old binding is kept
 * aside ({@link #retired}) until GC frees the old element, so a transaction whose snapshot still
 * sees the old element finds it by id and sees its id.
 */
final class GtranIds {
    private static final long VERTEX_ID_KEY = 0x5645_5254_4558_4944L; // "VERTEXID"
    private static final long EDGE_ID_KEY = 0x4544_4745_4944_0000L;   // "EDGEID"

    private final GraphStore store;
    /** Per kind (index 0 vertices, 1 edges): canonical external id to the internal ids it named before. */
    private final Map<Object, long[]>[] retired = newMaps();
    /** Per kind: internal id of a retired binding to the external id as given. */
    private final Map<Long, Object>[] retiredNames = newMaps();

    GtranIds(GtranGraph graph) {
        this.store = graph.store;
    }

    @SuppressWarnings("unchecked")
    private static <K, V> Map<K, V>[] newMaps() {
        return new Map[] {new ConcurrentHashMap<>(), new ConcurrentHashMap<>()};
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
        if (kind == VertexProperty.class) {
            throw VertexProperty.Exceptions.userSuppliedIdsOfThisTypeNotSupported();
        }
        throw Vertex.Exceptions.userSuppliedIdsOfThisTypeNotSupported();
    }

    /** {@code id} itself, once {@link #normalize} accepts its type. */
    static Object validated(Object id, Class<? extends Element> kind) {
        normalize(id, kind);
        return id;
    }

    /**
     * Whether a new element got an internal id that a user-supplied id of another element already
     * names: it could not be found by its id, so the caller discards it and makes another.
     */
    boolean shadowed(long internal, boolean edge) {
        ExternalIdMap map = map(edge);
        if (!map.created()) {
            return false;
        }
        synchronized (map) { // against bind's check of the store and put, see bind
            return map.internalId(internal) != ExternalIdMap.ABSENT;
        }
    }

    /** Binds {@code external} to the new vertex {@code internal} in {@code scope}'s transaction; returns the id it shows. */
    Object bindVertex(GtranTransaction.Scope scope, Object external, long internal) {
        return bind(scope, external, normalize(external, Vertex.class), internal, false);
    }

    Object bindEdge(GtranTransaction.Scope scope, Object external, long internal) {
        return bind(scope, external, normalize(external, Edge.class), internal, true);
    }

    /** Binds {@code given} (canonical form {@code id}); returns the id the element shows: {@code given}, type kept. */
    private Object bind(GtranTransaction.Scope scope, Object given, Object id, long internal, boolean edge) {
        ExternalIdMap map = map(edge);
        Transaction txn = scope.txn();
        txn.recordWrite(key(id, edge));
        if (id instanceof Long number && number == internal) {
            return number; // the element's own internal id: nothing to map
        }
        synchronized (map) {
            // A number that is the internal id of an element known by it (no external id), even one
            // another transaction is creating right now: checked under the map's lock, as shadowed()
            // is after a creation, so one of the two always sees the other.
            if (id instanceof Long number && ElementIds.isWellFormed(number) && ElementIds.isEdge(number) == edge
                    && (edge ? store.edges().contains(number) : store.vertices().contains(number))
                    && map.externalId(number) == null && !replaceable(txn, number, edge, id)) {
                throw alreadyExists(given, edge);
            }
            if (map.put(given, internal)) {
                scope.onAbort(() -> {
                    synchronized (map) {
                        map.remove(internal);
                    }
                });
                return given;
            }
            long previous = map.internalId(id);
            if (previous != ExternalIdMap.ABSENT && !replaceable(txn, previous, edge, id)) {
                throw alreadyExists(given, edge);
            }
            Object previousGiven = map.externalId(previous);
            map.remove(previous);
            if (!map.put(given, internal)) {
                throw new IllegalStateException("external id could not be bound: id=" + id);
            }
            retire(edge, id, previous, previousGiven);
            scope.onAbort(() -> {
                synchronized (map) {
                    map.remove(internal);
                    unretire(edge, id, previous);
                    map.put(previousGiven == null ? id : previousGiven, previous);
                }
            });
            return given;
        }
    }

    /**
     * Whether the element {@code previous}, bound to {@code id}, is gone for good so the id may be
     * bound again: freed, or deleted by a committed transaction or by this one.
     *
     * @throws io.gtran.txn.TransactionConflictException (aborting {@code txn}) if another running
     *                                                   transaction creates or deletes it
     */
    private boolean replaceable(Transaction txn, long previous, boolean edge, Object id) {
        if (!(edge ? store.edges().contains(previous) : store.vertices().contains(previous))) {
            return true; // freed by GC
        }
        if (exists(txn, previous, edge)) {
            return false; // this transaction sees it: the id is taken
        }
        long begin = edge ? store.edges().beginTime(previous) : store.vertices().beginTime(previous);
        long end = edge ? store.edges().endTime(previous) : store.vertices().endTime(previous);
        if (TxnWords.isTxnId(begin) && begin != txn.id() || TxnWords.isTxnId(end) && end != txn.id()) {
            // another running transaction creates or deletes the element of this id: one of us must go
            long other = TxnWords.isTxnId(begin) ? begin : end;
            throw txn.abortForConflict(ConflictKind.WRITE_WRITE, other, key(id, edge),
                    "id " + id + " is being " + (TxnWords.isTxnId(begin) ? "created" : "deleted") + " by another transaction");
        }
        if (end == TxnWords.INFINITY && begin != TxnWords.NEVER) {
            return false; // committed and alive, created after this transaction began
        }
        return true; // deleted (by a committed transaction or this one) or aborted
    }

    private void retire(boolean edge, Object id, long previous, Object previousGiven) {
        int k = edge ? 1 : 0;
        retired[k].merge(id, new long[] {previous}, (a, b) -> {
            long[] both = java.util.Arrays.copyOf(a, a.length + 1);
            both[a.length] = b[0];
            return both;
        });
        if (previousGiven != null) {
            retiredNames[k].put(previous, previousGiven);
        }
    }

    private void unretire(boolean edge, Object id, long previous) {
        int k = edge ? 1 : 0;
        retired[k].computeIfPresent(id, (key, ids) -> {
            long[] kept = java.util.Arrays.stream(ids).filter(i -> i != previous).toArray();
            return kept.length == 0 ? null : kept;
        });
        retiredNames[k].remove(previous);
    }

    private boolean exists(Transaction txn, long internal, boolean edge) {
        return edge ? txn.edgeExists(internal) : txn.vertexExists(internal);
    }

    private ExternalIdMap map(boolean edge) {
        return edge ? store.edges().externalIds() : store.vertices().externalIds();
    }

    private static RuntimeException alreadyExists(Object id, boolean edge) {
        return edge ? Graph.Exceptions.edgeWithIdAlreadyExists(id) : Graph.Exceptions.vertexWithIdAlreadyExists(id);
    }

    /**
     * The internal id a user's id names for {@code txn}, or {@link ElementIds#NONE}: an external id
     * bound in the map (or, for an older snapshot, bound before), else an internal id given as a number.
     */
    long resolve(Transaction txn, Object id, boolean edge) {
        Object canonical = canonical(id);
        if (canonical == null) {
            return ElementIds.NONE; // no element can have such an id: nothing to find or to validate
        }
        // Every look-up reads the id, found or not, and whether or not any id has been bound yet:
        // at SR a transaction that found an id absent must conflict with one that binds it.
        Object parsed = canonical instanceof String s ? parse(s) : null; // a numeric or UUID id written as a string
        txn.recordRead(key(canonical, edge));
        if (parsed != null) {
            txn.recordRead(key(parsed, edge));
        }
        ExternalIdMap map = map(edge);
        if (map.created()) {
            long internal = map.internalId(canonical);
            if (internal == ExternalIdMap.ABSENT && parsed != null) {
                long byParsed = map.internalId(parsed);
                if (byParsed != ExternalIdMap.ABSENT) {
                    canonical = parsed;
                    internal = byParsed;
                }
            }
            if (internal != ExternalIdMap.ABSENT) {
                return exists(txn, internal, edge) ? internal : retiredVisible(txn, canonical, edge, internal);
            }
        }
        Object number = parsed != null ? parsed : canonical; // an internal id, perhaps written as a string
        if (number instanceof Long n && ElementIds.isWellFormed(n) && ElementIds.isEdge(n) == edge
                && ElementIds.node(n) == store.nodeId()) {
            return n;
        }
        return ElementIds.NONE;
    }

    /** An element the id named before it was bound again, that {@code txn} still sees; else {@code current}. */
    private long retiredVisible(Transaction txn, Object canonical, boolean edge, long current) {
        int k = edge ? 1 : 0;
        long[] older = retired[k].get(canonical);
        if (older == null) {
            return current;
        }
        long found = current;
        for (long id : older) {
            if (!(edge ? store.edges().contains(id) : store.vertices().contains(id))) {
                unretire(edge, canonical, id); // freed: no transaction can see it any more
            } else if (found == current && exists(txn, id, edge)) {
                found = id;
            }
        }
        return found;
    }

    /** The id to show for an element known by its internal id: its external id, if it has (or had) one. */
    Object exposed(long internal, boolean edge) {
        ExternalIdMap map = map(edge);
        if (!map.created()) {
            return internal;
        }
        Object external = map.externalId(internal);
        if (external == null) {
            external = retiredNames[edge ? 1 : 0].get(internal);
        }
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
            // Integral and inside a long's range: (long) d saturates, so 1e19 would name Long.MAX_VALUE.
            return d == Math.rint(d) && d >= -0x1p63 && d < 0x1p63 ? (Object) (long) d : null;
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
        return ConflictKey.custom(edge ? EDGE_ID_KEY : VERTEX_ID_KEY,
                canonical.hashCode() * 0x9E37_79B9_7F4A_7C15L + canonical.getClass().getName().hashCode());
    }
}
