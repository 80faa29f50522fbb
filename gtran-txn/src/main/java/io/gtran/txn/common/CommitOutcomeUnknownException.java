package io.gtran.txn.common;

import java.util.Arrays;

/**
 * A commit whose outcome is not known yet: the other nodes holding parts of the transaction did not
 * all vote in time (slow, or cut off). The transaction is neither committed nor aborted from the
 * client's point of view; the commit protocol decides it later, the same way everywhere
 * (docs/cluster-transactions.md). Read back what it wrote before trying it again. Until it is
 * decided the transaction stays active: {@link Transaction#rollback} and {@link Transaction#close}
 * leave it to the protocol, and any other operation on it throws {@link IllegalStateException}.
 */
public final class CommitOutcomeUnknownException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final long transaction;

    public CommitOutcomeUnknownException(long transaction, int[] participants, long waitedMs) {
        super("commit outcome unknown: txn=" + TxnWords.toString(transaction) + " (the nodes holding its parts, "
                + Arrays.toString(participants) + ", did not all vote within " + waitedMs + " ms; it will be committed or"
                + " aborted everywhere alike; read back what it wrote before retrying)");
        this.transaction = transaction;
    }

    public long transaction() {
        return transaction;
    }
}
