// Over 600 lines: TinkerPop's Graph contract (open, configuration keys, features, io, transactions) meets here.
package io.gtran.core;

import io.gtran.core.index.IndexServices;
import io.gtran.core.index.Indexes;
import io.gtran.core.process.traversal.strategy.GtranCountStrategy;
import io.gtran.core.process.traversal.strategy.GtranExecutionStrategy;
import io.gtran.core.process.traversal.strategy.GtranGraphStepStrategy;
import io.gtran.core.process.traversal.strategy.GtranIoStrategy;
import io.gtran.storage.ElementIds;
import io.gtran.storage.GraphStore;
import io.gtran.storage.Settings;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.GtranNode;
import io.gtran.txn.TransactionEngine;
import io.gtran.txn.TxnConfig;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import io.gtran.txn.durable.LogWriteException;
import io.gtran.txn.durable.SnapshotTaker;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.commons.configuration2.Configuration;
import org.apache.tinkerpop.gremlin.process.computer.GraphComputer;
import org.apache.tinkerpop.gremlin.process.traversal.TraversalStrategies;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.Transaction;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;
import org.apache.tinkerpop.gremlin.structure.service.ServiceRegistry;
import org.apache.tinkerpop.gremlin.structure.util.ElementHelper;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;

/**
 * A gtran node's graph as a TinkerPop {@link Graph}: vertices, edges and properties live in the
 * off-heap {@link GraphStore} of a {@link GtranNode}; every read and write runs in an MV-OCC
 * transaction of the node's engine, bound to the calling thread ({@link GtranTransaction}). Open it
 * with {@link #open(Configuration)} (or {@code GraphFactory} with {@code
 * gremlin.graph=io.gtran.core.GtranGraph}), which opens a single node of its own for it, or with
 * {@link #open(GtranNode, Configuration)} on a node the caller opened (one of several in a JVM, or
 * a process's node).
 *
 * <p>Configuration keys: the {@code gtran.*} constants here, plus, for a graph that opens its own
 * node, every {@code gtran.storage.*} key of {@link StoreConfig} and {@code gtran.txn.*} key of
 * {@link TxnConfig}. An unknown {@code gtran.} key or a bad value fails {@link #open} with a
 * message naming it.
 */
@Graph.OptIn(Graph.OptIn.SUITE_STRUCTURE_STANDARD)
@Graph.OptIn(Graph.OptIn.SUITE_PROCESS_EMBEDDED_STANDARD)
public final class GtranGraph implements Graph {
    /** {@code SERIALIZABLE} (default) or {@code SNAPSHOT}; {@code SR} and {@code SI} are accepted too. */
    public static final String ISOLATION = "gtran.isolation";
    public static final String ISOLATION_DEFAULT = "SERIALIZABLE";
    /** Cardinality of {@code vertex.property(key, value)} without one: {@code single} (default), {@code list} or {@code set}. */
    public static final String DEFAULT_CARDINALITY = "gtran.vertex-property.cardinality";
    public static final String DEFAULT_CARDINALITY_DEFAULT = "single";
    /** Whether {@code null} is a property value ({@code true}) or removes the property ({@code false}, default). */
    public static final String ALLOW_NULL_PROPERTY_VALUES = "gtran.allow-null-property-values";
    /** Comma-separated vertex property keys with a hash (equality) index. */
    public static final String VERTEX_HASH_INDEX = "gtran.index.vertex.hash";
    /** Comma-separated vertex property keys with an ordered (range) index. */
    public static final String VERTEX_ORDERED_INDEX = "gtran.index.vertex.ordered";
    public static final String EDGE_HASH_INDEX = "gtran.index.edge.hash";
    public static final String EDGE_ORDERED_INDEX = "gtran.index.edge.ordered";
    /**
     * Whether {@code call()} offers gtran's services, the index services {@code
     * gtran.index.create/list/drop} and the bulk writes {@code gtran.bulk.vertices/edges} ({@code
     * true}, default); {@code false} leaves the service registry empty at open.
     */
    public static final String INDEX_SERVICES = "gtran.index.services";
    /**
     * On a node of a cluster, where a vertex created without a user-supplied id goes: {@code local}
     * (default: the node the transaction runs on) or {@code spread} (the members in turn, as a bulk
     * load wants). A vertex with a user-supplied id goes where the id places it.
     */
    public static final String PLACEMENT = "gtran.placement";
    /**
     * On a node of a cluster, how traversals reach other nodes: {@code batched} (default: vertex
     * steps ask each node once per batch of traversers, see {@code GtranBatchedVertexStep}) or
     * {@code element} (one request per element read, as the structure API makes them).
     */
    public static final String EXECUTION = "gtran.execution";

    /** The prefixes of the node's settings (GtranNode): store, transactions, clock, members, fabric, faults and durability. */
    private static final List<String> NODE_PREFIXES = List.of("gtran.storage.", "gtran.txn.", "gtran.clock.", "gtran.cluster.",
            "gtran.fabric.", "gtran.faults.", "gtran.durability");
    private static final Set<String> KEYS = Set.of(Graph.GRAPH, ISOLATION, DEFAULT_CARDINALITY, ALLOW_NULL_PROPERTY_VALUES,
            VERTEX_HASH_INDEX, VERTEX_ORDERED_INDEX, EDGE_HASH_INDEX, EDGE_ORDERED_INDEX, INDEX_SERVICES, PLACEMENT, EXECUTION);

    static {
        TraversalStrategies.GlobalCache.registerStrategies(GtranGraph.class,
                TraversalStrategies.GlobalCache.getStrategies(Graph.class).clone()
                        .addStrategies(GtranGraphStepStrategy.instance(), GtranCountStrategy.instance(),
                                GtranIoStrategy.instance(), GtranExecutionStrategy.instance()));
    }

    private final Configuration configuration;
    private final GtranNode node;
    /** Whether this graph opened its node, and so closes it. */
    private final boolean ownsNode;
    final GraphStore store;
    final TransactionEngine engine;
    final Isolation isolation;
    final VertexProperty.Cardinality defaultCardinality;
    final boolean allowNullPropertyValues;
    final GtranIds ids;
    final Indexes indexes;
    /** Whether the node shares its cluster with other members: elements may live elsewhere. */
    final boolean clustered;
    /** Whether new vertices without a user-supplied id go to the members in turn (else here). */
    private final boolean spread;
    /** How traversals reach other nodes ({@link #EXECUTION}): element, batched or pushed. */
    private final String execution;
    private final AtomicInteger nextPlacement = new AtomicInteger();
    private final int[] members;
    private final GtranTransaction transaction;
    private final GtranFeatures features;
    private final AtomicLong vertexPropertyCounter = new AtomicLong();
    private final ServiceRegistry services = new ServiceRegistry();
    private volatile boolean closed;
    private final List<AutoCloseable> closeWith = new CopyOnWriteArrayList<>();

    /** A graph on {@code node} (null: open a node of its own from {@code configuration}, and own it). */
    private GtranGraph(GtranNode node, Configuration configuration) {
        this.configuration = configuration;
        Map<String, Object> settings = settings(configuration, node == null);
        this.isolation = isolation(settings.get(ISOLATION));
        this.defaultCardinality = cardinality(settings.get(DEFAULT_CARDINALITY));
        this.allowNullPropertyValues = bool(ALLOW_NULL_PROPERTY_VALUES, settings.get(ALLOW_NULL_PROPERTY_VALUES));
        boolean indexServices = !settings.containsKey(INDEX_SERVICES) || bool(INDEX_SERVICES, settings.get(INDEX_SERVICES));
        this.spread = placement(settings.get(PLACEMENT));
        this.execution = execution(settings.get(EXECUTION));
        this.ownsNode = node == null;
        this.node = ownsNode ? GtranNode.open(settings) : node; // validates the gtran.storage.* and gtran.txn.* keys
        this.members = this.node.engine().members().nodes().stream().mapToInt(Integer::intValue).sorted().toArray();
        this.clustered = members.length > 1;
        try {
            List<String> vertexHash = keys(settings, VERTEX_HASH_INDEX);
            List<String> vertexOrdered = keys(settings, VERTEX_ORDERED_INDEX);
            List<String> edgeHash = keys(settings, EDGE_HASH_INDEX);
            List<String> edgeOrdered = keys(settings, EDGE_ORDERED_INDEX);
            Indexes.refuseBoth(vertexHash, vertexOrdered, "gtran.index.vertex");
            Indexes.refuseBoth(edgeHash, edgeOrdered, "gtran.index.edge");
            this.node.claim("graph " + Integer.toHexString(System.identityHashCode(this)));
            this.store = this.node.store();
            this.engine = this.node.engine();
            this.ids = new GtranIds(this, engine.externalIds(), store.nodeId());
            if (clustered && engine.commitLog().logs()) {
                awaitMembersServing(); // the fills and the seed below read every member, which may still restore
            }
            this.indexes = new Indexes(this, engine, store, isolation, clustered, PropertyValues::indexed, vertexHash, vertexOrdered,
                    edgeHash, edgeOrdered);
            this.transaction = new GtranTransaction(this);
            seedVertexPropertyCounter();
        } catch (RuntimeException e) {
            if (ownsNode) {
                this.node.close();
            }
            throw e;
        }
        this.features = new GtranFeatures(this);
        if (indexServices) {
            IndexServices.register(services, indexes);
            BulkServices.register(services, this);
        }
    }

    /**
     * Opens a new, empty in-memory gtran graph on a single node of its own (node id {@code
     * gtran.storage.node-id}, in an in-JVM cluster of its own), which the graph closes with itself.
     *
     * @throws IllegalArgumentException naming a configuration key that is unknown or has a bad value
     */
    public static GtranGraph open(Configuration configuration) {
        if (configuration == null) {
            throw Graph.Exceptions.argumentCanNotBeNull("configuration");
        }
        return new GtranGraph(null, configuration);
    }

    /**
     * Opens the graph of {@code node}, which the caller opened and closes: closing the graph leaves
     * the node open. A node carries one graph in its life ({@link GtranNode#claim}), and the graph
     * should be opened before anything is written to the node, since it builds its label and
     * property indexes as it writes. The configuration takes this graph's {@code gtran.*} keys;
     * {@code gtran.storage.*} and {@code gtran.txn.*} keys belong to the node and are refused here.
     *
     * <p>The graph sees its node's elements only, and its transactions run on its node alone: on a
     * node that shares a cluster with others it neither finds another node's elements (by id or by
     * a scan) nor adds an edge to them. That comes with transactions across nodes.
     *
     * @throws IllegalArgumentException naming a configuration key that is unknown, has a bad value,
     *     or belongs to the node
     * @throws IllegalStateException if the node is closed or carries a graph already
     */
    public static GtranGraph open(GtranNode node, Configuration configuration) {
        if (node == null) {
            throw Graph.Exceptions.argumentCanNotBeNull("node");
        }
        if (configuration == null) {
            throw Graph.Exceptions.argumentCanNotBeNull("configuration");
        }
        return new GtranGraph(node, configuration);
    }

    /** Opens a graph with every default. */
    public static GtranGraph open() {
        BaseConfiguration configuration = new BaseConfiguration();
        configuration.setProperty(Graph.GRAPH, GtranGraph.class.getName());
        return open(configuration);
    }

    // ---------------------------------------------------------------- Graph

    @Override
    public Vertex addVertex(Object... keyValues) {
        ElementHelper.legalPropertyKeyValueArray(keyValues);
        String label = ElementHelper.getLabelValue(keyValues).orElse(Vertex.DEFAULT_LABEL);
        ElementHelper.validateLabel(label);
        Object userId = ElementHelper.getIdValue(keyValues).orElse(null);
        if (userId != null) {
            GtranIds.normalize(userId, Vertex.class); // refuse a bad id before anything is created
        }
        GtranTransaction.Scope scope = transaction.scope();
        try {
            int labelId = store.labels().intern(label);
            int home = userId != null ? ids.homeOfVertex(scope.txn(), userId) : placeNew();
            long id = scope.txn().addVertex(home, labelId);
            while (userId == null && ids.shadowed(scope.txn(), id, ElementKind.VERTEX)) {
                scope.txn().removeVertex(id); // a user's id already names this number: take another
                id = scope.txn().addVertex(home, labelId);
            }
            indexes.vertexLabelAdded(labelId, id);
            Object exposed = null;
            if (userId != null) {
                try {
                    exposed = ids.bind(scope, ElementKind.VERTEX, userId, id);
                } catch (IllegalArgumentException taken) {
                    scope.txn().removeVertex(id); // the id is taken: the new vertex must not stay
                    throw taken;
                }
            }
            GtranVertex vertex = new GtranVertex(this, id, exposed, label);
            // as TinkerGraph: a key given more than once makes a multi-property
            Set<String> seen = new HashSet<>();
            Set<String> repeated = new HashSet<>();
            for (int i = 0; i < keyValues.length; i += 2) {
                if (keyValues[i] instanceof String key && !seen.add(key)) {
                    repeated.add(key);
                }
            }
            for (int i = 0; i < keyValues.length; i += 2) {
                if (keyValues[i] instanceof String key && (keyValues[i + 1] != null || allowNullPropertyValues)) {
                    vertex.property(repeated.contains(key) ? VertexProperty.Cardinality.list : defaultCardinality, key, keyValues[i + 1]);
                }
            }
            return vertex;
        } catch (RuntimeException e) {
            throw scope.translate(e);
        }
    }

    @Override
    public Iterator<Vertex> vertices(Object... vertexIds) {
        return ElementLookup.vertices(this, vertexIds);
    }

    @Override
    public Iterator<Edge> edges(Object... edgeIds) {
        return ElementLookup.edges(this, edgeIds);
    }

    @Override
    public <C extends GraphComputer> C compute(Class<C> graphComputerClass) {
        throw Graph.Exceptions.graphComputerNotSupported();
    }

    @Override
    public GraphComputer compute() {
        throw Graph.Exceptions.graphComputerNotSupported();
    }

    @Override
    public Transaction tx() {
        return transaction;
    }

    @Override
    public Variables variables() {
        throw Graph.Exceptions.variablesNotSupported();
    }

    /**
     * The services {@code call()} reaches; register yours with {@code registerService}. At open:
     * gtran's index services and bulk writes ({@code gtran.bulk.vertices}, {@code gtran.bulk.edges}).
     */
    @Override
    public ServiceRegistry getServiceRegistry() {
        return services;
    }

    @Override
    public Configuration configuration() {
        return configuration;
    }

    @Override
    public Features features() {
        return features;
    }

    /**
     * Rolls back this thread's open transaction and, if the graph opened its node, closes the node
     * (engine, store, fabric): other threads' transactions end with it. A graph opened on a given
     * node leaves the node open; other threads' transactions then stay theirs to end.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (transaction.isOpen()) {
                transaction.rollback();
            }
        } finally { // a failed rollback must not leave the reaper, GC threads and memory behind
            transaction.stopReaper();
            services.close();
            if (ownsNode) {
                node.close();
            }
            for (AutoCloseable resource : closeWith) {
                try {
                    resource.close();
                } catch (Exception e) {
                    org.slf4j.LoggerFactory.getLogger(GtranGraph.class).warn("could not close {} with the graph", resource, e);
                }
            }
        }
    }

    /**
     * Closes {@code resource} when this graph closes, after its node (if the graph owns it): for a
     * caller that opened the graph on a node of a cluster it runs in this process, and wants the
     * graph's owner to end the rest with it.
     */
    public void closeWith(AutoCloseable resource) {
        closeWith.add(resource);
    }

    public boolean isClosed() {
        return closed;
    }

    /** The node this graph runs on. */
    public GtranNode node() {
        return node;
    }

    /** The isolation level every transaction of this graph runs at. */
    public Isolation isolation() {
        return isolation;
    }

    /** Writes many elements in this thread's transaction, for loaders: see {@link GtranBulk}. */
    public GtranBulk bulk() {
        requireOpen();
        return new GtranBulk(this);
    }

    /** The property indexes: declared at open or added through {@link Indexes#create}. */
    public Indexes indexes() {
        return indexes;
    }

    /**
     * The node's status, as {@code bin/gtran status} prints it, in this order: {@code node} (its id),
     * {@code members} (every member's id), {@code in_contact} (the other members heard from within
     * the lease), {@code lost} (the other members not in contact), {@code group_leader}, {@code
     * group_term} and {@code group_lost} (the membership group's leader, term and the members its
     * log counts lost; "-" and empty on a node alone or in a cluster in one JVM), {@code clock_synced}, {@code
     * clock_master}, {@code clock_epoch} (how many times the master changed), {@code clock_lease_ms}
     * (how long the master's lease runs on, as this node sees it: 0 when it has none, "-" where no
     * lease is kept: a node alone or in one JVM), {@code clock_uncertainty_us} (half the width of the interval for the master's
     * time; 0 on a node alone, -1 while unsynced), {@code clock_offset_ms} (the offset a fault
     * control file injects; 0 without one), {@code watermark} (the GC watermark: on a member of a
     * cluster the one last computed, which reads no other node), {@code running}, {@code
     * participants}, {@code commits} and {@code aborts} (of every kind), {@code messages} and {@code
     * bytes} (the operation requests and replies and commit messages this node sent other members
     * since it opened, and their payload bytes: {@link GtranNode#queryMessages}; heartbeats, clock
     * samples and watermark reads are not counted; 0 on a node whose fabric does not count them,
     * such as a node alone), {@code durability}, {@code log_index} and {@code log_durable} (the log's
     * setting, last record appended and last on disk), {@code snapshot_index} and {@code
     * snapshot_time} (the log index the newest snapshot covers and its timestamp; -1 where there is
     * none or no log). It waits on no other node.
     */
    public Map<String, Object> status() {
        requireOpen();
        return NodeStatus.of(node);
    }

    /**
     * Takes a snapshot of this node's graph now (docs/durability.md, "Snapshots"), while writers go
     * on, and returns once it is on disk and the log is purged behind it: {@code snapshot_index} (the
     * log index it covers), {@code snapshot_time}, {@code records}, {@code bytes}, {@code millis} and
     * {@code file}; {@code snapshot_index} is -1 ("nothing new") when nothing was logged since the
     * last one. A snapshot whose read met a writer that then aborted is taken again (up to three
     * times). From the console: {@code graph.snapshot()}.
     *
     * @throws IllegalStateException if the graph has no data directory or durability is none
     * @throws LogWriteException naming the file if it could not be written
     */
    public Map<String, Object> snapshot() {
        requireOpen();
        for (int attempt = 1; ; attempt++) {
            try {
                Map<String, Object> out = new LinkedHashMap<>();
                Optional<SnapshotTaker.Taken> taken = node.engine().snapshot();
                out.put("snapshot_index", taken.map(SnapshotTaker.Taken::index).orElse(-1L));
                out.put("snapshot_time", taken.map(SnapshotTaker.Taken::cut).orElse(-1L));
                out.put("records", taken.map(SnapshotTaker.Taken::records).orElse(0L));
                out.put("bytes", taken.map(SnapshotTaker.Taken::bytes).orElse(0L));
                out.put("millis", taken.map(SnapshotTaker.Taken::millis).orElse(0L));
                out.put("file", taken.map(t -> t.file().toString()).orElse("nothing new"));
                return out;
            } catch (TransactionConflictException e) {
                if (attempt == 3) {
                    throw e;
                }
            }
        }
    }

    /**
     * A snapshot of the node's counters and gauges, by name (docs/server.md, "Observability", lists
     * them): {@code commits}, {@code rollbacks}, {@code aborts.<ConflictKind>}, {@code running},
     * {@code rct.entries} from the transaction engine; {@code orphans.rolledBack} (transactions
     * rolled back because their thread ended with them open); {@code gc.*} from the garbage
     * collector, with {@code gc.backlog} the items waiting in all its queues; {@code
     * store.vertices}, {@code store.edges}, {@code store.liveSlots.<pool>} and {@code
     * store.reservedBytes.<pool>} from the store. The keys are the same for the life of the graph.
     */
    public Map<String, Long> stats() {
        Map<String, Long> stats = engine.stats();
        stats.put("orphans.rolledBack", transaction.orphansRolledBack());
        long backlog = 0;
        for (Map.Entry<String, Long> e : engine.gc().stats().entrySet()) {
            stats.put("gc." + e.getKey(), e.getValue());
            if (e.getKey().startsWith("waiting.")) {
                backlog += e.getValue();
            }
        }
        stats.put("gc.backlog", backlog);
        stats.put("store.vertices", (long) store.vertices().count());
        stats.put("store.edges", (long) store.edges().count());
        store.liveSlots().forEach((pool, live) -> stats.put("store.liveSlots." + pool, live));
        store.reservedBytes().forEach((pool, bytes) -> stats.put("store.reservedBytes." + pool, bytes));
        return stats;
    }

    @Override
    public String toString() {
        return StringFactory.graphString(this, "vertices:" + store.vertices().count() + " edges:" + store.edges().count()
                + " isolation:" + isolation);
    }

    // ---------------------------------------------------------------- internals

    /** The node a new vertex without a user-supplied id goes to (see {@link #PLACEMENT}). */
    private int placeNew() {
        if (!clustered || !spread) {
            return store.nodeId();
        }
        return members[Math.floorMod(nextPlacement.getAndIncrement(), members.length)];
    }

    /** The label of a vertex or edge, read where it lives (labels never change). */
    String labelOf(ElementKind kind, long internalId) {
        if (clustered && io.gtran.storage.ElementIds.isWellFormed(internalId)
                && io.gtran.storage.ElementIds.node(internalId) != store.nodeId()) {
            GtranTransaction.Scope scope = transaction.scope();
            try {
                int labelId = kind == ElementKind.VERTEX ? scope.txn().vertexLabel(internalId) : scope.txn().edgeLabel(internalId);
                return store.labels().name(labelId);
            } catch (RuntimeException e) {
                throw scope.translate(e);
            }
        }
        return store.labels().name(kind.table(store).label(internalId));
    }

    /** An edge's out-vertex ({@code out}) or in-vertex, read where the edge lives. */
    long endpointOf(long edgeId, boolean out) {
        if (clustered && io.gtran.storage.ElementIds.isWellFormed(edgeId)
                && io.gtran.storage.ElementIds.node(edgeId) != store.nodeId()) {
            GtranTransaction.Scope scope = transaction.scope();
            try {
                return out ? scope.txn().edgeOutVertex(edgeId) : scope.txn().edgeInVertex(edgeId);
            } catch (RuntimeException e) {
                throw scope.translate(e);
            }
        }
        return out ? store.edgeOutVertex(edgeId) : store.edgeInVertex(edgeId);
    }

    /** How long a restarted member's graph waits at open for the other members to serve. */
    private static final long MEMBERS_WAIT_MILLIS = 600_000;

    /**
     * Waits until every other member serves operations: after a restart of the whole cluster each
     * restores its data and settles what it left in doubt first (docs/durability.md, "Nodes of a
     * cluster"), refusing operations meanwhile, and members still starting are unreachable; a
     * member restarted alone also waits until the handshake took each other member back (durability.md,
     * "A member restarted alone"). Asks each for a vertex (one round trip), again every 200 ms,
     * saying every 10 s whom it waits for; a clock that does not serve yet (the members starting
     * together agree on its master first) is waited for the same way.
     *
     * @throws IllegalStateException naming the members if they do not serve within 10 minutes
     */
    private void awaitMembersServing() {
        long started = System.nanoTime();
        long reported = started;
        for (int member : members) {
            if (member == store.nodeId()) {
                continue;
            }
            while (true) {
                io.gtran.txn.Transaction probe = null;
                try {
                    // the clock too may not serve yet: the members restarting with this one elect its master
                    probe = engine.begin(Isolation.SNAPSHOT);
                    probe.exists(ElementKind.VERTEX, ElementIds.vertexId(member, 0, 1));
                    if (!engine.membersInContact().contains(member)) {
                        // restarted alone on its data, this node takes each member back through the handshake
                        throw new IllegalStateException("not taken back through the rejoin handshake yet");
                    }
                    break;
                } catch (RuntimeException notYet) {
                    long now = System.nanoTime();
                    if (now - started > TimeUnit.MILLISECONDS.toNanos(MEMBERS_WAIT_MILLIS)) {
                        throw new IllegalStateException("node " + store.nodeId() + ": member " + member + " does not serve after "
                                + MEMBERS_WAIT_MILLIS / 1000 + " s: " + notYet.getMessage(), notYet);
                    }
                    if (now - reported > TimeUnit.SECONDS.toNanos(10)) {
                        reported = now;
                        org.slf4j.LoggerFactory.getLogger(GtranGraph.class).info("node {}: waiting for member {} to serve: {}",
                                store.nodeId(), member, notYet.getMessage());
                    }
                    sleepQuietly(200);
                } finally {
                    if (probe != null && probe.isActive()) {
                        probe.rollback();
                    }
                }
            }
        }
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the other members", e);
        }
    }

    /**
     * On a graph restored from its log (docs/durability.md): counted vertex-property ids go on above
     * the highest one this node's restored vertices hold, so none is issued twice.
     */
    private void seedVertexPropertyCounter() {
        if (store.vertices().count() == 0) {
            return;
        }
        io.gtran.txn.Transaction txn = engine.begin(isolation);
        try {
            long highest = 0;
            for (long vertex : txn.vertices(io.gtran.storage.EdgeCursor.ANY_LABEL)) {
                for (Map.Entry<Integer, Object> stored : txn.vertexProperties(vertex).entrySet()) {
                    if (!(stored.getValue() instanceof io.gtran.storage.SerializedValue)) {
                        continue;
                    }
                    for (PropertyValues.Entry entry : PropertyValues.entries(stored.getValue(), vertex, stored.getKey())) {
                        if (entry.id instanceof Long id && ElementIds.kind(id) == ElementIds.COUNTED_PROPERTY
                                && ElementIds.node(id) == store.nodeId()) {
                            highest = Math.max(highest, id >>> ElementIds.SLOT_SHIFT);
                        }
                    }
                }
            }
            vertexPropertyCounter.set(highest);
        } finally {
            txn.rollback();
        }
    }

    long nextVertexPropertyCounter() {
        return vertexPropertyCounter.incrementAndGet();
    }

    GtranTransaction transaction() {
        return transaction;
    }

    void requireOpen() {
        if (closed) {
            throw new IllegalStateException("graph is closed: " + this.getClass().getSimpleName());
        }
    }

    /**
     * The configuration as a map, refusing unknown {@code gtran.} keys; {@code gtran.storage.*} and
     * {@code gtran.txn.*} are known only if the graph opens its node ({@code nodeKeys}).
     */
    private static Map<String, Object> settings(Configuration configuration, boolean nodeKeys) {
        Map<String, Object> settings = new HashMap<>();
        Iterator<String> keys = configuration.getKeys();
        while (keys.hasNext()) {
            String key = keys.next();
            Object value = configuration.getProperty(key);
            if (value instanceof List<?> list) {
                // commons-configuration splits "a,b" into a list when a list delimiter is set
                List<String> parts = new ArrayList<>();
                list.forEach(v -> parts.add(String.valueOf(v)));
                value = String.join(",", parts);
            }
            settings.put(key, value);
            boolean nodeKey = NODE_PREFIXES.stream().anyMatch(key::startsWith);
            if (nodeKey && !nodeKeys) {
                throw new IllegalArgumentException("a node setting for a graph on a given node: " + key + "=" + value
                        + "; set " + String.join("*, ", NODE_PREFIXES) + "* when opening the node (GtranNode)");
            }
            if (key.startsWith("gtran.") && !KEYS.contains(key) && !nodeKey) {
                throw new IllegalArgumentException("unknown configuration key: " + key + "=" + value + didYouMean(key)
                        + " (gtran keys: " + new TreeSet<>(KEYS) + ", " + String.join("*, ", NODE_PREFIXES) + "*)");
            }
        }
        return settings;
    }

    /** {@code "; did you mean K?"} for the known key K nearest to a misspelt {@code key}, or "" if none is near. */
    static String didYouMean(String key) {
        return Settings.didYouMean(key, KEYS);
    }

    static Isolation isolation(Object value) {
        if (value == null) {
            return Isolation.SERIALIZABLE;
        }
        switch (String.valueOf(value).trim().toUpperCase(Locale.ROOT)) {
            case "SERIALIZABLE":
            case "SR":
                return Isolation.SERIALIZABLE;
            case "SNAPSHOT":
            case "SI":
                return Isolation.SNAPSHOT;
            default:
                throw new IllegalArgumentException("bad value for " + ISOLATION + "=" + value
                        + ": expected SERIALIZABLE (SR) or SNAPSHOT (SI)");
        }
    }

    private static boolean bool(String key, Object value) {
        return value != null && Settings.bool(key, value);
    }

    /** The execution a value of {@link #EXECUTION} names: element, batched (the default) or pushed. */
    private static String execution(Object value) {
        String mode = value == null ? "batched" : String.valueOf(value).trim().toLowerCase(Locale.ROOT);
        if (!mode.equals("batched") && !mode.equals("element") && !mode.equals("pushed")) {
            throw new IllegalArgumentException("bad value for " + EXECUTION + "=" + value + ": expected batched, element or pushed");
        }
        return mode;
    }

    /**
     * Whether traversals on this graph batch their requests to other nodes: a cluster graph in
     * batched or pushed execution.
     */
    boolean batched() {
        return clustered && !execution.equals("element");
    }

    /** Whether traversals on this graph push runs of vertex hops to the owners: a cluster graph in pushed execution. */
    boolean pushed() {
        return clustered && execution.equals("pushed");
    }

    private static boolean placement(Object value) {
        if (value == null) {
            return false;
        }
        switch (String.valueOf(value).trim().toLowerCase(Locale.ROOT)) {
            case "local":
                return false;
            case "spread":
                return true;
            default:
                throw new IllegalArgumentException("bad value for " + PLACEMENT + "=" + value + ": expected local or spread");
        }
    }

    private static VertexProperty.Cardinality cardinality(Object value) {
        if (value == null) {
            return VertexProperty.Cardinality.single;
        }
        try {
            return VertexProperty.Cardinality.valueOf(String.valueOf(value).trim().toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("bad value for " + DEFAULT_CARDINALITY + "=" + value
                    + ": expected single, list or set");
        }
    }

    private static List<String> keys(Map<String, Object> settings, String key) {
        Object value = settings.get(key);
        List<String> keys = new ArrayList<>();
        if (value == null) {
            return keys;
        }
        for (String part : String.valueOf(value).split(",")) {
            String trimmed = part.trim();
            if (!trimmed.isEmpty()) {
                keys.add(trimmed);
            }
        }
        return keys;
    }
}
