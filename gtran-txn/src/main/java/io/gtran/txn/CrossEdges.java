package io.gtran.txn;

import static io.gtran.txn.common.TxnWords.INFINITY;

import io.gtran.storage.EdgeCursor;
import io.gtran.storage.EdgeDirection;
import io.gtran.storage.ElementIds;
import io.gtran.txn.common.ConflictKey;
import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.protocol.Op;
import java.lang.invoke.VarHandle;

/**
 * A transaction's edges between vertices on two members (docs/cluster-transactions.md, "Edges
 * across nodes"): the edge lives on its out-vertex's node, its mirror on its in-vertex's, and both
 * are added and ended in the same transaction. The coordinator sends each half to its node; a
 * part ({@link OfPart}) adds and ends only the half it is sent.
 */
class CrossEdges {
    final Transaction txn;

    CrossEdges(Transaction txn) {
        this.txn = txn;
    }

    /** An edge whose endpoints live on two members: the edge on the out-vertex's, its mirror on the in-vertex's. */
    long add(long outVertex, long inVertex, int label, int outHome, int inHome) {
        txn.requireMember(outHome, outVertex);
        txn.requireMember(inHome, inVertex);
        long edgeId = outHome == txn.store.nodeId()
                ? txn.addEdgeHere(outVertex, inVertex, label, false)
                : txn.remote.call(outHome, new Op.AddEdge(outVertex, inVertex, txn.store.labels().name(label))).getLong();
        if (inHome == txn.store.nodeId()) {
            addMirror(edgeId, outVertex, inVertex, label);
        } else {
            txn.remote.call(inHome, new Op.AddMirror(edgeId, outVertex, inVertex, txn.store.labels().name(label)));
        }
        return edgeId;
    }

    /** The mirror of edge {@code edgeId} (on another node) at its in-vertex, which lives here. */
    void addMirror(long edgeId, long outVertex, long inVertex, int label) {
        txn.ensureActive();
        if (txn.home(inVertex) != txn.store.nodeId()) {
            throw new IllegalStateException("node " + txn.store.nodeId() + " asked to mirror edge " + ElementIds.toString(edgeId)
                    + " whose in-vertex " + ElementIds.toString(inVertex) + " lives on node " + txn.home(inVertex));
        }
        txn.requireVisible(ElementKind.VERTEX, inVertex);
        long mirror = txn.store.addEdge(outVertex, inVertex, label, txn.id(), INFINITY);
        txn.engine.mirrors().add(mirror, edgeId);
        txn.log.created(ElementKind.EDGE, mirror); // stamped or undone with the transaction; never counted
        txn.writes.add(ConflictKey.element(mirror));
        txn.writes.add(ConflictKey.adjacencyIn(inVertex));
        VarHandle.fullFence(); // see Transaction.addEdgeHere
        txn.rules.requireNotBeingDeleted(inVertex);
    }

    /** Ends the mirror of a removed edge whose in-vertex lives on another member than the edge. */
    void removeMirrorOf(long edgeId, long inVertex) {
        int inHome = txn.home(inVertex);
        if (inHome != txn.home(edgeId)) {
            if (inHome == txn.store.nodeId()) {
                removeMirror(edgeId);
            } else {
                txn.remote.call(inHome, new Op.RemoveMirror(edgeId));
            }
        }
    }

    /** The edges of a vertex to other members first, each with its mirror; the vertex's owner then ends the rest. */
    void removeAcross(long vertexId) {
        if (txn.remote.otherMembersEmpty()) {
            return;
        }
        long[] adjacent = txn.adjacent(vertexId, EdgeDirection.BOTH, EdgeCursor.ANY_LABEL);
        int home = txn.home(vertexId);
        for (int i = 0; i < adjacent.length; i += 2) {
            if (txn.home(adjacent[i + 1]) != home) {
                txn.removeEdge(adjacent[i]);
            }
        }
    }

    /** Ends this node's mirror of edge {@code edgeId}, which the edge's node ends in the same transaction. */
    void removeMirror(long edgeId) {
        txn.ensureActive();
        long mirror = txn.engine.mirrors().mirrorOf(edgeId);
        if (mirror == ElementIds.NONE || !txn.visibility.visible(ElementKind.EDGE, mirror)) {
            // The edge's node saw the edge, so its mirror was made before our snapshot: its absence
            // here means a concurrent deleter got to it first.
            throw txn.conflict(ConflictKind.DELETED_ELEMENT, 0, ConflictKey.element(edgeId),
                    "the mirror of the edge on node " + txn.store.nodeId() + " is gone");
        }
        txn.rules.endElement(ElementKind.EDGE, mirror, false);
        txn.writes.add(ConflictKey.element(mirror));
        txn.writes.add(ConflictKey.adjacencyIn(txn.store.edgeInVertex(mirror)));
    }

    /** A part's: its coordinator sends it one half of an edge at a time and sees to the mirrors. */
    static final class OfPart extends CrossEdges {
        OfPart(Transaction txn) {
            super(txn);
        }

        /** The coordinator sent this half here, and sends the mirror to the in-vertex's node. */
        @Override
        long add(long outVertex, long inVertex, int label, int outHome, int inHome) {
            int here = txn.store.nodeId();
            if (outHome != here) {
                throw new IllegalStateException("node " + here + " asked to add edge " + ElementIds.toString(outVertex)
                        + " -> " + ElementIds.toString(inVertex) + ", whose out-vertex lives on node " + outHome);
            }
            return txn.addEdgeHere(outVertex, inVertex, label, false);
        }

        /** The coordinator ends the mirror. */
        @Override
        void removeMirrorOf(long edgeId, long inVertex) {
        }

        /** The coordinator ended the vertex's edges to other members first. */
        @Override
        void removeAcross(long vertexId) {
        }
    }
}
