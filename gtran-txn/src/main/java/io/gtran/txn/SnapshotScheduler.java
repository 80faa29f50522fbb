package io.gtran.txn;

import io.gtran.txn.agent.Agent;
import io.gtran.txn.agent.AgentHandle;
import io.gtran.txn.agent.AgentHost;
import io.gtran.txn.common.TransactionConflictException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a snapshot once {@code gtran.durability.snapshot-records} records were logged since the
 * last one (docs/durability.md, "Snapshots"). The agent only decides; the snapshot runs on a
 * thread of its own, one at a time. A snapshot that failed is tried again a while later; one
 * whose read met a writer that then aborted, at the next check.
 */
final class SnapshotScheduler implements Agent, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotScheduler.class);
    static final long CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    static final long RETRY_AFTER_FAILURE_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final TransactionEngine engine;
    private final long records;
    private final ExecutorService writer;
    private final AtomicBoolean running = new AtomicBoolean();
    private volatile boolean failed;
    private long retryAt = Long.MIN_VALUE;
    private AgentHandle handle;

    SnapshotScheduler(TransactionEngine engine, long records) {
        this.engine = engine;
        this.records = records;
        this.writer = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "gtran-snapshot-" + engine.store().nodeId());
            t.setDaemon(true);
            return t;
        });
    }

    void start(AgentHost host) {
        handle = host.start(this);
    }

    @Override
    public long doWork(long nowNanos) {
        if (failed) {
            failed = false;
            retryAt = nowNanos + RETRY_AFTER_FAILURE_NANOS;
        }
        if (nowNanos >= retryAt && engine.commitLog().sinceSnapshot() >= records && running.compareAndSet(false, true)) {
            writer.execute(this::take);
        }
        return nowNanos + CHECK_NANOS;
    }

    private void take() {
        try {
            engine.snapshot();
        } catch (TransactionConflictException e) {
            LOG.info("node {}: the snapshot read a writer that then aborted ({}); taking it again", engine.store().nodeId(), e.getMessage());
        } catch (RuntimeException e) {
            LOG.warn("node {}: the snapshot failed; trying again in {} s: {}", engine.store().nodeId(),
                    TimeUnit.NANOSECONDS.toSeconds(RETRY_AFTER_FAILURE_NANOS), e.toString());
            failed = true;
        } finally {
            running.set(false);
        }
    }

    @Override
    public String roleName() {
        return "snapshot-" + engine.store().nodeId();
    }

    /** Stops deciding and waits a while for a snapshot being written (a file cut short is deleted at the next start). */
    @Override
    public void close() {
        if (handle != null) {
            handle.close();
        }
        writer.shutdown();
        try {
            if (!writer.awaitTermination(30, TimeUnit.SECONDS)) {
                LOG.warn("node {}: a snapshot still runs at close; it will not be published", engine.store().nodeId());
                writer.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            writer.shutdownNow();
        }
    }
}
