package io.gtran.check.history;

import java.util.List;

/**
 * One transaction of a history: its id in the history, the worker thread that ran it, how it
 * ended, the micro-operations it performed (for an aborted one: those it started), and a note
 * (engine id and times, or the abort reason).
 */
public record TxnRecord(int id, int thread, Outcome outcome, List<Op> ops, String note) {
    /** How a transaction ended. In-JVM the engine always knows, so there is no "unknown". */
    public enum Outcome { COMMITTED, ABORTED }

    public TxnRecord {
        ops = List.copyOf(ops);
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
