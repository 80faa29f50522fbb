package io.gtran.txn.membership;

import io.gtran.txn.agent.TimeSource;

/** A clock that moves only when a test moves it; nothing that reads it may wait. */
public final class HandTime implements TimeSource {
    public long nanos = 1_000_000_000L;

    @Override
    public long nanos() {
        return nanos;
    }

    @Override
    public long wallMicros() {
        return nanos / 1000;
    }

    @Override
    public void pause(long pause) {
        throw new AssertionError("code driven by hand must not wait");
    }
}
