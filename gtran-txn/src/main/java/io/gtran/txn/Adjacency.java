package io.gtran.txn;

import io.gtran.storage.EdgeCursor;
import io.gtran.storage.EdgeDirection;
import io.gtran.storage.ElementIds;
import io.gtran.txn.common.ConflictKey;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.ReplyTooLargeException;
import io.gtran.txn.protocol.Op;
import io.gtran.txn.protocol.Wire;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A transaction's reads of vertices' edges: on this node through the edge cursor, recording the
 * adjacency keys validation checks; of many vertices at once, one request per owning node. An
 * edge that reaches here through its mirror is named by the edge's own id.
 */
final class Adjacency {
    private final Transaction txn;

    Adjacency(Transaction txn) {
        this.txn = txn;
    }

    long[][] many(long[] vertices, EdgeDirection direction, int[] labels) {
        long[][] result = new long[vertices.length][];
        Map<Integer, Transaction.LongList> byNode = new TreeMap<>();
        Map<Integer, List<Integer>> positions = new TreeMap<>();
        for (int i = 0; i < vertices.length; i++) {
            int owner = txn.owner(vertices[i]);
            byNode.computeIfAbsent(owner, n -> new Transaction.LongList()).add(vertices[i]);
            positions.computeIfAbsent(owner, n -> new ArrayList<>()).add(i);
        }
        Transaction.LongList here = byNode.remove(-1);
        if (here != null) {
            place(result, positions.get(-1), manyHere(here.toArray(), direction, labels));
        }
        int[] nodes = byNode.keySet().stream().mapToInt(Integer::intValue).toArray();
        long[][] asked = byNode.values().stream().map(Transaction.LongList::toArray).toArray(long[][]::new);
        String[] names = new String[labels.length];
        for (int i = 0; i < labels.length; i++) {
            names[i] = RemoteOp.labelName(txn.store, labels[i]);
        }
        Wire.Reader[] replies;
        try {
            replies = txn.remote.callEach(nodes, n -> new Op.AdjacentMany(asked[n], direction, names));
        } catch (ReplyTooLargeException tooMuch) {
            if (vertices.length == 1) {
                throw tooMuch; // one vertex's edges alone do not fit in a message
            }
            return inHalves(vertices, direction, labels); // the edges asked of one node did not fit: ask half as many
        }
        for (int n = 0; n < nodes.length; n++) {
            long[][] answers = new long[asked[n].length][];
            for (int i = 0; i < answers.length; i++) {
                answers[i] = replies[n].getBoolean() ? replies[n].getLongs() : null;
            }
            place(result, positions.get(nodes[n]), answers);
        }
        return result;
    }

    private long[][] inHalves(long[] vertices, EdgeDirection direction, int[] labels) {
        int half = vertices.length / 2;
        long[][] first = many(java.util.Arrays.copyOfRange(vertices, 0, half), direction, labels);
        long[][] second = many(java.util.Arrays.copyOfRange(vertices, half, vertices.length), direction, labels);
        long[][] result = java.util.Arrays.copyOf(first, vertices.length);
        System.arraycopy(second, 0, result, half, second.length);
        return result;
    }

    private static void place(long[][] result, List<Integer> at, long[][] answers) {
        for (int i = 0; i < answers.length; i++) {
            result[at.get(i)] = answers[i];
        }
    }

    long[][] manyHere(long[] vertices, EdgeDirection direction, int[] labels) {
        long[][] answers = new long[vertices.length][];
        for (int i = 0; i < vertices.length; i++) {
            if (!txn.exists(ElementKind.VERTEX, vertices[i])) {
                continue; // null: not seen
            }
            if (labels.length == 0) {
                answers[i] = here(vertices[i], direction, EdgeCursor.ANY_LABEL, true);
                continue;
            }
            Transaction.LongList all = new Transaction.LongList();
            for (int label : labels) {
                all.addAll(here(vertices[i], direction, label, true));
            }
            answers[i] = all.toArray();
        }
        return answers;
    }

    /** {@link Transaction#edges} ({@code pairs} false) or {@link Transaction#adjacent} (true) of a vertex on this node. */
    long[] here(long vertexId, EdgeDirection direction, int label, boolean pairs) {
        txn.requireVisible(ElementKind.VERTEX, vertexId);
        if (direction != EdgeDirection.IN) {
            txn.recordRead(ConflictKey.adjacencyOut(vertexId));
        }
        if (direction != EdgeDirection.OUT) {
            txn.recordRead(ConflictKey.adjacencyIn(vertexId));
        }
        Transaction.LongList result = new Transaction.LongList();
        EdgeCursor cursor = txn.edgeCursor();
        cursor.open(vertexId, direction, label);
        while (cursor.next()) {
            long edgeId = cursor.edgeId();
            if (ElementIds.isWellFormed(edgeId) && txn.visibility.visible(ElementKind.EDGE, edgeId)) {
                long neighbour = cursor.neighbour();
                boolean mirror = cursor.direction() == EdgeDirection.IN && txn.engine.mirrors().isMirror(neighbour);
                result.add(mirror ? txn.engine.mirrors().edgeOf(edgeId) : edgeId);
                if (pairs) {
                    result.add(neighbour);
                }
            }
        }
        return result.toArray();
    }
}
