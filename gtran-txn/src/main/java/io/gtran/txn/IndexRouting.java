package io.gtran.txn;

import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.IndexChange;
import io.gtran.txn.durable.RedoRecord;
import io.gtran.txn.protocol.Op;
import io.gtran.txn.protocol.Wire;
import java.util.Map;

/**
 * A transaction's operations on property-value indexes, each at the owner of the elements
 * involved; the node's own {@link ValueIndex} records the reads and writes there.
 */
public final class IndexRouting {
    private final Transaction txn;

    IndexRouting(Transaction txn) {
        this.txn = txn;
    }

    /**
     * Keeps the index on {@code key} at the element's owner up to date with a write of the
     * element's property (see {@link ValueIndex#written}): entries for the values in {@code after},
     * and writes of the keys of {@code before} and {@code after}. Nothing if the owner has no such
     * index. Values sent to another node are those {@link ValueIndex#travels} (only those are looked
     * up on a cluster).
     */
    public void write(ElementKind kind, long element, String key, Object[] before, Object[] after) {
        int owner = txn.owner(element);
        if (owner >= 0) {
            txn.remote.call(owner, new Op.IndexWrite(kind, element, key, travelling(before), travelling(after)));
            return;
        }
        txn.ensureActive();
        ValueIndex index = txn.engine.valueIndexes().get(kind, key);
        if (index != null) {
            index.written(txn, element, before, after);
        }
    }

    /**
     * Candidates for a look-up of {@code key}'s index ({@link ValueIndex#lookUp}) on this node and
     * every other member, each recording its reads there; null if some member has no ready index on
     * the key, or a value cannot be sent to another member: the caller then scans.
     */
    public long[] lookUp(ElementKind kind, String key, int mode, Object[] values) {
        long[] here = lookUpHere(kind, key, mode, values);
        if (here == null || txn.remote.otherMembersEmpty()) {
            return here;
        }
        for (Object value : values) {
            if (!ValueIndex.travels(value)) {
                return null;
            }
        }
        Transaction.LongList all = new Transaction.LongList();
        all.addAll(here);
        Object[] sent = travelling(values);
        for (Wire.Reader reply : txn.remote.callEach(txn.remote.otherMembers(), i -> new Op.IndexLookUp(kind, key, mode, sent))) {
            if (!reply.getBoolean()) {
                return null;
            }
            all.addAll(reply.getLongs());
        }
        return all.toArray();
    }

    long[] lookUpHere(ElementKind kind, String key, int mode, Object[] values) {
        txn.ensureActive();
        ValueIndex index = txn.engine.valueIndexes().get(kind, key);
        if (index == null || !index.isReady()) {
            return null;
        }
        return index.lookUp(txn, mode, values, kind.table(txn.store)::contains);
    }

    /**
     * Adds entries {@code values[i]} of {@code elements[i]} to the index on {@code key} at each
     * element's owner, recording nothing: for filling a new index from one snapshot. Values that do
     * not {@link ValueIndex#travels travel} are left out for other nodes' elements.
     */
    public void fill(ElementKind kind, String key, long[] elements, Object[] values) {
        Map<Integer, Transaction.LongList> byNode = new java.util.TreeMap<>();
        for (int i = 0; i < elements.length; i++) {
            byNode.computeIfAbsent(txn.nodeOf(elements[i]), n -> new Transaction.LongList()).add(i);
        }
        for (Map.Entry<Integer, Transaction.LongList> part : byNode.entrySet()) {
            long[] at = part.getValue().toArray();
            long[] ids = new long[at.length];
            Object[] partValues = new Object[at.length];
            for (int i = 0; i < at.length; i++) {
                ids[i] = elements[(int) at[i]];
                partValues[i] = values[(int) at[i]];
            }
            if (part.getKey() == txn.store.nodeId()) {
                fillHere(kind, key, ids, partValues);
            } else {
                Object[] sent = new Object[partValues.length];
                for (int i = 0; i < sent.length; i++) {
                    sent[i] = ValueIndex.travels(partValues[i]) ? ValueIndex.normalize(partValues[i]) : null;
                }
                txn.remote.call(part.getKey(), new Op.IndexFill(kind, key, ids, sent));
            }
        }
    }

    void fillHere(ElementKind kind, String key, long[] elements, Object[] values) {
        txn.ensureActive();
        ValueIndex index = txn.engine.valueIndexes().get(kind, key);
        if (index == null) {
            throw new IllegalStateException("no " + kind.display() + " index on " + key + " to fill at node " + txn.store.nodeId()
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
    public void change(IndexChange change, ElementKind kind, String key, boolean ordered) {
        txn.ensureActive();
        changeHere(change, kind, key, ordered);
        txn.remote.callEach(txn.remote.otherMembers(), i -> new Op.IndexChangeOf(change, kind, key, ordered));
    }

    void changeHere(IndexChange change, ElementKind kind, String key, boolean ordered) {
        ValueIndexes indexes = txn.engine.valueIndexes();
        switch (change) {
            case DEFINE -> indexes.define(kind, key, ordered);
            case READY -> {
                if (indexes.ready(kind, key)) {
                    logged(kind, key, ordered, true);
                }
            }
            case DROP -> {
                if (indexes.drop(kind, key)) {
                    logged(kind, key, ordered, false);
                }
            }
            default -> throw new IllegalStateException("unhandled index change: " + change);
        }
    }

    /** An index made ready or dropped goes to the node's log, so a restart has it (docs/durability.md). */
    private void logged(ElementKind kind, String key, boolean ordered, boolean present) {
        txn.engine.commitLog().indexChanged(new RedoRecord.IndexDefinition(kind == ElementKind.EDGE, key, ordered, present));
    }

    /** The values that {@link ValueIndex#travels travel}, normalized, in order. */
    private static Object[] travelling(Object[] values) {
        return java.util.Arrays.stream(values).filter(ValueIndex::travels).map(ValueIndex::normalize).toArray();
    }
}
