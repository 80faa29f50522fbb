package io.gtran.core.index;

import io.gtran.storage.Dictionary;
import io.gtran.storage.EdgeCursor;
import io.gtran.storage.GraphStore;
import io.gtran.txn.Transaction;
import io.gtran.txn.TransactionEngine;
import io.gtran.txn.ValueIndex;
import io.gtran.txn.ValueIndexes;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.IndexChange;
import io.gtran.txn.common.Isolation;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.tinkerpop.gremlin.process.traversal.Compare;
import org.apache.tinkerpop.gremlin.process.traversal.Contains;
import org.apache.tinkerpop.gremlin.process.traversal.P;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Element;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.Vertex;

/**
 * The indexes of a gtran graph ({@code GtranGraph.indexes()}): a label index (always on) and property-value indexes,
 * hash (equality, {@code within}) or ordered (also ranges), on vertex or edge property keys.
 *
 * <p>An index is a superset: it names every element that has (or, in some version that may still
 * be visible, had) the value, committed or not. A look-up returns candidates; the caller re-reads
 * each candidate in its own transaction and keeps those that match, so the result is exactly what a
 * full scan in that snapshot gives, including the transaction's own uncommitted writes.
 *
 * <p>Phantoms: a look-up records a read of the index key it asked (equality: the value; range: the
 * whole index; label: what {@code Transaction.recordLabelScan} decides covers the label), and
 * every write of an indexed property records a write of the old and the new value's keys (and the
 * whole ordered index). At SR, validation then aborts a transaction whose look-up missed a
 * concurrently committed change.
 *
 * <p>The entries are the node's {@link ValueIndexes}; on a cluster each member indexes its own
 * elements, writes are sent to the element's owner and look-ups ask every member, each recording
 * its keys there (docs/cluster-transactions.md, "Property indexes across nodes").
 *
 * <p>Declare indexes in the configuration ({@code gtran.index.vertex.hash=name,...}; one node
 * only) or with {@link #create}.
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

    /**
     * The values an element's stored property value holds, one index entry each (a vertex property
     * key holds all of the vertex's properties under it): how the structure stores values is its
     * own business, and a fill asks it.
     */
    @FunctionalInterface
    public interface StoredValues {
        Object[] of(ElementKind kind, long element, int keyId, Object stored);
    }

    /** The graph, for its thread's transaction ({@link #create} refuses to run inside one). */
    private final Graph graph;
    private final TransactionEngine engine;
    private final GraphStore store;
    private final Isolation isolation;
    /** Whether the node shares its cluster with other members. */
    private final boolean clustered;
    private final StoredValues storedValues;
    private final ValueIndexes nodeIndexes;
    /** Element ids per label id, for vertices and for edges. */
    private final Map<Integer, LabelIndex> vertexLabels = new ConcurrentHashMap<>();
    private final Map<Integer, LabelIndex> edgeLabels = new ConcurrentHashMap<>();
    /** How long {@link #create} waits for running transactions; tests shorten it. */
    volatile long createWaitMillis = 30_000;

    /**
     * The indexes of {@code graph}, whose node has {@code engine} and {@code store}, with the keys
     * declared in its configuration; opened by the graph.
     */
    public Indexes(Graph graph, TransactionEngine engine, GraphStore store, Isolation isolation, boolean clustered,
            StoredValues storedValues, List<String> vertexHash, List<String> vertexOrdered, List<String> edgeHash,
            List<String> edgeOrdered) {
        this.graph = graph;
        this.engine = engine;
        this.store = store;
        this.isolation = isolation;
        this.clustered = clustered;
        this.storedValues = storedValues;
        this.nodeIndexes = engine.valueIndexes();
        if (clustered && !(vertexHash.isEmpty() && vertexOrdered.isEmpty() && edgeHash.isEmpty() && edgeOrdered.isEmpty())) {
            throw new IllegalArgumentException("indexes declared in the configuration (gtran.index.vertex.* and gtran.index.edge.*)"
                    + " are refused on a graph whose node shares a cluster (gtran.cluster.nodes has several members): a member"
                    + " started later would not have them; remove them and create each once with gtran.index.create");
        }
        fillLabels(false);
        fillLabels(true);
        // declared at open, before any transaction: filled from what the node restored from its log, if anything
        vertexHash.forEach(key -> declare(ElementKind.VERTEX, key, false));
        vertexOrdered.forEach(key -> declare(ElementKind.VERTEX, key, true));
        edgeHash.forEach(key -> declare(ElementKind.EDGE, key, false));
        edgeOrdered.forEach(key -> declare(ElementKind.EDGE, key, true));
        // made at run time before a restart, unless the configuration declares the key itself
        for (io.gtran.txn.durable.RedoRecord.IndexDefinition made : engine.restoredIndexes()) {
            ElementKind kind = made.edges() ? ElementKind.EDGE : ElementKind.VERTEX;
            if (nodeIndexes.get(kind, made.key()) == null) {
                declare(kind, made.key(), made.ordered());
            }
        }
    }

    /** The label look-ups of what the node restored from its log (docs/durability.md), in slot order; nothing on an empty store. */
    private void fillLabels(boolean edge) {
        io.gtran.storage.ElementTable table = edge ? store.edges() : store.vertices();
        if (clustered || table.count() == 0) {
            return;
        }
        for (int slot = 1; slot < table.slotLimit(); slot++) {
            long id = table.idAtSlot(slot);
            if (id > 0 && table.contains(id)) {
                (edge ? edgeLabels : vertexLabels).computeIfAbsent(table.label(id), l -> new LabelIndex()).add(id);
            }
        }
    }

    private void declare(ElementKind kind, String key, boolean ordered) {
        nodeIndexes.define(kind, key, ordered);
        if (kind.table(store).count() > 0) {
            fill(kind, key);
        }
        nodeIndexes.ready(kind, key);
    }

    /** @throws IllegalArgumentException if a key is declared with both index types */
    public static void refuseBoth(List<String> hash, List<String> ordered, String prefix) {
        for (String key : hash) {
            if (ordered.contains(key)) {
                throw new IllegalArgumentException("key has both index types: " + prefix + ".hash and " + prefix
                        + ".ordered name " + key + "; an ordered index also answers equality, declare it once");
            }
        }
    }

    // ---------------------------------------------------------------- management

    /**
     * Creates an index on {@code key} of vertices or edges (on every member of a cluster) and fills
     * it from the graph. Waits for the transactions running when it is called to end (at most 30 s),
     * so that no value they write is missed. Creating an index that exists with the same type does
     * nothing.
     *
     * @throws IllegalArgumentException if {@code kind} is not Vertex or Edge, or the key has an index of the other type
     * @throws IllegalStateException    if the calling thread has an open transaction, running ones do not end in time,
     *                                  or a member does not answer
     */
    public void create(Class<? extends Element> kind, String key, Type type) {
        ElementKind elementKind = elementKind(kind);
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("index key must be a non-empty property key: key=" + key);
        }
        if (graph.tx().isOpen()) {
            throw new IllegalStateException("commit or roll back this thread's transaction before creating an index: key=" + key);
        }
        boolean ordered = type == Type.ORDERED;
        ValueIndex existing = nodeIndexes.get(elementKind, key);
        if (existing != null && existing.isOrdered() != ordered) {
            throw new IllegalArgumentException("key already has an index of another type: key=" + key + " type="
                    + (existing.isOrdered() ? Type.ORDERED : Type.HASH));
        }
        if (existing != null && existing.isReady()) {
            return;
        }
        try {
            change(IndexChange.DEFINE, elementKind, key, ordered);
            awaitTransactionsBefore();
            fill(elementKind, key);
            change(IndexChange.READY, elementKind, key, ordered);
        } catch (RuntimeException e) {
            try {
                change(IndexChange.DROP, elementKind, key, ordered); // never leave a half-filled index in use
            } catch (RuntimeException dropFailed) {
                e.addSuppressed(dropFailed);
            }
            throw e;
        }
    }

    /** Runs {@code change} on every member in a transaction of its own (its effects are not transactional). */
    private void change(IndexChange change, ElementKind kind, String key, boolean ordered) {
        Transaction txn = engine.begin(isolation);
        try {
            txn.indexes().change(change, kind, key, ordered);
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new IllegalStateException("could not " + change.name().toLowerCase(java.util.Locale.ROOT) + " the index on "
                    + key + " on every member: " + e.getMessage(), e);
        } finally {
            if (txn.isActive()) {
                txn.rollback();
            }
        }
    }

    /** The index on {@code key} of vertices or edges, or null; for tests. */
    PropertyIndex index(Class<? extends Element> kind, String key) {
        ElementKind elementKind = elementKind(kind);
        ValueIndex index = nodeIndexes.get(elementKind, key);
        return index == null ? null : new PropertyIndex(elementKind, index, clustered);
    }

    /**
     * Drops an index, at once and for every transaction (not transactional: a running transaction's
     * next look-up scans instead), on every member; returns false if this node had none.
     */
    public boolean drop(Class<? extends Element> kind, String key) {
        ElementKind elementKind = elementKind(kind);
        ValueIndex index = nodeIndexes.get(elementKind, key);
        if (index == null) {
            return false;
        }
        change(IndexChange.DROP, elementKind, key, index.isOrdered());
        return true;
    }

    /**
     * The indexed keys of vertices or edges, with their index types as {@code hash} or {@code ordered}
     * (strings, so that a script's result reaches every driver; {@link Type#of} reads them).
     */
    public Map<String, String> indexed(Class<? extends Element> kind) {
        Map<String, String> result = new java.util.TreeMap<>();
        nodeIndexes.all(elementKind(kind)).forEach((k, v) -> result.put(k, (v.isOrdered() ? Type.ORDERED : Type.HASH).toString()));
        return result;
    }

    private static ElementKind elementKind(Class<? extends Element> kind) {
        if (Vertex.class.isAssignableFrom(kind)) {
            return ElementKind.VERTEX;
        }
        if (Edge.class.isAssignableFrom(kind)) {
            return ElementKind.EDGE;
        }
        throw new IllegalArgumentException("indexes are on Vertex or Edge keys: kind=" + kind.getName());
    }

    private static ElementKind elementKind(boolean edge) {
        return edge ? ElementKind.EDGE : ElementKind.VERTEX;
    }

    /** Waits until every transaction that began before this call has ended (on every member: the cluster's watermark). */
    private void awaitTransactionsBefore() {
        Transaction probe = engine.begin(isolation);
        long mark = probe.beginTime();
        probe.rollback();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(createWaitMillis);
        while (engine.watermark() <= mark) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("transactions begun before the index was created are still running after "
                        + createWaitMillis + " ms; the index was not created");
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting to fill an index", e);
            }
        }
    }

    /** Elements whose values a fill reads ahead at once. */
    private static final int FILL_BATCH = 4096;

    /** Fills the index on every member from one snapshot: each element's values, sent to its owner. */
    private void fill(ElementKind kind, String key) {
        Transaction txn = engine.begin(isolation);
        try {
            int keyId = store.propertyKeys().find(key);
            if (keyId == Dictionary.ABSENT) {
                return;
            }
            boolean edge = kind == ElementKind.EDGE;
            long[] ids = edge ? txn.allEdges(EdgeCursor.ANY_LABEL) : txn.vertices(EdgeCursor.ANY_LABEL);
            List<Long> elements = new java.util.ArrayList<>();
            List<Object> values = new java.util.ArrayList<>();
            for (int i = 0; i < ids.length; i++) {
                if (i % FILL_BATCH == 0) {
                    // other nodes' values a batch at a time, one request per node (nothing on one node)
                    long[] batch = Arrays.copyOfRange(ids, i, Math.min(ids.length, i + FILL_BATCH));
                    txn.readMany(kind, batch, false, new int[] {keyId});
                }
                long id = ids[i];
                Object stored = edge ? txn.edgeProperty(id, keyId) : txn.vertexProperty(id, keyId);
                if (stored == null) {
                    continue;
                }
                for (Object value : storedValues.of(kind, id, keyId, stored)) {
                    elements.add(id);
                    values.add(value);
                }
            }
            txn.indexes().fill(kind, key, elements.stream().mapToLong(Long::longValue).toArray(), values.toArray());
        } finally {
            txn.rollback();
        }
    }

    // ---------------------------------------------------------------- upkeep, called by the elements (not for applications)

    public boolean isIndexed(boolean edge, String key) {
        return nodeIndexes.get(elementKind(edge), key) != null;
    }

    /** The indexed keys of vertices or ({@code edge}) edges. */
    public Set<String> indexedKeys(boolean edge) {
        return nodeIndexes.all(elementKind(edge)).keySet();
    }

    public void vertexLabelAdded(int labelId, long id) {
        if (clustered) {
            return; // on a cluster, label look-ups scan every member (see withLabels)
        }
        vertexLabels.computeIfAbsent(labelId, l -> new LabelIndex()).add(id);
    }

    public void edgeLabelAdded(int labelId, long id) {
        if (clustered) {
            return;
        }
        edgeLabels.computeIfAbsent(labelId, l -> new LabelIndex()).add(id);
    }

    /** A vertex's properties under {@code key} held the values {@code before} and now hold {@code after}. */
    public void vertexPropertyWritten(Transaction txn, long vertexId, String key, Object[] before, Object[] after) {
        if (isIndexed(false, key)) {
            txn.indexes().write(ElementKind.VERTEX, vertexId, key, before, after);
        }
    }

    /** An edge's property {@code key} was {@code before} and is now {@code after} (null: none). */
    public void edgePropertyWritten(Transaction txn, long edgeId, String key, Object before, Object after) {
        if (isIndexed(true, key)) {
            txn.indexes().write(ElementKind.EDGE, edgeId, key, before == null ? new Object[0] : new Object[] {before},
                    after == null ? new Object[0] : new Object[] {after});
        }
    }

    // ---------------------------------------------------------------- look-ups

    /** The index on {@code key} that can answer {@code predicate}, or null. */
    public PropertyIndex indexFor(boolean edge, String key, P<?> predicate) {
        ValueIndex local = nodeIndexes.get(elementKind(edge), key);
        if (local == null || !local.isReady()) {
            return null;
        }
        PropertyIndex index = new PropertyIndex(elementKind(edge), local, clustered);
        return index.canAnswer(predicate) ? index : null;
    }

    /**
     * Candidates for {@code key} matching {@code predicate} (a superset; see the class comment) from
     * every member, recording the index reads there; null if a member cannot answer (scan instead).
     */
    public long[] lookUp(Transaction txn, PropertyIndex index, P<?> predicate) {
        return index.lookUp(txn, predicate);
    }

    /**
     * The elements with one of {@code labels} that {@code txn} sees, recording a read of each label
     * scan, from the label index (creation order).
     */
    public long[] withLabels(Transaction txn, boolean edge, Collection<String> labels) {
        long[] result = new long[16];
        int[] length = {0};
        for (String label : labels) {
            if (clustered) {
                // Each member scans its own elements and records the label's scan key there. A name
                // no node knows yet is made known, so that the scans record a key its first use writes.
                int labelId = store.labels().intern(label);
                result = append(result, length, edge ? txn.allEdges(labelId) : txn.vertices(labelId));
                continue;
            }
            int labelId = store.labels().find(label);
            // The transaction records what covers the scan: creations and removals of the label's elements.
            txn.recordLabelScan(elementKind(edge), labelId);
            if (labelId == Dictionary.ABSENT) {
                continue;
            }
            LabelIndex members = (edge ? edgeLabels : vertexLabels).get(labelId);
            if (members != null) {
                int[] count = {0};
                long[] all = members.members(edge ? store.edges()::contains : store.vertices()::contains, new long[16],
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
    public long count(Transaction txn, boolean edge, Collection<String> labels) {
        if (labels == null) {
            return edge ? txn.countEdges(EdgeCursor.ANY_LABEL) : txn.countVertices(EdgeCursor.ANY_LABEL);
        }
        long total = 0;
        for (String label : labels) {
            int labelId = clustered ? store.labels().intern(label) : store.labels().find(label);
            if (labelId == Dictionary.ABSENT) {
                txn.recordLabelScan(elementKind(edge), labelId); // no element ever had it: nothing to count, but a phantom to catch
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

}
