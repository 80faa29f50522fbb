package io.gtran.txn.local;

import io.gtran.storage.ElementIds;
import io.gtran.txn.common.ConflictKey;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A transaction's read or write set, kept per owning node: the node an element-based key's
 * element lives on validates it (against its own recent committed table); scan and custom keys
 * belong to the node that ran the scan, here the local one.
 */
public final class KeySets {
    private final int localNode;
    private final Map<Integer, Set<ConflictKey>> byNode = new TreeMap<>();
    private int size;

    public KeySets(int localNode) {
        this.localNode = localNode;
    }

    public void add(ConflictKey key) {
        if (byNode.computeIfAbsent(ownerNode(key), n -> new HashSet<>()).add(key)) {
            size++;
        }
    }

    /** The keys owned by {@code node}; empty if none. */
    public Set<ConflictKey> of(int node) {
        return byNode.getOrDefault(node, Set.of());
    }

    public Set<Integer> nodes() {
        return byNode.keySet();
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public int size() {
        return size;
    }

    public int ownerNode(ConflictKey key) {
        switch (key.kind()) {
            case ELEMENT:
            case PROPERTY:
            case PROPERTY_KEYS:
            case ADJACENCY_OUT:
            case ADJACENCY_IN:
                return ElementIds.isWellFormed(key.element()) ? ElementIds.node(key.element()) : localNode;
            default:
                return localNode;
        }
    }

    /** Whether any of {@code others} is in this set's keys of {@code node}; returns the first such key or null. */
    public ConflictKey firstCommon(int node, Set<ConflictKey> others) {
        Set<ConflictKey> mine = of(node);
        Set<ConflictKey> small = mine.size() <= others.size() ? mine : others;
        Set<ConflictKey> large = small == mine ? others : mine;
        for (ConflictKey key : small) {
            if (large.contains(key)) {
                return key;
            }
        }
        return null;
    }
}
