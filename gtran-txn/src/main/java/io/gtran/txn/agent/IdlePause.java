package io.gtran.txn.agent;

/**
 * How long a periodic agent pauses between two steps when its work comes and goes: the interval
 * while busy; after an idle step, the last pause doubled, up to a cap (the interval if that is
 * longer). Used by the GC scanner and the clock's synchronisation, each judging idle its own way.
 */
public final class IdlePause {
    private IdlePause() {
    }

    /** The pause after a step that followed a pause of {@code pause} and was {@code idle} or not. */
    public static long next(long pause, boolean idle, long interval, long cap) {
        return idle ? Math.min(2 * pause, Math.max(interval, cap)) : interval;
    }
}
