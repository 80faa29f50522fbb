package io.gtran.txn.durable;

import io.gtran.storage.ElementIds;
import io.gtran.storage.ElementTable;
import io.gtran.storage.GraphStore;
import io.gtran.storage.StoreRestorer;
import io.gtran.txn.common.ConflictKey;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.TxnWords;
import io.gtran.txn.local.ElementCounts;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The graph a replayed log describes (docs/durability.md, "Restart"): names go straight into the
 * store's dictionaries; commit records build a map of the live elements, their properties and
 * user ids, and the last id of every slot that was freed. {@link #writeInto} then builds the
 * store from it in one pass. Replay applies records in log order, one thread.
 */
public final class StoreImage implements LogReplay {
    /** The begin time of every restored element: before every transaction after the restart. */
    public static final long RESTORED_TIME = 1;

    private static final class Element {
        final int label;
        final long outVertex;
        final long inVertex;
        final Object externalId;
        final Map<Integer, Object> properties = new LinkedHashMap<>(4);

        Element(int label, long outVertex, long inVertex, Object externalId) {
            this.label = label;
            this.outVertex = outVertex;
            this.inVertex = inVertex;
            this.externalId = externalId;
        }
    }

    private final GraphStore store;
    private final Map<Long, Element> vertices = new HashMap<>();
    private final Map<Long, Element> edges = new HashMap<>();
    /** Per kind and slot, the removed id with the highest generation. */
    private final Map<Long, Long> dead = new HashMap<>();
    private long records;
    /** After a snapshot, commit records at or before its time are in it already and are skipped. */
    private long skipThrough = Long.MIN_VALUE;
    private long skipped;
    /** Indexes made at run time and not dropped since, by kind and key, in the order they were made. */
    private final Map<String, RedoRecord.IndexDefinition> indexes = new LinkedHashMap<>();

    /** An image to be written into {@code store}, which must be empty. */
    public StoreImage(GraphStore store) {
        this.store = store;
    }

    /**
     * Applies one record.
     *
     * @throws IllegalArgumentException naming the record and what is wrong: it does not decode, or it
     *     names an element the log never created (or created twice)
     */
    @Override
    public void record(byte[] bytes) {
        apply(bytes);
    }

    /** The snapshot has been read: from now on a commit at or before {@code snapshotTime} is skipped (invariant S2). */
    @Override
    public void snapshotRead(long snapshotTime) {
        skipThrough = snapshotTime;
    }

    public void apply(byte[] bytes) {
        RedoRecord record = RedoRecord.decode(bytes);
        records++;
        if (record instanceof RedoRecord.Name name) {
            (name.keys() ? store.propertyKeys() : store.labels()).restore(name.id(), name.name());
        } else if (record instanceof RedoRecord.IndexDefinition index) {
            String at = (index.edges() ? "edge:" : "vertex:") + index.key();
            if (index.present()) {
                indexes.put(at, index);
            } else {
                indexes.remove(at);
            }
        } else if (record instanceof RedoRecord.SlotsUsed used) {
            for (long id : used.ids()) {
                markDead(id);
            }
        } else {
            RedoRecord.Commit commit = (RedoRecord.Commit) record;
            if (commit.commitTime() <= skipThrough) {
                skipped++;
                return;
            }
            for (RedoRecord.Op op : commit.ops()) {
                apply(op, commit.commitTime());
            }
        }
    }

    private void apply(RedoRecord.Op op, long commitTime) {
        if (op instanceof RedoRecord.AddVertex v) {
            create(vertices, v.id(), new Element(v.label(), 0, 0, v.externalId()), commitTime);
        } else if (op instanceof RedoRecord.AddEdge e) {
            requireLocalLive(vertices, e.outVertex(), commitTime);
            requireLocalLive(vertices, e.inVertex(), commitTime);
            create(edges, e.id(), new Element(e.label(), e.outVertex(), e.inVertex(), e.externalId()), commitTime);
        } else if (op instanceof RedoRecord.Remove r) {
            Map<Long, Element> table = table(r.id());
            if (table.remove(r.id()) == null) {
                throw missing(r.id(), commitTime);
            }
            markDead(r.id());
        } else if (op instanceof RedoRecord.SetProperty p) {
            element(p.element(), commitTime).properties.put(p.key(), p.value());
        } else {
            RedoRecord.RemoveProperty p = (RedoRecord.RemoveProperty) op;
            element(p.element(), commitTime).properties.remove(p.key());
        }
    }

    private void markDead(long id) {
        dead.merge(slotKey(id), id, (a, b) -> ElementIds.generation(a) >= ElementIds.generation(b) ? a : b);
    }

    private void create(Map<Long, Element> table, long id, Element element, long commitTime) {
        if (table.putIfAbsent(id, element) != null) {
            throw new IllegalArgumentException("commit at " + commitTime + " creates " + ElementIds.toString(id)
                    + ", which the log had created already");
        }
        // A snapshot names the id a slot carried when it was cut, which may be this one (created, not yet committed,
        // then): the live element now says more.
        Long last = dead.get(slotKey(id));
        if (last != null && ElementIds.generation(last) >= ElementIds.generation(id)) {
            dead.remove(slotKey(id));
        }
    }

    /** An endpoint on this node must be live; one on another node is not ours to check. */
    private void requireLocalLive(Map<Long, Element> table, long id, long commitTime) {
        if (ElementIds.node(id) == store.nodeId() && !table.containsKey(id)) {
            throw missing(id, commitTime);
        }
    }

    private Element element(long id, long commitTime) {
        Element element = table(id).get(id);
        if (element == null) {
            throw missing(id, commitTime);
        }
        return element;
    }

    private Map<Long, Element> table(long id) {
        return RedoRecord.kindOf(id) == ElementKind.VERTEX ? vertices : edges;
    }

    private static long slotKey(long id) {
        return (long) ElementIds.kind(id) << 32 | ElementIds.slot(id);
    }

    private static IllegalArgumentException missing(long id, long commitTime) {
        return new IllegalArgumentException("commit at " + commitTime + " names " + ElementIds.toString(id)
                + ", which the log never created or already removed");
    }

    /** Commit records skipped as older than the snapshot. */
    public long skipped() {
        return skipped;
    }

    /** Records applied so far. */
    public long records() {
        return records;
    }

    /** The indexes the log says exist, each made ready and not dropped since. */
    public java.util.List<RedoRecord.IndexDefinition> indexes() {
        return java.util.List.copyOf(indexes.values());
    }

    public int vertices() {
        return vertices.size();
    }

    public int edges() {
        return edges.size();
    }

    /**
     * Builds the store from this image: every element at its id, freed slots with their last
     * generation, properties as base versions, user ids bound, and the per-label counts in {@code
     * counts} (all committed at {@link #RESTORED_TIME}). Call once, before any transaction runs.
     */
    public void writeInto(ElementCounts counts) {
        StoreRestorer restorer = store.restorer();
        vertices.forEach((id, v) -> restorer.vertex(id, v.label, RESTORED_TIME, TxnWords.INFINITY));
        edges.forEach((id, e) -> restorer.edge(id, e.outVertex, e.inVertex, e.label, RESTORED_TIME, TxnWords.INFINITY));
        dead.values().forEach(restorer::dead);
        restorer.finish();
        writeElements(ElementKind.VERTEX, vertices, counts);
        writeElements(ElementKind.EDGE, edges, counts);
    }

    private void writeElements(ElementKind kind, Map<Long, Element> elements, ElementCounts counts) {
        ElementTable table = kind.table(store);
        Map<Integer, long[]> perLabel = new HashMap<>();
        elements.forEach((id, element) -> {
            element.properties.forEach((key, value) -> table.addPropertyBase(id, key, value));
            if (element.externalId != null && !table.externalIds().put(element.externalId, id)) {
                throw new IllegalArgumentException("user id " + element.externalId + " names two live elements, one of them "
                        + ElementIds.toString(id));
            }
            perLabel.computeIfAbsent(element.label, l -> new long[1])[0]++;
        });
        if (elements.isEmpty()) {
            return;
        }
        perLabel.forEach((label, n) -> counts.counter(ElementCounts.key(kind, label)).append(RESTORED_TIME, n[0]));
        counts.counter(ElementCounts.key(kind, ConflictKey.ANY_LABEL)).append(RESTORED_TIME, elements.size());
    }
}
