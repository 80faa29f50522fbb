package io.gtran.txn.durable;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.netty.NettyConfigKeys;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientAsynchronousProtocol;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's write-ahead log: an Apache Ratis Raft group of one replica (three in a later step)
 * whose entries are opaque records. {@link #open} replays every record into the caller, in log
 * order, before it returns; {@link #append} adds one and completes once it is durable.
 *
 * <p>What it promises:
 * <ul>
 *   <li><b>Order.</b> If {@code append(a)} returned before {@code append(b)} was called (on any
 *       threads), a's log index is smaller than b's, and the replay hands a over first. Ratis gives
 *       this: {@code RaftServerImpl.submitClientRequestAsync} (the division, called in-process)
 *       assigns the log index in the calling thread before it returns ({@code appendTransaction}:
 *       {@code ServerState.appendLog} under the division's monitor, {@code RaftLogBase.append}
 *       under the log's write lock), and this class adds no hand-off before it.
 *       {@code PartitionLogOrderTest} checks it, so a Ratis upgrade that moved it to another
 *       thread would fail there. Appends racing with each other get some order, the same in the log
 *       and in the replay.
 *   <li><b>Durability at completion.</b> An append's future completes with the record's log index
 *       once the entry is committed, which for one replica means written to the segment file and
 *       forced to disk ({@code FileChannel.force}; unsafe and asynchronous flush are off). Appends
 *       in flight together share one force (Ratis' log worker writes what is queued, then forces,
 *       at most {@code raft.server.log.force.sync.num} entries a time).
 *   <li><b>A torn tail is cut.</b> A process killed while an entry was being written leaves a
 *       partial or corrupt last entry; {@link #open} keeps the whole entries before it (Ratis'
 *       corruption policy WARN_AND_RETURN) and logs a WARN line naming the segment file, the bytes
 *       cut and the entries kept. Such an entry's append never completed.
 *   <li><b>Back-pressure, not refusal.</b> A burst of appends is never refused for its size: at
 *       most 8192 units ({@code IN_FLIGHT_UNITS}; a record costs one unit per started 32 KiB) are in
 *       flight; {@link #append} waits for room beyond that, and Ratis' own limits
 *       ({@code raft.server.write.element-limit} and {@code byte-limit}, the log worker's queue) are
 *       set above it.
 * </ul>
 *
 * <p>Threads: {@link #append} may be called from any thread; it blocks only while the log is full
 * (above). Its future completes on a Ratis thread (the state machine updater), so what depends on
 * it must be short and must not wait for this log. The replay runs on the updater thread too, one
 * record at a time, while {@link #open} waits for it. {@link #close} may be called from any
 * thread, more than once. Ratis runs its own threads per log (log worker, updater, leader event
 * processor, Netty); the Netty server listens on 127.0.0.1 at an ephemeral port, for nobody yet.
 *
 * <p>What it does not promise: that a failed append is absent (it may have been written before
 * the failure, as one pending at {@link #close} may have been: the next open replays it); log
 * indexes without gaps (Ratis' own entries, such as the configuration entry it writes at each
 * start, take indexes too); the entries after a corrupt one in the open segment (Ratis keeps what
 * precedes the first entry that does not read; the WARN line says how many bytes went); opening
 * on a corrupt closed segment, which no crash leaves (open fails naming the file and leaves it as
 * it is: Ratis would cut it, then fail); a purge right behind every snapshot (Ratis deletes whole
 * closed segments only); use after the log failed (a write or flush that threw fails every
 * later append: reopen after fixing the cause); more than one log per JVM without noise (each has
 * the same group and peer id, so Ratis logs an ERROR when it cannot register the second one's JMX
 * bean, harmless).
 */
public final class PartitionLog implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionLog.class);

    /** The longest record {@link #append} takes, in bytes. */
    public static final int MAX_RECORD_BYTES = 64 << 20;
    /** What Ratis' entry adds to the record (term, index, client and call ids, framing), with room to spare. */
    private static final int ENTRY_OVERHEAD_BYTES = 4 << 10;
    /** The longest entry Ratis takes or reads: a record of {@link #MAX_RECORD_BYTES} and its entry's overhead. */
    static final SizeInBytes ENTRY_LIMIT = SizeInBytes.valueOf(MAX_RECORD_BYTES + ENTRY_OVERHEAD_BYTES);
    /**
     * A segment file is closed and a new one begun past this size; a snapshot lets Ratis delete
     * the closed segments behind it, so the log on disk stays within a segment or so of the
     * snapshot. A record longer than this goes into the open segment whole (Ratis'
     * {@code isSegmentFull}).
     */
    private static final long SEGMENT_BYTES = 16L << 20;

    /** Room for appends in flight, in units: one per started {@link #UNIT_BYTES} of a record, at least one. */
    static final int IN_FLIGHT_UNITS = 8192;
    private static final int UNIT_BYTES = 32 << 10;
    /**
     * Group commit: Ratis' log worker writes the entries queued, then forces the file once for all
     * of them, or after this many (Ratis' default), so the first of a long burst waits for no more.
     */
    private static final int FORCE_SYNC_ENTRIES = 128;
    /** Ratis' limits on requests pending and entries queued for its log worker: well above what may be in flight. */
    private static final int RATIS_ELEMENT_LIMIT = 4 * IN_FLIGHT_UNITS;
    private static final SizeInBytes RATIS_BYTE_LIMIT = SizeInBytes.valueOf(2L * IN_FLIGHT_UNITS * UNIT_BYTES
            + 4L * (MAX_RECORD_BYTES + ENTRY_OVERHEAD_BYTES));

    /**
     * Elections: one replica elects itself as soon as its election timeout passes, so the first
     * timeout (at open) is short. The later ones matter only if the leader stepped down; they keep
     * Ratis' defaults.
     */
    private static final TimeDuration FIRST_ELECTION_MIN = TimeDuration.valueOf(5, TimeUnit.MILLISECONDS);
    private static final TimeDuration FIRST_ELECTION_MAX = TimeDuration.valueOf(10, TimeUnit.MILLISECONDS);
    private static final TimeDuration ELECTION_MIN = TimeDuration.valueOf(150, TimeUnit.MILLISECONDS);
    private static final TimeDuration ELECTION_MAX = TimeDuration.valueOf(300, TimeUnit.MILLISECONDS);
    /**
     * Ratis steps a leader down after a JVM pause of 10 s and closes the server after one of 60 s;
     * with one replica that only fails appends, so neither happens before a day.
     */
    private static final TimeDuration JVM_PAUSE_LIMIT = TimeDuration.valueOf(1, TimeUnit.DAYS);
    /** How long a retry of a request is recognised: never needed (each append is sent once), so short, to keep memory low. */
    private static final TimeDuration RETRY_CACHE_EXPIRY = TimeDuration.valueOf(1, TimeUnit.SECONDS);
    /** How long {@link #open} waits for the one replica to become leader before it gives up. */
    private static final long LEADER_WAIT_NANOS = TimeUnit.SECONDS.toNanos(30);

    /** The group of every partition log: derived from a fixed name (one group per node for now). */
    static final RaftGroupId GROUP_ID =
            RaftGroupId.valueOf(UUID.nameUUIDFromBytes("gtran-partition-log".getBytes(UTF_8)));
    static final RaftPeerId PEER_ID = RaftPeerId.valueOf("p0");
    /** Ratis' storage, under the data directory. */
    static final String RATIS_DIR = "ratis";
    /** The file Ratis locks in its group's storage ({@code RaftStorageDirectoryImpl}). */
    private static final String RATIS_LOCK_FILE = "in_use.lock";
    /** How long a close waits for Ratis to release its storage lock. */
    private static final long UNLOCK_WAIT_MILLIS = 5_000;

    /**
     * The directories (real paths) of the logs open in this JVM. Ratis' storage lock refuses other
     * processes; in this one a second lock of the file would throw, and the test of it could drop
     * the first (closing a file drops the process's POSIX locks on it), so it must not come to that.
     */
    private static final Set<Path> OPEN = ConcurrentHashMap.newKeySet();

    private final Path directory;
    /** This log's entry in {@link #OPEN}: the directory's real path. */
    private final Path key;
    private final RaftServer server;
    private final RaftServer.Division division;
    private final RaftClientAsynchronousProtocol submitter;
    private final ClientId clientId = ClientId.randomId();
    private final AtomicLong callIds = new AtomicLong();
    /** Fair, so that a large record waiting for room is not overtaken forever by small ones. */
    private final Semaphore inFlight = new Semaphore(IN_FLIGHT_UNITS, true);
    /** Appends not completed yet: failed by {@link #close} and when the log fails. */
    private final Set<CompletableFuture<Long>> pending = ConcurrentHashMap.newKeySet();

    private volatile boolean closed;
    /** Counted down once a close has released the directory. */
    private final CountDownLatch closeDone = new CountDownLatch(1);
    /** Set once Ratis reports that a log write or flush threw: every later append fails with it. */
    private volatile Throwable logFailure;
    private volatile long lastIndexAtClose = RaftLog.INVALID_LOG_INDEX;
    private volatile long durableIndexAtClose = RaftLog.INVALID_LOG_INDEX;

    private final PartitionStateMachine stateMachine;
    private final SnapshotTaker snapshots;

    private PartitionLog(Path directory, Path key, RaftServer server, RaftServer.Division division,
            PartitionStateMachine stateMachine) {
        this.directory = directory;
        this.key = key;
        this.server = server;
        this.division = division;
        this.submitter = (RaftClientAsynchronousProtocol) division;
        this.stateMachine = stateMachine;
        this.snapshots = new SnapshotTaker(directory, server, division, stateMachine, clientId, callIds);
        stateMachine.onLogFailed(this::logFailed);
    }

    /**
     * Opens the log in {@code directory}, replays it and returns it, ready for appends.
     *
     * <ol>
     *   <li>The directory is created if absent; its identity file must hold {@code identity}, or
     *       is written with it if the directory is empty.
     *   <li>Ratis' server starts on the storage under {@code directory/ratis}, reading its segments
     *       and cutting a torn tail (logged at WARN).
     *   <li>The newest snapshot's records, if there is one, are handed to {@code replay}, then
     *       its cut ({@link LogReplay#snapshotRead}); a snapshot a crash cut short is deleted.
     *   <li>Once the one replica is leader and has applied the entries it found, every record
     *       after the snapshot has been handed to {@code replay}, once, in log order, on one thread
     *       (none on a new directory); then this returns.
     * </ol>
     *
     * @param directory the node's data directory
     * @param identity whose directory it is, one line, such as {@code cluster=abc node=0}
     * @param replay takes each record of the snapshot and the log; what it throws makes the open fail
     * @throws IllegalArgumentException if {@code identity} is blank or spans lines
     * @throws IllegalStateException naming the directory and the reason if the directory belongs to
     *     another identity or is not a gtran directory, is in use by an open log (in this or another
     *     process), cannot be read, or a replay threw (then naming the record's log index)
     */
    public static PartitionLog open(Path directory, String identity, LogReplay replay) {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(identity, "identity");
        Objects.requireNonNull(replay, "replay");
        Path absolute = directory.toAbsolutePath().normalize();
        Path key = DataDirectory.create(absolute);
        if (!OPEN.add(key)) {
            throw inUse(absolute, "a partition log open in this process has it", null);
        }
        try {
            DataDirectory.claim(absolute, identity);
            return start(absolute, key, identity, replay);
        } catch (RuntimeException | Error e) {
            OPEN.remove(key);
            throw e;
        }
    }

    private static PartitionLog start(Path directory, Path key, String identity, LogReplay replay) {
        long started = System.nanoTime();
        Path ratis = directory.resolve(RATIS_DIR);
        PartitionStateMachine stateMachine = new PartitionStateMachine(directory, identity, replay);
        RaftServer server = null;
        try {
            refuseIfLockedElsewhere(directory, lockFileOf(directory));
            SegmentTails before = SegmentTails.scan(ratis, ENTRY_LIMIT);
            server = RaftServer.newBuilder()
                    .setServerId(PEER_ID)
                    .setGroup(RaftGroup.valueOf(GROUP_ID, RaftPeer.newBuilder().setId(PEER_ID).build()))
                    .setStateMachine(stateMachine)
                    .setProperties(properties(ratis))
                    .setOption(Files.isDirectory(ratis.resolve(GROUP_ID.getUuid().toString()))
                            ? RaftStorage.StartupOption.RECOVER : RaftStorage.StartupOption.FORMAT)
                    .build();
            server.start();
            RaftServer.Division division = server.getDivision(GROUP_ID);
            if (!(division instanceof RaftClientAsynchronousProtocol)) {
                throw new IllegalStateException("partition log " + directory + ": this Ratis version's division ("
                        + division.getClass().getName() + ") takes no client requests in-process");
            }
            awaitReplay(directory, division, stateMachine);
            stateMachine.endReplay();
            for (String cut : before.cutsSince()) {
                LOG.warn("partition log {}: cut a torn or corrupt tail: {}", directory, cut);
            }
            PartitionLog log = new PartitionLog(directory, key, server, division, stateMachine);
            LOG.info("partition log {}: open in {} ms; replayed {} records, last index {}", directory,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), stateMachine.replayed(), log.lastIndex());
            return log;
        } catch (IOException | RuntimeException e) {
            closeQuietly(directory, server);
            if (isLockHeld(e)) {
                throw inUse(directory, "another process has it (Ratis' storage lock under " + ratis + " is held)", e);
            }
            if (e instanceof IllegalStateException) {
                throw (IllegalStateException) e;
            }
            throw new IllegalStateException("partition log " + directory + " cannot open: " + e, e);
        }
    }

    /**
     * Refuses at once a directory whose Ratis storage another process has locked: Ratis itself
     * would try five times, a second apart, before it gave up. (Only a quick test: the lock is
     * taken and released here, then taken by Ratis; a process that takes it between is refused by
     * Ratis, slowly.) This JVM's own logs are kept apart by {@link #OPEN}, before this.
     */
    private static void refuseIfLockedElsewhere(Path directory, Path lockFile) {
        StorageLock state;
        try {
            state = probe(lockFile);
        } catch (IOException e) {
            LOG.debug("partition log {}: cannot test the lock {} ({}); Ratis will", directory, lockFile, e.toString());
            return;
        }
        if (state == StorageLock.HELD_ELSEWHERE) {
            throw inUse(directory, "another process has it (it holds Ratis' storage lock " + lockFile + ")", null);
        }
        if (state == StorageLock.HELD_HERE) {
            throw inUse(directory, "a partition log open in this process has it", null);
        }
    }

    /** Who holds Ratis' storage lock: nobody (or no lock file yet), this JVM, or another process. */
    private enum StorageLock { FREE, HELD_HERE, HELD_ELSEWHERE }

    /** Takes and releases the lock at once to tell who holds it. */
    private static StorageLock probe(Path lockFile) throws IOException {
        if (!Files.exists(lockFile)) {
            return StorageLock.FREE;
        }
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                return StorageLock.HELD_ELSEWHERE;
            }
            lock.release();
            return StorageLock.FREE;
        } catch (OverlappingFileLockException e) {
            return StorageLock.HELD_HERE;
        }
    }

    /** The file Ratis locks in the log's group storage under {@code directory}. */
    private static Path lockFileOf(Path directory) {
        return directory.resolve(RATIS_DIR).resolve(GROUP_ID.getUuid().toString()).resolve(RATIS_LOCK_FILE);
    }

    /**
     * Waits, at most {@link #UNLOCK_WAIT_MILLIS}, until Ratis has released its storage lock: a close
     * on an interrupted thread (a pool shutting down) cuts Ratis' own wait short, and its division
     * then releases the lock a moment after the close returns. The interrupt is kept for the caller.
     */
    private static void awaitStorageUnlocked(Path directory) {
        Path lockFile = lockFileOf(directory);
        boolean interrupted = Thread.interrupted(); // an interrupted thread cannot open the lock file
        try {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(UNLOCK_WAIT_MILLIS);
            while (true) {
                try {
                    if (probe(lockFile) == StorageLock.FREE) {
                        return;
                    }
                } catch (IOException e) {
                    return; // nothing to wait for that this can see
                }
                if (System.nanoTime() > deadline) {
                    LOG.warn("partition log {}: Ratis still holds its storage lock {} ms after the close", directory,
                            UNLOCK_WAIT_MILLIS);
                    return;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Waits until the replica is leader and has applied every entry it found: the replay is then done. */
    private static void awaitReplay(Path directory, RaftServer.Division division, PartitionStateMachine stateMachine)
            throws InterruptedIOException {
        long deadline = System.nanoTime() + LEADER_WAIT_NANOS;
        while (true) {
            PartitionStateMachine.ReplayFailure failure = stateMachine.replayFailure();
            if (failure != null) {
                throw new IllegalStateException("partition log " + directory + ": replaying the record at log index "
                        + failure.index() + " failed: " + failure.cause(), failure.cause());
            }
            DivisionInfo info = division.getInfo();
            // Ready: the leader's first entry of its term is applied, so is every entry before it.
            if (info.isLeaderReady()) {
                return;
            }
            if (!info.isAlive()) {
                throw new IllegalStateException("partition log " + directory + ": Ratis stopped while the log opened ("
                        + info.getLifeCycleState() + ")");
            }
            // Not leader yet: an election is due within the first election timeout.
            if (!info.isLeader() && System.nanoTime() > deadline) {
                throw new IllegalStateException("partition log " + directory + ": the replica did not become leader within "
                        + TimeUnit.NANOSECONDS.toSeconds(LEADER_WAIT_NANOS) + " s (" + info.getCurrentRole() + ")");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedIOException("partition log " + directory + ": interrupted while it opened");
            }
        }
    }

    /** Ratis' settings for a partition log whose storage is {@code ratis}. */
    private static RaftProperties properties(Path ratis) {
        RaftProperties properties = new RaftProperties();
        RaftServerConfigKeys.setStorageDir(properties, List.of(ratis.toFile()));
        // Durable at completion: the log worker forces the file before an entry counts as flushed.
        RaftServerConfigKeys.Log.setUnsafeFlushEnabled(properties, false);
        RaftServerConfigKeys.Log.setAsyncFlushEnabled(properties, false);
        RaftServerConfigKeys.Log.setForceSyncNum(properties, FORCE_SYNC_ENTRIES);
        // A torn or corrupt tail is cut at the last whole entry rather than failing the start.
        RaftServerConfigKeys.Log.setCorruptionPolicy(properties, RaftServerConfigKeys.Log.CorruptionPolicy.WARN_AND_RETURN);
        // No commit-index entries: one replica commits what it flushed, and each would cost a write.
        RaftServerConfigKeys.Log.setLogMetadataEnabled(properties, false);
        // Snapshots only when the owner takes one (SnapshotTaker); the log is purged right behind it.
        RaftServerConfigKeys.Snapshot.setTriggerWhenStopEnabled(properties, false);
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(properties, false);
        RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(properties, true);
        RaftServerConfigKeys.Log.setPurgeGap(properties, 1);

        // The largest entry: Ratis refuses longer ones when appending and when reading a segment.
        RaftServerConfigKeys.Log.Appender.setBufferByteLimit(properties, ENTRY_LIMIT);
        RaftServerConfigKeys.Log.setWriteBufferSize(properties, SizeInBytes.valueOf(ENTRY_LIMIT.getSize() + 8));
        RaftServerConfigKeys.Log.setSegmentSizeMax(properties, SizeInBytes.valueOf(SEGMENT_BYTES));

        // Above what may be in flight (IN_FLIGHT_UNITS), so Ratis never refuses an append nor blocks in its queue.
        RaftServerConfigKeys.Write.setElementLimit(properties, RATIS_ELEMENT_LIMIT);
        RaftServerConfigKeys.Write.setByteLimit(properties, RATIS_BYTE_LIMIT);
        RaftServerConfigKeys.Log.setQueueElementLimit(properties, RATIS_ELEMENT_LIMIT);
        RaftServerConfigKeys.Log.setQueueByteLimit(properties, RATIS_BYTE_LIMIT);
        RaftServerConfigKeys.RetryCache.setExpiryTime(properties, RETRY_CACHE_EXPIRY);

        RaftServerConfigKeys.Rpc.setFirstElectionTimeoutMin(properties, FIRST_ELECTION_MIN);
        RaftServerConfigKeys.Rpc.setFirstElectionTimeoutMax(properties, FIRST_ELECTION_MAX);
        RaftServerConfigKeys.Rpc.setTimeoutMin(properties, ELECTION_MIN);
        RaftServerConfigKeys.Rpc.setTimeoutMax(properties, ELECTION_MAX);
        RaftServerConfigKeys.LeaderElection.setLeaderStepDownWaitTime(properties, JVM_PAUSE_LIMIT);
        RaftServerConfigKeys.setCloseThreshold(properties, JVM_PAUSE_LIMIT);
        // Nobody connects yet (appends are submitted in-process); Ratis' server needs a transport all the same.
        RaftConfigKeys.Rpc.setType(properties, SupportedRpcType.NETTY);
        NettyConfigKeys.Server.setHost(properties, "127.0.0.1");
        NettyConfigKeys.Server.setPort(properties, 0);
        return properties;
    }

    /**
     * Appends {@code record} (copied: the array may be reused once this returns). Waits while the
     * appends in flight fill the room for them (8192 units, a unit per started 32 KiB of a record).
     *
     * @return a future that completes with the record's log index once it is durable, or
     *     exceptionally, naming the directory and the cause, if the log is closed (or closes before
     *     then), has failed, or Ratis did not take the record
     * @throws IllegalArgumentException if the record is longer than {@link #MAX_RECORD_BYTES}
     */
    public CompletableFuture<Long> append(byte[] record) {
        Objects.requireNonNull(record, "record");
        if (record.length > MAX_RECORD_BYTES) {
            throw new IllegalArgumentException("partition log " + directory + ": record length=" + record.length
                    + " is above the largest a record may be, " + MAX_RECORD_BYTES + " bytes");
        }
        if (closed) {
            return CompletableFuture.failedFuture(closedError());
        }
        int units = units(record.length);
        try {
            inFlight.acquire(units);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return CompletableFuture.failedFuture(new InterruptedIOException("partition log " + directory
                    + ": interrupted while waiting for room to append"));
        }
        CompletableFuture<Long> result = new CompletableFuture<>();
        pending.add(result);
        // After the add: a close that began since either sees this future or is seen here.
        if (closed || logFailure != null) {
            inFlight.release(units);
            pending.remove(result);
            result.completeExceptionally(closed ? closedError() : failedError(logFailure));
            return result;
        }
        CompletableFuture<RaftClientReply> reply;
        try {
            reply = submitter.submitClientRequestAsync(request(record));
        } catch (IOException | RuntimeException e) {
            reply = CompletableFuture.failedFuture(e);
        }
        reply.whenComplete((answer, error) -> finish(result, units, answer, error));
        return result;
    }

    private RaftClientRequest request(byte[] record) {
        return RaftClientRequest.newBuilder()
                .setClientId(clientId)
                .setServerId(PEER_ID)
                .setGroupId(GROUP_ID)
                .setCallId(callIds.incrementAndGet())
                .setMessage(Message.valueOf(ByteString.copyFrom(record)))
                .setType(RaftClientRequest.writeRequestType())
                .build();
    }

    private static int units(int length) {
        return 1 + length / UNIT_BYTES;
    }

    /** Completes an append with Ratis' answer: its index if Ratis committed it, else what went wrong. */
    private void finish(CompletableFuture<Long> result, int units, RaftClientReply answer, Throwable error) {
        inFlight.release(units);
        pending.remove(result);
        if (error == null && answer.isSuccess()) {
            result.complete(answer.getLogIndex());
            return;
        }
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause()
                : error != null ? error : answer.getException();
        result.completeExceptionally(new IOException("partition log " + directory + ": the record was not appended: "
                + cause, cause));
    }

    private void logFailed(Throwable cause) {
        if (logFailure == null) {
            logFailure = cause;
            LOG.error("partition log {}: a log write failed; every pending and later append fails", directory, cause);
        }
        failPending(failedError(cause));
    }

    private IllegalStateException closedError() {
        return new IllegalStateException("partition log " + directory + " is closed: the record was not appended");
    }

    private IOException failedError(Throwable cause) {
        return new IOException("partition log " + directory + " failed to write (" + cause
                + "); the record is not known to be durable; reopen the log once the cause is fixed", cause);
    }

    private void failPending(Throwable error) {
        for (CompletableFuture<Long> append : List.copyOf(pending)) {
            append.completeExceptionally(error);
        }
    }

    /**
     * Takes a snapshot (docs/durability.md, "Snapshots"): marks the log, has {@code body} write
     * the state as of a cut taken after the mark, publishes the file and purges the log behind it.
     * One at a time; appends go on meanwhile.
     *
     * @return the snapshot, or empty if the log has no entry since the last one
     * @throws IOException naming the file if it could not be written (nothing is published)
     * @throws IllegalStateException if the log is closed or failed
     */
    public Optional<SnapshotTaker.Taken> snapshot(SnapshotTaker.Body body) throws IOException {
        if (closed) {
            throw new IllegalStateException("partition log " + directory + " is closed: no snapshot");
        }
        if (logFailure != null) {
            throw new IllegalStateException("partition log " + directory + " failed (" + logFailure + "): no snapshot");
        }
        return snapshots.take(body);
    }

    /** The log index the newest snapshot covers, or -1 if there is none. */
    public long snapshotIndex() {
        PartitionStateMachine.Snapshot s = stateMachine.latest();
        return s == null ? RaftLog.INVALID_LOG_INDEX : s.index();
    }

    /** The newest snapshot's cut (its timestamp, for the graph), or -1 if there is none. */
    public long snapshotCut() {
        PartitionStateMachine.Snapshot s = stateMachine.latest();
        return s == null ? -1 : s.cut();
    }

    /** The index of the last entry appended to the log (Ratis' own entries included), or -1. */
    public long lastIndex() {
        return closed ? lastIndexAtClose : lastIndexOf(division);
    }

    /** The index of the last entry committed, which for one replica means forced to disk, or -1. */
    public long durableIndex() {
        return closed ? durableIndexAtClose : division.getRaftLog().getLastCommittedIndex();
    }

    private static long lastIndexOf(RaftServer.Division division) {
        TermIndex last = division.getRaftLog().getLastEntryTermIndex();
        return last == null ? RaftLog.INVALID_LOG_INDEX : last.getIndex();
    }

    /** One line for a status command: directory, state, last and durable index, segment files. */
    public String describe() {
        String files;
        try {
            files = SegmentTails.describeFiles(directory.resolve(RATIS_DIR));
        } catch (RuntimeException e) {
            files = "segment files unknown (" + e.getMessage() + ")";
        }
        String state = closed ? "closed" : logFailure != null ? "failed (" + logFailure + ")" : "open";
        return "partition log " + directory + ": " + state + ", last index " + lastIndex() + ", durable index "
                + durableIndex() + ", snapshot index " + snapshotIndex() + ", " + files;
    }

    /**
     * Stops the Ratis server; appends still pending fail (they may be in the log all the same).
     * Idempotent: a call while another thread closes returns once that close has released the
     * directory. Takes about a second: Ratis' log worker polls its queue once a second.
     */
    @Override
    public void close() {
        boolean closing;
        synchronized (this) {
            closing = closed;
            if (!closing) {
                lastIndexAtClose = lastIndexOf(division);
                durableIndexAtClose = division.getRaftLog().getLastCommittedIndex();
                closed = true;
            }
        }
        if (closing) {
            awaitClosed();
            return;
        }
        inFlight.release(IN_FLIGHT_UNITS); // wakes appends waiting for room: they see the log closed
        closeQuietly(directory, server);
        awaitStorageUnlocked(directory); // so that this node may open its directory again at once
        failPending(new IllegalStateException("partition log " + directory
                + " was closed before the record was known to be durable (it may be in the log)"));
        OPEN.remove(key);
        closeDone.countDown();
        LOG.info("partition log {}: closed at index {} (durable {})", directory, lastIndexAtClose, durableIndexAtClose);
    }

    private void awaitClosed() {
        try {
            closeDone.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(Path directory, RaftServer server) {
        if (server == null) {
            return;
        }
        try {
            server.close();
        } catch (IOException | RuntimeException e) {
            LOG.warn("partition log {}: closing Ratis' server failed: {}", directory, e.toString());
        }
    }

    private static IllegalStateException inUse(Path directory, String by, Throwable cause) {
        return new IllegalStateException("partition log directory " + directory + " is in use: " + by
                + "; close that log first", cause);
    }

    /** Whether {@code e} says Ratis' storage lock is held by another process (or this one). */
    private static boolean isLockHeld(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String message = String.valueOf(t.getMessage());
            if (t instanceof OverlappingFileLockException || message.contains("already locked")) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return describe();
    }

    /** For tests: the state machine, to report a log failure as Ratis would. */
    PartitionStateMachine stateMachine() {
        return stateMachine;
    }
}
