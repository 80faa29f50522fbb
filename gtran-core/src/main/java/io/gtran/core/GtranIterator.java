package io.gtran.core;

import io.gtran.txn.MemberScan;
import io.gtran.txn.Transaction;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.LongFunction;

/**
 * Elements from internal ids read in one transaction, made on demand: from an array, or from a
 * {@link MemberScan}'s pages, each asked for only when the one before is used up. The iterator
 * ends when that transaction commits or rolls back: elements of an ended transaction are not
 * handed out into the next one.
 */
final class GtranIterator<E> implements Iterator<E> {
    private final Transaction txn;
    private final MemberScan pages;
    private final TransactionScope scope;
    private final LongFunction<E> make;
    private long[] ids;
    private int next;

    GtranIterator(Transaction txn, long[] ids, LongFunction<E> make) {
        this.txn = txn;
        this.ids = ids;
        this.pages = null;
        this.scope = null;
        this.make = make;
    }

    /** Pages of {@code pages}, read in {@code scope}, which translates what asking for one throws. */
    GtranIterator(TransactionScope scope, MemberScan pages, LongFunction<E> make) {
        this.txn = scope.txn();
        this.ids = new long[0];
        this.pages = pages;
        this.scope = scope;
        this.make = make;
    }

    @Override
    public boolean hasNext() {
        if (next == ids.length && pages != null && txn.isActive()) {
            long[] page;
            try {
                page = pages.nextPage();
            } catch (RuntimeException e) {
                throw scope.translate(e);
            }
            if (page != null) {
                ids = page;
                next = 0;
            }
        }
        return next < ids.length && txn.isActive();
    }

    @Override
    public E next() {
        if (!hasNext()) {
            throw new NoSuchElementException(next < ids.length ? "the transaction that made this iterator has ended" : "no more elements");
        }
        return make.apply(ids[next++]);
    }
}
