package io.gtran.core;

import io.gtran.storage.ElementIds;
import io.gtran.txn.ExternalIds;
import io.gtran.txn.Transaction;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.ExternalIdTakenException;
import java.util.UUID;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Element;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;

/**
 * Element ids as TinkerPop users see them. A vertex or edge created without an id is known by
 * its internal id (a {@code Long}, see {@link ElementIds}). A user-supplied id is bound through
 * gtran-txn's {@link ExternalIds}, which makes binding and look-up transactional: integral numbers
 * (shown with the type they were given in, looked up as longs), strings, UUIDs; anything else is
 * refused. Look-ups accept the same types, an element, and the string form of a numeric or UUID id.
 *
 * <p>This class holds TinkerPop's side only: which id types users may give, their canonical
 * forms, and TinkerPop's exceptions. What a transaction sees, and what conflicts, is decided in
 * gtran-txn.
 */
final class GtranIds {
    private final GtranGraph graph;
    private final ExternalIds external;
    private final int localNode;
    /**
     * The ids other nodes' elements show, as their owners answered. An element's shown id is fixed
     * before any other transaction can see it (its user-supplied id is bound in the transaction
     * that creates it) and internal ids are never reused, so an answer stays true. Cleared when it
     * holds {@value #CACHED_MAX} entries.
     */
    private final java.util.concurrent.ConcurrentHashMap<Long, Object> shown = new java.util.concurrent.ConcurrentHashMap<>();
    private static final int CACHED_MAX = 1 << 20;

    GtranIds(GtranGraph graph, ExternalIds external, int localNode) {
        this.graph = graph;
        this.external = external;
        this.localNode = localNode;
    }

    /** Whether the element's id names this node (on a cluster, another member keeps the ids of its own). */
    private boolean local(long internal) {
        return !ElementIds.isWellFormed(internal) || ElementIds.node(internal) == localNode;
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
    boolean shadowed(Transaction txn, long internal, ElementKind kind) {
        return local(internal) ? external.shadowed(kind, internal) : txn.externalIds().shadowed(kind, internal);
    }

    /**
     * Binds the user's {@code given} id to the new element {@code internal} in {@code scope}'s
     * transaction (an abort unbinds it); returns the id it shows: {@code given}, type kept.
     *
     * @throws IllegalArgumentException TinkerPop's "vertex (edge) with id already exists" if it is taken
     */
    Object bind(GtranTransaction.Scope scope, ElementKind kind, Object given, long internal) {
        Object id = normalize(given, kind == ElementKind.EDGE ? Edge.class : Vertex.class);
        try {
            return scope.txn().externalIds().bind(kind, given, id, internal);
        } catch (ExternalIdTakenException taken) {
            throw kind == ElementKind.EDGE
                    ? Graph.Exceptions.edgeWithIdAlreadyExists(taken.id())
                    : Graph.Exceptions.vertexWithIdAlreadyExists(taken.id());
        }
    }

    /**
     * The internal id a user's id names for {@code txn}, or {@link ElementIds#NONE}: an external id
     * bound (or, for an older snapshot, bound before), else an internal id given as a number.
     */
    long resolve(Transaction txn, Object id, ElementKind kind) {
        Object canonical = canonical(id);
        if (canonical == null) {
            return ElementIds.NONE; // no element can have such an id: nothing to find or to validate
        }
        Object parsed = canonical instanceof String s ? parse(s) : null; // a numeric or UUID id written as a string
        return txn.externalIds().resolve(kind, canonical, parsed);
    }

    /** {@link #resolve} of many vertex ids, with one request per other node (docs/cluster-transactions.md, batched writes). */
    long[] resolveVertices(Transaction txn, Object[] ids) {
        Object[] canonical = new Object[ids.length];
        Object[] parsed = new Object[ids.length];
        int n = 0;
        int[] at = new int[ids.length];
        for (int i = 0; i < ids.length; i++) {
            Object c = canonical(ids[i]);
            if (c != null) { // no element can have an id without a canonical form
                canonical[n] = c;
                parsed[n] = c instanceof String s ? parse(s) : null;
                at[n++] = i;
            }
        }
        long[] found = new long[ids.length];
        java.util.Arrays.fill(found, ElementIds.NONE);
        long[] resolved = txn.externalIds().resolveVertices(java.util.Arrays.copyOf(canonical, n), java.util.Arrays.copyOf(parsed, n));
        for (int k = 0; k < n; k++) {
            found[at[k]] = resolved[k];
        }
        return found;
    }

    /**
     * {@link #bind} of many new edges' ids ({@code given[i]} to {@code internal[i]}), with one
     * request per other node for the claims and one for the bindings; returns the ids they show.
     *
     * @throws IllegalArgumentException TinkerPop's "edge with id already exists" for the first taken
     */
    Object[] bindEdges(Transaction txn, Object[] given, long[] internal) {
        Object[] canonical = new Object[given.length];
        for (int i = 0; i < given.length; i++) {
            canonical[i] = normalize(given[i], Edge.class);
        }
        try {
            return txn.externalIds().bindEdges(given, canonical, internal);
        } catch (ExternalIdTakenException taken) {
            throw Graph.Exceptions.edgeWithIdAlreadyExists(taken.id());
        }
    }

    /** The id to show for an element known by its internal id: its external id, if it has (or had) one. */
    Object exposed(long internal, ElementKind kind) {
        if (local(internal)) {
            return external.exposed(kind, internal);
        }
        Object known = shown.get(internal);
        if (known != null) {
            return known;
        }
        GtranTransaction.Scope scope = graph.transaction().scope();
        try {
            Object id = scope.txn().externalIds().exposed(kind, internal);
            remember(internal, id);
            return id;
        } catch (RuntimeException e) {
            throw scope.translate(e);
        }
    }

    /** Asks the owners of the other nodes' elements among {@code internals} for their shown ids at once, one request per node. */
    void prefetch(Transaction txn, ElementKind kind, long[] internals) {
        long[] wanted = new long[internals.length];
        int n = 0;
        for (long id : internals) {
            if (!local(id) && !shown.containsKey(id)) {
                wanted[n++] = id;
            }
        }
        if (n == 0) {
            return;
        }
        long[] ask = java.util.Arrays.copyOf(wanted, n);
        Object[] ids = txn.externalIds().exposedMany(kind, ask);
        for (int i = 0; i < n; i++) {
            remember(ask[i], ids[i]);
        }
    }

    private void remember(long internal, Object id) {
        if (shown.size() >= CACHED_MAX) {
            shown.clear();
        }
        shown.put(internal, id);
    }

    /** The node a vertex with user-supplied id {@code given} lives on (see ExternalIdRouting#homeOfVertex). */
    int homeOfVertex(Transaction txn, Object given) {
        return txn.externalIds().homeOfVertex(normalize(given, Vertex.class));
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
}
