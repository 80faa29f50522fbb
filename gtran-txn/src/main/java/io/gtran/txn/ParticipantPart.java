package io.gtran.txn;

import io.gtran.storage.ElementIds;

/**
 * Another node's transaction, its part on this node (docs/cluster-transactions.md, "Execution"):
 * it runs the operations its coordinator sends here ({@link ClusterParts}) and calls no other
 * node itself. Where it differs from a transaction this node coordinates: it publishes element
 * count deltas as they happen (it does not know which operation is its last), it adds only the
 * half of an edge that lives here and leaves mirrors to its coordinator, it counts no abort (its
 * coordinator does), and it commits and aborts through {@link PartCommit}, its status being its
 * coordinator's.
 */
final class ParticipantPart extends Transaction {
    ParticipantPart(TransactionEngine engine, long id, long beginTime, Isolation isolation) {
        super(engine, id, beginTime, isolation, false);
    }

    /** Each delta goes in at once, with this transaction's id in its word, long before the coordinator takes the commit time. */
    @Override
    void counted(ElementKind kind, int label, int delta) {
        super.counted(kind, label, delta);
        ElementCounts counts = engine.counts();
        for (long key : new long[] {ElementCounts.key(kind, label), ElementCounts.key(kind, ConflictKey.ANY_LABEL)}) {
            ElementCounts.Counter counter = counts.counter(key);
            publishedCounts.add(counter.append(id(), delta));
            counter.foldIfDue();
        }
    }

    /** Published as they happened: see {@link #counted}. */
    @Override
    void publishCounts() {
    }

    @Override
    boolean spansNodes() {
        return true;
    }

    /** The coordinator sent this half here, and sends the mirror to the in-vertex's node. */
    @Override
    long addEdgeAcross(long outVertex, long inVertex, int label, int outHome, int inHome) {
        if (outHome != store.nodeId()) {
            throw new IllegalStateException("node " + store.nodeId() + " asked to add edge " + ElementIds.toString(outVertex)
                    + " -> " + ElementIds.toString(inVertex) + ", whose out-vertex lives on node " + outHome);
        }
        return addEdgeHere(outVertex, inVertex, label, false);
    }

    /** The coordinator ends the mirror. */
    @Override
    void removeMirrorOf(long edgeId, long inVertex) {
    }

    /** The coordinator ended the vertex's edges to other members first. */
    @Override
    void removeEdgesAcross(long vertexId) {
    }

    /** Counted once, by the coordinator. */
    @Override
    void countAbort(ConflictKind kind) {
    }

    @Override
    PartCommit commitProtocol() {
        return new PartCommit(this);
    }
}
