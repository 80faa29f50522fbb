// Over 600 lines: the one API of a transaction (reads, writes, commit) and its life cycle; each role it delegates to is a class (Visibility, Scans, Adjacency, CrossEdges, IndexRouting, ExternalIdRouting, WriteRules).
package io.gtran.txn;

import static io.gtran.storage.MvTupleDescriptor.NO_TUPLE;
import static io.gtran.txn.common.TxnWords.INFINITY;
import static io.gtran.txn.common.TxnWords.NEVER;

import io.gtran.storage.EdgeCursor;
import io.gtran.storage.EdgeDirection;
import io.gtran.storage.ElementIds;
import io.gtran.storage.ElementTable;
import io.gtran.storage.GraphStore;
import io.gtran.storage.MvStore;
import io.gtran.storage.PropertyCursor;
import io.gtran.storage.UnknownElementException;
import io.gtran.txn.common.ConflictKey;
import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.ElementNotFoundException;
import io.gtran.txn.common.ExternalIdTakenException;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.ReplyTooLargeException;
import io.gtran.txn.common.TransactionConflictException;
import io.gtran.txn.common.TxnWords;
import io.gtran.txn.local.ElementCounts;
import io.gtran.txn.local.KeySets;
import io.gtran.txn.local.RecentCommittedTable;
import io.gtran.txn.local.StatusTable;
import io.gtran.txn.local.StatusTableDescriptor;
import io.gtran.txn.local.TxnStatus;
import io.gtran.txn.local.Visibility;
import io.gtran.txn.local.WriteLog;
import io.gtran.txn.protocol.Chain;
import io.gtran.txn.protocol.Op;
import io.gtran.txn.protocol.Wire;
import io.gtran.txn.query.ReadAhead;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One MV-OCC transaction (G-Tran §4.3) on the graph store: reads see the snapshot at the begin
 * time, writes install versions stamped with this transaction's id, and {@link #commit} validates
 * (at SR) and stamps them with the commit time. Use it from one thread at a time.
 *
 * <p>Every operation after the transaction has ended throws {@link IllegalStateException}. An
 * operation that meets a conflict aborts the transaction (undoing everything it wrote) and throws
 * {@link TransactionConflictException} naming the conflict and the other transaction.
 *
 * <p>Element ids are the store's; label and property-key ids are the store's dictionaries'. Reads
 * of an element that is not visible throw {@link ElementNotFoundException}.
 */
public class Transaction implements AutoCloseable {
    private enum State { ACTIVE, COMMITTED, ABORTED }

    final TransactionEngine engine;
    final GraphStore store;
    private final MvStore versions;
    private final long id;
    private final long beginTime;
    private final Isolation isolation;
    private final TxnConfig config;
    /** The coordinator's parts on other nodes; {@link RemoteParts#NONE} on a node alone in its cluster, and in a participant's part. */
    final RemoteParts remote;
    /** Volatile: a commit whose outcome was unknown is decided on another thread (see CommitProtocol). */
    private volatile State state = State.ACTIVE;
    /**
     * Set when commit ended in {@link CommitOutcomeUnknownException}: the commit protocol decides
     * this transaction later (it stays active until then), so {@link #rollback} leaves it alone.
     */
    volatile boolean outcomeUnknown;
    private long commitTime;
    /** This transaction's row in the recent committed table, once it took a commit time. */
    RecentCommittedTable.Entry registered;

    final KeySets reads;
    final KeySets writes;
    final WriteLog log = new WriteLog();
    /** What this transaction sees, with its pre-read dependencies and the writers it read around. */
    final Visibility visibility;
    private final IndexRouting indexes = new IndexRouting(this);
    final Scans scans = new Scans(this);
    final Adjacency adjacency = new Adjacency(this);
    /** Edges between members, each with its mirror; a part leaves the mirrors to its coordinator. */
    final CrossEdges crossEdges;
    private final ExternalIdRouting externalIds = new ExternalIdRouting(this);
    private EdgeCursor edgeCursor;
    final WriteRules rules;
    /** What to undo outside the store if this transaction aborts (external-id bindings), oldest first; null: nothing. */
    private List<Runnable> abortActions;
    /** This transaction's own changes to the element counters: counter key to delta. */
    private final Map<Long, long[]> countDeltas = new java.util.HashMap<>();
    /** The deltas it added to the counters at commit, to stamp or undo. */
    final List<ElementCounts.Delta> publishedCounts = new ArrayList<>();
    /** Labels and properties of other nodes' elements read ahead ({@link #readMany}); null before any. */
    private ReadAhead readAhead;

    /** A transaction this node coordinates (alone in its cluster, or with parts on other members). */
    Transaction(TransactionEngine engine, long id, long beginTime, Isolation isolation) {
        this(engine, id, beginTime, isolation, engine.clusterParts() != null);
    }

    /** With {@code coordinates}, the parts on other members are this transaction's to call; else it is a part itself. */
    Transaction(TransactionEngine engine, long id, long beginTime, Isolation isolation, boolean coordinates) {
        this.engine = engine;
        this.remote = coordinates ? new RemoteParts(this, engine.clusterParts(), engine.members()) : RemoteParts.NONE;
        this.store = engine.store();
        this.versions = store.mvStore();
        this.id = id;
        this.beginTime = beginTime;
        this.isolation = isolation;
        this.config = engine.config();
        this.reads = new KeySets(store.nodeId());
        this.writes = new KeySets(store.nodeId());
        this.rules = new WriteRules(this);
        this.crossEdges = coordinates ? new CrossEdges(this) : new CrossEdges.OfPart(this);
        this.visibility = new Visibility(id, beginTime, store, engine.statusTable(), engine.recentCommitted(), engine.time(),
                config.dependencyWaitMs, config.preRead, this::conflict);
    }

    public long id() {
        return id;
    }

    public long beginTime() {
        return beginTime;
    }

    /** The commit time, once committed; 0 before. */
    public long commitTime() {
        return commitTime;
    }

    public Isolation isolation() {
        return isolation;
    }

    public boolean isActive() {
        return state == State.ACTIVE;
    }

    public boolean isCommitted() {
        return state == State.COMMITTED;
    }

    /** Whether this transaction has written nothing so far. */
    public boolean isReadOnly() {
        return log.isEmpty() && writes.isEmpty() && !remote.anyWrote();
    }

    // ---------------------------------------------------------------- reads

    public boolean vertexExists(long vertexId) {
        return exists(ElementKind.VERTEX, vertexId);
    }

    public boolean edgeExists(long edgeId) {
        return exists(ElementKind.EDGE, edgeId);
    }

    public int vertexLabel(long vertexId) {
        return label(ElementKind.VERTEX, vertexId);
    }

    public int edgeLabel(long edgeId) {
        return label(ElementKind.EDGE, edgeId);
    }

    private int label(ElementKind kind, long element) {
        int owner = owner(element);
        if (owner >= 0) {
            ReadAhead.Entry known = readAhead(kind, element);
            if (ReadAhead.answers(known, true, new int[0])) {
                return known.label;
            }
            return store.labels().intern(remote.call(owner, new Op.Label(kind, element)).getString());
        }
        requireVisible(kind, element);
        return kind.table(store).label(element);
    }

    public long edgeOutVertex(long edgeId) {
        int owner = owner(edgeId);
        if (owner >= 0) {
            return remote.call(owner, new Op.EdgeEnd(edgeId, true)).getLong();
        }
        requireVisible(ElementKind.EDGE, edgeId);
        return store.edgeOutVertex(edgeId);
    }

    public long edgeInVertex(long edgeId) {
        int owner = owner(edgeId);
        if (owner >= 0) {
            return remote.call(owner, new Op.EdgeEnd(edgeId, false)).getLong();
        }
        requireVisible(ElementKind.EDGE, edgeId);
        return store.edgeInVertex(edgeId);
    }

    /** The value of a vertex property this transaction sees, or null if it has none. */
    public Object vertexProperty(long vertexId, int keyId) {
        return property(ElementKind.VERTEX, vertexId, keyId);
    }

    public Object edgeProperty(long edgeId, int keyId) {
        return property(ElementKind.EDGE, edgeId, keyId);
    }

    /** Every property of a vertex this transaction sees, by key id in key order. */
    public Map<Integer, Object> vertexProperties(long vertexId) {
        return properties(ElementKind.VERTEX, vertexId);
    }

    public Map<Integer, Object> edgeProperties(long edgeId) {
        return properties(ElementKind.EDGE, edgeId);
    }

    /**
     * Reads ahead, for many elements of one kind, their labels ({@code labels}) and the properties
     * under {@code keys} (null: every property), one {@link Op.ReadMany} request per other
     * node that owns some of them; this node's elements are left to the single reads, which cost
     * no message. Each owner records exactly the reads the single reads record ({@link #exists},
     * {@link #vertexLabel}, {@link #vertexProperty}, {@link #vertexProperties} and their edge
     * forms run there), and later single reads of these elements are answered from what came back
     * until this transaction next writes (see {@link ReadAhead}). An element the owner does not
     * show is not kept, so its single read reports it as it would have.
     */
    public void readMany(ElementKind kind, long[] elements, boolean labels, int[] keys) {
        if (remote.otherMembersEmpty()) {
            return;
        }
        if (readAhead == null) {
            readAhead = new ReadAhead();
        }
        Map<Integer, LongList> byNode = new java.util.TreeMap<>();
        for (long element : elements) {
            int owner = owner(element);
            if (owner >= 0 && !ReadAhead.answers(readAhead.get(kind, element), labels, keys)) {
                byNode.computeIfAbsent(owner, n -> new LongList()).add(element);
            }
        }
        int[] nodes = byNode.keySet().stream().mapToInt(Integer::intValue).toArray();
        long[][] asked = byNode.values().stream().map(LongList::toArray).toArray(long[][]::new);
        String[] keyNames = keys == null ? null : new String[keys.length];
        for (int i = 0; keys != null && i < keys.length; i++) {
            keyNames[i] = store.propertyKeys().name(keys[i]);
        }
        Wire.Reader[] replies;
        try {
            replies = remote.callEach(nodes, n -> new Op.ReadMany(kind, asked[n], labels, keyNames));
        } catch (ReplyTooLargeException tooMuch) {
            return; // values too large to read ahead in one message: each single read asks for its own
        }
        for (int n = 0; n < nodes.length; n++) {
            Wire.Reader in = replies[n];
            for (long id : asked[n]) {
                if (!in.getBoolean()) {
                    continue; // not seen there: its single read reports it
                }
                ReadAhead.Entry entry = readAhead.put(kind, id);
                if (labels) {
                    entry.label = store.labels().intern(in.getString());
                }
                if (keys == null) {
                    entry.all = readProperties(in);
                } else {
                    for (int key : keys) {
                        entry.values.put(key, in.getValue());
                    }
                }
            }
        }
    }

    /** What was read ahead of an element of another node, or null: nothing (or this transaction wrote since). */
    private ReadAhead.Entry readAhead(ElementKind kind, long element) {
        if (readAhead == null) {
            return null;
        }
        ensureActive(); // an answer from memory must not outlive the transaction either
        return readAhead.get(kind, element);
    }

    /** This transaction writes: what it read ahead may not be what it sees any more. */
    void forgetReadAhead() {
        if (readAhead != null) {
            readAhead.clear();
        }
    }

    /**
     * The ids of the vertex's edges this transaction sees, in {@code direction}, with label
     * {@code label} ({@link EdgeCursor#ANY_LABEL} for any): OUT edges first, then IN, each in
     * neighbour order. A self-loop appears once per direction. The scan is validated at SR, so an
     * edge added or removed concurrently aborts this transaction rather than go unnoticed.
     */
    public long[] edges(long vertexId, EdgeDirection direction, int label) {
        int owner = owner(vertexId);
        if (owner >= 0) {
            return remote.call(owner, new Op.Edges(vertexId, direction, RemoteOp.labelName(store, label), false)).getLongs();
        }
        return adjacency.here(vertexId, direction, label, false);
    }

    /**
     * Runs {@code chain} from {@code vertices}, each with the bulk at the same index of {@code
     * bulks}: on a cluster, each node runs the stages on the vertices it owns, under this
     * transaction's part there, and sends the others straight to their owners (docs/cluster-
     * transactions.md, "Pushed chains"); the reads are recorded where they ran, as single reads
     * are. A failure at any node aborts this transaction.
     */
    public Chain.Outcome runChain(Chain chain, long[] vertices, long[] bulks) {
        ensureActive();
        if (!remote.otherMembersEmpty()) {
            return engine.clusterParts().chains().run(this, chain, vertices, bulks);
        }
        Chains.Piece piece = new Chains.Piece();
        Chains.runHere(this, chain, 0, Chains.Bag.of(vertices, bulks), piece, v -> -1);
        return new Chain.Outcome(piece.results.vertices(), piece.results.bulks(), piece.unseen.toArray(),
                new int[] {store.nodeId()}, 0);
    }

    /** Aborts this transaction if it is still active (a failure that is not a conflict left it unusable). */
    void abortQuietly() {
        if (state == State.ACTIVE) {
            commitProtocol().abort();
        }
    }

    /**
     * {@link #adjacent} of many vertices with any of {@code labels} (none: any label), one request
     * per owning node: entry {@code i} holds vertex {@code i}'s pairs, label by label, or is null if
     * this transaction does not see the vertex (its caller reports that as a single read would).
     */
    public long[][] adjacentMany(long[] vertices, EdgeDirection direction, int[] labels) {
        return adjacency.many(vertices, direction, labels);
    }

    /** Every vertex this transaction sees with label {@code label} (or any: {@link EdgeCursor#ANY_LABEL}), in slot order. */
    public long[] vertices(int label) {
        return scans.scan(ElementKind.VERTEX, label);
    }

    /** Every edge this transaction sees with label {@code label} (or any), in slot order. */
    public long[] allEdges(int label) {
        return scans.scan(ElementKind.EDGE, label);
    }

    /**
     * Every element of {@code kind} with {@code label} this transaction sees, a page at a time: this
     * node's, then each other member's in turn, each asked only when the pages before it are used
     * up (see {@link MemberScan}). Records the same reads as {@link #vertices}/{@link #allEdges}, on
     * each node as its turn comes.
     */
    public MemberScan scanByMember(ElementKind kind, int label) {
        ensureActive();
        int[] others = remote.otherMembers();
        return new MemberScan(this, kind, label, others);
    }

    /**
     * The vertices among {@code candidates} this transaction sees, in order, without recording a
     * read of each: for a layer above that looked them up in an index of its own and recorded a key
     * that covers them all (a label index look-up records {@link ConflictKey#vertexScan} of the
     * label, which every creation and removal of a vertex with that label writes).
     */
    public long[] visibleVertices(long[] candidates) {
        ensureActive();
        return scans.visible(ElementKind.VERTEX, candidates);
    }

    /**
     * The edges among {@code candidates} this transaction sees, in order, without recording a read
     * of each: for a layer above that looked them up in an index of its own and recorded a key that
     * covers them all (an edge label index look-up records {@link ConflictKey#edgeScan} of the label,
     * which every creation and removal of an edge with that label writes).
     */
    public long[] visibleEdges(long[] candidates) {
        ensureActive();
        return scans.visible(ElementKind.EDGE, candidates);
    }

    /**
     * How many vertices with label {@code label} (or any: {@link EdgeCursor#ANY_LABEL}) this
     * transaction sees, its own writes included, read from the element counters without visiting a
     * vertex. Recorded as a read of the label's scan, as {@link #vertices} is.
     */
    public long countVertices(int label) {
        return scans.count(ElementKind.VERTEX, label);
    }

    /** How many edges with label {@code label} (or any) this transaction sees; see {@link #countVertices}. */
    public long countEdges(int label) {
        return scans.count(ElementKind.EDGE, label);
    }

    /** This transaction's own delta to counter {@code key}, or null if it changed nothing there. */
    long[] ownCount(long key) {
        return countDeltas.get(key);
    }

    /** A vertex or edge with label {@code label} was created (+1) or deleted (-1) here. */
    void counted(ElementKind kind, int label, int delta) {
        countDeltas.computeIfAbsent(ElementCounts.key(kind, label), k -> new long[1])[0] += delta;
        countDeltas.computeIfAbsent(ElementCounts.key(kind, ConflictKey.ANY_LABEL), k -> new long[1])[0] += delta;
    }

    /**
     * Adds this transaction's count deltas to the counters, with its id in their words; called before
     * it takes its commit time, so that every reader whose snapshot includes the commit finds them.
     */
    void publishCounts() {
        ElementCounts counts = engine.counts();
        for (Map.Entry<Long, long[]> e : countDeltas.entrySet()) {
            long delta = e.getValue()[0];
            if (delta != 0) {
                ElementCounts.Counter counter = counts.counter(e.getKey());
                publishedCounts.add(counter.append(id, delta)); // recorded first: commit or abort must settle it
                counter.foldIfDue();
            }
        }
    }

    /**
     * Records a read of a key defined by a layer above (an index entry, an external id), so that
     * validation catches a concurrent write of the same key.
     */
    public void recordRead(ConflictKey key) {
        if (routeRecord(key, false)) {
            return;
        }
        ensureActive();
        if (isolation == Isolation.SERIALIZABLE) {
            reads.add(key); // SI validates nothing, so it need not remember what it read
        }
    }

    /** Records a write of a key defined by a layer above; see {@link #recordRead}. */
    public void recordWrite(ConflictKey key) {
        if (routeRecord(key, true)) {
            return;
        }
        ensureActive();
        writes.add(key);
    }

    /**
     * Records that a layer above scanned the elements of {@code kind} with label {@code label} in
     * an index of its own (and reads the candidates with {@link #visibleVertices} or {@link
     * #visibleEdges}, which record nothing), so that validation catches a phantom: a read of the
     * label's scan key, which every creation and removal of an element with that label writes. A
     * label no element ever had ({@link io.gtran.storage.Dictionary#ABSENT}) is a read of the
     * all-labels scan key instead, which the first element created with the label writes.
     */
    public void recordLabelScan(ElementKind kind, int label) {
        // a known label: its own scan key; a name without an id yet: the all-labels key, which the
        // creation that gives it an id writes
        long scanned = label == io.gtran.storage.Dictionary.ABSENT ? ConflictKey.ANY_LABEL : label;
        recordRead(kind == ElementKind.VERTEX ? ConflictKey.vertexScan(scanned) : ConflictKey.edgeScan(scanned));
    }

    // ---------------------------------------------------------------- writes

    /**
     * Creates a vertex on node {@code node}, a member of this node's cluster (with no properties
     * yet); returns its id, which names that node.
     *
     * @throws IllegalArgumentException if {@code node} is not a member
     */
    public long addVertex(int node, int label) {
        if (node == store.nodeId()) {
            return addVertex(label);
        }
        if (remote.otherMembersEmpty() || !engine.members().nodes().contains(node)) {
            throw new IllegalArgumentException("node " + node + " is not a member of this cluster: members="
                    + engine.members().nodes());
        }
        return remote.call(node, new Op.AddVertex(store.labels().name(label))).getLong();
    }

    /** Creates a vertex on this node (with no properties yet); returns its id. */
    public long addVertex(int label) {
        ensureActive();
        long vertexId = store.addVertex(label, id, INFINITY);
        log.created(ElementKind.VERTEX, vertexId);
        counted(ElementKind.VERTEX, label, +1);
        writes.add(ConflictKey.element(vertexId));
        writes.add(ConflictKey.vertexScan(label));
        writes.add(ConflictKey.vertexScan(ConflictKey.ANY_LABEL));
        return vertexId;
    }

    /**
     * Creates an edge between two vertices this transaction sees; returns its id, which names the
     * out-vertex's node. The edge lives there; when the in-vertex is on another node, that node gets
     * a mirror of it in the same transaction (see {@link Mirrors}).
     *
     * @throws TransactionConflictException if an endpoint is being deleted, or was deleted after this transaction began
     */
    public long addEdge(long outVertex, long inVertex, int label) {
        int outHome = home(outVertex);
        int inHome = home(inVertex);
        if (outHome == inHome || !spansNodes()) {
            int owner = owner(outVertex);
            if (owner >= 0) {
                return remote.call(owner, new Op.AddEdge(outVertex, inVertex, store.labels().name(label))).getLong();
            }
            return addEdgeHere(outVertex, inVertex, label, true);
        }
        return crossEdges.add(outVertex, inVertex, label, outHome, inHome);
    }

    /**
     * Creates edge {@code outs[i] -> ins[i]} labelled {@code labels[i]} for each {@code i}, as
     * {@link #addEdge} creates each, with one request per other node for each kind of half instead
     * of one per edge (docs/cluster-transactions.md, "Execution": batched writes); returns their ids
     * in order. A failure leaves some of the edges added in this transaction: roll it back.
     *
     * @throws TransactionConflictException if an endpoint is being deleted, or was deleted after this transaction began
     */
    public long[] addEdges(long[] outs, long[] ins, int[] labels) {
        return new BulkEdges(this).add(outs, ins, labels);
    }

    /**
     * The edge itself, on the out-vertex's node (this one); with {@code checkIn} the in-vertex is
     * here too, else its node checks it when it adds the mirror.
     */
    final long addEdgeHere(long outVertex, long inVertex, int label, boolean checkIn) {
        requireVisible(ElementKind.VERTEX, outVertex);
        if (checkIn) {
            requireVisible(ElementKind.VERTEX, inVertex);
        }
        long edgeId = store.addEdge(outVertex, inVertex, label, id, INFINITY);
        log.created(ElementKind.EDGE, edgeId);
        counted(ElementKind.EDGE, label, +1);
        rules.writeEdgeKeys(edgeId, outVertex, inVertex, label);
        // Pairs with removeVertex: it ends the vertex, then scans its edges. One of the two sees
        // the other, so an edge never outlives its endpoint.
        VarHandle.fullFence();
        rules.requireNotBeingDeleted(outVertex);
        if (checkIn) {
            rules.requireNotBeingDeleted(inVertex);
        }
        return edgeId;
    }

    /** Deletes an edge this transaction sees (and its mirror, if its in-vertex is on another node). */
    public void removeEdge(long edgeId) {
        forgetReadAhead();
        int owner = owner(edgeId);
        long inVertex;
        if (owner >= 0) {
            inVertex = remote.call(owner, new Op.RemoveEdge(edgeId)).getLong();
        } else {
            inVertex = removeEdgeHere(edgeId);
        }
        crossEdges.removeMirrorOf(edgeId, inVertex);
    }

    /** Ends the edge's header here; returns its in-vertex. */
    long removeEdgeHere(long edgeId) {
        requireVisible(ElementKind.EDGE, edgeId);
        long outVertex = store.edgeOutVertex(edgeId);
        long inVertex = store.edgeInVertex(edgeId);
        rules.endElement(ElementKind.EDGE, edgeId);
        rules.writeEdgeKeys(edgeId, outVertex, inVertex, store.edges().label(edgeId));
        return inVertex;
    }

    /** Deletes a vertex this transaction sees, with all its edges (on other nodes too). */
    public void removeVertex(long vertexId) {
        forgetReadAhead();
        crossEdges.removeAcross(vertexId);
        int owner = owner(vertexId);
        if (owner >= 0) {
            remote.call(owner, new Op.RemoveVertex(vertexId));
            return;
        }
        requireVisible(ElementKind.VERTEX, vertexId);
        int label = store.vertices().label(vertexId);
        rules.endElement(ElementKind.VERTEX, vertexId);
        writes.add(ConflictKey.element(vertexId));
        writes.add(ConflictKey.vertexScan(label));
        writes.add(ConflictKey.vertexScan(ConflictKey.ANY_LABEL));
        recordRead(ConflictKey.adjacencyOut(vertexId));
        recordRead(ConflictKey.adjacencyIn(vertexId));
        VarHandle.fullFence(); // see addEdge
        LongList incident = new LongList();
        LongList crossing = new LongList(); // per incident edge: 0 local, 1 to another node, 2 a mirror here
        EdgeCursor cursor = edgeCursor();
        cursor.open(vertexId, EdgeDirection.BOTH, EdgeCursor.ANY_LABEL);
        while (cursor.next()) {
            long edgeId = cursor.edgeId();
            if (ElementIds.isWellFormed(edgeId)) {
                incident.add(edgeId);
                boolean across = home(cursor.neighbour()) != home(vertexId);
                crossing.add(!across ? 0 : cursor.direction() == EdgeDirection.IN ? 2 : 1);
            }
        }
        for (int i = 0; i < incident.size(); i++) {
            long edgeId = incident.get(i);
            if (rules.endEdgeOfDeletedVertex(edgeId, crossing.get(i) != 2)) {
                if (crossing.get(i) != 0) {
                    // Its other half is on another node, which the coordinator ended first; one it
                    // did not know of was added after this transaction's snapshot.
                    throw conflict(ConflictKind.DELETED_ELEMENT, 0, ConflictKey.element(vertexId),
                            "an edge to another node was added to the vertex after this transaction began");
                }
                rules.writeEdgeKeys(edgeId, store.edgeOutVertex(edgeId), store.edgeInVertex(edgeId), store.edges().label(edgeId));
            }
        }
    }

    /**
     * The vertex's edges this transaction sees in {@code direction} with label {@code label} (or
     * any), as pairs: edge id, then the vertex at the edge's other end. Same order as {@link #edges};
     * recorded as the same reads.
     */
    public long[] adjacent(long vertexId, EdgeDirection direction, int label) {
        int owner = owner(vertexId);
        if (owner >= 0) {
            return remote.call(owner, new Op.Edges(vertexId, direction, RemoteOp.labelName(store, label), true)).getLongs();
        }
        return adjacency.here(vertexId, direction, label, true);
    }

    /** Sets a vertex property; null removes it (as {@link #removeVertexProperty}). */
    public void setVertexProperty(long vertexId, int keyId, Object value) {
        writeProperty(ElementKind.VERTEX, vertexId, keyId, value);
    }

    public void setEdgeProperty(long edgeId, int keyId, Object value) {
        writeProperty(ElementKind.EDGE, edgeId, keyId, value);
    }

    /**
     * {@link #setEdgeProperty}{@code (edges[i], keys[i], values[i])} for each {@code i} (values not
     * null), with one request per other node instead of one per property (docs/cluster-transactions.md,
     * "Execution": batched writes). A failure leaves some of them written: roll the transaction back.
     */
    public void setEdgeProperties(long[] edges, int[] keys, Object[] values) {
        new BulkEdges(this).setProperties(edges, keys, values);
    }

    /** Removes a vertex property; returns false if the vertex had none under that key. */
    public boolean removeVertexProperty(long vertexId, int keyId) {
        return writeProperty(ElementKind.VERTEX, vertexId, keyId, null);
    }

    public boolean removeEdgeProperty(long edgeId, int keyId) {
        return writeProperty(ElementKind.EDGE, edgeId, keyId, null);
    }

    private boolean writeProperty(ElementKind kind, long element, int keyId, Object value) {
        forgetReadAhead();
        int owner = owner(element);
        if (owner < 0) {
            return rules.writeProperty(kind, element, keyId, value);
        }
        String key = store.propertyKeys().name(keyId);
        if (value == null) {
            return remote.call(owner, new Op.WriteProperty(kind, element, key, null, true)).getBoolean();
        }
        remote.call(owner, new Op.WriteProperty(kind, element, key, value, false));
        return true;
    }

    /**
     * The operations this transaction ran on each other node so far (requests; a resend is not
     * counted), by node: for {@code profile()} to show what a step cost. Empty on a single node.
     */
    public Map<Integer, Integer> remoteCalls() {
        return remote.callsByNode();
    }

    // ---------------------------------------------------------------- indexes and user-supplied ids

    /** This transaction's property-value index operations, each at the element's owner. */
    public IndexRouting indexes() {
        return indexes;
    }

    /** This transaction's user-supplied id operations, each where the id is kept. */
    public ExternalIdRouting externalIds() {
        return externalIds;
    }

    // ---------------------------------------------------------------- commit and abort

    /**
     * Commits, or aborts with a {@link TransactionConflictException}. Steps:
     * <ol>
     *   <li>A transaction that wrote nothing read one snapshot: it only waits for the validating
     *       transactions it pre-read to commit.
     *   <li>Take the commit time and enter the recent committed table in one step; status
     *       VALIDATING with that commit time.
     *   <li>At SR (validation on): once every smaller commit time has registered, every
     *       transaction that committed or is validating between begin and commit time and wrote
     *       something this one read or scanned, or read around, is a conflict. A committed one
     *       aborts this transaction; a validating one becomes a dependency (optimistic validation)
     *       or aborts it.
     *   <li>Wait, bounded, for the dependencies: pre-read ones must commit, validation ones abort.
     *   <li>Status COMMITTED: the decision point.
     *   <li>Stamp the commit time over this transaction's id in every word it wrote; hand the
     *       versions it superseded to GC.
     *   <li>Free the status-table entry.
     * </ol>
     */
    public void commit() {
        ensureActive();
        commitProtocol().commit();
    }

    /**
     * Aborts this transaction for a conflict a layer above detected on its own keys (for example two
     * transactions binding the same user-supplied id): undoes every write and returns the exception
     * to throw, as if the engine had found the conflict.
     *
     * @param other the conflicting transaction's id, or 0 if unknown
     * @throws IllegalStateException if the transaction already ended
     */
    public TransactionConflictException abortForConflict(ConflictKind kind, long other, ConflictKey key, String detail) {
        ensureActive();
        return conflict(kind, other, key, detail);
    }

    /**
     * Aborts, undoing every write. Does nothing if the transaction already ended, or if its commit
     * outcome is unknown ({@link CommitOutcomeUnknownException}): that is the commit protocol's to
     * decide, alike on every node.
     */
    public void rollback() {
        if (state != State.ACTIVE || outcomeUnknown) {
            return;
        }
        engine.countRollback();
        commitProtocol().abort();
    }

    /** Rolls back if still active. */
    @Override
    public void close() {
        rollback();
    }

    /**
     * Registers an action that reverts a change this transaction made outside the store (an
     * external-id binding); the abort runs them, newest first, once every word is undone.
     */
    void onAbort(Runnable action) {
        if (abortActions == null) {
            abortActions = new ArrayList<>(2);
        }
        abortActions.add(action);
    }

    /** Runs the actions {@link #onAbort} registered, newest first, once. */
    void runAbortActions() {
        List<Runnable> actions = abortActions;
        if (actions == null) {
            return;
        }
        abortActions = null;
        for (int i = actions.size() - 1; i >= 0; i--) {
            actions.get(i).run();
        }
    }

    void markCommitted(long time) {
        state = State.COMMITTED;
        commitTime = time;
    }

    void markAborted() {
        state = State.ABORTED;
    }

    TransactionConflictException conflict(ConflictKind kind, long other, ConflictKey key, String detail) {
        String on = key == null ? null : key.describe(store.propertyKeys(), store.labels());
        return conflict(kind, other, key, on, detail);
    }

    /** A conflict another node found in its part of this transaction, described there. */
    TransactionConflictException remoteConflict(ConflictKind kind, long other, String on, String detail) {
        return conflict(kind, other, null, on, detail);
    }

    private TransactionConflictException conflict(ConflictKind kind, long other, ConflictKey key, String on, String detail) {
        TransactionConflictException e = new TransactionConflictException(kind, id, other, key, on, detail);
        countAbort(kind);
        if (state == State.ACTIVE) {
            commitProtocol().abort();
        }
        return e;
    }

    /** Counts an abort of {@code kind} in the engine's statistics: once per transaction, by its coordinator. */
    void countAbort(ConflictKind kind) {
        engine.countAbort(kind);
    }

    /** The commit protocol of this transaction's role here. */
    CommitProtocol commitProtocol() {
        return new CommitProtocol(this);
    }

    /** Waits for the validating transactions this part pre-read to commit (a read-only transaction's end, here). */
    void resolvePreReads() {
        ensureActive();
        commitProtocol().awaitPreReadDependencies();
    }

    // ---------------------------------------------------------------- visibility
    /**
     * Whether the element of kind {@code kind} exists in this transaction's snapshot (its own writes
     * included); recorded as a read of the element. As {@link #vertexExists} or {@link #edgeExists}.
     */
    public boolean exists(ElementKind kind, long element) {
        int owner = owner(element);
        if (owner >= 0) {
            if (readAhead(kind, element) != null) {
                return true; // seen when read ahead, and nothing written since
            }
            return remote.call(owner, new Op.Exists(kind, element)).getBoolean();
        }
        ensureActive();
        recordRead(ConflictKey.element(element));
        return ElementIds.isWellFormed(element) && visibility.visible(kind, element);
    }

    void requireVisible(ElementKind kind, long element) {
        if (!exists(kind, element)) {
            for (RecentCommittedTable.Entry d : visibility.preReadDependencies) {
                if (d.outcome() == TxnStatus.ABORTED) {
                    throw conflict(ConflictKind.PRE_READ_DEPENDENCY_ABORTED, d.txnId, ConflictKey.element(element),
                            "this transaction read its writes while it validated");
                }
            }
            throw new ElementNotFoundException(kind.display(), element);
        }
    }

    private Object property(ElementKind kind, long element, int key) {
        int owner = owner(element);
        if (owner >= 0) {
            ReadAhead.Entry known = readAhead(kind, element);
            if (ReadAhead.hasValue(known, key)) {
                return ReadAhead.value(known, key);
            }
            return remote.call(owner, new Op.Property(kind, element, store.propertyKeys().name(key))).getValue();
        }
        requireVisible(kind, element);
        recordRead(ConflictKey.property(element, key));
        int version = visibility.visibleVersion(kind, element, key);
        return version == NO_TUPLE ? null : versions.value(version);
    }

    private Map<Integer, Object> properties(ElementKind kind, long element) {
        int owner = owner(element);
        if (owner >= 0) {
            ReadAhead.Entry known = readAhead(kind, element);
            if (ReadAhead.answers(known, false, null)) {
                return ReadAhead.all(known);
            }
            return readProperties(remote.call(owner, new Op.Properties(kind, element)));
        }
        requireVisible(kind, element);
        recordRead(ConflictKey.propertyKeys(element));
        Map<Integer, Object> result = new LinkedHashMap<>();
        PropertyCursor cursor = kind.table(store).newPropertyCursor().open(element);
        List<Integer> keys = new ArrayList<>();
        while (cursor.next()) {
            keys.add(cursor.keyId());
        }
        for (int key : keys) {
            recordRead(ConflictKey.property(element, key));
            int version = visibility.visibleVersion(kind, element, key);
            if (version != NO_TUPLE) {
                result.put(key, versions.value(version));
            }
        }
        return result;
    }

    /** Every property as {@link Op.Properties} answers, by this node's key ids in key order. */
    private Map<Integer, Object> readProperties(io.gtran.txn.protocol.Wire.Reader in) {
        Map<Integer, Object> byKey = new java.util.TreeMap<>();
        for (int i = in.getInt(); i > 0; i--) {
            int key = store.propertyKeys().intern(in.getString());
            byKey.put(key, in.getValue());
        }
        return new LinkedHashMap<>(byKey);
    }

    // ---------------------------------------------------------------- helpers

    /** The other member that owns {@code element}, where its operations run; -1 to run here. */
    int owner(long element) {
        return remote.remoteOwner(element);
    }

    /** The node an element's id names (this node's for an id that is not a gtran element id). */
    int home(long element) {
        return ElementIds.isWellFormed(element) ? ElementIds.node(element) : store.nodeId();
    }

    /** Whether this transaction can involve other nodes: it coordinates with parts elsewhere (a part is one). */
    boolean spansNodes() {
        return !remote.otherMembersEmpty();
    }

    void requireMember(int node, long element) {
        if (!engine.members().nodes().contains(node)) {
            throw new ElementNotFoundException("vertex", element);
        }
    }

    /** The node an element's operations run on: its owner if a member, else this one. */
    int nodeOf(long element) {
        int owner = owner(element);
        return owner < 0 ? store.nodeId() : owner;
    }

    /** Sends a read or write of an element-based key to the element's owner; false if it is this node's. */
    private boolean routeRecord(ConflictKey key, boolean write) {
        int owner = reads.ownerNode(key) == store.nodeId() ? -1 : owner(key.element());
        if (owner < 0) {
            return false;
        }
        String propertyKey = key.kind() == ConflictKey.Kind.PROPERTY ? store.propertyKeys().name((int) key.detail()) : null;
        remote.call(owner, new Op.Record(write, key.kind(), key.element(), key.detail(), propertyKey));
        return true;
    }

    void ensureActive() {
        if (state != State.ACTIVE) {
            throw new IllegalStateException("transaction " + TxnWords.toString(id) + " is " + state.name().toLowerCase()
                    + "; begin a new one");
        }
        if (outcomeUnknown) {
            throw new IllegalStateException("transaction " + TxnWords.toString(id) + " is being committed or aborted by the"
                    + " commit protocol (its outcome was unknown); begin a new one");
        }
        if (engine.isClosed()) {
            throw new IllegalStateException("transaction engine is closed: node=" + store.nodeId());
        }
    }

    EdgeCursor edgeCursor() {
        if (edgeCursor == null) {
            edgeCursor = store.newEdgeCursor();
        }
        return edgeCursor;
    }

    @Override
    public String toString() {
        return "Transaction[" + TxnWords.toString(id) + " " + isolation + " begin=" + beginTime + " " + state + "]";
    }

    /** A growable long array. */
    static final class LongList {
        private long[] values = new long[16];
        private int size;

        void add(long value) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = value;
        }

        void addAll(long[] more) {
            for (long v : more) {
                add(v);
            }
        }

        long get(int index) {
            return values[index];
        }

        int size() {
            return size;
        }

        long[] toArray() {
            return Arrays.copyOf(values, size);
        }
    }
}
