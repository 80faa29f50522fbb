package io.gtran.txn.durable;

import java.util.concurrent.CompletionException;

/** {@code gtran.durability=sync}: a commit returns once its record is flushed to disk. */
public final class SyncCommitLog extends LoggingCommitLog {
    public SyncCommitLog(PartitionLog log) {
        super(log);
    }

    @Override
    public void commit(RedoRecord.Commit record) {
        try {
            append(record).join();
        } catch (CompletionException e) {
            throw notLogged(record, e.getCause() != null ? e.getCause() : e);
        }
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
