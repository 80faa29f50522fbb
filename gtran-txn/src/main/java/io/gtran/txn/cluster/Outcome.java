package io.gtran.txn.cluster;

/** How a transaction ended. */
public enum Outcome {
    COMMIT,
    ABORT
}
