package io.gtran.txn.clock;

/**
 * Where begin and commit times come from. Every call to {@link #next} returns a timestamp larger
 * than any this clock returned before, so no two transactions share a begin or commit time, and a
 * transaction that starts after another committed (in real time) gets a larger begin time. On one
 * node that is {@code io.gtran.txn.clock.LocalClock}; across nodes, {@link SyncedClock}.
 */
public interface Clock {
    /** A fresh timestamp, larger than every earlier one from this clock. */
    long next();

    /** The last timestamp handed out (or a value below every future one); does not advance the clock. */
    long current();

    /**
     * A bound on every timestamp taken so far on this clock's timescale, by this node or by any
     * other that follows the same one: what a rejoining node sends as its fence. {@link #current()}
     * unless the clock knows more.
     */
    default long fence() {
        return current();
    }

    /**
     * {@link #fence()}, as sent to a member in the rejoin handshake: that member keeps its later
     * timestamps above it, and if it is the master this clock follows, its time moves up to it.
     */
    default long fenceSent() {
        return fence();
    }
}
