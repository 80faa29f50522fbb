package io.gtran.txn;

import io.gtran.storage.ElementIds;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.ExternalIdTakenException;
import io.gtran.txn.protocol.Op;
import io.gtran.txn.protocol.Wire;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A transaction's operations on user-supplied ids, each run where the id is kept: a vertex's at
 * its home node, an edge's where the edge lives (docs/cluster-transactions.md, "Placement"); the
 * node's own {@link ExternalIds} decides there.
 */
public final class ExternalIdRouting {
    private final Transaction txn;

    ExternalIdRouting(Transaction txn) {
        this.txn = txn;
    }

    private ExternalIds registry() {
        return txn.engine.externalIds();
    }

    /**
     * The node that keeps user-supplied id {@code canonical} of a vertex, and so the vertex (see
     * docs/cluster-transactions.md, "Placement"): the node a number names if it is a well-formed
     * vertex id of a member (so a generated id and the same number given by a user are checked in
     * one place), else one chosen by a hash of the id. This node, when it is alone.
     */
    public int homeOfVertex(Object canonical) {
        if (txn.remote.otherMembersEmpty()) {
            return txn.store.nodeId();
        }
        if (canonical instanceof Long n && ElementIds.isWellFormed(n) && !ElementIds.isEdge(n)
                && txn.engine.members().nodes().contains(ElementIds.node(n))) {
            return ElementIds.node(n);
        }
        return hashHome(canonical);
    }

    /** A member chosen by a hash of {@code canonical}: the same on every node. */
    private int hashHome(Object canonical) {
        return hashHome(canonical, txn.engine.members().nodes().stream().mapToInt(Integer::intValue).sorted().toArray());
    }

    /**
     * The member of {@code sortedMembers} (ascending ids) that keeps user-supplied id {@code
     * canonical} when it does not name a member itself: what every node computes, and what a
     * loader outside the cluster computes to send each element to the node that keeps it.
     */
    public static int hashHome(Object canonical, int[] sortedMembers) {
        long h = canonical.hashCode() * 0x9E37_79B9_7F4A_7C15L;
        return sortedMembers[(int) Math.floorMod(h ^ (h >>> 29), (long) sortedMembers.length)];
    }

    /**
     * Binds user-supplied id {@code given} (canonical form {@code canonical}) to {@code internal},
     * which this transaction created, at the element's node; see {@link ExternalIds#bind}.
     */
    public Object bind(ElementKind kind, Object given, Object canonical, long internal) {
        int owner = txn.owner(internal);
        int reserveAt = kind == ElementKind.EDGE ? reservationNode(canonical, internal) : -1;
        if (reserveAt >= 0) {
            reserveEdgeNumber(reserveAt, given, (Long) canonical); // first, so a refusal leaves nothing bound
        }
        if (kind == ElementKind.EDGE && !txn.remote.otherMembersEmpty()) {
            claimEdgeId(given, canonical, internal); // before the binding: a refusal leaves nothing bound
        }
        if (owner < 0) {
            return registry().bind(txn, kind, given, canonical, internal);
        }
        Wire.Reader in = txn.remote.call(owner, new Op.BindId(kind, given, canonical, internal));
        if (!in.getBoolean()) {
            throw new ExternalIdTakenException(kind, given);
        }
        return in.getValue();
    }

    /**
     * Claims an edge's user-supplied id at the id's home (issue 35, scenario 7: an edge's id is
     * bound where the edge lives, so two members could bind one id to two edges). The home keeps
     * which edge claimed the id; another edge's claim stands unless that edge is gone for good,
     * which its own node decides.
     *
     * @throws ExternalIdTakenException if an edge that is not gone holds the id
     */
    private void claimEdgeId(Object given, Object canonical, long internal) {
        int home = homeOfEdgeId(canonical);
        takeOver(given, canonical, internal, home, claimAt(home, canonical, internal, ElementIds.NONE));
    }

    /**
     * After a claim of {@code canonical} at {@code home} found {@code holder} holding it (none:
     * {@link ElementIds#NONE}, the claim stands): claims it again over the holder if the holder's
     * node says it is gone for good.
     *
     * @throws ExternalIdTakenException if the holder is not gone
     */
    private void takeOver(Object given, Object canonical, long internal, int home, long holder) {
        if (holder == ElementIds.NONE) {
            return;
        }
        if (!holderGone(holder, canonical) || claimAt(home, canonical, internal, holder) != ElementIds.NONE) {
            throw new ExternalIdTakenException(ElementKind.EDGE, given);
        }
    }

    /**
     * The member at which an edge's user-supplied id must first be reserved (see {@link
     * #reserveEdgeNumber}): for a number naming an edge slot of another member than the edge's, that
     * member; else -1.
     */
    private int reservationNode(Object canonical, long internal) {
        if (!txn.remote.otherMembersEmpty() && canonical instanceof Long n && ElementIds.isWellFormed(n) && ElementIds.isEdge(n)
                && ElementIds.node(n) != txn.nodeOf(internal) && txn.engine.members().nodes().contains(ElementIds.node(n))) {
            return ElementIds.node(n);
        }
        return -1;
    }

    /**
     * {@link #bind} of many edges' user-supplied ids ({@code given[i]}, canonical form {@code
     * canonical[i]}, to edge {@code internal[i]}, which this transaction created), with one request
     * per other node for the claims and one for the bindings instead of one each per edge
     * (docs/cluster-transactions.md, "Execution": batched writes). Returns the ids to show, in
     * order. A failure leaves some of the ids bound or claimed in this transaction: roll it back.
     *
     * @throws ExternalIdTakenException naming the first id found taken
     */
    public Object[] bindEdges(Object[] given, Object[] canonical, long[] internal) {
        Object[] shown = new Object[given.length];
        boolean[] alone = new boolean[given.length]; // takes bind()'s own path: a reservation comes first
        if (txn.remote.otherMembersEmpty()) {
            for (int i = 0; i < given.length; i++) {
                shown[i] = registry().bind(txn, ElementKind.EDGE, given[i], canonical[i], internal[i]);
            }
            return shown;
        }
        int here = txn.store.nodeId();
        long[] holders = new long[given.length];
        int[] homes = new int[given.length];
        OpsByNode claims = new OpsByNode();
        for (int i = 0; i < given.length; i++) {
            alone[i] = reservationNode(canonical[i], internal[i]) >= 0;
            if (alone[i]) {
                continue;
            }
            homes[i] = homeOfEdgeId(canonical[i]);
            if (homes[i] == here) {
                holders[i] = registry().claimEdgeId(txn, canonical[i], internal[i], ElementIds.NONE);
            } else {
                claims.add(homes[i], i, new Op.ClaimId(canonical[i], internal[i], ElementIds.NONE));
            }
        }
        claims.run(txn.remote, (i, in) -> holders[i] = in.getLong());
        OpsByNode binds = new OpsByNode();
        for (int i = 0; i < given.length; i++) {
            if (alone[i]) {
                shown[i] = bind(ElementKind.EDGE, given[i], canonical[i], internal[i]);
                continue;
            }
            takeOver(given[i], canonical[i], internal[i], homes[i], holders[i]);
            int owner = txn.owner(internal[i]);
            if (owner < 0) {
                shown[i] = registry().bind(txn, ElementKind.EDGE, given[i], canonical[i], internal[i]);
            } else {
                binds.add(owner, i, new Op.BindId(ElementKind.EDGE, given[i], canonical[i], internal[i]));
            }
        }
        binds.run(txn.remote, (i, in) -> {
            if (!in.getBoolean()) {
                throw new ExternalIdTakenException(ElementKind.EDGE, given[i]);
            }
            shown[i] = in.getValue();
        });
        return shown;
    }

    /**
     * {@link #resolve} of many vertices' user-supplied ids, with one request per other node instead
     * of one per id; {@code parsed[i]} may be null.
     */
    public long[] resolveVertices(Object[] canonical, Object[] parsed) {
        long[] found = new long[canonical.length];
        if (txn.remote.otherMembersEmpty()) {
            for (int i = 0; i < canonical.length; i++) {
                found[i] = registry().resolve(txn, ElementKind.VERTEX, canonical[i], parsed[i]);
            }
            return found;
        }
        int here = txn.store.nodeId();
        OpsByNode asks = new OpsByNode();
        for (int i = 0; i < canonical.length; i++) {
            int home = homeOfVertex(canonical[i]);
            if (home == here) {
                found[i] = registry().resolve(txn, ElementKind.VERTEX, canonical[i], null);
            } else {
                asks.add(home, i, new Op.ResolveId(ElementKind.VERTEX, canonical[i]));
            }
        }
        asks.run(txn.remote, (i, in) -> found[i] = in.getLong());
        for (int i = 0; i < canonical.length; i++) {
            if (found[i] == ElementIds.NONE && parsed[i] != null) {
                found[i] = resolveAcross(ElementKind.VERTEX, parsed[i]);
            }
        }
        return found;
    }

    /**
     * Where an edge's user-supplied id is claimed: for a number that is a well-formed edge id of a
     * member, that member (its own edges' numbers are checked there already); else a hash of the id
     * over the members, as for a vertex's.
     */
    int homeOfEdgeId(Object canonical) {
        if (canonical instanceof Long n && ElementIds.isWellFormed(n) && ElementIds.isEdge(n)
                && txn.engine.members().nodes().contains(ElementIds.node(n))) {
            return ElementIds.node(n);
        }
        return hashHome(canonical);
    }

    private long claimAt(int node, Object canonical, long internal, long replacing) {
        if (node == txn.store.nodeId()) {
            return registry().claimEdgeId(txn, canonical, internal, replacing);
        }
        return txn.remote.call(node, new Op.ClaimId(canonical, internal, replacing)).getLong();
    }

    private boolean holderGone(long holder, Object canonical) {
        int node = ElementIds.node(holder);
        if (node == txn.store.nodeId()) {
            return registry().edgeGone(txn, holder, canonical);
        }
        return txn.remote.call(node, new Op.IdHolderGone(holder, canonical)).getBoolean();
    }

    /**
     * An edge's user-supplied id that is a number naming an edge slot of another member than the
     * edge's: that member checks no edge of its own is known by the number and keeps it from the
     * edges it makes later; see {@link ExternalIds#reserve}.
     */
    private void reserveEdgeNumber(int node, Object given, long number) {
        if (node == txn.store.nodeId()) {
            registry().reserve(txn, given, number);
            return;
        }
        if (!txn.remote.call(node, new Op.ReserveId(given, number)).getBoolean()) {
            throw new ExternalIdTakenException(ElementKind.EDGE, given);
        }
    }

    /**
     * The element a user's id names for this transaction, or {@link ElementIds#NONE}; see {@link
     * ExternalIds#resolve}. A vertex id is looked up at its {@link #homeOfVertex home}; an edge
     * id, bound where the edge lives (with its out-vertex), at every member.
     */
    public long resolve(ElementKind kind, Object canonical, Object parsed) {
        if (txn.remote.otherMembersEmpty()) {
            return registry().resolve(txn, kind, canonical, parsed);
        }
        long found = resolveAcross(kind, canonical);
        return found == ElementIds.NONE && parsed != null ? resolveAcross(kind, parsed) : found;
    }

    private long resolveAcross(ElementKind kind, Object canonical) {
        if (kind == ElementKind.VERTEX) {
            return resolveAt(homeOfVertex(canonical), kind, canonical);
        }
        // An edge's id is bound where the edge lives; a number may also be some member's internal
        // id. A binding anywhere wins, as it does on one node (ExternalIds#resolve). A member may
        // still hold the binding of an edge that was deleted (until GC frees it) while another
        // member's edge has the id now (claimed at the id's home): a binding this transaction sees
        // wins over one it does not.
        long number = canonical instanceof Long n ? n : ElementIds.NONE;
        long found = ElementIds.NONE;
        List<Integer> nodes = new ArrayList<>();
        nodes.add(txn.store.nodeId());
        for (int other : txn.remote.otherMembers()) {
            nodes.add(other);
        }
        for (int node : nodes) {
            long there = resolveAt(node, kind, canonical);
            if (there == ElementIds.NONE) {
                continue;
            }
            if (there != number && txn.exists(kind, there)) {
                return there;
            }
            if (found == ElementIds.NONE || found == number) {
                found = there;
            }
        }
        return found;
    }

    private long resolveAt(int node, ElementKind kind, Object canonical) {
        if (node == txn.store.nodeId()) {
            return registry().resolve(txn, kind, canonical, null);
        }
        return txn.remote.call(node, new Op.ResolveId(kind, canonical)).getLong();
    }

    /** The id to show for element {@code internal}: its user-supplied id if it has one; see {@link ExternalIds#exposed}. */
    public Object exposed(ElementKind kind, long internal) {
        int owner = txn.owner(internal);
        if (owner < 0) {
            return registry().exposed(kind, internal);
        }
        return txn.remote.call(owner, new Op.ElementId(kind, internal, false)).getValue();
    }

    /** {@link #exposed} of many elements of one kind, one request per owning node. */
    public Object[] exposedMany(ElementKind kind, long[] internals) {
        Object[] result = new Object[internals.length];
        Map<Integer, List<Integer>> byNode = new java.util.TreeMap<>();
        for (int i = 0; i < internals.length; i++) {
            byNode.computeIfAbsent(txn.owner(internals[i]), n -> new ArrayList<>()).add(i);
        }
        List<Integer> here = byNode.remove(-1);
        for (int i : here == null ? List.<Integer>of() : here) {
            result[i] = registry().exposed(kind, internals[i]);
        }
        int[] nodes = byNode.keySet().stream().mapToInt(Integer::intValue).toArray();
        List<List<Integer>> at = new ArrayList<>(byNode.values());
        Wire.Reader[] replies = nodes.length == 0 ? new Wire.Reader[0] : txn.remote.callEach(nodes, n -> {
            long[] ids = new long[at.get(n).size()];
            for (int j = 0; j < ids.length; j++) {
                ids[j] = internals[at.get(n).get(j)];
            }
            return new Op.ExposedMany(kind, ids);
        });
        for (int n = 0; n < nodes.length; n++) {
            for (int i : at.get(n)) {
                result[i] = replies[n].getValue();
            }
        }
        return result;
    }

    /** Whether a user-supplied id of another element names the new element's number; see {@link ExternalIds#shadowed}. */
    public boolean shadowed(ElementKind kind, long internal) {
        int owner = txn.owner(internal);
        if (owner < 0) {
            return registry().shadowed(kind, internal);
        }
        return txn.remote.call(owner, new Op.ElementId(kind, internal, true)).getBoolean();
    }
}
