package io.gtran.txn;

import io.gtran.txn.common.ElementKind;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The property-value indexes of one node, on vertex and on edge property keys (each indexing this
 * node's elements only; docs/cluster-transactions.md, "Property indexes across nodes"). Defining,
 * marking ready and dropping are immediate, not transactional, and idempotent, so a coordinator
 * may send them again.
 */
public final class ValueIndexes {
    private final Map<String, ValueIndex> vertexIndexes = new ConcurrentHashMap<>();
    private final Map<String, ValueIndex> edgeIndexes = new ConcurrentHashMap<>();
    private int nextNumber;

    private Map<String, ValueIndex> of(ElementKind kind) {
        return kind == ElementKind.EDGE ? edgeIndexes : vertexIndexes;
    }

    /**
     * The index on {@code key}, defined (not ready) if there was none.
     *
     * @throws IllegalArgumentException if the key has an index of the other type
     */
    public synchronized ValueIndex define(ElementKind kind, String key, boolean ordered) {
        ValueIndex existing = of(kind).get(key);
        if (existing != null) {
            if (existing.ordered != ordered) {
                throw new IllegalArgumentException("key already has an index of another type: key=" + key + " type="
                        + (existing.ordered ? "ordered" : "hash"));
            }
            return existing;
        }
        ValueIndex index = new ValueIndex(key, ordered, ++nextNumber);
        of(kind).put(key, index);
        return index;
    }

    /** Marks the index filled, so look-ups use it; false if there is none. */
    public boolean ready(ElementKind kind, String key) {
        ValueIndex index = of(kind).get(key);
        if (index != null) {
            index.ready();
        }
        return index != null;
    }

    /** Removes the index on {@code key}; false if there was none. */
    public boolean drop(ElementKind kind, String key) {
        return of(kind).remove(key) != null;
    }

    /** The index on {@code key}, ready or not, or null. */
    public ValueIndex get(ElementKind kind, String key) {
        Map<String, ValueIndex> indexes = of(kind);
        return indexes.isEmpty() ? null : indexes.get(key);
    }

    /** The indexes of vertices or edges by key, sorted. */
    public Map<String, ValueIndex> all(ElementKind kind) {
        return new TreeMap<>(of(kind));
    }
}
