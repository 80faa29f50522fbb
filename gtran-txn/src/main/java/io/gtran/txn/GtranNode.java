package io.gtran.txn;

import io.gtran.rdma.ClusterConfig;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.Fabrics;
import io.gtran.rdma.InJvmCluster;
import io.gtran.storage.GraphStore;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.agent.AgentHost;
import io.gtran.txn.agent.TimeSource;
import io.gtran.txn.clock.Clock;
import io.gtran.txn.clock.ClockConfig;
import io.gtran.txn.clock.ClockSync;
import io.gtran.txn.clock.LocalClock;
import io.gtran.txn.clock.Marzullo;
import io.gtran.txn.clock.SyncedClock;
import io.gtran.txn.durable.Durability;
import io.gtran.txn.membership.GroupConfig;
import io.gtran.txn.membership.MemberGroup;
import io.gtran.txn.membership.Membership;
import io.gtran.txn.membership.MembershipLog;
import io.gtran.txn.membership.RatisMembershipLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One gtran node: its fabric (the cluster transport), its {@link GraphStore} and its
 * {@link TransactionEngine}, wired from configuration and closed together. This is where a
 * cluster's nodes come from: several nodes in one JVM on a shared {@link InJvmCluster} (tests,
 * embedded use), or one node per process on a networked fabric.
 *
 * <pre>{@code
 * try (InJvmCluster cluster = new InJvmCluster();
 *      GtranNode n0 = GtranNode.join(cluster, Map.of(StoreConfig.NODE_ID, 0));
 *      GtranNode n1 = GtranNode.join(cluster, Map.of(StoreConfig.NODE_ID, 1))) {
 *     Transaction t = n1.engine().begin(Isolation.SERIALIZABLE);
 *     ...
 * }
 * }</pre>
 *
 * <p>Settings: the node id is {@code gtran.storage.node-id} ({@link StoreConfig#NODE_ID}); every
 * {@code gtran.storage.*} key of {@link StoreConfig} and {@code gtran.txn.*} key of
 * {@link TxnConfig}; the cluster's members, {@code gtran.cluster.nodes} ({@link Membership}); the
 * {@code gtran.clock.*} keys of {@link ClockConfig}; for {@link #open(Map)}, optionally the
 * {@code gtran.fabric.*} keys of {@link ClusterConfig}, and with them {@code gtran.faults.control}, a file
 * that steers the node's faults and wall clock from outside ({@link NodeFaults}, from the gtran-check module). Other keys are left to the layers above. A
 * bad value fails the open with an {@link IllegalArgumentException} naming the key, before anything
 * is created.
 *
 * <p>Members: a node on a networked fabric has every node of {@code gtran.fabric.nodes}; any other
 * has those {@code gtran.cluster.nodes} names, itself alone by default. A node alone keeps a
 * {@link LocalClock} and a GC watermark of its own. With other members its engine's clock is a
 * {@link SyncedClock} kept by a {@link ClockSync} over the node's fabric (the smallest member starts
 * as the clock master; the role moves only when its holder is lost), and its GC watermark is the cluster's (see {@link TransactionEngine#watermark}).
 * Every member must run: a member that never starts holds back the others' GC for good, and while
 * the clock master (the smallest id) has not started, the others' transactions wait for it to
 * begin, up to {@code gtran.clock.wait-limit-ms}.
 *
 * <p>The node owns its fabric, store and engine: {@link #close} closes the engine (its GC threads
 * stop), then the clock synchronisation, then the store (its memory is freed), then the fabric,
 * then the in-JVM cluster if the node made one of its own. It does not own a cluster it
 * {@link #join joined}.
 *
 * <p>A transaction of this node's engine reads and writes every member's elements: operations on
 * another member's run there, and commit asks those members to vote (docs/cluster-transactions.md).
 * A node with other members checks at start that those already running describe the cluster as
 * it does, and fails to open, naming the difference, if one does not.
 */
public final class GtranNode implements AutoCloseable {
    /** The in-JVM cluster this node made for itself, or null. */
    private final InJvmCluster ownCluster;
    private final Fabric fabric;
    private final Membership members;
    /** Null for a node alone in its cluster. */
    private final ClockSync clockSync;
    /** The clock master's lease, where the membership group decides losses; else null. */
    private final LeasedClockMaster leasedMaster;
    /** Null for a node alone in its cluster. */
    private final SyncedClock syncedClock;
    /** The node's fault control file ({@code gtran.faults.control}), or null. */
    private final NodeFaults faults;
    private final TimeSource time;
    private final GraphStore store;
    private final TransactionEngine engine;
    private final Durability durability;
    /** What carries this node (a graph), once one {@link #claim claimed} it. */
    private final AtomicReference<String> claimedBy = new AtomicReference<>();
    private volatile boolean closed;

    private GtranNode(InJvmCluster ownCluster, Fabric fabric, Plan plan, ClockSync clockSync, LeasedClockMaster leasedMaster,
            SyncedClock syncedClock, GraphStore store, TransactionEngine engine) {
        this.ownCluster = ownCluster;
        this.fabric = fabric;
        this.members = plan.members();
        this.clockSync = clockSync;
        this.leasedMaster = leasedMaster;
        this.syncedClock = syncedClock;
        this.faults = plan.faults();
        this.time = plan.time();
        this.store = store;
        this.engine = engine;
        this.durability = plan.durability();
    }

    /** What a node is made of, read from settings before anything is created. */
    private record Plan(StoreConfig store, TxnConfig txn, ClockConfig clock, Durability durability, Membership members,
            TimeSource time, NodeFaults faults, Group group) {
        static Plan of(Map<String, ?> settings, Membership members, TimeSource time) {
            StoreConfig store = StoreConfig.from(settings);
            if (!members.isSingle() && store.valueMaxBytes() > StoreConfig.VALUE_MAX_BYTES_DEFAULT) {
                throw new IllegalArgumentException("configuration " + StoreConfig.VALUE_MAX_BYTES + "=" + store.valueMaxBytes()
                        + " is more than a cluster member can send another in one message with its operation; at most "
                        + StoreConfig.VALUE_MAX_BYTES_DEFAULT + " (the default) on a node of a cluster");
            }
            return new Plan(store, TxnConfig.from(settings), ClockConfig.from(settings),
                    Durability.from(settings), members, time, null, null);
        }

        /** This plan with the node's faults and time steered by {@code control}. */
        Plan steeredBy(NodeFaults control) {
            return new Plan(store, txn, clock, durability, members, control.time(), control, group);
        }

        /** This plan with its losses decided by the membership group at {@code addresses}. */
        Plan withGroup(GroupConfig config, Map<Integer, InetSocketAddress> addresses) {
            return new Plan(store, txn, clock, durability, members, time, faults, new Group(config, addresses));
        }
    }

    /** Where a networked node's part of the membership group runs (docs/cluster-transactions.md). */
    private record Group(GroupConfig config, Map<Integer, InetSocketAddress> addresses) {
        /**
         * Starts nothing yet: the engine starts the log when it starts taking messages. A member with
         * a data directory keeps its part of the log there across restarts (it rejoins as the same
         * Raft peer: docs/durability.md, "A member restarted alone"); one without starts a fresh part
         * in {@code gtran.cluster.group-dir} (its store is new too, and the others keep it out).
         */
        MembershipLog open(int self, Durability durability) {
            InetSocketAddress address = addresses.get(self);
            Path dir;
            if (durability.logs()) {
                dir = durability.membershipDirectory();
            } else {
                dir = config.dirOf(self, address);
                deleteRecursively(dir);
            }
            return new RatisMembershipLog(self, addresses, dir, GroupConfig.PROPOSE_TIMEOUT_MS);
        }
    }

    private static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (java.util.stream.Stream<Path> paths = Files.walk(dir)) {
            for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot clear the membership group's directory " + dir + " ("
                    + GroupConfig.DIR + "): " + e, e);
        }
    }

    /**
     * Opens a node. With {@code gtran.fabric.*} settings it starts the networked fabric they
     * describe ({@link Fabrics#start}; {@code gtran.fabric.node} defaults to the node id and must
     * equal it); without, it makes an in-JVM cluster of its own with this node alone in it, which
     * is what an embedded single-node graph runs on and costs next to nothing.
     *
     * @throws IllegalArgumentException naming a setting that is unknown or has a bad value
     */
    public static GtranNode open(Map<String, ?> settings) {
        return open(settings, TimeSource.SYSTEM);
    }

    /** {@link #open(Map)} with the clock reading {@code time} (tests give nodes skewed clocks). */
    static GtranNode open(Map<String, ?> settings, TimeSource time) {
        int nodeId = StoreConfig.from(settings).nodeId();
        Properties fabricSettings = fabricSettings(settings, nodeId);
        if (fabricSettings != null) {
            ClusterConfig clusterConfig = ClusterConfig.fromProperties(fabricSettings);
            requireSameNode(clusterConfig.localNode(), nodeId);
            GroupConfig groupConfig = GroupConfig.from(settings);
            Plan plan = Plan.of(settings, Membership.of(clusterConfig, settings), time)
                    .withGroup(groupConfig, groupConfig.addresses(clusterConfig.nodes()));
            java.nio.file.Path control = NodeFaults.path(settings);
            NodeFaults.Provider faultsProvider = control == null ? null : NodeFaults.provider(control);
            Fabric fabric = Fabrics.start(clusterConfig);
            if (control == null) {
                return wire(null, new QueryTraffic(fabric), plan);
            }
            NodeFaults faults = faultsProvider.open(control, nodeId, time, clusterConfig.peerLostAfter().toMillis()); // reads the control once
            // Counted above the faults: what the node sends, whether or not a fault then drops it.
            return wire(null, new QueryTraffic(faults.wrap(fabric)), plan.steeredBy(faults));
        }
        NodeFaults.refuse(settings, "an in-JVM cluster of its own");
        Membership members = Membership.from(settings, nodeId);
        if (!members.isSingle()) {
            throw new IllegalArgumentException("configuration " + Membership.NODES + "=" + settings.get(Membership.NODES)
                    + " names other nodes, but a node opened without " + ClusterConfig.NODES + " runs alone in an in-JVM"
                    + " cluster of its own; join a shared InJvmCluster (GtranNode.join) or give the fabric settings");
        }
        Plan plan = Plan.of(settings, members, time);
        InJvmCluster cluster = new InJvmCluster();
        Fabric fabric;
        try {
            fabric = cluster.join(nodeId);
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
        return wire(cluster, fabric, plan);
    }

    /**
     * Opens a node that joins {@code cluster} as node {@code gtran.storage.node-id}. The node owns
     * the fabric it joined with, not the cluster: closing the node leaves the cluster to its other
     * members, and closing the cluster closes this node's fabric.
     *
     * @throws IllegalArgumentException naming a bad setting, or if {@code settings} carry {@code gtran.fabric.*} keys
     * @throws IllegalStateException if a node with this id is in the cluster already, or the cluster is closed
     */
    public static GtranNode join(InJvmCluster cluster, Map<String, ?> settings) {
        return join(cluster, settings, TimeSource.SYSTEM);
    }

    /** {@link #join(InJvmCluster, Map)} with the clock reading {@code time} (tests give nodes skewed clocks). */
    static GtranNode join(InJvmCluster cluster, Map<String, ?> settings, TimeSource time) {
        int nodeId = StoreConfig.from(settings).nodeId();
        Plan plan = Plan.of(settings, Membership.from(settings, nodeId), time);
        refuseFabricSettings(settings, "the in-JVM cluster it joins");
        NodeFaults.refuse(settings, "the in-JVM cluster it joins");
        return wire(null, cluster.join(nodeId), plan);
    }

    /**
     * Opens a node over a fabric the caller started (for instance with {@link Fabrics#start}). The
     * node owns the fabric from this call on: closing the node, or a failed open, closes it.
     *
     * @throws IllegalArgumentException naming a bad setting, if {@code settings} carry {@code gtran.fabric.*}
     *     keys, or if the fabric's node is not {@code gtran.storage.node-id}
     */
    public static GtranNode open(Fabric fabric, Map<String, ?> settings) {
        return open(fabric, settings, TimeSource.SYSTEM);
    }

    /** {@link #open(Fabric, Map)} with the clock reading {@code time} (tests give nodes skewed clocks). */
    static GtranNode open(Fabric fabric, Map<String, ?> settings, TimeSource time) {
        Plan plan;
        try {
            int nodeId = StoreConfig.from(settings).nodeId();
            plan = Plan.of(settings, Membership.from(settings, nodeId), time);
            refuseFabricSettings(settings, "the fabric it is given");
            NodeFaults.refuse(settings, "the fabric it is given");
            requireSameNode(fabric.localNode(), nodeId);
        } catch (RuntimeException e) {
            fabric.close();
            throw e;
        }
        return wire(null, fabric, plan);
    }

    /**
     * Opens store, clock and engine over {@code fabric}; on failure closes what it opened, the
     * fabric and {@code ownCluster}.
     */
    private static GtranNode wire(InJvmCluster ownCluster, Fabric fabric, Plan plan) {
        GraphStore store = null;
        ClockSync clockSync = null;
        LeasedClockMaster leasedMaster = null;
        TransactionEngine engine = null;
        MembershipLog groupLog = null;
        try {
            store = GraphStore.open(plan.store());
            Clock clock;
            SyncedClock synced = null;
            if (plan.members().isSingle()) {
                clock = new LocalClock(plan.time());
            } else {
                synced = plan.clock().clockFor(fabric.localNode(), plan.time());
                clock = synced;
            }
            boolean resumed = plan.durability().resumes(); // before the log claims a new directory
            if (plan.group() != null && !plan.members().isSingle()) {
                groupLog = plan.group().open(fabric.localNode(), plan.durability());
            }
            engine = TransactionEngine.open(store, fabric, plan.txn(), clock, plan.members(), plan.time(), groupLog,
                    plan.durability().logs(), resumed);
            engine.restore(plan.durability()); // replays the log into the empty store
            if (synced != null) {
                // on the node's one mailbox, which takes clock messages from now on (one sent before is a lost one)
                clockSync = new ClockSync(engine.clusterParts().mailbox(), synced, plan.time(),
                        new TreeSet<>(plan.members().nodes()), plan.clock().syncIntervalMs());
                MemberGroup group = engine.clusterParts().group();
                if (group != null) {
                    leasedMaster = new LeasedClockMaster(group, clockSync, synced, AgentHost.threads(plan.time()),
                            plan.clock().leaseMs(), plan.clock().drift());
                    engine.clusterParts().view().attach(leasedMaster);
                    leasedMaster.start();
                } else {
                    MajorityClockMaster.attach(engine.clusterParts().view(), clockSync);
                }
            }
            engine.joinCluster();
            if (plan.faults() != null) {
                plan.faults().start();
            }
            return new GtranNode(ownCluster, fabric, plan, clockSync, leasedMaster, synced, store, engine);
        } catch (RuntimeException e) {
            if (plan.faults() != null) {
                plan.faults().close();
            }
            if (engine != null) {
                engine.close();
            }
            if (groupLog != null) {
                groupLog.close(); // closed by the engine too, if it opened: closing twice is a no-op
            }
            if (leasedMaster != null) {
                leasedMaster.close();
            }
            if (clockSync != null) {
                clockSync.close();
            }
            if (store != null) {
                store.close();
            }
            fabric.close();
            if (ownCluster != null) {
                ownCluster.close();
            }
            throw e;
        }
    }

    /** The {@code gtran.fabric.*} settings as properties, with the node defaulting to {@code nodeId}; null if there are none. */
    private static Properties fabricSettings(Map<String, ?> settings, int nodeId) {
        Properties properties = null;
        for (Map.Entry<String, ?> e : settings.entrySet()) {
            if (e.getKey().startsWith("gtran.fabric.")) {
                if (properties == null) {
                    properties = new Properties();
                }
                properties.setProperty(e.getKey(), String.valueOf(e.getValue()));
            }
        }
        if (properties != null && properties.getProperty(ClusterConfig.NODE) == null) {
            properties.setProperty(ClusterConfig.NODE, Integer.toString(nodeId));
        }
        return properties;
    }

    private static void refuseFabricSettings(Map<String, ?> settings, String fabric) {
        for (Map.Entry<String, ?> e : settings.entrySet()) {
            if (e.getKey().startsWith("gtran.fabric.")) {
                throw new IllegalArgumentException("a fabric setting for a node on " + fabric + ": " + e.getKey() + "="
                        + e.getValue() + "; gtran.fabric.* settings are for GtranNode.open(settings)");
            }
        }
    }

    private static void requireSameNode(int fabricNode, int storeNode) {
        if (fabricNode != storeNode) {
            throw new IllegalArgumentException("the fabric's node is not the node's id: fabric node=" + fabricNode + " "
                    + StoreConfig.NODE_ID + "=" + storeNode);
        }
    }

    /**
     * Waits until this node hears from every other member (their pings, within the lease) and its
     * clock can give a timestamp (a reading of the master, and where the membership group names the
     * master, its lease applied here), at most {@code timeoutMillis}; returns at once for a node alone.
     *
     * @throws IllegalStateException naming the members not heard from, or the clock's state, if the time runs out
     */
    public void awaitMembers(long timeoutMillis) throws InterruptedException {
        long deadline = time.nanos() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (true) {
            Set<Integer> missing = new TreeSet<>(members.others());
            missing.removeAll(engine.membersInContact());
            ClockState clock = clockState();
            boolean clockReady = clock.synced() && (clock.leaseLeftMillis() == null || clock.leaseLeftMillis() > 0);
            if (missing.isEmpty() && clockReady) {
                return;
            }
            if (time.nanos() - deadline > 0) {
                throw new IllegalStateException("node " + id() + (missing.isEmpty() ? "" : " does not hear from members " + missing)
                        + (clockReady ? "" : " has no timestamps to give yet (" + clock + ")") + " after " + timeoutMillis
                        + " ms; members=" + members.nodes());
            }
            Thread.sleep(20);
        }
    }

    /** This node's id ({@code gtran.storage.node-id}): the node field of every id it issues. */
    public int id() {
        return store.nodeId();
    }

    public Fabric fabric() {
        return fabric;
    }

    /**
     * The operation and commit messages this node sent to other members so far ({@link
     * QueryTraffic}), if its fabric counts them: a node opened from {@code gtran.fabric.*} settings
     * does, as does one opened over a {@link QueryTraffic} its caller made; any other reports 0.
     */
    public long queryMessages() {
        return fabric instanceof QueryTraffic counted ? counted.messages() : 0;
    }

    /** The payload bytes of {@link #queryMessages}. */
    public long queryBytes() {
        return fabric instanceof QueryTraffic counted ? counted.bytes() : 0;
    }

    /** The cluster's members, this node's included (a node alone: just this one). */
    public Membership members() {
        return members;
    }

    public GraphStore store() {
        return store;
    }

    /** Where this node keeps its data and when its commits are answered (docs/durability.md). */
    public Durability durability() {
        return durability;
    }

    public TransactionEngine engine() {
        return engine;
    }

    /**
     * Records that {@code owner} (a graph) now carries this node. A node carries one graph in its
     * life: the graph keeps state of its own over the store (indexes, counters of ids) that it builds
     * as it writes, so a second graph, beside the first or after it, would miss what the first wrote.
     *
     * @throws IllegalStateException if the node is closed, or was claimed before (the message names by whom)
     */
    public void claim(String owner) {
        requireOpen();
        if (!claimedBy.compareAndSet(null, owner)) {
            throw new IllegalStateException("node " + id() + " already carries " + claimedBy.get()
                    + "; a node carries one graph in its life: open another node");
        }
    }

    public boolean isClosed() {
        return closed;
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("node is closed: node=" + id());
        }
    }

    /** Where this node's clock reads time (with {@code gtran.faults.control}, offset by the file). */
    TimeSource timeSource() {
        return time;
    }

    /** The wall clock offset the fault control file injects now, in milliseconds; 0 without one. */
    public long clockOffsetMillis() {
        return faults == null ? 0 : faults.clockOffsetMillis();
    }

    /** The synchronised clock of a member of a cluster, null for a node alone (tests look at whom it follows). */
    SyncedClock syncedClock() {
        return syncedClock;
    }

    /**
     * The clock's synchronisation now, without waiting on other nodes: a node alone is synced, is
     * its own master and has no uncertainty; a member of a cluster is synced once it holds an
     * interval for the master's time, and its uncertainty is that interval's half-width.
     */
    public ClockState clockState() {
        if (syncedClock == null) {
            return new ClockState(true, id(), 0, 0, null);
        }
        Marzullo.Interval interval = syncedClock.interval();
        int master = clockSync.master();
        long epoch = clockSync.epoch();
        long leaseEnd = syncedClock.leaseEnd();
        Long leaseLeft = leaseEnd == Long.MAX_VALUE ? null
                : leaseEnd == Long.MIN_VALUE || interval == null ? 0L : Math.max(0, (leaseEnd - interval.hi()) / 1000);
        return interval == null ? new ClockState(false, master, -1, epoch, leaseLeft)
                : new ClockState(true, master, (interval.width() + 1) / 2, epoch, leaseLeft);
    }

    /**
     * What {@link #clockState} found.
     *
     * @param uncertaintyMicros half the width of the interval for the master's time; -1 while unsynced
     * @param epoch             how many times the master changed
     * @param leaseLeftMillis   how long the master's lease runs on by this clock's upper bound (0: none);
     *                          null where no lease is kept (a node alone, a cluster in one JVM)
     */
    public record ClockState(boolean synced, int master, long uncertaintyMicros, long epoch, Long leaseLeftMillis) {
    }

    /**
     * The membership group as this node sees it: who leads it and in which term, and whom its log
     * counts lost; null where no group decides (a node alone, a cluster in one JVM).
     */
    public GroupStatus groupStatus() {
        MemberGroup group = engine.clusterParts() == null ? null : engine.clusterParts().group();
        if (group == null) {
            return null;
        }
        MembershipLog.GroupState state = group.state();
        return new GroupStatus(state.leader(), state.term(), state.role(), List.copyOf(group.lost()));
    }

    /** What {@link #groupStatus} found; {@code leader} is -1 while none is known. */
    public record GroupStatus(int leader, long term, String role, List<Integer> lost) {
    }

    /**
     * Closes the fault control, the engine, the clock synchronisation, the store, the fabric and the
     * node's own in-JVM cluster, in that order; idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException failure = null;
        for (AutoCloseable part : new AutoCloseable[] {faults, leasedMaster, engine, clockSync, store, fabric, ownCluster}) {
            try {
                if (part != null) {
                    part.close();
                }
            } catch (Exception e) { // the rest is closed all the same
                if (failure == null) {
                    failure = e instanceof RuntimeException r ? r : new IllegalStateException(e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return "GtranNode[" + id() + (closed ? " closed" : "") + "]";
    }
}
