package io.gtran.core;

import io.gtran.storage.EdgeDirection;
import io.gtran.storage.ElementIds;
import io.gtran.txn.MemberScan;
import io.gtran.txn.Transaction;
import io.gtran.txn.common.ElementKind;
import java.util.Iterator;
import org.apache.tinkerpop.gremlin.structure.Direction;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Element;
import org.apache.tinkerpop.gremlin.structure.Vertex;

/**
 * What gtran's own traversal steps and strategies ({@code io.gtran.core.process.traversal}) reach
 * of the structure, as TinkerGraph's steps reach theirs through {@code TinkerHelper}: this
 * thread's transaction, the graph's execution mode, and elements made from internal ids. The one
 * public seam between the packages, so that the elements, the transaction and the ids stay
 * package-private; not for applications.
 */
public final class GtranHelper {
    private GtranHelper() {
    }

    /** This thread's transaction on {@code graph}, opened if none runs (see {@link GtranTransaction}). */
    public static TransactionScope scope(GtranGraph graph) {
        return graph.transaction().scope();
    }

    /** Whether {@code graph}'s node shares its cluster with other members. */
    public static boolean clustered(GtranGraph graph) {
        return graph.clustered;
    }

    /** Whether traversals on {@code graph} batch their requests to other nodes ({@link GtranGraph#EXECUTION}). */
    public static boolean batched(GtranGraph graph) {
        return graph.batched();
    }

    /** Whether traversals on {@code graph} push runs of vertex hops to the owners. */
    public static boolean pushed(GtranGraph graph) {
        return graph.pushed();
    }

    /** The internal id of {@code object} if it is a vertex of {@code graph}; else {@link ElementIds#NONE}. */
    public static long vertexId(GtranGraph graph, Object object) {
        return object instanceof GtranVertex v && v.graph == graph ? v.internalId : ElementIds.NONE;
    }

    /** The internal id of {@code object} if it is a vertex or edge of {@code graph}; else {@link ElementIds#NONE}. */
    public static long elementId(GtranGraph graph, Object object) {
        return object instanceof GtranElement e && e.graph == graph ? e.internalId : ElementIds.NONE;
    }

    /** The vertex of {@code graph} with internal id {@code internalId}. */
    public static Vertex vertex(GtranGraph graph, long internalId) {
        return new GtranVertex(graph, internalId, null);
    }

    /** The edge of {@code graph} with internal id {@code internalId}. */
    public static Edge edge(GtranGraph graph, long internalId) {
        return new GtranEdge(graph, internalId, null);
    }

    /** The edge of {@code graph} with internal id {@code internalId}, whose endpoints are known. */
    public static Edge edge(GtranGraph graph, long internalId, long outVertex, long inVertex) {
        return new GtranEdge(graph, internalId, null, null, outVertex, inVertex);
    }

    /** The vertices or ({@code edge}) edges {@code visible} of {@code txn}, made as they are asked for. */
    public static Iterator<? extends Element> elements(GtranGraph graph, Transaction txn, long[] visible, boolean edge) {
        return edge
                ? new GtranIterator<Edge>(txn, visible, id -> new GtranEdge(graph, id, null))
                : new GtranIterator<Vertex>(txn, visible, id -> new GtranVertex(graph, id, null));
    }

    /** The vertices or ({@code edge}) edges of {@code pages}, read in {@code scope}, a page at a time. */
    public static Iterator<? extends Element> elements(GtranGraph graph, TransactionScope scope, MemberScan pages, boolean edge) {
        return edge
                ? new GtranIterator<Edge>(scope, pages, id -> new GtranEdge(graph, id, null))
                : new GtranIterator<Vertex>(scope, pages, id -> new GtranVertex(graph, id, null));
    }

    /** Learns the exposed ids of {@code internals} ahead, one request per owning node. */
    public static void prefetchIds(GtranGraph graph, Transaction txn, ElementKind kind, long[] internals) {
        graph.ids.prefetch(txn, kind, internals);
    }

    /** The store's direction for TinkerPop's {@code direction}. */
    public static EdgeDirection toStore(Direction direction) {
        return GtranVertex.toStore(direction);
    }

    /** {@code parts} one after another, in one array. */
    public static long[] concat(long[]... parts) {
        return GtranVertex.concat(parts);
    }
}
