package io.gtran.txn.local;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Statuses of other nodes' transactions that can no longer change ({@link TxnStatus#COMMITTED}
 * with its commit time, or {@link TxnStatus#ABORTED}), so a status read of one answers without
 * the round trip (docs/cluster-transactions.md, "Decisions carried"). Learnt from status reads
 * and from the commits coordinators carry on their requests. A fixed table, one entry per hash of
 * the id, a newer replacing an older: an entry lost costs only the read it would have saved.
 */
final class SettledStatuses {
    /** {@link #find}'s answer for an id not held. */
    static final long UNKNOWN = Long.MIN_VALUE;
    private static final int BITS = 10;

    private record Settled(long txnId, long status) {
    }

    private final AtomicReferenceArray<Settled> entries = new AtomicReferenceArray<>(1 << BITS);

    /** Keeps {@code status} ({@link StatusTableDescriptor a status word}) of {@code txnId} if it is final; else nothing. */
    void learn(long txnId, long status) {
        TxnStatus kind = StatusTableDescriptor.status(status);
        if (status != StatusTable.GONE && (kind == TxnStatus.COMMITTED || kind == TxnStatus.ABORTED)) {
            entries.set(index(txnId), new Settled(txnId, status));
        }
    }

    /** The final status word of {@code txnId} if held, else {@link #UNKNOWN}. */
    long find(long txnId) {
        Settled settled = entries.get(index(txnId));
        return settled != null && settled.txnId == txnId ? settled.status : UNKNOWN;
    }

    private static int index(long txnId) {
        return (int) ((txnId * 0x9E3779B97F4A7C15L) >>> (Long.SIZE - BITS));
    }
}
