package io.gtran.txn.durable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.SnapshotManagementRequest;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes the snapshots of one {@link PartitionLog}, one at a time (docs/durability.md, "Snapshots",
 * steps 1 to 5): marks the log, has the owner write its records, publishes the file, and asks
 * Ratis to take it, which purges the log behind it.
 */
public final class SnapshotTaker {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotTaker.class);
    /** How long Ratis may take to name the snapshot and purge behind it. */
    private static final long RATIS_TIMEOUT_MS = 60_000;

    /** What a snapshot holds: the owner's records, written once the log is marked. */
    @FunctionalInterface
    public interface Body {
        /**
         * Writes the records of the state as of a cut taken now (after the mark) and returns the
         * cut, which the replay receives ({@link LogReplay#snapshotRead}).
         */
        long write(Sink sink) throws IOException;
    }

    /** Where a {@link Body} writes its records. */
    @FunctionalInterface
    public interface Sink {
        void record(byte[] bytes) throws IOException;
    }

    /** A snapshot taken: the file, the log index and term it covers, its cut, its size, and how long it took. */
    public record Taken(Path file, long index, long term, long cut, long records, long bytes, long millis) {
    }

    private final Path directory;
    private final RaftServer server;
    private final RaftServer.Division division;
    private final PartitionStateMachine stateMachine;
    private final ClientId clientId;
    private final AtomicLong callIds;

    SnapshotTaker(Path directory, RaftServer server, RaftServer.Division division, PartitionStateMachine stateMachine,
            ClientId clientId, AtomicLong callIds) {
        this.directory = directory;
        this.server = server;
        this.division = division;
        this.stateMachine = stateMachine;
        this.clientId = clientId;
        this.callIds = callIds;
    }

    /**
     * Takes a snapshot, unless the log has no entry since the last one.
     *
     * @throws IOException naming the file if it could not be written (nothing is published then)
     */
    synchronized Optional<Taken> take(Body body) throws IOException {
        long started = System.nanoTime();
        RaftLog log = division.getRaftLog();
        // Step 1, the mark: every entry below the next index was appended before this line.
        long covered = log.getNextIndex() - 1;
        PartitionStateMachine.Snapshot latest = stateMachine.latest();
        if (covered < 0 || latest != null && covered <= latest.index()) {
            return Optional.empty();
        }
        TermIndex at = log.getTermIndex(covered);
        if (at == null) {
            throw new IOException("partition log " + directory + ": no term known for log index " + covered);
        }
        SnapshotDirectory snapshots = stateMachine.snapshots();
        Path temporary = snapshots.temporary(covered);
        long cut;
        long records;
        long bytes;
        try (SnapshotFile.Writer writer = new SnapshotFile.Writer(temporary, stateMachine.identity())) {
            cut = body.write(writer::record); // steps 2 and 3
            writer.finish(covered, at.getTerm(), cut);
            records = writer.records();
            bytes = writer.recordBytes();
        } catch (IOException | RuntimeException | Error e) {
            Files.deleteIfExists(temporary);
            throw e;
        }
        Path file = snapshots.publish(temporary, covered); // step 4
        stateMachine.published(new PartitionStateMachine.Snapshot(file, covered, at.getTerm(), cut, records));
        purgeBehind(covered); // step 5
        snapshots.deleteOlderThan(covered);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        LOG.info("partition log {}: snapshot {} covers the log up to index {} ({} records, {} bytes, cut {}) in {} ms",
                directory, file, covered, records, bytes, cut, millis);
        return Optional.of(new Taken(file, covered, at.getTerm(), cut, records, bytes, millis));
    }

    /**
     * Asks Ratis to take the published snapshot once its index is applied; Ratis then purges the
     * closed segments behind it. A failure here leaves the snapshot published and the log whole:
     * the next snapshot purges.
     */
    private void purgeBehind(long index) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RATIS_TIMEOUT_MS);
        while (division.getInfo().getLastAppliedIndex() < index) {
            if (System.nanoTime() > deadline || !division.getInfo().isAlive()) {
                LOG.warn("partition log {}: log index {} not applied; the log is not purged behind the snapshot", directory, index);
                return;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        try {
            RaftClientReply reply = server.snapshotManagement(SnapshotManagementRequest.newCreate(clientId,
                    PartitionLog.PEER_ID, PartitionLog.GROUP_ID, callIds.incrementAndGet(), RATIS_TIMEOUT_MS, 1));
            if (!reply.isSuccess()) {
                LOG.warn("partition log {}: Ratis did not take the snapshot at index {} ({}); the log is not purged behind it",
                        directory, index, reply.getException());
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("partition log {}: Ratis did not take the snapshot at index {} ({}); the log is not purged behind it",
                    directory, index, e.toString());
        }
    }
}
