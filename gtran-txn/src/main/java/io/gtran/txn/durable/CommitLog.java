package io.gtran.txn.durable;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

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

    /**
     * Logs this node's part of a cross-node transaction and returns once it is on disk, in either
     * logging setting: a vote is a promise that outlives the process (docs/durability.md, "Nodes of
     * a cluster").
     *
     * @throws LogWriteException naming the log and the cause if it could not be logged: the vote
     *     must not be given
     */
    void vote(RedoRecord.Vote vote);

    /**
     * Logs the decision of a transaction this node logged a Vote for; the future completes once
     * it is on disk (exceptionally with a {@link LogWriteException} if it could not be logged).
     */
    CompletableFuture<Void> decision(RedoRecord.Decision decision);

    /**
     * Logs a member's transaction sequence ceiling ({@link RedoRecord.SequenceCeiling}) and returns
     * once it is on disk, in either logging setting.
     *
     * @throws LogWriteException naming the log and the cause if it could not be logged: no sequence
     *     at or above the last logged ceiling may be handed out
     */
    void sequenceCeiling(long ceiling);

    /** Logs that every participant acknowledged the decision of {@code txn}, which this node coordinated; waits for nothing. */
    void released(long txn);

    /** The setting's name: sync, async or none. */
    String mode();

    /**
     * Logs that a property index was made ready or dropped, returning once it is on disk (in
     * either logging setting: index changes are rare).
     *
     * @throws LogWriteException naming the log and the cause if it could not be logged
     */
    void indexChanged(RedoRecord.IndexDefinition change);

    /**
     * Takes a snapshot (docs/durability.md, "Snapshots"): {@code cut} writes the graph as a read
     * begun after the log's mark sees it, with the index definitions logged before the mark.
     *
     * @return the snapshot, or empty if nothing was logged since the last one
     * @throws IllegalStateException if nothing is logged (no directory, or durability=none)
     * @throws LogWriteException naming the file and the cause if it could not be written
     */
    Optional<SnapshotTaker.Taken> snapshot(GraphCut cut);

    /** The log index the newest snapshot covers; -1 if there is none. */
    long snapshotIndex();

    /** The newest snapshot's timestamp; -1 if there is none. */
    long snapshotTime();

    /** Records logged since the newest snapshot, or since the log opened if there is none; 0 without a log. */
    long sinceSnapshot();

    /** Writes a graph into a snapshot: see {@link CommitLog#snapshot}. */
    @FunctionalInterface
    interface GraphCut {
        /** Writes the records and returns the read's timestamp, the snapshot's cut. */
        long write(SnapshotTaker.Sink sink, List<RedoRecord.IndexDefinition> indexes) throws java.io.IOException;
    }

    /** The index of the last record appended; -1 without a log. */
    long lastIndex();

    /** The index of the last record on disk; -1 without a log. */
    long durableIndex();

    /** One line for a status report: mode, log position. */
    String describe();

    @Override
    void close();
}
