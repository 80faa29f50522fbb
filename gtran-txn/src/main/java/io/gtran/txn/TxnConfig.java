package io.gtran.txn;

import io.gtran.storage.Settings;
import io.gtran.txn.common.TxnWords;
import java.util.Map;
import java.util.Set;

/**
 * The transaction layer's settings, {@code gtran.txn.*}. The switches mirror G-Tran's own, so the
 * effect of each mechanism can be measured by turning it off. Unknown {@code gtran.txn.*} keys and
 * malformed values are refused with the key and value named.
 */
public final class TxnConfig {
    /** Optimistic pre-read: read a validating writer's version (with a dependency) instead of waiting for it. */
    public static final String PRE_READ = "gtran.txn.pre-read";
    public static final boolean PRE_READ_DEFAULT = true;
    /**
     * Read-set validation at SR. Turning it off weakens SR to snapshot reads without write
     * validation: it exists to show that the history checker catches the anomalies that follow.
     */
    public static final String VALIDATION = "gtran.txn.validation";
    public static final boolean VALIDATION_DEFAULT = true;
    /** Optimistic validation: a conflict with a still-validating transaction becomes a dependency, not an abort. */
    public static final String OPTIMISTIC_VALIDATION = "gtran.txn.optimistic-validation";
    public static final boolean OPTIMISTIC_VALIDATION_DEFAULT = true;
    /** Garbage collection of old versions, aborted versions, dead elements and expired RCT entries. */
    public static final String GC = "gtran.txn.gc";
    public static final boolean GC_DEFAULT = true;
    public static final String GC_INTERVAL_MS = "gtran.txn.gc.interval-ms";
    public static final int GC_INTERVAL_MS_DEFAULT = 20;
    public static final String GC_WORKERS = "gtran.txn.gc.workers";
    public static final int GC_WORKERS_DEFAULT = 2;
    /** How long commit waits for the outcome of a transaction it depends on before giving up. */
    public static final String DEPENDENCY_WAIT_MS = "gtran.txn.dependency-wait-ms";
    public static final int DEPENDENCY_WAIT_MS_DEFAULT = 5_000;
    /** Status-table entries per node: the most transactions a node can run at once. */
    public static final String STATUS_SLOTS = "gtran.txn.status-slots";
    public static final int STATUS_SLOTS_DEFAULT = 4096;

    /**
     * How long a transaction waits for another node holding part of it: an operation's answer (then
     * the transaction aborts) or the commit's votes (then the client is told the outcome is unknown).
     */
    public static final String REMOTE_TIMEOUT_MS = "gtran.txn.remote-timeout-ms";
    public static final int REMOTE_TIMEOUT_MS_DEFAULT = 10_000;

    /**
     * A node acts on the loss of a peer (aborts what waited for it, recovers what it coordinated)
     * only if it has heard from a majority of the members within this time, checked this long
     * after the loss is reported: a node cut off from the majority stops deciding before the
     * majority decides for it.
     */
    public static final String LEASE_MS = "gtran.txn.lease-ms";
    public static final int LEASE_MS_DEFAULT = 500;

    /**
     * How long a node keeps its decided part of a transaction whose coordinator restarted (a new
     * incarnation). Any other decided part is kept until its coordinator reuses the part's status
     * slot (docs/cluster-transactions.md, "Forgetting a decided part").
     */
    public static final String DECIDED_KEEP_MS = "gtran.txn.decided-keep-ms";
    public static final int DECIDED_KEEP_MS_DEFAULT = 30_000;

    private static final Set<String> KNOWN = Set.of(PRE_READ, VALIDATION, OPTIMISTIC_VALIDATION, GC, GC_INTERVAL_MS,
            GC_WORKERS, DEPENDENCY_WAIT_MS, STATUS_SLOTS, REMOTE_TIMEOUT_MS, LEASE_MS, DECIDED_KEEP_MS);

    final boolean preRead;
    final boolean validation;
    final boolean optimisticValidation;
    final boolean gc;
    final int gcIntervalMs;
    final int gcWorkers;
    final int dependencyWaitMs;
    final int statusSlots;
    final int remoteTimeoutMs;
    final int leaseMs;
    final int decidedKeepMs;
    private final Map<String, Object> effective;

    private TxnConfig(Map<String, ?> raw) {
        Settings settings = Settings.of(raw, "gtran.txn.", KNOWN);
        preRead = settings.bool(PRE_READ, PRE_READ_DEFAULT);
        validation = settings.bool(VALIDATION, VALIDATION_DEFAULT);
        optimisticValidation = settings.bool(OPTIMISTIC_VALIDATION, OPTIMISTIC_VALIDATION_DEFAULT);
        gc = settings.bool(GC, GC_DEFAULT);
        gcIntervalMs = settings.integer(GC_INTERVAL_MS, GC_INTERVAL_MS_DEFAULT, 1, 60_000);
        gcWorkers = settings.integer(GC_WORKERS, GC_WORKERS_DEFAULT, 1, 64);
        dependencyWaitMs = settings.integer(DEPENDENCY_WAIT_MS, DEPENDENCY_WAIT_MS_DEFAULT, 1, 600_000);
        statusSlots = settings.integer(STATUS_SLOTS, STATUS_SLOTS_DEFAULT, 1, TxnWords.MAX_SLOTS);
        remoteTimeoutMs = settings.integer(REMOTE_TIMEOUT_MS, REMOTE_TIMEOUT_MS_DEFAULT, 1, 600_000);
        leaseMs = settings.integer(LEASE_MS, LEASE_MS_DEFAULT, 10, 60_000);
        decidedKeepMs = settings.integer(DECIDED_KEEP_MS, DECIDED_KEEP_MS_DEFAULT, 100, 3_600_000);
        effective = settings.effective();
    }

    public static TxnConfig defaults() {
        return new TxnConfig(Map.of());
    }

    /**
     * Reads {@code gtran.txn.*} keys; other keys are ignored, so a whole node configuration can be
     * passed. Values may be typed or strings.
     *
     * @throws IllegalArgumentException naming the key and value that is unknown, malformed or out of range
     */
    public static TxnConfig from(Map<String, ?> settings) {
        return new TxnConfig(settings);
    }

    /** Every key with the value in force, defaults included. */
    public Map<String, Object> effective() {
        return effective;
    }

    public boolean gcEnabled() {
        return gc;
    }

    @Override
    public String toString() {
        return "TxnConfig" + effective;
    }
}
