package io.gtran.check.history;

import java.util.List;

/** One anomaly the checker found: its kind, the transactions involved and why. */
public record Anomaly(Kind kind, List<TxnRecord> txns, String explanation) {
    /** Anomaly kinds, after Adya and Elle, in the order reports list them. */
    public enum Kind {
        /** A cycle of write-write dependencies only (dirty write). */
        G0("G0"),
        /** A committed transaction read an element appended by an aborted one. */
        G1A("G1a"),
        /** A committed transaction read a list ending in an element that was not its writer's last append to the key. */
        G1B("G1b"),
        /** A cycle of write-write and write-read dependencies, with at least one write-read. */
        G1C("G1c"),
        /** A cycle with exactly one read-write anti-dependency (read skew). */
        G_SINGLE("G-single"),
        /** A cycle with two or more read-write anti-dependencies (write skew and its relatives). */
        G2("G2"),
        /**
         * A cycle through real-time order with at most one read-write anti-dependency: a
         * transaction missed (or was ordered before) one acknowledged before it was invoked. Forbidden
         * by strict serializability and by snapshot isolation with real-time ordered timestamps.
         */
        REALTIME("G-realtime"),
        /** Two committed reads of one key that are not prefixes of each other: no single version order explains them. */
        INCOMPATIBLE_ORDER("incompatible-order"),
        /** A committed read returned a list holding the same element twice. */
        DUPLICATE_ELEMENT("duplicate-element"),
        /** A committed read disagreed with what the same transaction read or appended before it. */
        INTERNAL("internal"),
        /** A committed read returned an element nobody appended. */
        UNKNOWN_ELEMENT("unknown-element");

        private final String display;

        Kind(String display) {
            this.display = display;
        }

        /** The name reports use: {@code G-single}, {@code incompatible-order}. */
        public String display() {
            return display;
        }
    }

    public Anomaly {
        txns = List.copyOf(txns);
    }

    /** The kind, the explanation, and one line per transaction. */
    public String describe() {
        StringBuilder b = new StringBuilder(kind.display()).append(": ").append(explanation);
        for (TxnRecord t : txns) {
            b.append("\n    ").append(t);
        }
        return b.toString();
    }

    @Override
    public String toString() {
        return kind.display() + ": " + explanation;
    }
}
