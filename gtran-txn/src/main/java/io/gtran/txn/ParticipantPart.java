package io.gtran.txn;

import io.gtran.txn.common.ConflictKey;
import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.local.ElementCounts;

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

    /** Counted once, by the coordinator. */
    @Override
    void countAbort(ConflictKind kind) {
    }

    @Override
    PartCommit commitProtocol() {
        return new PartCommit(this);
    }
}
