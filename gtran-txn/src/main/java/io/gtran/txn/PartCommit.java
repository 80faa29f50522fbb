package io.gtran.txn;

import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import io.gtran.txn.local.RecentCommittedTable;
import io.gtran.txn.local.TxnStatus;

/**
 * The end of a {@link ParticipantPart}: its vote on VALIDATE and its finish on DECIDE
 * (docs/cluster-transactions.md, "Commit"). Its status is its coordinator's, so an abort here
 * moves no status and frees no entry: it undoes this part's words and nothing else.
 */
final class PartCommit extends CommitProtocol {
    PartCommit(ParticipantPart part) {
        super(part);
    }

    /**
     * VALIDATE: enters this part in the RCT under the coordinator's commit time, validates it (SR)
     * and resolves its dependencies here. Returns the vote; a NO has aborted the part here already.
     */
    boolean vote(long commitTime, Runnable onEntered) {
        if (!txn.isActive()) {
            return false;
        }
        try {
            if (!txn.isReadOnly()) {
                txn.registered = recentCommitted.enter(txn.id(), commitTime, txn.writes.of(store.nodeId()));
                onEntered.run();
            }
            if (txn.isolation() == Isolation.SERIALIZABLE && engine.config().validation) {
                validate(commitTime);
            }
            awaitPreReadDependencies();
            awaitMustAbort();
            return true;
        } catch (TransactionConflictException e) {
            return false; // conflict() aborted the part here
        }
    }

    /** DECIDE: stamps the commit time over this part's words, or undoes them. */
    void finish(boolean commit, long commitTime) {
        if (!txn.isActive()) {
            return;
        }
        if (!commit) {
            abort();
            return;
        }
        if (txn.registered != null) {
            recentCommitted.decide(txn.registered, TxnStatus.COMMITTED);
        }
        txn.markCommitted(commitTime);
        stamp(commitTime);
        gc.help();
    }

    /** A part's status is its coordinator's. */
    @Override
    boolean abortStatus(RecentCommittedTable.Entry entry) {
        return true;
    }

    /** The coordinator frees the status entry and runs the abort actions. */
    @Override
    void afterUndo() {
    }
}
