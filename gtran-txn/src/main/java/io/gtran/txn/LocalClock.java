package io.gtran.txn;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A node-local {@link Clock}: microseconds since the epoch, pushed forward by one whenever two
 * calls fall in the same microsecond (or the system clock steps back), so timestamps stay unique
 * and increasing.
 */
public final class LocalClock implements Clock {
    private final AtomicLong last = new AtomicLong();

    @Override
    public long next() {
        long physical = System.currentTimeMillis() * 1000L;
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
