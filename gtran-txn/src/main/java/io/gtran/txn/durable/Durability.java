package io.gtran.txn.durable;

import io.gtran.storage.GraphStore;
import io.gtran.storage.Settings;
import io.gtran.txn.local.ElementCounts;
import io.gtran.txn.local.Mirrors;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's durability settings ({@code gtran.storage.directory}, {@code gtran.durability}) and the
 * start of its log: replay into the store, then the {@link CommitLog} commits go to
 * (docs/durability.md).
 */
public record Durability(Path directory, String mode, long snapshotRecords) {
    private static final Logger LOG = LoggerFactory.getLogger(Durability.class);

    /** The node's data directory; absent: the node keeps nothing beyond its process. */
    public static final String DIRECTORY = "gtran.storage.directory";
    public static final String DURABILITY = "gtran.durability";
    public static final String SYNC = "sync";
    public static final String ASYNC = "async";
    public static final String NONE = "none";
    /** Records logged since the last snapshot that start the next; 0: only when asked. */
    public static final String SNAPSHOT_RECORDS = "gtran.durability.snapshot-records";
    public static final long DEFAULT_SNAPSHOT_RECORDS = 500_000;

    /**
     * Reads the settings.
     *
     * @throws IllegalArgumentException naming the key and value that is wrong
     */
    public static Durability from(Map<String, ?> settings) {
        Settings read = Settings.of(settings, DURABILITY, Set.of(DURABILITY, SNAPSHOT_RECORDS));
        long snapshotRecords = read.longValue(SNAPSHOT_RECORDS, DEFAULT_SNAPSHOT_RECORDS, 0, Long.MAX_VALUE);
        String mode = read.text(DURABILITY, SYNC).toLowerCase(Locale.ROOT);
        if (!Set.of(SYNC, ASYNC, NONE).contains(mode)) {
            throw new IllegalArgumentException("configuration " + DURABILITY + "=" + settings.get(DURABILITY)
                    + ": expected sync, async or none");
        }
        String directory = Settings.of(settings, DIRECTORY, Set.of(DIRECTORY)).text(DIRECTORY, null);
        return new Durability(directory == null ? null : Path.of(directory), mode, snapshotRecords);
    }

    /** Whether commits go to a log. */
    public boolean logs() {
        return directory != null && !NONE.equals(mode);
    }

    /**
     * Whether an earlier process of this node opened the data directory (it holds the node's
     * identity): this one restarts on its data, and a member then rejoins its cluster through the
     * handshake (docs/durability.md, "A member restarted alone").
     */
    public boolean resumes() {
        return logs() && Files.isRegularFile(directory.resolve(DataDirectory.IDENTITY_FILE));
    }

    /** Where a member keeps its part of the membership group's log: in the data directory, kept across restarts. */
    public Path membershipDirectory() {
        if (!logs()) {
            throw new IllegalStateException("no data directory, or " + DURABILITY + "=none: the membership log is not kept");
        }
        return directory.resolve(DataDirectory.MEMBERSHIP);
    }

    /**
     * Opens the log of node {@code store.nodeId()}, replays it into the empty {@code store} and its
     * {@code counts}, and returns the log commits go to from now on ({@link NoCommitLog} if nothing
     * is logged) with the indexes the log names.
     *
     * @throws IllegalStateException naming the directory and the reason if the log cannot be opened
     *     or replayed (another node's directory, one in use, a record that does not apply)
     */
    public Opened open(GraphStore store, ElementCounts counts) {
        return open(store, counts, null, null);
    }

    /**
     * Settles the votes a member's log left in doubt (docs/durability.md, "Nodes of a cluster",
     * restart step 2), with the other members.
     */
    public interface Settler {
        /**
         * Returns once every vote {@code votes} holds in doubt is settled ({@link ImageVotes#settle}),
         * each decision on disk in {@code log} first; restores the decisions owed to participants.
         * {@code snapshotTime} is the cut of the snapshot the node restarted from, or
         * {@link Long#MIN_VALUE}.
         */
        void settle(ImageVotes votes, CommitLog log, long snapshotTime);
    }

    /**
     * As {@link #open(GraphStore, ElementCounts)}, for a member of a cluster: the mirrors of edges
     * between nodes go into {@code mirrors}, and {@code settler} settles the votes in doubt before
     * the store is built. Both null for a node alone, whose log must hold no votes.
     */
    public Opened open(GraphStore store, ElementCounts counts, Mirrors mirrors, Settler settler) {
        if (directory != null && NONE.equals(mode)) {
            LOG.warn("node {}: {}=none: nothing is logged; {} is neither read nor written", store.nodeId(), DURABILITY, directory);
        }
        if (!logs()) {
            return new Opened(NoCommitLog.INSTANCE, List.of(), 0, Map.of(), Set.of(), 0);
        }
        long started = System.nanoTime();
        StoreImage image = new StoreImage(store);
        PartitionLog log = PartitionLog.open(directory, "node=" + store.nodeId(), image);
        long replayed = System.nanoTime();
        LoggingCommitLog commits = SYNC.equals(mode) ? new SyncCommitLog(log) : new AsyncCommitLog(log);
        try {
            commits.restoredIndexes(image.indexes());
            if (settler != null) {
                settler.settle(image.votes(), commits, image.skipThrough());
            } else if (!image.votes().inDoubt().isEmpty() || !image.votes().owed().isEmpty()) {
                throw new IllegalStateException("the log holds votes of transactions across nodes: this directory was a"
                        + " cluster member's; open it as that member");
            }
            image.writeInto(counts, mirrors);
            store.labels().onNewId((id, name) -> log.append(new RedoRecord.Name(false, id, name).encode()));
            store.propertyKeys().onNewId((id, name) -> log.append(new RedoRecord.Name(true, id, name).encode()));
        } catch (RuntimeException e) {
            log.close();
            throw new IllegalStateException("node " + store.nodeId() + ": the log in " + directory + " does not restore: "
                    + e.getMessage(), e);
        }
        LOG.info("node {}: restored {} vertices and {} edges from {} snapshot and log records ({} older than the snapshot)"
                + " in {} ms (read and replayed in {} ms; {}, durability={})", store.nodeId(), image.vertices(), image.edges(),
                image.records(), image.skipped(), (System.nanoTime() - started) / 1_000_000, (replayed - started) / 1_000_000,
                directory, mode);
        return new Opened(commits, image.indexes(), snapshotRecords, image.claims(), image.reserved(),
                image.votes().highestSequence());
    }

    /**
     * The log commits go to from now on, the property indexes the replayed log says exist (for the
     * graph to fill), how many records start a snapshot (0: none by itself), the claims and
     * reservations of user-supplied edge ids, and the highest transaction sequence the log names
     * (for the status table: docs/durability.md, C5 and C5').
     */
    public record Opened(CommitLog log, List<RedoRecord.IndexDefinition> indexes, long snapshotRecords, Map<Object, Long> claims,
            Set<Long> reservations, long highestSequence) {
    }
}
