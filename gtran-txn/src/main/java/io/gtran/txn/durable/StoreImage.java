package io.gtran.txn.durable;

import io.gtran.storage.ElementIds;
import io.gtran.storage.ElementTable;
import io.gtran.storage.GraphStore;
import io.gtran.storage.StoreRestorer;
import io.gtran.txn.common.ConflictKey;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.TxnWords;
import io.gtran.txn.local.ElementCounts;
import io.gtran.txn.local.Mirrors;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
        /** For a mirror, the edge it stands for (on another node); else 0. */
        final long mirrorOf;
        final Map<Integer, Object> properties = new LinkedHashMap<>(4);

        Element(int label, long outVertex, long inVertex, Object externalId) {
            this(label, outVertex, inVertex, externalId, 0);
        }

        Element(int label, long outVertex, long inVertex, Object externalId, long mirrorOf) {
            this.label = label;
            this.outVertex = outVertex;
            this.inVertex = inVertex;
            this.externalId = externalId;
            this.mirrorOf = mirrorOf;
        }
    }

    private final GraphStore store;
    private final Map<Long, Element> vertices = new HashMap<>();
    private final Map<Long, Element> edges = new HashMap<>();
    /** Per kind and slot, the removed id with the highest generation. */
    private final Map<Long, Long> dead = new HashMap<>();
    private long records;
    /** Cross-node transactions' votes and decisions. */
    private final ImageVotes votes = new ImageVotes(this);
    /** After a snapshot, commit records at or before its time are in it already and are skipped. */
    private long skipThrough = Long.MIN_VALUE;
    private long skipped;
    /** User-supplied edge ids whose home is this node, to the edge that claimed each. */
    private final Map<Object, Long> claims = new HashMap<>();
    /** Edge ids of this node taken as other members' edges' user-supplied ids. */
    private final Set<Long> reserved = new HashSet<>();
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
            index.applyTo(indexes);
        } else if (record instanceof RedoRecord.SlotsUsed used) {
            for (long id : used.ids()) {
                markDead(id);
            }
        } else if (record instanceof RedoRecord.Commit commit) {
            if (commit.commitTime() <= skipThrough) {
                skipped++;
                return;
            }
            for (RedoRecord.Op op : commit.ops()) {
                apply(op, commit.commitTime(), null);
            }
        } else {
            votes.apply(record);
        }
    }

    /**
     * Applies one change; with {@code undo}, also adds what takes it back (a vote's change, undone
     * if its transaction aborts: docs/durability.md, "Nodes of a cluster", restart step 1).
     */
    void apply(RedoRecord.Op op, long commitTime, List<Runnable> undo) {
        if (op instanceof RedoRecord.AddVertex v) {
            create(vertices, v.id(), new Element(v.label(), 0, 0, v.externalId()), commitTime);
            undoCreate(undo, vertices, v.id());
        } else if (op instanceof RedoRecord.AddEdge e) {
            requireLocalLive(vertices, e.outVertex(), commitTime);
            requireLocalLive(vertices, e.inVertex(), commitTime);
            create(edges, e.id(), new Element(e.label(), e.outVertex(), e.inVertex(), e.externalId()), commitTime);
            undoCreate(undo, edges, e.id());
        } else if (op instanceof RedoRecord.Remove r) {
            Map<Long, Element> table = table(r.id());
            Element removed = table.remove(r.id());
            if (removed == null) {
                throw missing(r.id(), commitTime);
            }
            Long deadBefore = dead.get(slotKey(r.id()));
            markDead(r.id());
            if (undo != null) {
                undo.add(() -> {
                    table.put(r.id(), removed);
                    if (deadBefore == null) {
                        dead.remove(slotKey(r.id()));
                    } else {
                        dead.put(slotKey(r.id()), deadBefore);
                    }
                });
            }
        } else if (op instanceof RedoRecord.AddMirror m) {
            requireLocalLive(vertices, m.inVertex(), commitTime);
            create(edges, m.id(), new Element(m.label(), m.outVertex(), m.inVertex(), null, m.edge()), commitTime);
            undoCreate(undo, edges, m.id());
        } else if (op instanceof RedoRecord.Claim c) {
            Long before = claims.put(c.canonical(), c.edge());
            if (undo != null) {
                undo.add(() -> {
                    if (before == null) {
                        claims.remove(c.canonical());
                    } else {
                        claims.put(c.canonical(), before);
                    }
                });
            }
        } else if (op instanceof RedoRecord.Reserve r) {
            if (reserved.add(r.number()) && undo != null) {
                undo.add(() -> reserved.remove(r.number()));
            }
        } else if (op instanceof RedoRecord.SetProperty p) {
            Element element = element(p.element(), commitTime);
            undoProperty(undo, element, p.key());
            element.properties.put(p.key(), p.value());
        } else {
            RedoRecord.RemoveProperty p = (RedoRecord.RemoveProperty) op;
            Element element = element(p.element(), commitTime);
            undoProperty(undo, element, p.key());
            element.properties.remove(p.key());
        }
    }

    /** An aborted creation leaves its id used: the slot's next element takes a later generation. */
    private void undoCreate(List<Runnable> undo, Map<Long, Element> table, long id) {
        if (undo != null) {
            undo.add(() -> {
                table.remove(id);
                markDead(id);
            });
        }
    }

    private static void undoProperty(List<Runnable> undo, Element element, int key) {
        if (undo != null) {
            boolean had = element.properties.containsKey(key);
            Object before = element.properties.get(key);
            undo.add(() -> {
                if (had) {
                    element.properties.put(key, before);
                } else {
                    element.properties.remove(key);
                }
            });
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

    /** Commit and vote records skipped as older than the snapshot. */
    public long skipped() {
        return skipped + votes.skipped();
    }

    /** The node whose log this is. */
    int nodeId() {
        return store.nodeId();
    }

    /** Commits at or before this time are in the snapshot; {@link Long#MIN_VALUE} without one. */
    long skipThrough() {
        return skipThrough;
    }

    /**
     * The votes and decisions the log holds of cross-node transactions: those still in doubt and
     * those this node coordinated whose decision may not have reached every participant.
     */
    public ImageVotes votes() {
        return votes;
    }

    /** Records applied so far. */
    public long records() {
        return records;
    }

    /** The indexes the log says exist, each made ready and not dropped since. */
    public List<RedoRecord.IndexDefinition> indexes() {
        return List.copyOf(indexes.values());
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
        writeInto(counts, null);
    }

    /** The claims of user-supplied edge ids whose home is this node, by canonical id: for {@code ExternalIds}. */
    public Map<Object, Long> claims() {
        return Collections.unmodifiableMap(claims);
    }

    /** Edge ids of this node reserved as other members' edges' user-supplied ids: for {@code ExternalIds}. */
    public Set<Long> reserved() {
        return Collections.unmodifiableSet(reserved);
    }

    /**
     * As {@link #writeInto(ElementCounts)}, also registering every restored mirror in {@code
     * mirrors} (null: the log must hold none).
     */
    public void writeInto(ElementCounts counts, Mirrors mirrors) {
        if (!votes.inDoubt().isEmpty()) {
            throw new IllegalStateException(votes.inDoubt().size() + " votes are in doubt: settle them first (ImageVotes.settle)");
        }
        StoreRestorer restorer = store.restorer();
        vertices.forEach((id, v) -> restorer.vertex(id, v.label, RESTORED_TIME, TxnWords.INFINITY));
        edges.forEach((id, e) -> restorer.edge(id, e.outVertex, e.inVertex, e.label, RESTORED_TIME, TxnWords.INFINITY));
        dead.values().forEach(restorer::dead);
        restorer.finish();
        writeElements(ElementKind.VERTEX, vertices, counts);
        writeElements(ElementKind.EDGE, edges, counts);
        edges.forEach((id, e) -> {
            if (e.mirrorOf != 0) {
                if (mirrors == null) {
                    throw new IllegalArgumentException("the log holds the mirror " + ElementIds.toString(id)
                            + " of an edge between nodes, but this node has no cluster");
                }
                mirrors.add(id, e.mirrorOf);
            }
        });
    }

    private void writeElements(ElementKind kind, Map<Long, Element> elements, ElementCounts counts) {
        ElementTable table = kind.table(store);
        Map<Integer, long[]> perLabel = new HashMap<>();
        long[] counted = new long[1];
        elements.forEach((id, element) -> {
            element.properties.forEach((key, value) -> table.addPropertyBase(id, key, value));
            if (element.externalId != null && !table.externalIds().put(element.externalId, id)) {
                throw new IllegalArgumentException("user id " + element.externalId + " names two live elements, one of them "
                        + ElementIds.toString(id));
            }
            if (element.mirrorOf == 0) { // a mirror is counted where its edge lives
                perLabel.computeIfAbsent(element.label, l -> new long[1])[0]++;
                counted[0]++;
            }
        });
        if (counted[0] == 0) {
            return;
        }
        perLabel.forEach((label, n) -> counts.counter(ElementCounts.key(kind, label)).append(RESTORED_TIME, n[0]));
        counts.counter(ElementCounts.key(kind, ConflictKey.ANY_LABEL)).append(RESTORED_TIME, counted[0]);
    }
}
