package io.gtran.core;

import io.gtran.txn.Transaction;

/**
 * One thread's running gtran-txn transaction on a {@link GtranGraph}, as gtran's own steps use it
 * ({@link GtranHelper#scope}): the transaction, and how to turn what it throws into what TinkerPop
 * users see. Not for applications.
 */
public interface TransactionScope {
    /** The gtran-txn transaction. */
    Transaction txn();

    /**
     * The exception to throw for {@code e}, met while the transaction ran: a conflict (the
     * transaction is already aborted by then) becomes a {@link TransactionAbortedException}; anything
     * else is returned as is.
     */
    RuntimeException translate(RuntimeException e);
}
