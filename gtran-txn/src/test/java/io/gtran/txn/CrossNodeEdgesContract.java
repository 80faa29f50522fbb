package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.storage.EdgeCursor;
import io.gtran.storage.EdgeDirection;
import io.gtran.storage.ElementIds;
import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Edges whose endpoints live on different nodes (docs/cluster-transactions.md, "Edges between
 * nodes"), written once and run over each transport: the edge lives with its out-vertex, its
 * in-vertex's node keeps a mirror, and both change in one transaction, whichever node coordinates.
 */
@Timeout(60)
abstract class CrossNodeEdgesContract extends ClusterContract {
    private static final Isolation SR = Isolation.SERIALIZABLE;
    private static final int ANY = EdgeCursor.ANY_LABEL;


    private long vertex(int at, int owner) {
        Transaction t = c.begin(at, SR);
        long v = t.addVertex(owner, label(at, "v"));
        t.commit();
        return v;
    }

    private long edge(int at, long out, long in) {
        Transaction t = c.begin(at, SR);
        long e = t.addEdge(out, in, label(at, "knows"));
        t.commit();
        return e;
    }

    private long[] edges(int at, long v, EdgeDirection direction) {
        Transaction t = c.begin(at, SR);
        long[] edges = t.edges(v, direction, ANY);
        t.commit();
        return edges;
    }

    private void assertSeenEverywhere(long out, long in, long... expected) {
        for (int at = 0; at < 3; at++) {
            assertArrayEquals(expected, edges(at, out, EdgeDirection.OUT), "OUT edges of the out-vertex read from node " + at);
            assertArrayEquals(expected, edges(at, in, EdgeDirection.IN), "IN edges of the in-vertex read from node " + at);
        }
    }

    private long mirrors(int node) {
        return c.engine(node).stats().get("mirrors");
    }

    /** Runs GC on every node until no mirror is left on {@code node} or a second has passed. */
    private void awaitMirrorsCollected(int node, long expected) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (mirrors(node) != expected && System.nanoTime() < deadline) {
            for (int i = 0; i < 3; i++) {
                c.engine(i).gc().runOnce();
            }
            Thread.sleep(10);
        }
        assertEquals(expected, mirrors(node), "mirrors left on node " + node);
    }

    @Test
    void anEdgeBetweenNodesIsSeenFromBothEndsAndCountedOnce() throws Exception {
        start();
        for (int coordinator = 0; coordinator < 3; coordinator++) {
            long a = vertex(coordinator, 1);
            long b = vertex(coordinator, 2);
            long e = edge(coordinator, a, b);
            assertEquals(1, ElementIds.node(e), "the edge lives with its out-vertex (coordinator " + coordinator + ")");
            assertSeenEverywhere(a, b, e);
            Transaction t = c.begin(0, SR);
            assertEquals(a, t.edgeOutVertex(e));
            assertEquals(b, t.edgeInVertex(e));
            assertArrayEquals(new long[] {e, a}, t.adjacent(b, EdgeDirection.IN, ANY), "the pair at the in-vertex");
            assertArrayEquals(new long[] {e, b}, t.adjacent(a, EdgeDirection.BOTH, ANY), "the pair at the out-vertex");
            t.commit();
        }
        Transaction t = c.begin(1, SR);
        assertEquals(3, t.countEdges(ANY), "a mirror is not an edge of its own");
        assertEquals(3, t.allEdges(label(1, "knows")).length, "a scan finds each edge once");
        t.commit();
        assertEquals(3, mirrors(2));
        assertTrue(c.awaitQuiet(5_000).isEmpty() || c.quiet(), c.leftovers());
    }

    @Test
    void anUncommittedEdgeIsInvisibleAtBothEndsAndARollbackLeavesNoMirror() throws Exception {
        start();
        long a = vertex(0, 1);
        long b = vertex(0, 2);
        Transaction t = c.begin(0, SR);
        long e = t.addEdge(a, b, label(0, "knows"));
        assertArrayEquals(new long[] {e}, t.edges(b, EdgeDirection.IN, ANY), "its own edge, at the in-vertex");
        assertSeenEverywhere(a, b);
        t.rollback();
        assertSeenEverywhere(a, b);
        awaitMirrorsCollected(2, 0);
    }

    @Test
    void removingAnEdgeRemovesItsMirrorInTheSameCommit() throws Exception {
        start();
        long a = vertex(0, 1);
        long b = vertex(0, 2);
        long e = edge(0, a, b);
        Transaction before = c.begin(2, SR);
        Transaction t = c.begin(0, SR);
        t.removeEdge(e);
        t.commit();
        assertSeenEverywhere(a, b);
        assertArrayEquals(new long[] {e}, before.edges(b, EdgeDirection.IN, ANY), "an older snapshot keeps the mirror");
        assertArrayEquals(new long[] {e}, before.edges(a, EdgeDirection.OUT, ANY), "and the edge");
        before.commit();
        awaitMirrorsCollected(2, 0);
    }

    @Test
    void removingEitherEndpointRemovesTheEdgeOnBothNodes() throws Exception {
        start();
        long a = vertex(0, 1);
        long b = vertex(0, 2);
        long other = vertex(0, 1);
        edge(0, a, b);
        long back = edge(0, b, other);
        Transaction t = c.begin(0, SR);
        t.removeVertex(b);
        t.commit();
        assertArrayEquals(new long[0], edges(1, a, EdgeDirection.OUT), "the edge into the removed vertex");
        assertArrayEquals(new long[0], edges(2, other, EdgeDirection.IN), "the edge out of the removed vertex");
        Transaction check = c.begin(1, SR);
        assertEquals(0, check.countEdges(ANY));
        assertTrue(!check.edgeExists(back));
        check.commit();
        long c1 = vertex(2, 1);
        long c2 = vertex(2, 2);
        edge(2, c1, c2);
        Transaction u = c.begin(2, SR); // the in-vertex's node coordinates the removal of the out-vertex
        u.removeVertex(c1);
        u.commit();
        assertArrayEquals(new long[0], edges(0, c2, EdgeDirection.IN));
        awaitMirrorsCollected(2, 0);
        awaitMirrorsCollected(1, 0);
    }

    @Test
    void aScanOfAnotherNodesAdjacencyAbortsWhenAnEdgeIsAddedThereConcurrently() throws Exception {
        start();
        long a = vertex(0, 1);
        long b = vertex(0, 2);
        long flag = vertex(0, 0);
        Transaction reader = c.begin(0, SR);
        assertArrayEquals(new long[0], reader.edges(b, EdgeDirection.IN, ANY));
        reader.setVertexProperty(flag, c.engine(0).store().propertyKeys().intern("seen"), 0L);
        edge(1, a, b); // a concurrent commit adds an edge the reader's scan of b's IN edges missed
        TransactionConflictException aborted = assertThrows(TransactionConflictException.class, reader::commit);
        assertEquals(ConflictKind.PARTICIPANT_VOTED_NO, aborted.kind(), "node 2 validates the scan: " + aborted.getMessage());
        Transaction si = c.begin(0, Isolation.SNAPSHOT);
        si.edges(b, EdgeDirection.IN, ANY);
        si.setVertexProperty(flag, c.engine(0).store().propertyKeys().intern("seen"), 1L);
        edge(1, a, b);
        si.commit(); // snapshot isolation does not validate reads
    }

    @Test
    void anEdgeToAVertexBeingRemovedOnAnotherNodeNeverOutlivesIt() throws Exception {
        start();
        for (int round = 0; round < 20; round++) {
            long a = vertex(0, 1);
            long b = vertex(0, 2);
            Transaction remover = c.begin(2, SR);
            Transaction adder = c.begin(0, SR);
            remover.removeVertex(b);
            boolean added;
            try {
                adder.addEdge(a, b, label(0, "knows"));
                adder.commit();
                added = true;
            } catch (TransactionConflictException expected) {
                added = false;
            }
            boolean removed;
            try {
                remover.commit();
                removed = true;
            } catch (TransactionConflictException expected) {
                removed = false;
            }
            assertTrue(!(added && removed), "both the edge and the removal of its endpoint committed");
            Transaction t = c.begin(1, SR);
            long[] out = t.edges(a, EdgeDirection.OUT, ANY);
            for (long e : out) {
                assertTrue(t.vertexExists(t.edgeInVertex(e)), "an edge outlived its in-vertex");
            }
            t.commit();
        }
    }
}
