package io.gtran.core;

import io.gtran.storage.EdgeCursor;
import io.gtran.storage.ElementIds;
import io.gtran.txn.Transaction;
import io.gtran.txn.common.ElementKind;
import java.util.Arrays;
import java.util.Iterator;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Element;
import org.apache.tinkerpop.gremlin.structure.Vertex;

/** {@code graph.vertices(ids...)} and {@code graph.edges(ids...)}: by id, or every element. */
final class ElementLookup {
    private ElementLookup() {
    }

    static Iterator<Vertex> vertices(GtranGraph graph, Object... ids) {
        GtranTransaction.Scope scope = graph.transaction().scope();
        Transaction txn = scope.txn();
        try {
            if (ids.length == 0) {
                return new GtranIterator<>(txn, txn.vertices(EdgeCursor.ANY_LABEL), id -> new GtranVertex(graph, id, null));
            }
            long[] found = resolve(graph, txn, ids, ElementKind.VERTEX);
            return new GtranIterator<>(txn, found, id -> new GtranVertex(graph, id, null));
        } catch (RuntimeException e) {
            throw scope.translate(e);
        }
    }

    static Iterator<Edge> edges(GtranGraph graph, Object... ids) {
        GtranTransaction.Scope scope = graph.transaction().scope();
        Transaction txn = scope.txn();
        try {
            if (ids.length == 0) {
                return new GtranIterator<>(txn, txn.allEdges(EdgeCursor.ANY_LABEL), id -> new GtranEdge(graph, id, null));
            }
            long[] found = resolve(graph, txn, ids, ElementKind.EDGE);
            return new GtranIterator<>(txn, found, id -> new GtranEdge(graph, id, null));
        } catch (RuntimeException e) {
            throw scope.translate(e);
        }
    }

    /** The internal ids of the visible elements the given ids or elements name, in argument order. */
    private static long[] resolve(GtranGraph graph, Transaction txn, Object[] ids, ElementKind kind) {
        long[] found = new long[ids.length];
        int n = 0;
        for (Object id : ids) {
            Object raw = id instanceof Element element ? element.id() : id;
            if (raw == null) {
                continue;
            }
            long internal = graph.ids.resolve(txn, raw, kind);
            if (internal != ElementIds.NONE && txn.exists(kind, internal)) {
                found[n++] = internal;
            }
        }
        return n == found.length ? found : Arrays.copyOf(found, n);
    }
}
