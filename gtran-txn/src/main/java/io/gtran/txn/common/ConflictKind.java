package io.gtran.txn.common;

/** Why a transaction was aborted; carried by {@link TransactionConflictException}. */
public enum ConflictKind {
    /** It tried to write what another live transaction had written and not yet committed. */
    WRITE_WRITE,
    /** Snapshot isolation's first-committer-wins: what it wrote was committed by another after it began. */
    FIRST_COMMITTER_WINS,
    /** Validation: something it read or scanned was written by a transaction that committed in its lifetime. */
    READ_WRITE,
    /** It read the uncommitted writes of a validating transaction (optimistic pre-read), which then aborted. */
    PRE_READ_DEPENDENCY_ABORTED,
    /** Optimistic validation: it conflicted with a validating transaction, which then committed. */
    VALIDATION_DEPENDENCY_COMMITTED,
    /** A transaction it depends on did not finish within gtran.txn.dependency-wait-ms. */
    DEPENDENCY_TIMEOUT,
    /** It wrote to an element that another transaction deleted, or deleted one another wrote to. */
    DELETED_ELEMENT,
    /**
     * It met the id of a transaction whose coordinating node could not be reached to read its
     * status within gtran.txn.dependency-wait-ms: it cannot tell what that transaction wrote.
     */
    COORDINATOR_UNREACHABLE,
    /**
     * Another node holding part of it did not answer within gtran.txn.remote-timeout-ms, was lost,
     * or no longer accepts its operations: it cannot commit.
     */
    PARTICIPANT_UNREACHABLE,
    /** Another node holding part of it voted NO at commit (its validation or a dependency failed there). */
    PARTICIPANT_VOTED_NO
}
