package io.gtran.txn.common;

/** What a change to a property-value index does to it on every member (see {@code IndexRouting#change}). */
public enum IndexChange {
    /** Defines the index (empty, not ready for look-ups). */
    DEFINE,
    /** Marks it ready: filled, so look-ups may use it. */
    READY,
    /** Drops it. */
    DROP
}
