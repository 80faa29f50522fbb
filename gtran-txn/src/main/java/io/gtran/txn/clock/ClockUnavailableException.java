package io.gtran.txn.clock;

/** A node's clock could not give a timestamp in time: not synchronised, or too uncertain. */
public final class ClockUnavailableException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public ClockUnavailableException(String message) {
        super(message);
    }
}
