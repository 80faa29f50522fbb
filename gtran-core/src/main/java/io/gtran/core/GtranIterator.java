package io.gtran.core;

import io.gtran.txn.Transaction;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.LongFunction;

/**
 * Elements from an array of internal ids read in one transaction, made on demand. The iterator
 * ends when that transaction commits or rolls back: elements of an ended transaction are not
 * handed out into the next one.
 */
final class GtranIterator<E> implements Iterator<E> {
    private final Transaction txn;
    private final long[] ids;
    private final LongFunction<E> make;
    private int next;

    GtranIterator(Transaction txn, long[] ids, LongFunction<E> make) {
        this.txn = txn;
        this.ids = ids;
        this.make = make;
    }

    @Override
    public boolean hasNext() {
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
