package io.gtran.check.history;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A list-append history: every transaction attempted, committed or aborted, in the order it was
 * recorded. Safe to record into from many threads; ids are assigned in recording order.
 */
public final class History {
    private final List<TxnRecord> txns = new ArrayList<>();

    /** Records a transaction, its times unknown, and returns it with its id. */
    public TxnRecord add(int thread, TxnRecord.Outcome outcome, List<Op> ops, String note) {
        return add(thread, outcome, ops, note, TxnRecord.NO_TIME, TxnRecord.NO_TIME);
    }

    /**
     * Records a transaction invoked at {@code startNanos} and acknowledged at {@code endNanos} (the
     * client's monotonic clock; {@link TxnRecord#NO_TIME} if unknown) and returns it with its id.
     */
    public synchronized TxnRecord add(int thread, TxnRecord.Outcome outcome, List<Op> ops, String note, long startNanos,
            long endNanos) {
        TxnRecord record = new TxnRecord(txns.size(), thread, outcome, ops, note, startNanos, endNanos);
        txns.add(record);
        return record;
    }

    /** Records a committed transaction (thread 0): for hand-built histories. */
    public TxnRecord committed(Op... ops) {
        return add(0, TxnRecord.Outcome.COMMITTED, Arrays.asList(ops), "");
    }

    /** Records a committed transaction (thread 0) invoked at {@code start} and acknowledged at {@code end}. */
    public TxnRecord committedAt(long start, long end, Op... ops) {
        return add(0, TxnRecord.Outcome.COMMITTED, Arrays.asList(ops), "", start, end);
    }

    /** Records an aborted transaction (thread 0): for hand-built histories. */
    public TxnRecord aborted(Op... ops) {
        return add(0, TxnRecord.Outcome.ABORTED, Arrays.asList(ops), "");
    }

    /** A snapshot of the transactions recorded so far. */
    public synchronized List<TxnRecord> txns() {
        return List.copyOf(txns);
    }

    public synchronized int committedCount() {
        return (int) txns.stream().filter(TxnRecord::committed).count();
    }

    public synchronized int abortedCount() {
        return txns.size() - committedCount();
    }
}
