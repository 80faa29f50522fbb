package io.gtran.core;

import io.gtran.core.PropertyValues.Entry;
import io.gtran.storage.Dictionary;
import io.gtran.storage.EdgeCursor;
import io.gtran.txn.ConflictKey;
import io.gtran.txn.Transaction;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.tinkerpop.gremlin.process.traversal.Compare;
import org.apache.tinkerpop.gremlin.process.traversal.Contains;
import org.apache.tinkerpop.gremlin.process.traversal.P;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Element;
import org.apache.tinkerpop.gremlin.structure.Vertex;

/**
 * The indexes of a {@link GtranGraph}: a label index (always on) and property-value indexes,
 * hash (equality, {@code within}) or ordered (also ranges), on vertex or edge property keys.
 *
 * <p>An index is a superset: it names every element that has (or, in some version that may still
 * be visible, had) the value, committed or not. A look-up returns candidates; the caller re-reads
 * each candidate in its own transaction and keeps those that match, so the result is exactly what a
 * full scan in that snapshot gives, including the transaction's own uncommitted writes.
 *
 * <p>Phantoms: a look-up records a read of the index key it asked (equality: the value; range: the
 * whole index; label: the label scan key of gtran-txn), and every write of an indexed property
 * records a write of the old and the new value's keys (and the whole ordered index). At SR,
 * validation then aborts a transaction whose look-up missed a concurrently committed change.
 *
 * <p>Declare indexes in the configuration ({@code gtran.index.vertex.hash=name,...}) or with
 * {@link #create}.
 */
public final class Indexes {
    /** The kind of a property-value index. */
    public enum Type {
        /** Equality and {@code within} look-ups. */
        HASH,
        /** Equality, {@code within} and range ({@code gt, gte, lt, lte, between, inside}) look-ups. */
        ORDERED;

        /** The name drivers see and send: {@code hash} or {@code ordered}. */
        @Override
        public String toString() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /**
         * The type named {@code hash} or {@code ordered} (any case).
         *
         * @throws IllegalArgumentException naming the bad value
         */
        public static Type of(String name) {
            for (Type type : values()) {
                if (type.name().equalsIgnoreCase(name)) {
                    return type;
                }
            }
            throw new IllegalArgumentException("index type must be 'hash' or 'ordered': type=" + name);
        }
    }

    private static final long INDEX_TAG = 0x494E_4445_5800_0000L; // "INDEX"
    private static final long WHOLE_INDEX = Long.MIN_VALUE;

    private final GtranGraph graph;
    private final Map<String, PropertyIndex> vertexIndexes = new ConcurrentHashMap<>();
    private final Map<String, PropertyIndex> edgeIndexes = new ConcurrentHashMap<>();
    /** Element ids per label id, for vertices and for edges. */
    private final Map<Integer, LabelIndex> vertexLabels = new ConcurrentHashMap<>();
    private final Map<Integer, LabelIndex> edgeLabels = new ConcurrentHashMap<>();
    private int nextIndexNumber;
    /** How long {@link #create} waits for running transactions; tests shorten it. */
    volatile long createWaitMillis = 30_000;

    Indexes(GtranGraph graph, List<String> vertexHash, List<String> vertexOrdered, List<String> edgeHash, List<String> edgeOrdered) {
        this.graph = graph;
        if (graph.clustered && !(vertexHash.isEmpty() && vertexOrdered.isEmpty() && edgeHash.isEmpty() && edgeOrdered.isEmpty())) {
            throw new IllegalArgumentException("property indexes are not available yet on a graph whose node shares a cluster"
                    + " (gtran.cluster.nodes has several members): remove gtran.index.vertex.* and gtran.index.edge.*");
        }
        // declared at open, over an empty graph: nothing to fill
        vertexHash.forEach(key -> register(false, key, Type.HASH).ready());
        vertexOrdered.forEach(key -> register(false, key, Type.ORDERED).ready());
        edgeHash.forEach(key -> register(true, key, Type.HASH).ready());
        edgeOrdered.forEach(key -> register(true, key, Type.ORDERED).ready());
    }

    /** @throws IllegalArgumentException if a key is declared with both index types */
    static void refuseBoth(List<String> hash, List<String> ordered, String prefix) {
        for (String key : hash) {
            if (ordered.contains(key)) {
                throw new IllegalArgumentException("key has both index types: " + prefix + ".hash and " + prefix
                        + ".ordered name " + key + "; an ordered index also answers equality, declare it once");
            }
        }
    }

    // ---------------------------------------------------------------- management

    /**
     * Creates an index on {@code key} of vertices or edges and fills it from the graph. Waits for the
     * transactions running when it is called to end (at most 30 s), so that no value they write is
     * missed. Creating an index that exists with the same type does nothing.
     *
     * @throws IllegalArgumentException if {@code kind} is not Vertex or Edge, or the key has an index of the other type
     * @throws IllegalStateException    if the calling thread has an open transaction, or running ones do not end in time
     */
    public void create(Class<? extends Element> kind, String key, Type type) {
        if (graph.clustered) {
            throw new UnsupportedOperationException("property indexes are not available yet on a graph whose node shares a"
                    + " cluster: key=" + key);
        }
        boolean edge = edgeKind(kind);
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("index key must be a non-empty property key: key=" + key);
        }
        if (graph.tx().isOpen()) {
            throw new IllegalStateException("commit or roll back this thread's transaction before creating an index: key=" + key);
        }
        PropertyIndex existing = (edge ? edgeIndexes : vertexIndexes).get(key);
        if (existing != null) {
            if (existing.type != type) {
                throw new IllegalArgumentException("key already has an index of another type: key=" + key + " type=" + existing.type);
            }
            return;
        }
        PropertyIndex index = register(edge, key, type);
        try {
            awaitTransactionsBefore();
            fill(index, edge);
        } catch (RuntimeException e) {
            (edge ? edgeIndexes : vertexIndexes).remove(key, index); // never leave a half-filled index in use
            throw e;
        }
        index.ready();
    }

    /** The index on {@code key} of vertices or edges, or null; for tests. */
    PropertyIndex index(Class<? extends Element> kind, String key) {
        return (edgeKind(kind) ? edgeIndexes : vertexIndexes).get(key);
    }

    /**
     * Drops an index, at once and for every transaction (not transactional: a running transaction's
     * next look-up scans instead); returns false if there was none.
     */
    public boolean drop(Class<? extends Element> kind, String key) {
        return (edgeKind(kind) ? edgeIndexes : vertexIndexes).remove(key) != null;
    }

    /**
     * The indexed keys of vertices or edges, with their index types as {@code hash} or {@code ordered}
     * (strings, so that a script's result reaches every driver; {@link Type#of} reads them).
     */
    public Map<String, String> indexed(Class<? extends Element> kind) {
        Map<String, String> result = new java.util.TreeMap<>();
        (edgeKind(kind) ? edgeIndexes : vertexIndexes).forEach((k, v) -> result.put(k, v.type.toString()));
        return result;
    }

    private static boolean edgeKind(Class<? extends Element> kind) {
        if (Vertex.class.isAssignableFrom(kind)) {
            return false;
        }
        if (Edge.class.isAssignableFrom(kind)) {
            return true;
        }
        throw new IllegalArgumentException("indexes are on Vertex or Edge keys: kind=" + kind.getName());
    }

    private synchronized PropertyIndex register(boolean edge, String key, Type type) {
        Map<String, PropertyIndex> indexes = edge ? edgeIndexes : vertexIndexes;
        PropertyIndex index = new PropertyIndex(key, type, ++nextIndexNumber); // not ready until filled
        PropertyIndex raced = indexes.putIfAbsent(key, index);
        return raced != null ? raced : index;
    }

    /** Waits until every transaction that began before this call has ended. */
    private void awaitTransactionsBefore() {
        Transaction probe = graph.engine.begin(graph.isolation);
        long mark = probe.beginTime();
        probe.rollback();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(createWaitMillis);
        while (graph.engine.watermark() <= mark) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("transactions begun before the index was created are still running after "
                        + createWaitMillis + " ms; the index was not created");
            }
            Thread.onSpinWait();
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting to fill an index", e);
            }
        }
    }

    private void fill(PropertyIndex index, boolean edge) {
        Transaction txn = graph.engine.begin(graph.isolation);
        try {
            int keyId = graph.store.propertyKeys().find(index.key);
            if (keyId == Dictionary.ABSENT) {
                return;
            }
            long[] ids = edge ? txn.allEdges(EdgeCursor.ANY_LABEL) : txn.vertices(EdgeCursor.ANY_LABEL);
            for (long id : ids) {
                Object stored = edge ? txn.edgeProperty(id, keyId) : txn.vertexProperty(id, keyId);
                if (stored == null) {
                    continue;
                }
                if (edge) {
                    index.add(PropertyValues.fromStored(stored), id);
                } else {
                    for (Entry e : PropertyValues.entries(stored, id, keyId)) {
                        index.add(e.value, id);
                    }
                }
            }
        } finally {
            txn.rollback();
        }
    }

    // ---------------------------------------------------------------- upkeep, called by the elements

    boolean isIndexed(boolean edge, String key) {
        return !(edge ? edgeIndexes : vertexIndexes).isEmpty() && (edge ? edgeIndexes : vertexIndexes).containsKey(key);
    }

    void vertexLabelAdded(int labelId, long id) {
        if (graph.clustered) {
            return; // on a cluster, label look-ups scan every member (see withLabels)
        }
        vertexLabels.computeIfAbsent(labelId, l -> new LabelIndex()).add(id);
    }

    void edgeLabelAdded(int labelId, long id) {
        if (graph.clustered) {
            return;
        }
        edgeLabels.computeIfAbsent(labelId, l -> new LabelIndex()).add(id);
    }

    void vertexPropertyWritten(GtranTransaction.Scope scope, long vertexId, String key, List<Entry> before, List<Entry> after) {
        PropertyIndex index = vertexIndexes.isEmpty() ? null : vertexIndexes.get(key);
        if (index == null) {
            return;
        }
        Transaction txn = scope.txn();
        if (before != null) {
            for (Entry e : before) {
                txn.recordWrite(index.conflictKey(e.value));
            }
        }
        for (Entry e : after) {
            index.add(e.value, vertexId);
            txn.recordWrite(index.conflictKey(e.value));
        }
        index.wholeIndexWritten(txn);
    }

    void edgePropertyWritten(GtranTransaction.Scope scope, long edgeId, String key, Object before, Object after) {
        PropertyIndex index = edgeIndexes.isEmpty() ? null : edgeIndexes.get(key);
        if (index == null) {
            return;
        }
        Transaction txn = scope.txn();
        if (before != null) {
            txn.recordWrite(index.conflictKey(before));
        }
        if (after != null) {
            index.add(after, edgeId);
            txn.recordWrite(index.conflictKey(after));
        }
        index.wholeIndexWritten(txn);
    }

    /** Before a vertex is removed: its indexed values, and those of its edges, go away. */
    void vertexRemoving(GtranTransaction.Scope scope, GtranVertex vertex) {
        if (!vertexIndexes.isEmpty()) {
            for (String key : vertexIndexes.keySet()) {
                int keyId = graph.store.propertyKeys().find(key);
                if (keyId != Dictionary.ABSENT) {
                    vertexPropertyWritten(scope, vertex.internalId, key, vertex.entries(scope, keyId), List.of());
                }
            }
        }
        if (!edgeIndexes.isEmpty()) {
            vertex.edges(org.apache.tinkerpop.gremlin.structure.Direction.BOTH)
                    .forEachRemaining(e -> edgeRemoving(scope, (GtranEdge) e));
        }
    }

    void edgeRemoving(GtranTransaction.Scope scope, GtranEdge edge) {
        if (edgeIndexes.isEmpty()) {
            return;
        }
        for (String key : edgeIndexes.keySet()) {
            int keyId = graph.store.propertyKeys().find(key);
            if (keyId == Dictionary.ABSENT) {
                continue;
            }
            Object stored = scope.txn().edgeProperty(edge.internalId, keyId);
            if (stored != null) {
                edgePropertyWritten(scope, edge.internalId, key, PropertyValues.fromStored(stored), null);
            }
        }
    }

    // ---------------------------------------------------------------- look-ups

    /** The index on {@code key} that can answer {@code predicate}, or null. */
    PropertyIndex indexFor(boolean edge, String key, P<?> predicate) {
        Map<String, PropertyIndex> indexes = edge ? edgeIndexes : vertexIndexes;
        PropertyIndex index = indexes.isEmpty() ? null : indexes.get(key);
        return index != null && index.isReady() && index.canAnswer(predicate) ? index : null;
    }

    /**
     * Candidates for {@code key} matching {@code predicate} (a superset; see the class comment),
     * recording the index read in {@code txn}.
     */
    long[] lookUp(Transaction txn, PropertyIndex index, P<?> predicate, boolean edge) {
        return index.lookUp(txn, predicate, edge ? graph.store.edges()::contains : graph.store.vertices()::contains);
    }

    /**
     * The elements with one of {@code labels} that {@code txn} sees, recording a read of each label
     * scan, from the label index (creation order).
     */
    long[] withLabels(Transaction txn, boolean edge, Collection<String> labels) {
        long[] result = new long[16];
        int[] length = {0};
        for (String label : labels) {
            if (graph.clustered) {
                // Each member scans its own elements and records the label's scan key there. A name
                // no node knows yet is made known, so that the scans record a key its first use writes.
                int labelId = graph.store.labels().intern(label);
                result = append(result, length, edge ? txn.allEdges(labelId) : txn.vertices(labelId));
                continue;
            }
            int labelId = graph.store.labels().find(label);
            if (labelId == Dictionary.ABSENT) {
                txn.recordRead(edge ? ConflictKey.edgeScan(ConflictKey.ANY_LABEL) : ConflictKey.vertexScan(ConflictKey.ANY_LABEL));
                continue;
            }
            // The label's scan key covers every member: creations and removals of its elements write it.
            txn.recordRead(edge ? ConflictKey.edgeScan(labelId) : ConflictKey.vertexScan(labelId));
            LabelIndex members = (edge ? edgeLabels : vertexLabels).get(labelId);
            if (members != null) {
                int[] count = {0};
                long[] all = members.members(edge ? graph.store.edges()::contains : graph.store.vertices()::contains, new long[16],
                        count);
                long[] candidates = Arrays.copyOf(all, count[0]);
                result = append(result, length, edge ? txn.visibleEdges(candidates) : txn.visibleVertices(candidates));
            }
        }
        return Arrays.copyOf(result, length[0]);
    }

    /**
     * How many elements with one of {@code labels} (null: any label) {@code txn} sees, from its
     * element counters; recorded as reads of the label scans, as {@link #withLabels} records them.
     */
    long count(Transaction txn, boolean edge, Collection<String> labels) {
        if (labels == null) {
            return edge ? txn.countEdges(EdgeCursor.ANY_LABEL) : txn.countVertices(EdgeCursor.ANY_LABEL);
        }
        long total = 0;
        for (String label : labels) {
            int labelId = graph.clustered ? graph.store.labels().intern(label) : graph.store.labels().find(label);
            if (labelId == Dictionary.ABSENT) {
                // No element ever had it; one created concurrently writes the all-labels scan key.
                txn.recordRead(edge ? ConflictKey.edgeScan(ConflictKey.ANY_LABEL) : ConflictKey.vertexScan(ConflictKey.ANY_LABEL));
                continue;
            }
            total += edge ? txn.countEdges(labelId) : txn.countVertices(labelId);
        }
        return total;
    }

    private static long[] append(long[] to, int[] length, long[] more) {
        if (length[0] + more.length > to.length) {
            to = Arrays.copyOf(to, length[0] + more.length);
        }
        System.arraycopy(more, 0, to, length[0], more.length);
        length[0] += more.length;
        return to;
    }

    static boolean isEquality(P<?> predicate) {
        return predicate.getBiPredicate() == Compare.eq
                || predicate.getBiPredicate() == Contains.within && predicate.getValue() instanceof Collection;
    }

    static long indexTag(int number) {
        return INDEX_TAG | number;
    }

    static long wholeIndex() {
        return WHOLE_INDEX;
    }
}
