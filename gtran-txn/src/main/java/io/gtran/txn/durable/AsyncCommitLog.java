package io.gtran.txn.durable;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code gtran.durability=async}: a commit returns once its record is handed to the log, before
 * it is flushed. A crash loses the newest commits, never one from the middle (the log keeps a
 * prefix). Once an append has failed, every later commit fails with that cause: the commits
 * after a lost record must not be answered as if they would survive.
 */
public final class AsyncCommitLog extends LoggingCommitLog {
    /** How long a close waits for the appended records to become durable. */
    static final long CLOSE_WAIT_MS = 30_000;

    private final AtomicReference<Throwable> failed = new AtomicReference<>();

    public AsyncCommitLog(PartitionLog log) {
        super(log);
    }

    @Override
    public void commit(RedoRecord.Commit record) {
        Throwable earlier = failed.get();
        if (earlier != null) {
            throw new LogWriteException("the log failed earlier, so no commit is answered: " + earlier.getMessage(), earlier);
        }
        append(record).whenComplete((index, failure) -> {
            if (failure != null) {
                failed.compareAndSet(null, failure);
            }
        });
    }

    @Override
    public String mode() {
        return "async";
    }

    /** Waits (up to {@link #CLOSE_WAIT_MS}) until what was appended is durable, then closes: a clean stop loses nothing. */
    @Override
    public void close() {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_WAIT_MS);
        while (failed.get() == null && log.durableIndex() < log.lastIndex() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(1_000_000);
        }
        log.close();
    }
}
