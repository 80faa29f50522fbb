package io.gtran.txn.clock;

import io.gtran.storage.Settings;
import io.gtran.txn.agent.TimeSource;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The synchronised clock's settings, {@code gtran.clock.*}: how often a node asks the clock master
 * for its time ({@link ClockSync}), the drift bound of the local oscillators, and how long a
 * timestamp may wait ({@link SyncedClock}). Read by a node of a cluster of more than one member; a
 * single node's clock has none. Unknown {@code gtran.clock.*} keys and malformed values are refused
 * with the key and value named.
 */
public final class ClockConfig {
    /** Pause between two requests to the clock master while the node is busy ({@link ClockSync} backs off while it is idle). */
    public static final String SYNC_INTERVAL_MS = "gtran.clock.sync-interval-ms";
    public static final int SYNC_INTERVAL_MS_DEFAULT = 10;
    /** The most a node's local clock runs fast or slow, in parts per million; below 100,000. */
    public static final String DRIFT_PPM = "gtran.clock.drift-ppm";
    public static final int DRIFT_PPM_DEFAULT = (int) Math.round(SyncedClock.DEFAULT_DRIFT * 1e6);
    /**
     * How long a timestamp waits for synchronisation (the first reply of a new master) or for its
     * uncertainty to pass before the clock gives up ({@link ClockUnavailableException}); longer than
     * the sync interval.
     */
    public static final String WAIT_LIMIT_MS = "gtran.clock.wait-limit-ms";
    public static final int WAIT_LIMIT_MS_DEFAULT = 5_000;
    /**
     * Whether a timestamp waits out its uncertainty (true); off breaks real-time order across
     * nodes, only to show the history checker's real-time check finds it
     * ({@link SyncedClock#withoutUncertaintyWait}).
     */
    public static final String UNCERTAINTY_WAIT = "gtran.clock.uncertainty-wait";
    /**
     * How far ahead the clock master's lease runs where the membership group names the master
     * (nodes in their own processes): the master renews it every quarter; a new master waits about
     * one lease after the change before its first timestamp.
     */
    public static final String LEASE_MS = "gtran.clock.lease-ms";
    public static final int LEASE_MS_DEFAULT = 1_000;

    private static final Set<String> KNOWN = Set.of(SYNC_INTERVAL_MS, DRIFT_PPM, WAIT_LIMIT_MS, UNCERTAINTY_WAIT, LEASE_MS);

    private final int syncIntervalMs;
    private final int driftPpm;
    private final int waitLimitMs;
    private final boolean uncertaintyWait;
    private final int leaseMs;
    private final Map<String, Object> effective;

    private ClockConfig(Map<String, ?> raw) {
        Settings settings = Settings.of(raw, "gtran.clock.", KNOWN);
        syncIntervalMs = settings.integer(SYNC_INTERVAL_MS, SYNC_INTERVAL_MS_DEFAULT, 1, 60_000);
        driftPpm = settings.integer(DRIFT_PPM, DRIFT_PPM_DEFAULT, 0, 99_999);
        waitLimitMs = settings.integer(WAIT_LIMIT_MS, WAIT_LIMIT_MS_DEFAULT, 1, 600_000);
        uncertaintyWait = settings.bool(UNCERTAINTY_WAIT, true);
        leaseMs = settings.integer(LEASE_MS, LEASE_MS_DEFAULT, 40, 600_000);
        if (waitLimitMs <= syncIntervalMs) {
            throw new IllegalArgumentException("configuration " + WAIT_LIMIT_MS + " must exceed " + SYNC_INTERVAL_MS + ": "
                    + WAIT_LIMIT_MS + "=" + waitLimitMs + " " + SYNC_INTERVAL_MS + "=" + syncIntervalMs);
        }
        effective = settings.effective();
    }

    public static ClockConfig defaults() {
        return new ClockConfig(Map.of());
    }

    /**
     * Reads {@code gtran.clock.*} keys; other keys are ignored. Values may be typed or strings.
     *
     * @throws IllegalArgumentException naming the key and value that is unknown, malformed or out of range
     */
    public static ClockConfig from(Map<String, ?> settings) {
        return new ClockConfig(settings);
    }

    public int syncIntervalMs() {
        return syncIntervalMs;
    }

    /** The drift bound as a fraction ({@code 1000} ppm is {@code 0.001}), as {@link SyncedClock} takes it. */
    public double drift() {
        return driftPpm / 1e6;
    }

    public int waitLimitMs() {
        return waitLimitMs;
    }

    public int leaseMs() {
        return leaseMs;
    }

    /** This node's clock under these settings. */
    public SyncedClock clockFor(int node, TimeSource time) {
        long waitLimitNanos = TimeUnit.MILLISECONDS.toNanos(waitLimitMs);
        return uncertaintyWait ? new SyncedClock(node, time, drift(), waitLimitNanos)
                : SyncedClock.withoutUncertaintyWait(node, time, drift(), waitLimitNanos);
    }

    /** Every key with the value in force, defaults included. */
    public Map<String, Object> effective() {
        return effective;
    }

    @Override
    public String toString() {
        return "ClockConfig" + effective;
    }
}
