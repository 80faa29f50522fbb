package io.gtran.txn;

import io.gtran.storage.ElementIds;
import io.gtran.storage.ElementTable;
import io.gtran.storage.ExternalIdMap;
import io.gtran.storage.GraphStore;
import io.gtran.storage.UnknownElementException;
import io.gtran.txn.common.ConflictKey;
import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.ExternalIdTakenException;
import io.gtran.txn.common.TxnWords;
import io.gtran.txn.local.Visibility;
import io.gtran.txn.local.WriteLog;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * User-supplied ("external") ids of one node's vertices and edges, bound and looked up inside
 * transactions. The ids live in the store's {@link ExternalIdMap}s ({@code
 * store.vertices().externalIds()}, {@code store.edges().externalIds()}); this class makes their
 * use transactional. Ids come in canonical form: a {@code Long}, a {@code String} or a {@code UUID}
 * (the layer above turns its users' id types into these).
 *
 * <p>Binding an id is a write of the transaction: a concurrent creation of the same id aborts one
 * of the two creators, and an abort unbinds it again. A look-up records a read of the id, found or
 * not, so at SR a transaction that looked up an absent id conflicts with one that binds it.
 *
 * <p>When an id is bound again after its element's removal committed, the old binding is kept
 * aside ({@link #retired}) until GC frees the old element, so a transaction whose snapshot still
 * sees the old element finds it by id and sees its id.
 *
 * <p>One per node ({@link TransactionEngine#externalIds()}); thread-safe.
 */
public final class ExternalIds {
    private static final long VERTEX_ID_KEY = 0x5645_5254_4558_4944L; // "VERTEXID"
    private static final long EDGE_ID_KEY = 0x4544_4745_4944_0000L;   // "EDGEID"

    private final GraphStore store;
    /**
     * Guards both kinds' maps while a binding is checked and made. One lock, not one per map: an
     * abort met while binding (a conflict, a dependency that timed out) runs the transaction's
     * undo actions there and then, which may unbind ids of the other kind.
     */
    private final Object lock = new Object();
    /** Per kind (by ordinal): the bindings an id had before it was bound again. */
    private final Retired[] retired = {new Retired(), new Retired()};

    /** One kind's retired bindings, kept until GC frees their elements. */
    private static final class Retired {
        /** Canonical external id to the internal ids it named before. */
        final Map<Object, long[]> ids = new ConcurrentHashMap<>();
        /** Internal id of a retired binding to the external id as given. */
        final Map<Long, Object> names = new ConcurrentHashMap<>();
    }

    /**
     * Edge ids of this node that users gave to edges living on other nodes (see {@link #reserve}):
     * {@link #shadowed} for an edge made here. Kept for good: an internal id is handed out once, so
     * a number kept after its user's edge is gone only makes this node skip one more id.
     */
    private final Set<Long> reserved = ConcurrentHashMap.newKeySet();
    /** Set, under {@link #lock}, before the first reservation checks the store: see {@link #shadowed}. */
    private volatile boolean anyReserved;

    ExternalIds(GraphStore store) {
        this.store = store;
    }

    /**
     * Whether a new element got an internal id that a user-supplied id of another element already
     * names: it could not be found by its id, so the caller discards it and makes another.
     */
    public boolean shadowed(ElementKind kind, long internal) {
        ExternalIdMap map = map(kind);
        boolean reservations = kind == ElementKind.EDGE && anyReserved;
        if (!map.created() && !reservations) {
            return false;
        }
        synchronized (lock) { // against bind's and reserve's check of the store and put, see bind
            return reservations && reserved.contains(internal) || map.internalId(internal) != ExternalIdMap.ABSENT;
        }
    }

    /**
     * User-supplied edge ids whose home this node is, to the edge that claimed each (on any
     * member): an edge's id is bound where the edge lives, so that two members never bind one id,
     * each binding first claims the id here ({@link #claimEdgeId}).
     */
    private final Map<Object, Long> claims = new ConcurrentHashMap<>();

    /**
     * After a restart: the claims and reservations the log holds (docs/durability.md, "Nodes of a
     * cluster"). Call before the first transaction.
     */
    public void restore(Map<Object, Long> restoredClaims, Set<Long> restoredReservations) {
        synchronized (lock) {
            claims.putAll(restoredClaims);
            reserved.addAll(restoredReservations);
            anyReserved |= !restoredReservations.isEmpty();
        }
    }

    /** The claims held here (for a snapshot): user-supplied edge ids whose home is this node, to the edge that claimed each. */
    public Map<Object, Long> claims() {
        synchronized (lock) {
            return Map.copyOf(claims);
        }
    }

    /** The edge ids of this node reserved as other members' user ids (for a snapshot). */
    public Set<Long> reservations() {
        synchronized (lock) {
            return Set.copyOf(reserved);
        }
    }

    /**
     * Claims user-supplied edge id {@code canonical}, whose home is this node, for edge {@code
     * internal}, which {@code txn} has just created on some member. A write of {@code txn} on the
     * id here: two transactions claiming it conflict, as two binding it on one node do; an abort
     * gives the claim back.
     *
     * @param replacing an edge that held the claim and is gone for good ({@link #edgeGone}), or none
     * @return the edge that holds the claim, if one other than {@code internal} and {@code replacing}
     *     does (nothing changed then), else {@link ElementIds#NONE}
     */
    public long claimEdgeId(Transaction txn, Object canonical, long internal, long replacing) {
        txn.recordWrite(key(canonical, ElementKind.EDGE));
        synchronized (lock) {
            Long holder = claims.get(canonical);
            if (holder != null && holder != internal && holder != replacing) {
                return holder;
            }
            claims.put(canonical, internal);
            txn.log.claims.add(new WriteLog.IdClaim(canonical, internal));
            txn.onAbort(() -> {
                synchronized (lock) {
                    if (claims.remove(canonical, internal) && holder != null) {
                        claims.put(canonical, holder);
                    }
                }
            });
            return ElementIds.NONE;
        }
    }

    /**
     * Whether edge {@code holder}, of this node, which claimed user-supplied id {@code canonical},
     * is gone for good (freed, deleted, its creation aborted), so another edge may claim the id.
     *
     * @throws TransactionConflictException (aborting {@code txn}) if another running transaction
     *     creates or deletes it
     */
    public boolean edgeGone(Transaction txn, long holder, Object canonical) {
        txn.recordRead(key(canonical, ElementKind.EDGE));
        return replaceable(txn, holder, ElementKind.EDGE, canonical);
    }

    /**
     * Takes {@code number}, an edge id of this node, for the user-supplied id {@code given} of an
     * edge {@code txn} has just created on another node, where that id is bound (an edge's id is
     * bound where the edge lives, and a number can name an edge of any member): refused if an edge
     * here is known by the number; else no edge made here later gets it ({@link #shadowed}).
     *
     * @throws ExternalIdTakenException if an edge {@code txn} sees (or one known by that number) is known by it here
     * @throws TransactionConflictException (aborting {@code txn}) if another running transaction
     *     creates or deletes the edge here that is known by it
     */
    public void reserve(Transaction txn, Object given, long number) {
        if (!ElementIds.isWellFormed(number) || !ElementIds.isEdge(number) || ElementIds.node(number) != store.nodeId()) {
            throw new IllegalArgumentException("not an edge id of node " + store.nodeId() + ": " + ElementIds.toString(number));
        }
        txn.recordWrite(key(number, ElementKind.EDGE));
        synchronized (lock) {
            anyReserved = true; // before the check: a creator that missed it has published its edge, which the check sees
            // The same check as bind's for a number: one of this and shadowed() after a creation sees the other.
            if (store.edges().contains(number) && !isMirror(ElementKind.EDGE, number)
                    && map(ElementKind.EDGE).externalId(number) == null && !replaceable(txn, number, ElementKind.EDGE, number)) {
                throw new ExternalIdTakenException(ElementKind.EDGE, given);
            }
            reserved.add(number);
            txn.log.reserved.add(number);
        }
    }

    /**
     * Binds {@code given} (canonical form {@code id}) to the element {@code internal}, which
     * {@code txn} has just created; returns the id the element shows: {@code given}, type kept. An
     * abort of {@code txn} unbinds it.
     *
     * @throws ExternalIdTakenException if an element {@code txn} sees (or one known by that number)
     *     has the id; {@code txn} stays active
     * @throws TransactionConflictException (aborting {@code txn}) if another running transaction
     *     creates or deletes the element that has the id
     */
    public Object bind(Transaction txn, ElementKind kind, Object given, Object id, long internal) {
        ExternalIdMap map = map(kind);
        txn.recordWrite(key(id, kind));
        if (id instanceof Long number && number == internal) {
            return number; // the element's own internal id: nothing to map
        }
        synchronized (lock) {
            // A number that is the internal id of an element known by it (no external id), even one
            // another transaction is creating right now: checked under the map's lock, as shadowed()
            // is after a creation, so one of the two always sees the other.
            if (id instanceof Long number && ElementIds.isWellFormed(number) && isOfKind(number, kind)
                    && kind.table(store).contains(number) && !isMirror(kind, number)
                    && map.externalId(number) == null && !replaceable(txn, number, kind, id)) {
                throw new ExternalIdTakenException(kind, given);
            }
            if (map.put(given, internal)) {
                txn.onAbort(() -> {
                    synchronized (lock) {
                        map.remove(internal);
                    }
                });
                return given;
            }
            long previous = map.internalId(id);
            if (previous != ExternalIdMap.ABSENT && !replaceable(txn, previous, kind, id)) {
                throw new ExternalIdTakenException(kind, given);
            }
            Object previousGiven = map.externalId(previous);
            map.remove(previous);
            if (!map.put(given, internal)) {
                throw new IllegalStateException("external id could not be bound: id=" + id);
            }
            retire(kind, id, previous, previousGiven);
            txn.onAbort(() -> {
                synchronized (lock) {
                    map.remove(internal);
                    unretire(kind, id, previous);
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
     * @throws TransactionConflictException (aborting {@code txn}) if another running transaction
     *     creates or deletes it
     */
    private boolean replaceable(Transaction txn, long previous, ElementKind kind, Object id) {
        if (!kind.table(store).contains(previous)) {
            return true; // freed by GC
        }
        if (txn.exists(kind, previous)) {
            return false; // this transaction sees it: the id is taken
        }
        // A word may still name a transaction that has decided and not rewritten it yet (its commit or
        // abort phase runs later, at another node even): its status decides, as for every write rule.
        ElementTable table = kind.table(store);
        long begin;
        long creator;
        long end;
        long deleter;
        try {
            begin = txn.visibility.inspectSettled(() -> table.beginTime(previous));
            creator = txn.visibility.inspectedWord();
            end = txn.visibility.inspectSettled(() -> table.endTime(previous));
            deleter = txn.visibility.inspectedWord();
        } catch (UnknownElementException freedMeanwhile) {
            return true; // GC freed it since the check above: dead to every running transaction
        }
        if (begin == Visibility.LIVE_OTHER || end == Visibility.LIVE_OTHER) {
            // another running transaction creates or deletes the element of this id: one of us must go
            boolean creating = begin == Visibility.LIVE_OTHER;
            throw txn.abortForConflict(ConflictKind.WRITE_WRITE, creating ? creator : deleter, key(id, kind),
                    "id " + id + " is being " + (creating ? "created" : "deleted") + " by another transaction");
        }
        boolean created = begin != TxnWords.NEVER && begin != Visibility.ABORTED_OTHER;
        boolean deleted = end != TxnWords.INFINITY && end != Visibility.ABORTED_OTHER;
        if (created && !deleted) {
            return false; // committed and alive, created after this transaction began
        }
        return true; // deleted (by a committed transaction or this one) or its creation aborted
    }

    private void retire(ElementKind kind, Object id, long previous, Object previousGiven) {
        int k = kind.ordinal();
        retired[k].ids.merge(id, new long[] {previous}, (a, b) -> {
            long[] both = Arrays.copyOf(a, a.length + 1);
            both[a.length] = b[0];
            return both;
        });
        if (previousGiven != null) {
            retired[k].names.put(previous, previousGiven);
        }
    }

    private void unretire(ElementKind kind, Object id, long previous) {
        int k = kind.ordinal();
        retired[k].ids.computeIfPresent(id, (key, ids) -> {
            long[] kept = Arrays.stream(ids).filter(i -> i != previous).toArray();
            return kept.length == 0 ? null : kept;
        });
        retired[k].names.remove(previous);
    }

    /**
     * The internal id a user's id names for {@code txn}, or {@link ElementIds#NONE}: an external id
     * bound in the map (or, for an older snapshot, bound before), else an internal id given as a
     * number. {@code parsed} is {@code canonical} read as a number or UUID when it is a string that
     * spells one (null otherwise); both forms are looked up and both are recorded as read.
     */
    public long resolve(Transaction txn, ElementKind kind, Object canonical, Object parsed) {
        // Every look-up reads the id, found or not, and whether or not any id has been bound yet:
        // at SR a transaction that found an id absent must conflict with one that binds it.
        txn.recordRead(key(canonical, kind));
        if (parsed != null) {
            txn.recordRead(key(parsed, kind));
        }
        ExternalIdMap map = map(kind);
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
                return txn.exists(kind, internal) ? internal : retiredVisible(txn, canonical, kind, internal);
            }
        }
        Object number = parsed != null ? parsed : canonical; // an internal id, perhaps written as a string
        if (number instanceof Long n && ElementIds.isWellFormed(n) && isOfKind(n, kind) && ElementIds.node(n) == store.nodeId()
                && !isMirror(kind, n)) {
            return n;
        }
        return ElementIds.NONE;
    }

    /** An element the id named before it was bound again, that {@code txn} still sees; else {@code current}. */
    private long retiredVisible(Transaction txn, Object canonical, ElementKind kind, long current) {
        long[] older = retired[kind.ordinal()].ids.get(canonical);
        if (older == null) {
            return current;
        }
        long found = current;
        for (long id : older) {
            if (!kind.table(store).contains(id)) {
                unretire(kind, canonical, id); // freed: no transaction can see it any more
            } else if (found == current && txn.exists(kind, id)) {
                found = id;
            }
        }
        return found;
    }

    /** The id to show for an element known by its internal id: its external id, if it has (or had) one. */
    public Object exposed(ElementKind kind, long internal) {
        ExternalIdMap map = map(kind);
        if (!map.created()) {
            return internal;
        }
        Object external = map.externalId(internal);
        if (external == null) {
            external = retired[kind.ordinal()].names.get(internal);
        }
        return external == null ? internal : external;
    }

    private ExternalIdMap map(ElementKind kind) {
        return kind.table(store).externalIds();
    }

    /**
     * Whether {@code number} is the local id of a mirror here: the header another node's edge keeps
     * at its in-vertex's node (see {@code Mirrors}). Its id never leaves this node, so no element is
     * known by the number. False for a header freed meanwhile, which names nothing either.
     */
    private boolean isMirror(ElementKind kind, long number) {
        if (kind != ElementKind.EDGE || !store.edges().contains(number)) {
            return false;
        }
        try {
            return ElementIds.node(store.edgeOutVertex(number)) != store.nodeId(); // a mirror's out-vertex is elsewhere
        } catch (UnknownElementException freed) {
            return false;
        }
    }

    /** Whether a well-formed id is of {@code kind}'s kind. */
    private static boolean isOfKind(long id, ElementKind kind) {
        return ElementIds.isEdge(id) == (kind == ElementKind.EDGE);
    }

    private static ConflictKey key(Object canonical, ElementKind kind) {
        return ConflictKey.custom(kind == ElementKind.EDGE ? EDGE_ID_KEY : VERTEX_ID_KEY,
                canonical.hashCode() * 0x9E37_79B9_7F4A_7C15L + canonical.getClass().getName().hashCode());
    }
}
