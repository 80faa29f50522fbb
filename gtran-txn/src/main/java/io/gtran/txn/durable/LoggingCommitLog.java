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
