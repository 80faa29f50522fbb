package io.gtran.txn.durable;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.SnapshotInfo;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state machine of a {@link PartitionLog}: while the log opens, it hands each committed
 * entry's bytes to the replay, in log order, on Ratis' state machine updater thread (one thread);
 * after that it only keeps the applied index, since whoever appended a record has applied it
 * already. It also passes on Ratis' report that the log failed (a write or flush that threw).
 *
 * <p>Snapshots (docs/durability.md, "Snapshots"): {@code initialize}, which Ratis calls once the
 * storage is locked and before it reads the log, deletes a snapshot a crash cut short and hands
 * the newest published one's records to the replay, so Ratis replays only the entries after it.
 * The owner writes a snapshot on its own thread ({@link PartitionLog#snapshot}); {@code
 * takeSnapshot}, which Ratis calls on its updater thread when asked, only names it, and Ratis then
 * purges the log behind it.
 */
final class PartitionStateMachine extends BaseStateMachine {
    /** This class's logger: the name LOG alone would be StateMachine's, which it inherits. */
    private static final Logger APPLY_LOG = LoggerFactory.getLogger(PartitionStateMachine.class);

    /** The first replay that threw: the entry's log index and the exception. */
    record ReplayFailure(long index, Throwable cause) {
    }

    /** A published snapshot: the log index and term it covers, and its cut. */
    record Snapshot(Path file, long index, long term, long cut, long records) {
    }

    private final Path directory;
    private final String identity;
    private final SnapshotDirectory snapshots;
    /** The replay while the log opens; null once it is open (entries are then only counted as applied). */
    private volatile LogReplay replay;
    /** The newest snapshot Ratis knows of (it purged the log behind it, or may). */
    private volatile Snapshot latest;
    /** A snapshot published and not yet named to Ratis. */
    private volatile Snapshot published;
    private volatile ReplayFailure replayFailure;
    private volatile long replayed;
    private volatile Consumer<Throwable> onLogFailed = failure -> { };

    PartitionStateMachine(Path directory, String identity, LogReplay replay) {
        this.directory = directory;
        this.identity = identity;
        this.snapshots = new SnapshotDirectory(directory);
        this.replay = replay;
    }

    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage storage) throws IOException {
        super.initialize(server, groupId, storage);
        snapshots.deleteUnfinished();
        Path file = snapshots.latest().orElse(null);
        if (file == null) {
            return;
        }
        LogReplay replaying = replay;
        SnapshotFile.Trailer trailer;
        try {
            trailer = SnapshotFile.read(file, identity, replaying::record);
            replaying.snapshotRead(trailer.cut());
        } catch (RuntimeException e) {
            replayFailure = new ReplayFailure(RaftLog.INVALID_LOG_INDEX, e);
            throw new IOException("the snapshot " + file + " does not restore: " + e.getMessage(), e);
        }
        if (trailer.index() != SnapshotDirectory.indexOf(file)) {
            throw new IOException("the snapshot " + file + " says it covers the log up to index " + trailer.index());
        }
        replayed += trailer.records();
        latest = new Snapshot(file, trailer.index(), trailer.term(), trailer.cut(), trailer.records());
        updateLastAppliedTermIndex(trailer.term(), trailer.index());
        APPLY_LOG.info("partition log {}: read the snapshot {} ({} records, log index {}, cut {})", directory, file,
                trailer.records(), trailer.index(), trailer.cut());
    }

    @Override
    public SnapshotInfo getLatestSnapshot() {
        Snapshot s = latest;
        return s == null ? null : new SingleFileSnapshotInfo(new FileInfo(s.file(), null), TermIndex.valueOf(s.term(), s.index()));
    }

    /** Ratis asks, on its updater thread, once {@link PartitionLog#snapshot} requested it: the published snapshot. */
    @Override
    public long takeSnapshot() {
        Snapshot next = published;
        if (next != null) {
            latest = next;
            published = null;
        }
        Snapshot s = latest;
        return s == null ? RaftLog.INVALID_LOG_INDEX : s.index();
    }

    SnapshotDirectory snapshots() {
        return snapshots;
    }

    String identity() {
        return identity;
    }

    /** Records a snapshot just published, for the next {@link #takeSnapshot}. */
    void published(Snapshot snapshot) {
        published = snapshot;
    }

    /** The newest snapshot Ratis knows of, or null. */
    Snapshot latest() {
        return latest;
    }

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext transaction) {
        LogEntryProto entry = transaction.getLogEntry();
        LogReplay replaying = replay;
        if (replaying != null && replayFailure == null) {
            replayEntry(replaying, entry); // catches what the replay throws
        }
        updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
        return CompletableFuture.completedFuture(Message.EMPTY);
    }

    private void replayEntry(LogReplay replaying, LogEntryProto entry) {
        byte[] record = entry.getStateMachineLogEntry().getLogData().toByteArray();
        try {
            replaying.record(record);
            replayed++; // one writer: the updater thread
        } catch (RuntimeException | Error e) {
            // The entries after it are not replayed: the open fails with this one's index.
            replayFailure = new ReplayFailure(entry.getIndex(), e);
            APPLY_LOG.error("partition log {}: replaying the record at log index {} failed; the log does not open",
                    directory, entry.getIndex(), e);
        }
    }

    @Override
    public void notifyLogFailed(Throwable cause, LogEntryProto failedEntry) {
        onLogFailed.accept(cause);
    }

    /** Ends the replay: entries applied from now on are only counted. */
    void endReplay() {
        replay = null;
    }

    /** The first replay that threw, or null. */
    ReplayFailure replayFailure() {
        return replayFailure;
    }

    /** How many records were handed to the replay. */
    long replayed() {
        return replayed;
    }

    /** Where Ratis' report of a failed log write goes (a write or flush threw, e.g. a full disk). */
    void onLogFailed(Consumer<Throwable> listener) {
        this.onLogFailed = listener;
    }
}
