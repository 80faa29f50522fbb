package io.gtran.txn.durable;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state machine of a {@link PartitionLog}: while the log opens, it hands each committed
 * entry's bytes to the replay, in log order, on Ratis' state machine updater thread (one thread);
 * after that it only keeps the applied index, since whoever appended a record has applied it
 * already. It also passes on Ratis' report that the log failed (a write or flush that threw).
 *
 * <p>Snapshots, when they come, go here: {@code takeSnapshot} would write the owner's state as
 * of the applied index and {@code initialize} would load the latest one, so that the replay
 * starts after it and Ratis may purge the log behind it. Until then the replay starts at the
 * first entry and nothing is purged.
 */
final class PartitionStateMachine extends BaseStateMachine {
    /** This class's logger: the name LOG alone would be StateMachine's, which it inherits. */
    private static final Logger APPLY_LOG = LoggerFactory.getLogger(PartitionStateMachine.class);

    /** The first replay that threw: the entry's log index and the exception. */
    record ReplayFailure(long index, Throwable cause) {
    }

    private final Path directory;
    /** The replay while the log opens; null once it is open (entries are then only counted as applied). */
    private volatile Consumer<byte[]> replay;
    private volatile ReplayFailure replayFailure;
    private volatile long replayed;
    private volatile Consumer<Throwable> onLogFailed = failure -> { };

    PartitionStateMachine(Path directory, Consumer<byte[]> replay) {
        this.directory = directory;
        this.replay = replay;
    }

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext transaction) {
        LogEntryProto entry = transaction.getLogEntry();
        Consumer<byte[]> replaying = replay;
        if (replaying != null && replayFailure == null) {
            replayEntry(replaying, entry); // catches what the replay throws
        }
        updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
        return CompletableFuture.completedFuture(Message.EMPTY);
    }

    private void replayEntry(Consumer<byte[]> replaying, LogEntryProto entry) {
        byte[] record = entry.getStateMachineLogEntry().getLogData().toByteArray();
        try {
            replaying.accept(record);
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
