package io.gtran.txn.durable;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** What the two settings that log ({@link SyncCommitLog}, {@link AsyncCommitLog}) share: the log and its reports. */
abstract class LoggingCommitLog implements CommitLog {
    final PartitionLog log;
    /** The index definitions logged, by kind and key: what a snapshot writes. Guarded by itself. */
    private final Map<String, RedoRecord.IndexDefinition> indexes = new LinkedHashMap<>();
    /** The log's last index when the newest snapshot was marked, or when the log opened. */
    private volatile long snapshotBase;

    LoggingCommitLog(PartitionLog log) {
        this.log = log;
        this.snapshotBase = Math.max(log.snapshotIndex(), log.lastIndex());
    }

    /** The index definitions the replayed log named: a snapshot taken before any change writes them. */
    final void restoredIndexes(List<RedoRecord.IndexDefinition> restored) {
        synchronized (indexes) {
            restored.forEach(change -> change.applyTo(indexes));
        }
    }

    @Override
    public final Optional<SnapshotTaker.Taken> snapshot(GraphCut cut) {
        try {
            Optional<SnapshotTaker.Taken> taken = log.snapshot(sink -> {
                List<RedoRecord.IndexDefinition> now;
                synchronized (indexes) { // after the mark: every change logged before it is here
                    now = List.copyOf(indexes.values());
                }
                return cut.write(sink, now);
            });
            taken.ifPresent(t -> snapshotBase = t.index());
            return taken;
        } catch (java.io.IOException e) {
            throw new LogWriteException("the snapshot could not be written: " + e.getMessage(), e);
        }
    }

    @Override
    public final void vote(RedoRecord.Vote vote) {
        awaitDurable(vote.encode(), "the vote of txn " + vote.txn() + " (" + vote.ops().size() + " changes)");
    }

    @Override
    public final CompletableFuture<Void> decision(RedoRecord.Decision decision) {
        String what = "the decision of txn " + decision.txn();
        CompletableFuture<Long> appended;
        try {
            appended = log.append(decision.encode());
        } catch (IllegalArgumentException | IllegalStateException e) {
            return CompletableFuture.failedFuture(notLogged(what, e));
        }
        return appended.handle((index, failure) -> {
            if (failure != null) {
                throw notLogged(what, unwrapped(failure));
            }
            return null;
        });
    }

    @Override
    public final void sequenceCeiling(long ceiling) {
        awaitDurable(new RedoRecord.SequenceCeiling(ceiling).encode(), "the transaction sequence ceiling " + ceiling);
    }

    @Override
    public final void released(long txn) {
        try {
            log.append(new RedoRecord.Released(txn).encode()); // lost in a crash: the decision is sent again, harmlessly
        } catch (IllegalArgumentException | IllegalStateException e) {
            // the log is closed or failed: the decision is sent again after a restart
        }
    }

    @Override
    public final long snapshotIndex() {
        return log.snapshotIndex();
    }

    @Override
    public final long snapshotTime() {
        return log.snapshotCut();
    }

    @Override
    public final long sinceSnapshot() {
        return Math.max(0, log.lastIndex() - snapshotBase);
    }

    @Override
    public final boolean logs() {
        return true;
    }

    @Override
    public final void indexChanged(RedoRecord.IndexDefinition change) {
        synchronized (indexes) { // a snapshot reads them between the append and the change: not here
            awaitDurable(change.encode(), "the index change " + change);
            change.applyTo(indexes);
        }
    }

    @Override
    public final long lastIndex() {
        return log.lastIndex();
    }

    @Override
    public final long durableIndex() {
        return log.durableIndex();
    }

    @Override
    public final String describe() {
        return "durability=" + mode() + " " + log.describe() + ", snapshot time " + snapshotTime();
    }

    /** Hands the record to the log; what the caller then waits for is the setting's. */
    final CompletableFuture<Long> append(RedoRecord.Commit record) {
        try {
            return log.append(record.encode());
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw notLogged(named(record), e);
        }
    }

    /** Appends {@code bytes} and returns once they are on disk; {@code what} names them in the error. */
    final void awaitDurable(byte[] bytes, String what) {
        try {
            log.append(bytes).join();
        } catch (CompletionException | IllegalArgumentException | IllegalStateException e) {
            throw notLogged(what, unwrapped(e));
        }
    }

    /** The cause a {@link CompletionException} wraps, or {@code e} itself. */
    private static Throwable unwrapped(Throwable e) {
        return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    }

    static String named(RedoRecord.Commit record) {
        return "the commit record (" + record.ops().size() + " changes)";
    }

    static LogWriteException notLogged(String what, Throwable cause) {
        return new LogWriteException(what + " could not be logged: " + cause.getMessage(), cause);
    }
}
