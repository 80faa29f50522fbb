package io.gtran.txn.clock;

import io.gtran.txn.agent.TimeSource;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A node-local {@link Clock}: microseconds since the epoch, pushed forward by one whenever two
 * calls fall in the same microsecond (or the system clock steps back), so timestamps stay unique
 * and increasing. The wall clock is read from a {@link TimeSource}: the system's, unless one is
 * given.
 */
public final class LocalClock implements Clock {
    private final AtomicLong last = new AtomicLong();
    private final TimeSource time;

    public LocalClock() {
        this(TimeSource.SYSTEM);
    }

    public LocalClock(TimeSource time) {
        this.time = time;
    }

    @Override
    public long next() {
        long physical = time.wallMicros();
        while (true) {
            long previous = last.get();
            long candidate = Math.max(previous + 1, physical);
            if (last.compareAndSet(previous, candidate)) {
                return candidate;
            }
        }
    }

    @Override
    public long current() {
        return last.get();
    }
}
