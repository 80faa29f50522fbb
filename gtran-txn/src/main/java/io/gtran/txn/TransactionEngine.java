package io.gtran.txn;

import io.gtran.rdma.Fabric;
import io.gtran.storage.GraphStore;
import io.gtran.txn.agent.Agent;
import io.gtran.txn.agent.AgentHost;
import io.gtran.txn.agent.TimeSource;
import io.gtran.txn.clock.Clock;
import io.gtran.txn.clock.ClockUnavailableException;
import io.gtran.txn.clock.LocalClock;
import io.gtran.txn.commit.CommitMessenger;
import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import io.gtran.txn.common.TxnWords;
import io.gtran.txn.durable.CommitLog;
import io.gtran.txn.durable.Durability;
import io.gtran.txn.durable.LogWriteException;
import io.gtran.txn.durable.NoCommitLog;
import io.gtran.txn.durable.RedoRecord;
import io.gtran.txn.durable.SnapshotTaker;
import io.gtran.txn.local.ElementCounts;
import io.gtran.txn.local.Mirrors;
import io.gtran.txn.local.RecentCommittedTable;
import io.gtran.txn.local.StatusTable;
import io.gtran.txn.membership.ClusterWatermark;
import io.gtran.txn.membership.Membership;
import io.gtran.txn.membership.MembershipLog;
import io.gtran.txn.protocol.Outcome;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node's transaction layer: the clock, the {@link StatusTable status table} registered with
 * the fabric, the {@link RecentCommittedTable recent committed table} and the {@link
 * GarbageCollector GC}, over the node's {@link GraphStore}. {@link #begin} starts transactions.
 *
 * <p>In a cluster of several {@link Membership members} a transaction begun here may read and
 * write any member's elements: operations on another node's run there, under a participant
 * context, and commit asks those nodes to vote ({@link ClusterParts},
 * docs/cluster-transactions.md). The clock is then the node's synchronised one and the GC
 * watermark is the cluster's ({@link #watermark}).
 */
public final class TransactionEngine implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionEngine.class);

    private final GraphStore store;
    private final TxnConfig config;
    private final Clock clock;
    /** Where this node's loops and waits read monotonic time (see {@link Agent}). */
    private final TimeSource time;
    /** Where this node's loops run: a thread each, reading {@link #time}. */
    private final AgentHost agents;
    private final Membership members;
    private final ClusterWatermark clusterWatermark;
    private final StatusTable statusTable;
    private final RecentCommittedTable recentCommitted;
    private final GarbageCollector gc;
    private final ElementCounts counts = new ElementCounts(this::foldCuts);
    private final ExternalIds externalIds;
    private final ValueIndexes valueIndexes = new ValueIndexes();
    private final Mirrors mirrors;
    private final LongAdder commits = new LongAdder();
    private final Map<ConflictKind, LongAdder> aborts = new EnumMap<>(ConflictKind.class);
    private final LongAdder rollbacks = new LongAdder();
    /** Operations this node's transactions ran on other nodes (requests, not resends). */
    final LongAdder remoteCalls = new LongAdder();
    private final AtomicLong lastWatermark = new AtomicLong();
    /** Transactions across nodes; null on a node alone in its cluster. */
    private final ClusterParts clusterParts;
    /** Where commits are logged (docs/durability.md); set once by the node before it serves. */
    private volatile CommitLog commitLog = NoCommitLog.INSTANCE;
    private volatile List<RedoRecord.IndexDefinition> restoredIndexes = List.of();
    private SnapshotScheduler snapshots;
    private volatile boolean closed;

    private TransactionEngine(GraphStore store, Fabric fabric, TxnConfig config, Clock clock, Membership members,
            TimeSource time, MembershipLog groupLog, boolean restoring, boolean resumed) {
        if (fabric.localNode() != store.nodeId()) {
            throw new IllegalArgumentException("fabric node and store node differ: fabric node=" + fabric.localNode()
                    + " store node=" + store.nodeId());
        }
        this.store = store;
        this.config = config;
        this.clock = clock;
        this.time = time;
        this.agents = AgentHost.threads(time);
        this.recentCommitted = new RecentCommittedTable(time);
        this.members = members;
        this.statusTable = new StatusTable(fabric, config.statusSlots);
        this.clusterWatermark = new ClusterWatermark(fabric, members);
        for (ConflictKind kind : ConflictKind.values()) {
            aborts.put(kind, new LongAdder());
        }
        this.gc = new GarbageCollector(this, config);
        this.externalIds = new ExternalIds(store);
        this.mirrors = new Mirrors(store.nodeId());
        this.clusterParts = members.isSingle() ? null : new ClusterParts(this, fabric, groupLog);
        if (clusterParts != null && restoring) {
            clusterParts.restoring(); // before it takes messages: its store is empty until its log is replayed
        }
        if (clusterParts != null && resumed) {
            clusterParts.view().restartedOnData(); // before its first ping: the others take it back, not exclude it
        }
        if (clusterParts != null) {
            clusterParts.view().onLoss(clusterWatermark::lost);
            clusterParts.view().onRejoin(clusterWatermark::rejoined);
            int authority = nameAuthority();
            if (authority != store.nodeId()) {
                // Before clusterParts takes other nodes' operations, which intern the names they carry.
                ClusterParts parts = clusterParts;
                try {
                    store.labels().useAuthority((name, create) -> parts.nameId(authority, ClusterParts.LABELS, name, create));
                    store.propertyKeys().useAuthority(
                            (name, create) -> parts.nameId(authority, ClusterParts.PROPERTY_KEYS, name, create));
                } catch (RuntimeException e) {
                    parts.close(); // a store used before its engine opened: its ids are not the cluster's
                    throw e;
                }
            }
            clusterParts.start();
        }
    }

    /**
     * The member whose label and property-key dictionaries are the cluster's: the one with the
     * lowest node id. Every other member takes the id of a name new to it from that node, so a name
     * has the same id on every member. Interning a name new to a member then costs a round trip to
     * the authority, and fails with an {@link IllegalStateException} naming the authority if it
     * does not answer within gtran.txn.remote-timeout-ms or is lost (names known already keep
     * working). See docs/cluster-transactions.md.
     */
    int nameAuthority() {
        return members.nodes().get(0);
    }

    /** Where this engine's loops and waits read monotonic time. */
    TimeSource time() {
        return time;
    }

    /** Where this engine's loops run. */
    AgentHost agents() {
        return agents;
    }

    /**
     * Opens the transaction layer of the node {@code fabric} belongs to, over its store. The
     * caller keeps ownership of store and fabric and closes them after this engine.
     */
    public static TransactionEngine open(GraphStore store, Fabric fabric, TxnConfig config) {
        return open(store, fabric, config, new LocalClock());
    }

    /** As {@link #open(GraphStore, Fabric, TxnConfig)}, with the given clock, this node alone in its cluster. */
    public static TransactionEngine open(GraphStore store, Fabric fabric, TxnConfig config, Clock clock) {
        return open(store, fabric, config, clock, Membership.single(store.nodeId()));
    }

    /**
     * As {@link #open(GraphStore, Fabric, TxnConfig)}, with the given clock, in a cluster of
     * {@code members}: its GC watermark is the smallest oldest begin time any member publishes. The
     * clock must be one the members share (a synchronised one) when there are several.
     */
    public static TransactionEngine open(GraphStore store, Fabric fabric, TxnConfig config, Clock clock, Membership members) {
        return open(store, fabric, config, clock, members, TimeSource.SYSTEM);
    }

    /**
     * As {@link #open(GraphStore, Fabric, TxnConfig, Clock, Membership)}, with the engine's loops
     * and waits reading monotonic time from {@code time} (the node's, so that faults and a
     * simulator steer it).
     */
    public static TransactionEngine open(GraphStore store, Fabric fabric, TxnConfig config, Clock clock, Membership members,
            TimeSource time) {
        return open(store, fabric, config, clock, members, time, null);
    }

    /**
     * As above, losses decided by the membership group whose log is {@code groupLog} (null: by
     * the heard-majority rule of a cluster in one JVM); the engine closes the log.
     */
    public static TransactionEngine open(GraphStore store, Fabric fabric, TxnConfig config, Clock clock, Membership members,
            TimeSource time, MembershipLog groupLog) {
        return open(store, fabric, config, clock, members, time, groupLog, false, false);
    }

    /**
     * As above; with {@code restoring}, a member takes no other member's operation until its log
     * is replayed ({@link #restore}); with {@code resumed} too, it restarts on the data of an
     * earlier process and rejoins the others through the handshake (docs/durability.md, "A member
     * restarted alone").
     */
    static TransactionEngine open(GraphStore store, Fabric fabric, TxnConfig config, Clock clock, Membership members,
            TimeSource time, MembershipLog groupLog, boolean restoring, boolean resumed) {
        TransactionEngine engine = new TransactionEngine(store, fabric, config, clock, members, time, groupLog, restoring,
                resumed);
        if (config.gc) {
            engine.gc.start();
        }
        return engine;
    }

    /**
     * Starts a transaction. Its begin time is published (for the GC watermark) before it is taken,
     * so GC can never free a version the new transaction may read.
     *
     * @throws IllegalStateException if the engine is closed or too many transactions run
     */
    public Transaction begin(Isolation isolation) {
        if (closed) {
            throw new IllegalStateException("transaction engine is closed: node=" + store.nodeId());
        }
        long txnId = statusTable.allocate(clock.current()); // every begin time taken from here on is above it
        long beginTime;
        try {
            beginTime = clock.next();
        } catch (RuntimeException clockUnavailable) {
            statusTable.release(txnId); // nothing names it yet
            throw clockUnavailable;
        }
        statusTable.publishBeginTime(txnId, beginTime);
        return new Transaction(this, txnId, beginTime, isolation);
    }

    /**
     * The GC watermark: no running or future transaction of any member can see a version that
     * ended at or before it. It is the smallest of this node's {@link #localWatermark} and every
     * other member's published one: this node first publishes its own in its timestamp buffer,
     * then reads the others' in one batch ({@link ClusterWatermark}; a member not read yet counts
     * as 0, an unreachable or lost one as its last value). A node alone in its cluster reads
     * nothing: its watermark is its local one.
     */
    public long watermark() {
        long local = localWatermark();
        clusterWatermark.publish(local);
        long watermark = Math.min(local, clusterWatermark.readOthers());
        lastWatermark.set(watermark);
        return watermark;
    }

    /**
     * This node's part of the watermark: the smallest begin time of its running transactions, or
     * the clock if none runs.
     */
    long localWatermark() {
        // Taken first: every begin time taken after it is larger, and a transaction whose entry
        // the scan below misses took (or will take) its begin time after this.
        long upper = clock.next();
        return statusTable.minActiveBeginTime(statusTable.node(), upper);
    }

    /**
     * A watermark without remote operations, for committers that help GC: this node's local one
     * now, the other members' as last read. Older reads are lower bounds too, so it is safe.
     */
    long freshWatermark() {
        long watermark = Math.min(localWatermark(), clusterWatermark.othersMin());
        lastWatermark.set(watermark);
        return watermark;
    }

    /**
     * For folding the element counters: the begin times of the running transactions, ascending,
     * then an upper bound taken first (every transaction that begins later has a larger begin
     * time); null if a transaction is being born (its begin time could fall anywhere below it) or
     * the clock is unavailable. With other members the bound is at most their smallest published
     * begin time as last read: their transactions' begin times are not known one by one, so only
     * what was committed below all of them folds across them.
     */
    long[] foldCuts() {
        long upper;
        try {
            upper = Math.min(clock.next(), clusterWatermark.othersMin());
        } catch (ClockUnavailableException e) {
            return null;
        }
        long[] active = statusTable.activeBeginTimes(statusTable.node(), upper);
        if (active == null) {
            return null;
        }
        long[] cuts = Arrays.copyOf(active, active.length + 1);
        cuts[active.length] = upper;
        return cuts;
    }

    /**
     * A time for what commit, abort and GC hand to GC to free later: the clock's next timestamp,
     * above the begin time of every transaction that has begun (on any member) before it. If the
     * clock cannot give one, {@link TxnWords#INFINITY}: the item is kept for good (logged) rather
     * than freed under a reader.
     */
    long gcTime() {
        try {
            return clock.next();
        } catch (ClockUnavailableException e) {
            LOG.warn("node {}: no timestamp for a GC item; it will not be freed: {}", store.nodeId(), e.getMessage());
            return TxnWords.INFINITY;
        }
    }

    /**
     * The watermark last computed (by a GC pass or a commit that helps GC; 0 before the first): a
     * cheap, possibly stale lower bound that reads no other node.
     */
    public long lastWatermark() {
        return lastWatermark.get();
    }

    public GarbageCollector gc() {
        return gc;
    }

    public TxnConfig config() {
        return config;
    }

    /** The cluster this node's engine belongs to. */
    public Membership members() {
        return members;
    }

    public GraphStore store() {
        return store;
    }

    /** The mirrors of other nodes' edges whose in-vertex lives here. */
    Mirrors mirrors() {
        return mirrors;
    }

    /** This node's property-value indexes. */
    public ValueIndexes valueIndexes() {
        return valueIndexes;
    }

    /** The node's user-supplied ids, bound and looked up in transactions. */
    public ExternalIds externalIds() {
        return externalIds;
    }

    /** Counts: commits, rollbacks, aborts by kind, running transactions, RCT entries. */
    public Map<String, Long> stats() {
        Map<String, Long> stats = new LinkedHashMap<>();
        stats.put("commits", commits.sum());
        stats.put("rollbacks", rollbacks.sum());
        for (Map.Entry<ConflictKind, LongAdder> e : aborts.entrySet()) {
            stats.put("aborts." + e.getKey(), e.getValue().sum());
        }
        stats.put("running", (long) statusTable.inUse());
        stats.put("rct.entries", (long) recentCommitted.size());
        stats.put("participants", clusterParts == null ? 0L : clusterParts.contexts());
        stats.put("mirrors", (long) mirrors.size());
        stats.put("remote.calls", remoteCalls.sum());
        return stats;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (clusterParts != null) {
            clusterParts.close();
        }
        gc.close();
        if (snapshots != null) {
            snapshots.close();
        }
        commitLog.close();
    }

    /**
     * Opens this node's log (docs/durability.md): replays it into the empty store and, on a member
     * of a cluster, settles the votes it left in doubt with the other members first, taking none
     * of their operations until the store is restored. Then commits go to the log.
     */
    void restore(Durability durability) {
        if (clusterParts == null) {
            useCommitLog(durability.open(store, counts()));
            return;
        }
        useCommitLog(durability.open(store, counts(), mirrors, clusterParts::settle));
    }

    /** Commits go to {@code log} from now on; the engine closes it. Set before the first transaction. */
    void useCommitLog(Durability.Opened opened) {
        this.commitLog = opened.log();
        this.restoredIndexes = opened.indexes();
        externalIds.restore(opened.claims(), opened.reservations());
        statusTable.startSequencesAbove(opened.highestSequence());
        if (clusterParts != null && opened.log().logs()) {
            CommitLog log = opened.log();
            statusTable.keepSequencesBelowCeilings(log::sequenceCeiling); // C5': no id of this process reused after a restart
            clusterParts.messenger().useDecisionLog(new CommitMessenger.DecisionLog() {
                @Override
                public CompletableFuture<Void> decided(long txn, Outcome outcome,
                        long commitTime, int[] participants) {
                    return log.decision(new RedoRecord.Decision(txn, commitTime, outcome == Outcome.COMMIT));
                }

                @Override
                public void released(long txn) {
                    log.released(txn);
                }
            });
        }
        if (clusterParts != null) {
            clusterParts.restored(); // its decisions go to the log before it takes other members' messages
        }
        if (opened.log().logs() && opened.snapshotRecords() > 0) {
            snapshots = new SnapshotScheduler(this, opened.snapshotRecords());
            snapshots.start(agents);
        }
    }

    /**
     * Takes a snapshot of this node's graph now (docs/durability.md, "Snapshots") and returns it
     * once it is durable and the log is purged behind it; empty if nothing was logged since the
     * last one. Writers go on meanwhile.
     *
     * @throws IllegalStateException if nothing is logged (no directory, or durability=none)
     * @throws LogWriteException if the file could not be written
     * @throws TransactionConflictException if the read met a writer that then
     *     aborted (take it again)
     */
    public Optional<SnapshotTaker.Taken> snapshot() {
        return commitLog.snapshot((sink, indexes) -> StoreCut.write(this, sink, indexes));
    }

    /** The property indexes this node's log says exist (made at run time, not dropped), for the graph to fill at open. */
    public List<RedoRecord.IndexDefinition> restoredIndexes() {
        return restoredIndexes;
    }

    /** Where commits are logged: {@link NoCommitLog} without a directory. */
    public CommitLog commitLog() {
        return commitLog;
    }

    /**
     * Checks that every member that is up describes the cluster as this node does (see {@link
     * ClusterParts#join}); nothing to check for a node alone.
     *
     * @throws IllegalStateException naming the member and both descriptions if one differs
     */
    void joinCluster() {
        if (clusterParts != null) {
            clusterParts.join();
        }
    }

    /** This node's side of transactions across nodes; null on a node alone in its cluster. */
    /** The other members this node hears from now (pings within the lease); empty for a node alone. */
    public Set<Integer> membersInContact() {
        return clusterParts == null ? Set.of() : clusterParts.view().inContact();
    }

    ClusterParts clusterParts() {
        return clusterParts;
    }

    /**
     * Whether this node counts {@code member} lost (a loss it acted on, not only a silence: see
     * {@link #membersInContact}); false on a node alone. For tooling: the harness's fault tests
     * (gtran-check) watch a cut become a loss with it.
     */
    public boolean isLost(int member) {
        return clusterParts != null && clusterParts.isLost(member);
    }

    boolean isClosed() {
        return closed;
    }

    Clock clock() {
        return clock;
    }

    StatusTable statusTable() {
        return statusTable;
    }

    ClusterWatermark clusterWatermark() {
        return clusterWatermark;
    }

    RecentCommittedTable recentCommitted() {
        return recentCommitted;
    }

    ElementCounts counts() {
        return counts;
    }

    void countCommit() {
        commits.increment();
    }

    void countAbort(ConflictKind kind) {
        aborts.get(kind).increment();
    }

    void countRollback() {
        rollbacks.increment();
    }
}
