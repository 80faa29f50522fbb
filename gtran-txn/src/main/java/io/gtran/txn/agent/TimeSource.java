package io.gtran.txn.agent;

/**
 * Where a node's clock reads local time. Tests give each node its own offset, drift and wall-clock
 * jumps through this interface.
 */
public interface TimeSource {
    /** The JVM's own time: {@code System.nanoTime()} and {@code System.currentTimeMillis()}. */
    TimeSource SYSTEM = new TimeSource() {
        @Override
        public long nanos() {
            return System.nanoTime();
        }

        @Override
        public long wallMicros() {
            return System.currentTimeMillis() * 1000L;
        }

        @Override
        public void pause(long nanos) {
            if (nanos < 50_000) {
                Thread.onSpinWait(); // parking costs tens of microseconds
            } else {
                java.util.concurrent.locks.LockSupport.parkNanos(Math.min(nanos, 1_000_000));
            }
        }
    };

    /**
     * Monotonic local time in nanoseconds, from an arbitrary origin: it never steps back and runs
     * at the local oscillator's rate, within the drift bound {@link SyncedClock} is given.
     */
    long nanos();

    /**
     * Wall-clock time in microseconds since the epoch. It may jump (NTP steps, an operator); the
     * clock reads it only when a node starts the cluster's timescale as its first clock master.
     */
    long wallMicros();

    /** Lets about {@code nanos} of this source's time pass (or less: callers re-check). */
    void pause(long nanos);
}
