package io.gtran.txn.protocol;

/** How a transaction ended. */
public enum Outcome {
    COMMIT,
    ABORT
}
