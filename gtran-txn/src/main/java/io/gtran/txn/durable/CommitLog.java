package io.gtran.txn.durable;

/**
 * Where a node's commits are logged, and when a commit may be answered ({@code gtran.durability},
 * docs/durability.md): one class per setting.
 */
public interface CommitLog extends AutoCloseable {
    /** Whether commits are logged at all; if not, callers need not build records. */
    boolean logs();

    /**
     * Logs a commit record, returning once it is as durable as this setting promises. Log order
     * follows call order: a record whose call returned is before every record logged later.
     *
     * @throws LogWriteException naming the log and the cause if the record could not be logged;
     *     the caller must not commit the transaction
     */
    void commit(RedoRecord.Commit record);

    /** The setting's name: sync, async or none. */
    String mode();

    /**
     * Logs that a property index was made ready or dropped, returning once it is on disk (in
     * either logging setting: index changes are rare).
     *
     * @throws LogWriteException naming the log and the cause if it could not be logged
     */
    void indexChanged(RedoRecord.IndexDefinition change);

    /** The index of the last record appended; -1 without a log. */
    long lastIndex();

    /** The index of the last record on disk; -1 without a log. */
    long durableIndex();

    /** One line for a status report: mode, log position. */
    String describe();

    @Override
    void close();
}
