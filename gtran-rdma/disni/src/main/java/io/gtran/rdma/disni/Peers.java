package io.gtran.rdma.disni;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntFunction;

/**
 * A node's connections and what it knows of its peers: the live connection it dialled to each peer
 * (at most one, redialled when lost), every live connection (dialled or accepted), and which peers it is
 * in contact with. A peer is in contact from a HELLO exchange until the first of its connections
 * ends; each such loss is told once (by {@link DisniFabric#connectionLost}).
 */
final class Peers {
    private final int node;
    private final AtomicReferenceArray<Connection> dialled;
    private final Object[] dialLocks;
    private final Set<Connection> live = ConcurrentHashMap.newKeySet();
    private final AtomicIntegerArray inContact;

    /** Bookkeeping for node {@code node} of a cluster of {@code nodes}. */
    Peers(int node, int nodes) {
        this.node = node;
        this.dialled = new AtomicReferenceArray<>(nodes);
        this.dialLocks = new Object[nodes];
        for (int i = 0; i < nodes; i++) {
            dialLocks[i] = new Object();
        }
        this.inContact = new AtomicIntegerArray(nodes);
    }

    /**
     * The live dialled connection to {@code peer}, or a new one from {@code dial} (which throws if it
     * cannot connect). One dial per peer at a time.
     */
    Connection reach(int peer, IntFunction<Connection> dial) {
        synchronized (dialLocks[peer]) {
            Connection current = dialled.get(peer);
            if (current != null && current.lostBecause() == null) {
                return current;
            }
            Connection fresh = dial.apply(peer);
            dialled.set(peer, fresh);
            return fresh;
        }
    }

    /** Tracks {@code connection} until it is lost. */
    void add(Connection connection) {
        live.add(connection);
    }

    /** Every live connection, a snapshot. */
    List<Connection> all() {
        return new ArrayList<>(live);
    }

    /** Marks {@code peer} as in contact (after a HELLO exchange), so its next loss is told. */
    void contact(int peer) {
        if (peer != node && peer >= 0 && peer < inContact.length()) {
            inContact.set(peer, 1);
        }
    }

    /**
     * Forgets a lost connection.
     *
     * @return whether its peer was in contact and is now lost (so listeners are to be told)
     */
    boolean remove(Connection connection) {
        live.remove(connection);
        int peer = connection.peer();
        if (peer < 0 || peer >= dialled.length()) {
            return false;
        }
        dialled.compareAndSet(peer, connection, null);
        return peer != node && inContact.compareAndSet(peer, 1, 0);
    }

    @Override
    public String toString() {
        return live.toString();
    }
}
