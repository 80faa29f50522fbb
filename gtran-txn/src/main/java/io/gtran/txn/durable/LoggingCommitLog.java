package io.gtran.txn.durable;

/** What the two settings that log ({@link SyncCommitLog}, {@link AsyncCommitLog}) share: the log and its reports. */
abstract class LoggingCommitLog implements CommitLog {
    final PartitionLog log;

    LoggingCommitLog(PartitionLog log) {
        this.log = log;
    }

    @Override
    public final boolean logs() {
        return true;
    }

    @Override
    public final void indexChanged(RedoRecord.IndexDefinition change) {
        try {
            log.append(change.encode()).join();
        } catch (java.util.concurrent.CompletionException | IllegalArgumentException | IllegalStateException e) {
            Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
            throw new LogWriteException("the index change " + change + " could not be logged: " + cause.getMessage(), cause);
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
        return "durability=" + mode() + " " + log.describe();
    }

    /** Hands the record to the log; what the caller then waits for is the setting's. */
    final java.util.concurrent.CompletableFuture<Long> append(RedoRecord.Commit record) {
        try {
            return log.append(record.encode());
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw notLogged(record, e);
        }
    }

    static LogWriteException notLogged(RedoRecord.Commit record, Throwable cause) {
        return new LogWriteException("the commit record (" + record.ops().size() + " changes) could not be logged: "
                + cause.getMessage(), cause);
    }
}
