package io.gtran.txn.clock;

import io.gtran.txn.agent.TimeSource;

/**
 * Simulated true time shared by several nodes' {@link TimeSource}s, each with its own offset and
 * drift. Every read of a node's time advances true time by {@code step} nanoseconds, so a clock
 * waiting out its uncertainty gets there.
 */
final class SimulatedTime {
    static final long EPOCH_MICROS = 1_764_000_000_000_000L; // late 2025
    private long trueNanos;
    private final long step;
    private boolean frozen;

    SimulatedTime(long step) {
        this.step = step;
    }

    long trueNanos() {
        return trueNanos;
    }

    void advance(long nanos) {
        trueNanos += nanos;
    }

    /** While frozen, reads do not advance true time: several clocks can be read at one instant. */
    void freeze(boolean frozen) {
        this.frozen = frozen;
    }

    /** A node's time: {@code offset + true * (1 + drift)}; its wall clock can be stepped by {@link Node#jumpWall}. */
    Node node(long offsetNanos, double drift) {
        return new Node(offsetNanos, drift);
    }

    final class Node implements TimeSource {
        private final long offset;
        private final double drift;
        private long wallJump;

        private Node(long offset, double drift) {
            this.offset = offset;
            this.drift = drift;
        }

        /** This node's reading of true time {@code t}, without advancing anything. */
        long at(long t) {
            return offset + (long) (t * (1 + drift));
        }

        @Override
        public long nanos() {
            if (!frozen) {
                trueNanos += step;
            }
            return at(trueNanos);
        }

        @Override
        public long wallMicros() {
            return EPOCH_MICROS + nanos() / 1000 + wallJump;
        }

        @Override
        public void pause(long nanos) {
            if (!frozen) {
                trueNanos += Math.max(1, (long) (nanos / (1 + drift))); // no real waiting: simulated time passes
            }
        }

        void jumpWall(long micros) {
            wallJump += micros;
        }
    }
}
