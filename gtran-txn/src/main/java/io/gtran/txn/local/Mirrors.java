package io.gtran.txn.local;

import io.gtran.storage.ElementIds;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The mirrors this node keeps of edges that live on other nodes (docs/cluster-transactions.md,
 * "Edges between nodes"). An edge lives with its out-vertex; when its in-vertex is on another
 * node, that node keeps a mirror: an edge header of its own (a local id, the same endpoints and
 * label) with an IN cell in the in-vertex's row-list, so {@code in()} is a local scan there. A
 * mirror's header words carry the creating and deleting transaction like any element's, so its
 * visibility is decided here; its id never leaves this node: reads answer with the edge's own id,
 * which this map gives.
 *
 * <p>A header is a mirror exactly when its out-vertex is on another node. An entry is added when
 * the mirror is created (before its creator commits) and removed when the garbage collector frees
 * the mirror's header.
 */
public final class Mirrors {
    private final int node;
    private final ConcurrentHashMap<Long, Long> edgeOfMirror = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Long, Long> mirrorOfEdge = new ConcurrentHashMap<>();

    public Mirrors(int node) {
        this.node = node;
    }

    /** Whether an edge header here with out-vertex {@code outVertex} is a mirror. */
    public boolean isMirror(long outVertex) {
        return ElementIds.node(outVertex) != node;
    }

    public void add(long mirror, long edge) {
        mirrorOfEdge.put(edge, mirror);
        edgeOfMirror.put(mirror, edge);
    }

    /** The id of the edge a mirror here stands for. */
    public long edgeOf(long mirror) {
        Long edge = edgeOfMirror.get(mirror);
        if (edge == null) {
            throw new IllegalStateException("no edge is known for mirror " + ElementIds.toString(mirror) + " on node " + node);
        }
        return edge;
    }

    /** This node's mirror of {@code edge}, or {@link ElementIds#NONE}. */
    public long mirrorOf(long edge) {
        Long mirror = mirrorOfEdge.get(edge);
        return mirror == null ? ElementIds.NONE : mirror;
    }

    /** The mirror's header was freed. */
    public void forget(long mirror) {
        Long edge = edgeOfMirror.remove(mirror);
        if (edge != null) {
            mirrorOfEdge.remove(edge, mirror);
        }
    }

    public int size() {
        return edgeOfMirror.size();
    }
}
