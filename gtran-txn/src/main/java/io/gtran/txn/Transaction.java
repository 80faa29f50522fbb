// Over 600 lines: one transaction's reads, writes, scans and routing; what a part of another node's transaction does differently is ParticipantPart and PartCommit.
package io.gtran.txn;

import static io.gtran.storage.MvTupleDescriptor.NO_TUPLE;
import static io.gtran.txn.local.TxnWords.INFINITY;
import static io.gtran.txn.local.TxnWords.NEVER;

import io.gtran.storage.EdgeCursor;
import io.gtran.storage.EdgeDirection;
import io.gtran.storage.ElementIds;
import io.gtran.storage.ElementTable;
import io.gtran.storage.GraphStore;
import io.gtran.storage.MvStore;
import io.gtran.storage.PropertyCursor;
import io.gtran.storage.UnknownElementException;
import io.gtran.txn.local.TxnWords;
import io.gtran.txn.protocol.Wire;
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
    /** {@link #inspect} results besides timestamps. */
    static final long OWN = -2;
    static final long RETRY = -3;
    static final long LIVE_OTHER = -4;
    static final long ABORTED_OTHER = -5;

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
    /** When status reads started failing (the engine's time source; see awaitReachable), 0 while they succeed. */
    private long unreachableSince;
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
    /** Validating transactions whose versions this one read (optimistic pre-read): they must commit. */
    final List<RecentCommittedTable.Entry> preReadDependencies = new ArrayList<>();
    /** Executing transactions whose versions this one read around: re-checked at validation. */
    final java.util.Set<Long> skippedWriters = new java.util.HashSet<>();

    /** Status of the other transaction the last {@link #inspect} met. */
    private TxnStatus otherStatus;
    /** The word the last {@link #inspectSettled} answered about. */
    private long inspectedWord;
    private long otherCommitTime;
    private EdgeCursor edgeCursor;
    private final WriteRules rules;
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
            return store.labels().intern(remote.call(owner, RemoteOp.LABEL, w -> w.putByte(kind.ordinal()).putLong(element)).getString());
        }
        requireVisible(kind, element);
        return kind.table(store).label(element);
    }

    public long edgeOutVertex(long edgeId) {
        int owner = owner(edgeId);
        if (owner >= 0) {
            return remote.call(owner, RemoteOp.EDGE_OUT, w -> w.putLong(edgeId)).getLong();
        }
        requireVisible(ElementKind.EDGE, edgeId);
        return store.edgeOutVertex(edgeId);
    }

    public long edgeInVertex(long edgeId) {
        int owner = owner(edgeId);
        if (owner >= 0) {
            return remote.call(owner, RemoteOp.EDGE_IN, w -> w.putLong(edgeId)).getLong();
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
     * under {@code keys} (null: every property), one {@link RemoteOp#READ_MANY} request per other
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
        Wire.Reader[] replies = remote.callEach(nodes, RemoteOp.READ_MANY, (w, n) -> {
            w.putByte(kind.ordinal()).putLongs(asked[n]).putBoolean(labels).putInt(keys == null ? -1 : keys.length);
            for (int i = 0; keys != null && i < keys.length; i++) {
                w.putString(store.propertyKeys().name(keys[i]));
            }
        });
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
    private void forgetReadAhead() {
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
            return remote.call(owner, RemoteOp.EDGES, w -> w.putLong(vertexId).putByte(direction.ordinal())
                    .putString(RemoteOp.labelName(store, label))).getLongs();
        }
        return adjacentHere(vertexId, direction, label, false);
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
        long[][] result = new long[vertices.length][];
        Map<Integer, LongList> byNode = new java.util.TreeMap<>();
        Map<Integer, List<Integer>> positions = new java.util.TreeMap<>();
        for (int i = 0; i < vertices.length; i++) {
            int owner = owner(vertices[i]);
            byNode.computeIfAbsent(owner, n -> new LongList()).add(vertices[i]);
            positions.computeIfAbsent(owner, n -> new ArrayList<>()).add(i);
        }
        LongList here = byNode.remove(-1);
        if (here != null) {
            place(result, positions.get(-1), adjacentManyHere(here.toArray(), direction, labels));
        }
        int[] nodes = byNode.keySet().stream().mapToInt(Integer::intValue).toArray();
        long[][] asked = byNode.values().stream().map(LongList::toArray).toArray(long[][]::new);
        Wire.Reader[] replies = remote.callEach(nodes, RemoteOp.ADJACENT_MANY, (w, n) -> {
            w.putLongs(asked[n]).putByte(direction.ordinal()).putInt(labels.length);
            for (int label : labels) {
                w.putString(RemoteOp.labelName(store, label));
            }
        });
        for (int n = 0; n < nodes.length; n++) {
            long[][] answers = new long[asked[n].length][];
            for (int i = 0; i < answers.length; i++) {
                answers[i] = replies[n].getBoolean() ? replies[n].getLongs() : null;
            }
            place(result, positions.get(nodes[n]), answers);
        }
        return result;
    }

    private static void place(long[][] result, List<Integer> at, long[][] answers) {
        for (int i = 0; i < answers.length; i++) {
            result[at.get(i)] = answers[i];
        }
    }

    long[][] adjacentManyHere(long[] vertices, EdgeDirection direction, int[] labels) {
        long[][] answers = new long[vertices.length][];
        for (int i = 0; i < vertices.length; i++) {
            if (!exists(ElementKind.VERTEX, vertices[i])) {
                continue; // null: not seen
            }
            if (labels.length == 0) {
                answers[i] = adjacentHere(vertices[i], direction, EdgeCursor.ANY_LABEL, true);
                continue;
            }
            LongList all = new LongList();
            for (int label : labels) {
                all.addAll(adjacentHere(vertices[i], direction, label, true));
            }
            answers[i] = all.toArray();
        }
        return answers;
    }

    /** {@link #edges} ({@code pairs} false) or {@link #adjacent} (true) of a vertex on this node. */
    private long[] adjacentHere(long vertexId, EdgeDirection direction, int label, boolean pairs) {
        requireVisible(ElementKind.VERTEX, vertexId);
        if (direction != EdgeDirection.IN) {
            recordRead(ConflictKey.adjacencyOut(vertexId));
        }
        if (direction != EdgeDirection.OUT) {
            recordRead(ConflictKey.adjacencyIn(vertexId));
        }
        LongList result = new LongList();
        EdgeCursor cursor = edgeCursor();
        cursor.open(vertexId, direction, label);
        while (cursor.next()) {
            long edgeId = cursor.edgeId();
            if (ElementIds.isWellFormed(edgeId) && visible(ElementKind.EDGE, edgeId)) {
                long neighbour = cursor.neighbour();
                boolean mirror = cursor.direction() == EdgeDirection.IN && engine.mirrors().isMirror(neighbour);
                result.add(mirror ? engine.mirrors().edgeOf(edgeId) : edgeId);
                if (pairs) {
                    result.add(neighbour);
                }
            }
        }
        return result.toArray();
    }

    /** Every vertex this transaction sees with label {@code label} (or any: {@link EdgeCursor#ANY_LABEL}), in slot order. */
    public long[] vertices(int label) {
        return scan(ElementKind.VERTEX, label);
    }

    /** Every edge this transaction sees with label {@code label} (or any), in slot order. */
    public long[] allEdges(int label) {
        return scan(ElementKind.EDGE, label);
    }

    private long[] scan(ElementKind kind, int label) {
        long[] here = scanHere(kind, label);
        if (remote.otherMembersEmpty()) {
            return here;
        }
        LongList all = new LongList();
        all.addAll(here);
        for (Wire.Reader reply : remote.callEach(remote.otherMembers(), RemoteOp.SCAN,
                (w, i) -> w.putByte(kind.ordinal()).putString(RemoteOp.labelName(store, label)))) {
            all.addAll(reply.getLongs());
        }
        return all.toArray();
    }

    private long[] scanHere(ElementKind kind, int label) {
        LongList result = new LongList();
        scanHere(kind, label, 0, Integer.MAX_VALUE, result);
        return result.toArray();
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

    long[] scanPageHere(ElementKind kind, int label, int fromSlot, int max, int[] nextSlot) {
        LongList result = new LongList();
        nextSlot[0] = scanHere(kind, label, fromSlot, max, result);
        return result.toArray();
    }

    /**
     * Adds the visible elements from slot {@code fromSlot} on to {@code result}, at most {@code max};
     * returns the slot to go on from, or -1 at the end of the table.
     */
    private int scanHere(ElementKind kind, int label, int fromSlot, int max, LongList result) {
        ensureActive();
        recordRead(kind == ElementKind.VERTEX ? ConflictKey.vertexScan(label) : ConflictKey.edgeScan(label));
        ElementTable table = kind.table(store);
        int limit = table.slotLimit();
        int found = 0;
        for (int slot = fromSlot; slot < limit; slot++) {
            if (found == max) {
                return slot;
            }
            long element = table.idAtSlot(slot);
            if (element == ElementIds.NONE) {
                continue;
            }
            try {
                if ((label == EdgeCursor.ANY_LABEL || table.label(element) == label) && visible(kind, element)
                        && !(kind == ElementKind.EDGE && engine.mirrors().isMirror(store.edgeOutVertex(element)))) {
                    result.add(element);
                    found++;
                }
            } catch (UnknownElementException freed) {
                // removed by GC since the slot was read: dead to every running transaction
            }
        }
        return -1;
    }

    /**
     * The vertices among {@code candidates} this transaction sees, in order, without recording a
     * read of each: for a layer above that looked them up in an index of its own and recorded a key
     * that covers them all (a label index look-up records {@link ConflictKey#vertexScan} of the
     * label, which every creation and removal of a vertex with that label writes).
     */
    public long[] visibleVertices(long[] candidates) {
        ensureActive();
        return remote.otherMembersEmpty() ? visibleHere(ElementKind.VERTEX, candidates) : visibleAcross(ElementKind.VERTEX, candidates);
    }

    /**
     * The edges among {@code candidates} this transaction sees, in order, without recording a read
     * of each: for a layer above that looked them up in an index of its own and recorded a key that
     * covers them all (an edge label index look-up records {@link ConflictKey#edgeScan} of the label,
     * which every creation and removal of an edge with that label writes).
     */
    public long[] visibleEdges(long[] candidates) {
        ensureActive();
        return remote.otherMembersEmpty() ? visibleHere(ElementKind.EDGE, candidates) : visibleAcross(ElementKind.EDGE, candidates);
    }

    /**
     * How many vertices with label {@code label} (or any: {@link EdgeCursor#ANY_LABEL}) this
     * transaction sees, its own writes included, read from the element counters without visiting a
     * vertex. Recorded as a read of the label's scan, as {@link #vertices} is.
     */
    public long countVertices(int label) {
        return count(ElementKind.VERTEX, label);
    }

    /** How many edges with label {@code label} (or any) this transaction sees; see {@link #countVertices}. */
    public long countEdges(int label) {
        return count(ElementKind.EDGE, label);
    }

    private long count(ElementKind kind, int label) {
        long total = countHere(kind, label);
        for (Wire.Reader reply : remote.callEach(remote.otherMembers(), RemoteOp.COUNT,
                (w, i) -> w.putByte(kind.ordinal()).putString(RemoteOp.labelName(store, label)))) {
            total += reply.getLong();
        }
        return total;
    }

    private long countHere(ElementKind kind, int label) {
        ensureActive();
        ConflictKey.Kind scan = kind == ElementKind.VERTEX ? ConflictKey.Kind.VERTEX_SCAN : ConflictKey.Kind.EDGE_SCAN;
        recordRead(new ConflictKey(scan, label, 0));
        long[] own = countDeltas.get(ElementCounts.key(kind, label));
        long total = own == null ? 0 : own[0];
        ElementCounts.Counter counter = engine.counts().find(kind, label);
        if (counter == null) {
            return total;
        }
        for (ElementCounts.Delta d = counter.head(); d != null; d = d.next) {
            long time;
            do {
                time = readTime(d.word, true, scan, label);
            } while (time == RETRY);
            if (time != OWN && time != NEVER && time <= beginTime) {
                total += d.delta; // OWN: published at commit; counted above from countDeltas
            }
        }
        return total;
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
        if (routeRecord(key, RemoteOp.RECORD_READ)) {
            return;
        }
        ensureActive();
        if (isolation == Isolation.SERIALIZABLE) {
            reads.add(key); // SI validates nothing, so it need not remember what it read
        }
    }

    /** Records a write of a key defined by a layer above; see {@link #recordRead}. */
    public void recordWrite(ConflictKey key) {
        if (routeRecord(key, RemoteOp.RECORD_WRITE)) {
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
        return remote.call(node, RemoteOp.ADD_VERTEX, w -> w.putString(store.labels().name(label))).getLong();
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
                return remote.call(owner, RemoteOp.ADD_EDGE, w -> w.putLong(outVertex).putLong(inVertex)
                        .putString(store.labels().name(label))).getLong();
            }
            return addEdgeHere(outVertex, inVertex, label, true);
        }
        return addEdgeAcross(outVertex, inVertex, label, outHome, inHome);
    }

    /** An edge whose endpoints live on two members: the edge on the out-vertex's, its mirror on the in-vertex's. */
    long addEdgeAcross(long outVertex, long inVertex, int label, int outHome, int inHome) {
        requireMember(outHome, outVertex);
        requireMember(inHome, inVertex);
        long edgeId = outHome == store.nodeId()
                ? addEdgeHere(outVertex, inVertex, label, false)
                : remote.call(outHome, RemoteOp.ADD_EDGE, w -> w.putLong(outVertex).putLong(inVertex)
                        .putString(store.labels().name(label))).getLong();
        if (inHome == store.nodeId()) {
            addMirror(edgeId, outVertex, inVertex, label);
        } else {
            remote.call(inHome, RemoteOp.ADD_MIRROR, w -> w.putLong(edgeId).putLong(outVertex).putLong(inVertex)
                    .putString(store.labels().name(label)));
        }
        return edgeId;
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

    /** The mirror of edge {@code edgeId} (on another node) at its in-vertex, which lives here. */
    void addMirror(long edgeId, long outVertex, long inVertex, int label) {
        ensureActive();
        if (home(inVertex) != store.nodeId()) {
            throw new IllegalStateException("node " + store.nodeId() + " asked to mirror edge " + ElementIds.toString(edgeId)
                    + " whose in-vertex " + ElementIds.toString(inVertex) + " lives on node " + home(inVertex));
        }
        requireVisible(ElementKind.VERTEX, inVertex);
        long mirror = store.addEdge(outVertex, inVertex, label, id, INFINITY);
        engine.mirrors().add(mirror, edgeId);
        log.created(ElementKind.EDGE, mirror); // stamped or undone with the transaction; never counted
        writes.add(ConflictKey.element(mirror));
        writes.add(ConflictKey.adjacencyIn(inVertex));
        VarHandle.fullFence(); // see addEdgeHere
        rules.requireNotBeingDeleted(inVertex);
    }

    /** Deletes an edge this transaction sees (and its mirror, if its in-vertex is on another node). */
    public void removeEdge(long edgeId) {
        forgetReadAhead();
        int owner = owner(edgeId);
        long inVertex;
        if (owner >= 0) {
            inVertex = remote.call(owner, RemoteOp.REMOVE_EDGE, w -> w.putLong(edgeId)).getLong();
        } else {
            inVertex = removeEdgeHere(edgeId);
        }
        removeMirrorOf(edgeId, inVertex);
    }

    /** Ends the mirror of a removed edge whose in-vertex lives on another member than the edge. */
    void removeMirrorOf(long edgeId, long inVertex) {
        int inHome = home(inVertex);
        if (inHome != home(edgeId)) {
            if (inHome == store.nodeId()) {
                removeMirror(edgeId);
            } else {
                remote.call(inHome, RemoteOp.REMOVE_MIRROR, w -> w.putLong(edgeId));
            }
        }
    }

    /** The edges of a vertex to other members first, each with its mirror; the vertex's owner then ends the rest. */
    void removeEdgesAcross(long vertexId) {
        if (remote.otherMembersEmpty()) {
            return;
        }
        long[] adjacent = adjacent(vertexId, EdgeDirection.BOTH, EdgeCursor.ANY_LABEL);
        int home = home(vertexId);
        for (int i = 0; i < adjacent.length; i += 2) {
            if (home(adjacent[i + 1]) != home) {
                removeEdge(adjacent[i]);
            }
        }
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

    /** Ends this node's mirror of edge {@code edgeId}, which the edge's node ends in the same transaction. */
    void removeMirror(long edgeId) {
        ensureActive();
        long mirror = engine.mirrors().mirrorOf(edgeId);
        if (mirror == ElementIds.NONE || !visible(ElementKind.EDGE, mirror)) {
            // The edge's node saw the edge, so its mirror was made before our snapshot: its absence
            // here means a concurrent deleter got to it first.
            throw conflict(ConflictKind.DELETED_ELEMENT, 0, ConflictKey.element(edgeId),
                    "the mirror of the edge on node " + store.nodeId() + " is gone");
        }
        rules.endElement(ElementKind.EDGE, mirror, false);
        writes.add(ConflictKey.element(mirror));
        writes.add(ConflictKey.adjacencyIn(store.edgeInVertex(mirror)));
    }

    /** Deletes a vertex this transaction sees, with all its edges (on other nodes too). */
    public void removeVertex(long vertexId) {
        forgetReadAhead();
        removeEdgesAcross(vertexId);
        int owner = owner(vertexId);
        if (owner >= 0) {
            remote.call(owner, RemoteOp.REMOVE_VERTEX, w -> w.putLong(vertexId));
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
            return remote.call(owner, RemoteOp.ADJACENT, w -> w.putLong(vertexId).putByte(direction.ordinal())
                    .putString(RemoteOp.labelName(store, label))).getLongs();
        }
        return adjacentHere(vertexId, direction, label, true);
    }

    /** Sets a vertex property; null removes it (as {@link #removeVertexProperty}). */
    public void setVertexProperty(long vertexId, int keyId, Object value) {
        writeProperty(ElementKind.VERTEX, vertexId, keyId, value);
    }

    public void setEdgeProperty(long edgeId, int keyId, Object value) {
        writeProperty(ElementKind.EDGE, edgeId, keyId, value);
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
            return remote.call(owner, RemoteOp.REMOVE_PROPERTY, w -> w.putByte(kind.ordinal()).putLong(element).putString(key)).getBoolean();
        }
        remote.call(owner, RemoteOp.SET_PROPERTY, w -> w.putByte(kind.ordinal()).putLong(element).putString(key).putValue(value));
        return true;
    }

    /**
     * The operations this transaction ran on each other node so far (requests; a resend is not
     * counted), by node: for {@code profile()} to show what a step cost. Empty on a single node.
     */
    public Map<Integer, Integer> remoteCalls() {
        return remote.callsByNode();
    }

    // ---------------------------------------------------------------- property-value indexes

    /**
     * Keeps the index on {@code key} at the element's owner up to date with a write of the
     * element's property (see {@link ValueIndex#written}): entries for the values in {@code after},
     * and writes of the keys of {@code before} and {@code after}. Nothing if the owner has no such
     * index. Values sent to another node are those {@link ValueIndex#travels} (only those are looked
     * up on a cluster).
     */
    public void indexWrite(ElementKind kind, long element, String key, Object[] before, Object[] after) {
        int owner = owner(element);
        if (owner >= 0) {
            remote.call(owner, RemoteOp.INDEX_WRITE, w -> {
                w.putByte(kind.ordinal()).putLong(element).putString(key);
                putTravelling(w, before);
                putTravelling(w, after);
            });
            return;
        }
        ensureActive();
        ValueIndex index = engine.valueIndexes().get(kind, key);
        if (index != null) {
            index.written(this, element, before, after);
        }
    }

    /**
     * Candidates for a look-up of {@code key}'s index ({@link ValueIndex#lookUp}) on this node and
     * every other member, each recording its reads there; null if some member has no ready index on
     * the key, or a value cannot be sent to another member: the caller then scans.
     */
    public long[] indexLookUp(ElementKind kind, String key, int mode, Object[] values) {
        long[] here = indexLookUpHere(kind, key, mode, values);
        if (here == null || remote.otherMembersEmpty()) {
            return here;
        }
        for (Object value : values) {
            if (!ValueIndex.travels(value)) {
                return null;
            }
        }
        LongList all = new LongList();
        all.addAll(here);
        for (Wire.Reader reply : remote.callEach(remote.otherMembers(), RemoteOp.INDEX_LOOKUP, (w, i) -> {
            w.putByte(kind.ordinal()).putString(key).putByte(mode);
            putTravelling(w, values);
        })) {
            if (!reply.getBoolean()) {
                return null;
            }
            all.addAll(reply.getLongs());
        }
        return all.toArray();
    }

    long[] indexLookUpHere(ElementKind kind, String key, int mode, Object[] values) {
        ensureActive();
        ValueIndex index = engine.valueIndexes().get(kind, key);
        if (index == null || !index.isReady()) {
            return null;
        }
        return index.lookUp(this, mode, values, kind.table(store)::contains);
    }

    /**
     * Adds entries {@code values[i]} of {@code elements[i]} to the index on {@code key} at each
     * element's owner, recording nothing: for filling a new index from one snapshot. Values that do
     * not {@link ValueIndex#travels travel} are left out for other nodes' elements.
     */
    public void indexFill(ElementKind kind, String key, long[] elements, Object[] values) {
        Map<Integer, LongList> byNode = new java.util.TreeMap<>();
        for (int i = 0; i < elements.length; i++) {
            byNode.computeIfAbsent(nodeOf(elements[i]), n -> new LongList()).add(i);
        }
        for (Map.Entry<Integer, LongList> part : byNode.entrySet()) {
            long[] at = part.getValue().toArray();
            long[] ids = new long[at.length];
            Object[] partValues = new Object[at.length];
            for (int i = 0; i < at.length; i++) {
                ids[i] = elements[(int) at[i]];
                partValues[i] = values[(int) at[i]];
            }
            if (part.getKey() == store.nodeId()) {
                indexFillHere(kind, key, ids, partValues);
            } else {
                remote.call(part.getKey(), RemoteOp.INDEX_FILL, w -> {
                    w.putByte(kind.ordinal()).putString(key).putLongs(ids);
                    for (Object value : partValues) {
                        w.putValue(ValueIndex.travels(value) ? ValueIndex.normalize(value) : null);
                    }
                });
            }
        }
    }

    void indexFillHere(ElementKind kind, String key, long[] elements, Object[] values) {
        ensureActive();
        ValueIndex index = engine.valueIndexes().get(kind, key);
        if (index == null) {
            throw new IllegalStateException("no " + kind.display() + " index on " + key + " to fill at node " + store.nodeId()
                    + ": it was dropped while being created");
        }
        for (int i = 0; i < elements.length; i++) {
            index.add(values[i], elements[i]);
        }
    }

    /**
     * Defines ({@link IndexChange#DEFINE}), marks ready or drops the index on {@code key} on this node
     * and then every other member, in member order; immediate, not transactional, and idempotent.
     *
     * @throws IllegalArgumentException if a member has an index of the other type on the key
     */
    public void indexChange(IndexChange change, ElementKind kind, String key, boolean ordered) {
        ensureActive();
        indexChangeHere(change, kind, key, ordered);
        remote.callEach(remote.otherMembers(), RemoteOp.INDEX_CHANGE,
                (w, i) -> w.putByte(change.ordinal()).putByte(kind.ordinal()).putString(key).putBoolean(ordered));
    }

    void indexChangeHere(IndexChange change, ElementKind kind, String key, boolean ordered) {
        ValueIndexes indexes = engine.valueIndexes();
        switch (change) {
            case DEFINE -> indexes.define(kind, key, ordered);
            case READY -> indexes.ready(kind, key);
            case DROP -> indexes.drop(kind, key);
            default -> throw new IllegalStateException("unhandled index change: " + change);
        }
    }

    /** What {@link #indexChange} does to an index on every member. */
    public enum IndexChange {
        DEFINE, READY, DROP
    }

    private static void putTravelling(Wire.Writer w, Object[] values) {
        int n = 0;
        for (Object value : values) {
            n += ValueIndex.travels(value) ? 1 : 0;
        }
        w.putInt(n);
        for (Object value : values) {
            if (ValueIndex.travels(value)) {
                w.putValue(ValueIndex.normalize(value));
            }
        }
    }

    // ---------------------------------------------------------------- user-supplied ids

    /**
     * The node that keeps user-supplied id {@code canonical} of a vertex, and so the vertex (see
     * docs/cluster-transactions.md, "Placement"): the node a number names if it is a well-formed
     * vertex id of a member (so a generated id and the same number given by a user are checked in
     * one place), else one chosen by a hash of the id. This node, when it is alone.
     */
    public int homeOfVertexId(Object canonical) {
        if (remote.otherMembersEmpty()) {
            return store.nodeId();
        }
        if (canonical instanceof Long n && ElementIds.isWellFormed(n) && !ElementIds.isEdge(n)
                && engine.members().nodes().contains(ElementIds.node(n))) {
            return ElementIds.node(n);
        }
        int[] members = engine.members().nodes().stream().mapToInt(Integer::intValue).sorted().toArray();
        long h = canonical.hashCode() * 0x9E37_79B9_7F4A_7C15L;
        return members[(int) Math.floorMod(h ^ (h >>> 29), (long) members.length)];
    }

    /**
     * Binds user-supplied id {@code given} (canonical form {@code canonical}) to {@code internal},
     * which this transaction created, at the element's node; see {@link ExternalIds#bind}.
     */
    public Object bindExternalId(ElementKind kind, Object given, Object canonical, long internal) {
        int owner = owner(internal);
        if (!remote.otherMembersEmpty() && kind == ElementKind.EDGE && canonical instanceof Long n && ElementIds.isWellFormed(n)
                && ElementIds.isEdge(n) && ElementIds.node(n) != nodeOf(internal)
                && engine.members().nodes().contains(ElementIds.node(n))) {
            reserveEdgeNumber(ElementIds.node(n), given, n); // first, so a refusal leaves nothing bound
        }
        if (owner < 0) {
            return engine.externalIds().bind(this, kind, given, canonical, internal);
        }
        io.gtran.txn.protocol.Wire.Reader in = remote.call(owner, RemoteOp.BIND_ID,
                w -> w.putByte(kind.ordinal()).putValue(given).putValue(canonical).putLong(internal));
        if (!in.getBoolean()) {
            throw new ExternalIdTakenException(kind, given);
        }
        return in.getValue();
    }

    /**
     * An edge's user-supplied id that is a number naming an edge slot of another member than the
     * edge's: that member checks no edge of its own is known by the number and keeps it from the
     * edges it makes later; see {@link ExternalIds#reserve}.
     */
    private void reserveEdgeNumber(int node, Object given, long number) {
        if (node == store.nodeId()) {
            engine.externalIds().reserve(this, given, number);
            return;
        }
        if (!remote.call(node, RemoteOp.RESERVE_ID, w -> w.putValue(given).putLong(number)).getBoolean()) {
            throw new ExternalIdTakenException(ElementKind.EDGE, given);
        }
    }

    /**
     * The element a user's id names for this transaction, or {@link ElementIds#NONE}; see {@link
     * ExternalIds#resolve}. A vertex id is looked up at its {@link #homeOfVertexId home}; an edge
     * id, bound where the edge lives (with its out-vertex), at every member.
     */
    public long resolveExternalId(ElementKind kind, Object canonical, Object parsed) {
        if (remote.otherMembersEmpty()) {
            return engine.externalIds().resolve(this, kind, canonical, parsed);
        }
        long found = resolveAcross(kind, canonical);
        return found == ElementIds.NONE && parsed != null ? resolveAcross(kind, parsed) : found;
    }

    private long resolveAcross(ElementKind kind, Object canonical) {
        if (kind == ElementKind.VERTEX) {
            return resolveAt(homeOfVertexId(canonical), kind, canonical);
        }
        // An edge's id is bound where the edge lives; a number may also be some member's internal
        // id. A binding anywhere wins, as it does on one node (ExternalIds#resolve).
        long number = canonical instanceof Long n ? n : ElementIds.NONE;
        long found = resolveAt(store.nodeId(), kind, canonical);
        for (int node : remote.otherMembers()) {
            if (found != ElementIds.NONE && found != number) {
                return found;
            }
            long there = resolveAt(node, kind, canonical);
            if (there != ElementIds.NONE) {
                found = there;
            }
        }
        return found;
    }

    private long resolveAt(int node, ElementKind kind, Object canonical) {
        if (node == store.nodeId()) {
            return engine.externalIds().resolve(this, kind, canonical, null);
        }
        return remote.call(node, RemoteOp.RESOLVE_ID, w -> w.putByte(kind.ordinal()).putValue(canonical)).getLong();
    }

    /** The id to show for element {@code internal}: its user-supplied id if it has one; see {@link ExternalIds#exposed}. */
    public Object exposedId(ElementKind kind, long internal) {
        int owner = owner(internal);
        if (owner < 0) {
            return engine.externalIds().exposed(kind, internal);
        }
        return remote.call(owner, RemoteOp.EXPOSED_ID, w -> w.putByte(kind.ordinal()).putLong(internal)).getValue();
    }

    /** {@link #exposedId} of many elements of one kind, one request per owning node. */
    public Object[] exposedIds(ElementKind kind, long[] internals) {
        Object[] result = new Object[internals.length];
        Map<Integer, List<Integer>> byNode = new java.util.TreeMap<>();
        for (int i = 0; i < internals.length; i++) {
            byNode.computeIfAbsent(owner(internals[i]), n -> new ArrayList<>()).add(i);
        }
        List<Integer> here = byNode.remove(-1);
        for (int i : here == null ? List.<Integer>of() : here) {
            result[i] = engine.externalIds().exposed(kind, internals[i]);
        }
        int[] nodes = byNode.keySet().stream().mapToInt(Integer::intValue).toArray();
        List<List<Integer>> at = new ArrayList<>(byNode.values());
        Wire.Reader[] replies = nodes.length == 0 ? new Wire.Reader[0] : remote.callEach(nodes, RemoteOp.EXPOSED_MANY, (w, n) -> {
            long[] ids = new long[at.get(n).size()];
            for (int j = 0; j < ids.length; j++) {
                ids[j] = internals[at.get(n).get(j)];
            }
            w.putByte(kind.ordinal()).putLongs(ids);
        });
        for (int n = 0; n < nodes.length; n++) {
            for (int i : at.get(n)) {
                result[i] = replies[n].getValue();
            }
        }
        return result;
    }

    /** Whether a user-supplied id of another element names the new element's number; see {@link ExternalIds#shadowed}. */
    public boolean shadowedId(ElementKind kind, long internal) {
        int owner = owner(internal);
        if (owner < 0) {
            return engine.externalIds().shadowed(kind, internal);
        }
        return remote.call(owner, RemoteOp.SHADOWED_ID, w -> w.putByte(kind.ordinal()).putLong(internal)).getBoolean();
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
     * What a begin/end time word means to this transaction: a timestamp (as is), {@link #OWN},
     * {@link #LIVE_OTHER} (another transaction still executing or validating; {@link #otherStatus}
     * and {@link #otherCommitTime} say which), {@link #ABORTED_OTHER}, or {@link #RETRY} (the word
     * named a transaction that has finished since: read the word again).
     */
    private long inspect(long word) {
        if (!TxnWords.isTxnId(word)) {
            return word; // a timestamp, INFINITY or NEVER
        }
        if (word == id) {
            return OWN;
        }
        long status;
        try {
            status = engine.statusTable().read(word);
            unreachableSince = 0;
        } catch (io.gtran.rdma.RegionAccessException | io.gtran.rdma.UnknownRegionException unreachable) {
            awaitReachable(word, unreachable);
            return RETRY; // its node is out of reach for now: read the word again, it may have been rewritten
        }
        if (status == StatusTable.GONE) {
            return RETRY; // it finished and rewrote its words: the word now holds a time
        }
        TxnStatus other = StatusTableDescriptor.status(status);
        switch (other) {
            case COMMITTED:
                return StatusTableDescriptor.commitTime(status); // decided; words not yet rewritten
            case ABORTED:
                return ABORTED_OTHER;
            default:
                otherStatus = other;
                otherCommitTime = StatusTableDescriptor.commitTime(status);
                return LIVE_OTHER;
        }
    }

    /**
     * Called when transaction {@code other}'s coordinating node cannot be reached (closed, lost, cut
     * off) to read its status: the caller answers {@link #RETRY}, so the word is read again (a
     * recovery may have rewritten it meanwhile; a commit time or NEVER needs no status). Once
     * gtran.txn.dependency-wait-ms has passed without a status, this transaction aborts ({@link
     * ConflictKind#COORDINATOR_UNREACHABLE}): it cannot tell whether what {@code other} wrote is
     * visible, and it never guesses.
     */
    private void awaitReachable(long other, RuntimeException unreachable) {
        long now = engine.time().nanos();
        if (unreachableSince == 0) {
            unreachableSince = now;
        } else if (now - unreachableSince > java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(config.dependencyWaitMs)) {
            throw conflict(ConflictKind.COORDINATOR_UNREACHABLE, other, null, "its coordinator, node " + TxnWords.node(other)
                    + ", could not be reached for " + config.dependencyWaitMs + " ms (" + unreachable.getMessage()
                    + "); retry the transaction");
        }
        java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
    }

    /**
     * {@link #inspect} of the word {@code word} reads, reading the word again for as long as the
     * answer is {@link #RETRY} (the transaction it named finished between the read of the word and
     * the read of its status, and has rewritten the word since). Every write rule decides on this:
     * taking RETRY for an answer takes a concurrent commit for no conflict. A version or element
     * whose word named a transaction this one may meet is not freed while this one runs (GC waits
     * for the watermark to pass it), so reading the same word again is safe.
     * {@link #inspectedWord} is the word the answer is about (to CAS it, or to name the other
     * transaction in a conflict).
     */
    long inspectSettled(java.util.function.LongSupplier word) {
        while (true) {
            long value = word.getAsLong();
            long time = inspect(value);
            if (time != RETRY) {
                inspectedWord = value;
                return time;
            }
            Thread.onSpinWait();
        }
    }

    /** The word the last {@link #inspectSettled} answered about. */
    long inspectedWord() {
        return inspectedWord;
    }

    /**
     * The time a reader compares with its begin time for a begin ({@code beginWord}) or end time
     * word, applying optimistic pre-read to words of live transactions; {@link #RETRY} means read
     * the word again. {@code key} and {@code keyElement} name what is being read, for the conflict
     * if a wait for the writer times out.
     */
    private long readTime(long word, boolean beginWord, ConflictKey.Kind key, long keyElement) {
        long time = inspect(word);
        if (time == ABORTED_OTHER) {
            return beginWord ? NEVER : INFINITY; // its version never existed; the old one lives on
        }
        if (time != LIVE_OTHER) {
            return time;
        }
        if (otherCommitTime == StatusTableDescriptor.PENDING_COMMIT_TIME) {
            Thread.onSpinWait();
            return RETRY; // taking its commit time right now: wait to compare it with our begin time
        }
        if (otherStatus == TxnStatus.EXECUTING) {
            // Its commit time will exceed our begin time: read around it, re-check at validation.
            skippedWriters.add(word);
            return beginWord ? NEVER : INFINITY;
        }
        if (otherCommitTime > beginTime) {
            return otherCommitTime; // validating with a later commit time: invisible to us either way
        }
        // Validating with an earlier commit time: its writes belong in our snapshot if it commits.
        RecentCommittedTable.Entry entry = engine.recentCommitted().find(word);
        if (entry == null) {
            return RETRY; // it decided and was pruned meanwhile; the caller reads the word again
        }
        // Decided here already, its entry is the truth: a participant part decides (an abort on a NO
        // vote, or a DECIDE that overtook its coordinator's status change) before it undoes or
        // stamps its words, while its coordinator's status may still say VALIDATING. Pre-reading
        // the old version's end word then would hide both versions (the new one already undone).
        if (config.preRead && entry.outcome() == TxnStatus.VALIDATING) {
            preReadDependencies.add(entry); // optimistic pre-read: read its version, commit only if it commits
            return otherCommitTime;
        }
        TxnStatus outcome = awaitOutcome(entry, new ConflictKey(key, keyElement, 0)); // at once if decided
        return outcome == TxnStatus.COMMITTED ? entry.commitTime : beginWord ? NEVER : INFINITY;
    }

    TxnStatus awaitOutcome(RecentCommittedTable.Entry entry, ConflictKey key) {
        long deadline = engine.time().nanos() + config.dependencyWaitMs * 1_000_000L;
        TxnStatus outcome;
        try {
            outcome = engine.recentCommitted().awaitOutcome(entry, deadline);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw conflict(ConflictKind.DEPENDENCY_TIMEOUT, entry.txnId, key, "interrupted while waiting for it to decide");
        }
        if (outcome == TxnStatus.VALIDATING) {
            throw conflict(ConflictKind.DEPENDENCY_TIMEOUT, entry.txnId, key,
                    "it did not decide within " + TxnConfig.DEPENDENCY_WAIT_MS + "=" + config.dependencyWaitMs);
        }
        return outcome;
    }

    long readBegin(ElementKind kind, long element) {
        while (true) {
            long t = readTime(kind.table(store).beginTime(element), true, ConflictKey.Kind.ELEMENT, element);
            if (t != RETRY) {
                return t;
            }
        }
    }

    private long readEnd(ElementKind kind, long element) {
        while (true) {
            long t = readTime(kind.table(store).endTime(element), false, ConflictKey.Kind.ELEMENT, element);
            if (t != RETRY) {
                return t;
            }
        }
    }

    /** Whether the element exists in this transaction's snapshot (its own writes included). */
    boolean visible(ElementKind kind, long element) {
        try {
            long begin = readBegin(kind, element);
            if (begin == OWN) {
                return readEnd(kind, element) != OWN; // created here, unless deleted here too
            }
            if (begin == NEVER || begin > beginTime) {
                return false; // aborted, still executing, or created after our snapshot
            }
            long end = readEnd(kind, element);
            return end != OWN && end > beginTime; // not deleted by us, nor before our snapshot
        } catch (UnknownElementException gone) {
            return false; // freed by GC: dead to every running transaction
        }
    }

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
            return remote.call(owner, RemoteOp.EXISTS, w -> w.putByte(kind.ordinal()).putLong(element)).getBoolean();
        }
        ensureActive();
        recordRead(ConflictKey.element(element));
        return ElementIds.isWellFormed(element) && visible(kind, element);
    }

    void requireVisible(ElementKind kind, long element) {
        if (!exists(kind, element)) {
            for (RecentCommittedTable.Entry d : preReadDependencies) {
                if (d.outcome() == TxnStatus.ABORTED) {
                    throw conflict(ConflictKind.PRE_READ_DEPENDENCY_ABORTED, d.txnId, ConflictKey.element(element),
                            "this transaction read its writes while it validated");
                }
            }
            throw new ElementNotFoundException(kind.display(), element);
        }
    }

    /** The version of a property this transaction sees, or NO_TUPLE. The element must be visible. */
    private int visibleVersion(ElementKind kind, long element, int key) {
        int version = kind.table(store).propertyVersion(element, key);
        while (version != NO_TUPLE) {
            if (MvStore.isBase(version)) {
                return version; // a base version lives exactly as long as its (visible) element
            }
            long begin = readVersionTime(version, true, kind, element);
            if (begin == OWN) {
                return readVersionTime(version, false, kind, element) == OWN ? NO_TUPLE : version; // our own write
            }
            if (begin != NEVER && begin < beginTime) {
                // The newest version that began before our snapshot: older ones ended by its begin
                // time, so it is visible or nothing is. (GC relies on readers stopping here.)
                long end = readVersionTime(version, false, kind, element);
                return end != OWN && end > beginTime ? version : NO_TUPLE;
            }
            version = versions.older(version); // aborted, uncommitted, or newer than our snapshot
        }
        return NO_TUPLE;
    }

    private long readVersionTime(int version, boolean beginWord, ElementKind kind, long element) {
        while (true) {
            long word = beginWord ? versions.beginTime(version) : versions.endTime(version);
            long t = readTime(word, beginWord, ConflictKey.Kind.ELEMENT, element);
            if (t != RETRY) {
                return t;
            }
        }
    }

    private Object property(ElementKind kind, long element, int key) {
        int owner = owner(element);
        if (owner >= 0) {
            ReadAhead.Entry known = readAhead(kind, element);
            if (ReadAhead.hasValue(known, key)) {
                return ReadAhead.value(known, key);
            }
            return remote.call(owner, RemoteOp.PROPERTY, w -> w.putByte(kind.ordinal()).putLong(element)
                    .putString(store.propertyKeys().name(key))).getValue();
        }
        requireVisible(kind, element);
        recordRead(ConflictKey.property(element, key));
        int version = visibleVersion(kind, element, key);
        return version == NO_TUPLE ? null : versions.value(version);
    }

    private Map<Integer, Object> properties(ElementKind kind, long element) {
        int owner = owner(element);
        if (owner >= 0) {
            ReadAhead.Entry known = readAhead(kind, element);
            if (ReadAhead.answers(known, false, null)) {
                return ReadAhead.all(known);
            }
            return readProperties(remote.call(owner, RemoteOp.PROPERTIES, w -> w.putByte(kind.ordinal()).putLong(element)));
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
            int version = visibleVersion(kind, element, key);
            if (version != NO_TUPLE) {
                result.put(key, versions.value(version));
            }
        }
        return result;
    }

    /** Every property as {@link RemoteOp#PROPERTIES} sends it, by this node's key ids in key order. */
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
    private int owner(long element) {
        return remote.remoteOwner(element);
    }

    /** The node an element's id names (this node's for an id that is not a gtran element id). */
    private int home(long element) {
        return ElementIds.isWellFormed(element) ? ElementIds.node(element) : store.nodeId();
    }

    /** Whether this transaction can involve other nodes: it coordinates with parts elsewhere (a part is one). */
    boolean spansNodes() {
        return !remote.otherMembersEmpty();
    }

    private void requireMember(int node, long element) {
        if (!engine.members().nodes().contains(node)) {
            throw new ElementNotFoundException("vertex", element);
        }
    }

    /** The node an element's operations run on: its owner if a member, else this one. */
    private int nodeOf(long element) {
        int owner = owner(element);
        return owner < 0 ? store.nodeId() : owner;
    }

    /** Sends a read or write of an element-based key to the element's owner; false if it is this node's. */
    private boolean routeRecord(ConflictKey key, RemoteOp op) {
        int owner = reads.ownerNode(key) == store.nodeId() ? -1 : owner(key.element());
        if (owner < 0) {
            return false;
        }
        remote.call(owner, op, w -> {
            w.putByte(key.kind().ordinal()).putLong(key.element());
            if (key.kind() == ConflictKey.Kind.PROPERTY) {
                w.putString(store.propertyKeys().name((int) key.detail()));
            } else {
                w.putLong(key.detail());
            }
        });
        return true;
    }

    /** {@link #visibleVertices}/{@link #visibleEdges} over candidates on several nodes, in their order. */
    private long[] visibleAcross(ElementKind kind, long[] candidates) {
        Map<Integer, LongList> byNode = new java.util.TreeMap<>();
        for (long candidate : candidates) {
            byNode.computeIfAbsent(owner(candidate), n -> new LongList()).add(candidate);
        }
        java.util.Set<Long> visible = new java.util.HashSet<>();
        LongList here = byNode.remove(-1);
        for (long id : here == null ? new long[0] : visibleHere(kind, here.toArray())) {
            visible.add(id);
        }
        int[] nodes = byNode.keySet().stream().mapToInt(Integer::intValue).toArray();
        long[][] asked = byNode.values().stream().map(LongList::toArray).toArray(long[][]::new);
        for (Wire.Reader reply : remote.callEach(nodes, RemoteOp.VISIBLE, (w, i) -> w.putByte(kind.ordinal()).putLongs(asked[i]))) {
            for (long id : reply.getLongs()) {
                visible.add(id);
            }
        }
        LongList result = new LongList();
        for (long candidate : candidates) {
            if (visible.contains(candidate)) {
                result.add(candidate);
            }
        }
        return result.toArray();
    }

    private long[] visibleHere(ElementKind kind, long[] candidates) {
        LongList result = new LongList();
        for (long id : candidates) {
            if (ElementIds.isWellFormed(id) && visible(kind, id)) {
                result.add(id);
            }
        }
        return result.toArray();
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

    private EdgeCursor edgeCursor() {
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
