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
        awaitDurable(change.encode(), "the index change " + change);
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
            throw notLogged(named(record), e);
        }
    }

    /** Appends {@code bytes} and returns once they are on disk; {@code what} names them in the error. */
    final void awaitDurable(byte[] bytes, String what) {
        try {
            log.append(bytes).join();
        } catch (java.util.concurrent.CompletionException | IllegalArgumentException | IllegalStateException e) {
            throw notLogged(what, e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e);
        }
    }

    static String named(RedoRecord.Commit record) {
        return "the commit record (" + record.ops().size() + " changes)";
    }

    private static LogWriteException notLogged(String what, Throwable cause) {
        return new LogWriteException(what + " could not be logged: " + cause.getMessage(), cause);
    }
}
