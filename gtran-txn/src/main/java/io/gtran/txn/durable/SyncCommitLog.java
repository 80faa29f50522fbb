package io.gtran.txn.durable;

/** {@code gtran.durability=sync}: a commit returns once its record is flushed to disk. */
public final class SyncCommitLog extends LoggingCommitLog {
    public SyncCommitLog(PartitionLog log) {
        super(log);
    }

    @Override
    public void commit(RedoRecord.Commit record) {
        awaitDurable(record.encode(), named(record));
    }

    @Override
    public String mode() {
        return "sync";
    }

    @Override
    public void close() {
        log.close();
    }
}
