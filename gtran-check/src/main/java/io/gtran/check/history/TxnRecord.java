package io.gtran.check.history;

import java.util.List;

/**
 * One transaction of a history: its id in the history, the worker thread that ran it, how it
 * ended, the micro-operations it performed (for an aborted one: those it started), a note (engine
 * id and times, or the abort reason), and, on the client's one monotonic clock, when it was
 * invoked and when its commit was acknowledged ({@link #NO_TIME} where unknown: no real-time
 * order is inferred across it).
 */
public record TxnRecord(int id, int thread, Outcome outcome, List<Op> ops, String note, long startNanos, long endNanos) {
    /** A time the client does not know (an outcome it never heard, a hand-built history). */
    public static final long NO_TIME = Long.MIN_VALUE;

    /** How a transaction ended. In-JVM the engine always knows, so there is no "unknown". */
    public enum Outcome { COMMITTED, ABORTED }

    public TxnRecord {
        ops = List.copyOf(ops);
    }

    public TxnRecord(int id, int thread, Outcome outcome, List<Op> ops, String note) {
        this(id, thread, outcome, ops, note, NO_TIME, NO_TIME);
    }

    /** Whether both times are known, so real-time order can place it. */
    public boolean timed() {
        return startNanos != NO_TIME && endNanos != NO_TIME;
    }

    public boolean committed() {
        return outcome == Outcome.COMMITTED;
    }

    /** {@code T12} */
    public String name() {
        return "T" + id;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder(name()).append(" (thread ").append(thread).append(", ")
                .append(outcome.name().toLowerCase());
        if (note != null && !note.isEmpty()) {
            b.append(", ").append(note);
        }
        b.append(")");
        for (Op op : ops) {
            b.append(' ').append(op);
        }
        return b.toString();
    }
}
