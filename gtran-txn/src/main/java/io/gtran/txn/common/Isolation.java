package io.gtran.txn.common;

/** The isolation levels gtran offers. */
public enum Isolation {
    /**
     * Serializable: snapshot reads, optimistic pre-read, and validation of everything read or
     * scanned against transactions that committed in the reader's lifetime.
     */
    SERIALIZABLE,
    /**
     * Snapshot isolation: snapshot reads and first-committer-wins on writes; no read validation,
     * so write skew (G2-item, G2) is possible.
     */
    SNAPSHOT
}
