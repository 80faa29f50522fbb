package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.storage.EdgeCursor;
import io.gtran.storage.EdgeDirection;
import io.gtran.storage.ElementIds;
import io.gtran.txn.common.ConflictKey;
import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.ElementNotFoundException;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import io.gtran.txn.local.StatusTable;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What Transaction's element operations answer for an element in the snapshot and for one that is
 * not (deleted before the snapshot), and that a transaction that ended refuses every operation.
 */
@Timeout(60)
class ElementReadsTest extends DoBetterScenario {
    private long v;
    private long u;
    private long e;
    private long gone;
    private long goneEdge;

    /** v -knows-> u with note "e"; gone and goneEdge (gone -> v) deleted before any test transaction begins. */
    private void graph() {
        open(Map.of());
        v = committedVertex(1L);
        u = committedVertex(2L);
        gone = committedVertex(3L);
        Transaction s = node.begin(Isolation.SERIALIZABLE);
        e = s.addEdge(v, u, knows);
        s.setEdgeProperty(e, note, "e");
        goneEdge = s.addEdge(gone, v, knows);
        s.commit();
        Transaction d = node.begin(Isolation.SERIALIZABLE);
        d.removeVertex(gone);
        d.commit();
    }

    @Test
    void elementsInTheSnapshotAnswerEveryRead() {
        graph();
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        assertEquals(person, t.vertexLabel(v));
        Transaction s = node.begin(Isolation.SERIALIZABLE);
        int city = node.label("city");
        long c = s.addVertex(city);
        s.commit();
        assertEquals(city, node.begin(Isolation.SNAPSHOT).vertexLabel(c));
        assertEquals(knows, t.edgeLabel(e));
        assertEquals(v, t.edgeOutVertex(e));
        assertEquals(u, t.edgeInVertex(e));
        assertEquals("e", t.edgeProperty(e, note));
        assertEquals(Map.of(note, "e"), t.edgeProperties(e));
        assertEquals(Map.of(x, 1L), t.vertexProperties(v));
        assertArrayEquals(new long[] {e}, t.edges(v, EdgeDirection.BOTH, EdgeCursor.ANY_LABEL));
        assertArrayEquals(new long[] {v, u}, t.visibleVertices(new long[] {ElementIds.NONE, v, gone, u}));
        assertArrayEquals(new long[] {e}, t.visibleEdges(new long[] {goneEdge, ElementIds.NONE, e}));
        t.commit();
    }

    /** Every operation on an element deleted before the snapshot says it is not there, and changes nothing. */
    @Test
    void elementsDeletedBeforeTheSnapshotAreNotFoundByAnyOperation() {
        graph();
        List<Consumer<Transaction>> ops = List.of(
                t -> t.vertexLabel(gone), t -> t.edgeLabel(goneEdge), t -> t.edgeOutVertex(goneEdge),
                t -> t.edgeInVertex(goneEdge), t -> t.edgeProperty(goneEdge, note), t -> t.vertexProperties(gone),
                t -> t.edgeProperties(goneEdge), t -> t.edges(gone, EdgeDirection.OUT, EdgeCursor.ANY_LABEL),
                t -> t.setVertexProperty(gone, x, 9L), t -> t.removeEdgeProperty(goneEdge, note), t -> t.removeEdge(goneEdge),
                t -> t.removeVertex(gone), t -> t.addEdge(v, gone, knows), t -> t.addEdge(gone, v, knows));
        for (Consumer<Transaction> op : ops) {
            Transaction t = node.begin(Isolation.SERIALIZABLE);
            assertThrows(ElementNotFoundException.class, () -> op.accept(t));
            t.rollback();
        }
        assertEquals(1L, read(v, x));
        assertEquals(2L, node.begin(Isolation.SNAPSHOT).countVertices(person));
    }

    /**
     * Deleting a vertex ends its live edges and passes over one deleted before the snapshot,
     * writing none of its keys (a reader of the other endpoint's adjacency is not aborted).
     */
    @Test
    void deletingAVertexPassesOverEdgesDeletedBeforeItsSnapshot() {
        graph();
        Transaction s = node.begin(Isolation.SERIALIZABLE);
        long f = s.addEdge(u, v, knows);
        s.commit();
        Transaction r = node.begin(Isolation.SERIALIZABLE);
        r.removeEdge(f);
        r.commit();
        Transaction reader = node.begin(Isolation.SERIALIZABLE);
        assertEquals(0, reader.edges(u, EdgeDirection.OUT, EdgeCursor.ANY_LABEL).length, "f is gone");
        Transaction t = node.begin(Isolation.SNAPSHOT);
        t.removeVertex(v); // edges: e live, f and goneEdge deleted before
        t.commit();
        reader.setVertexProperty(u, note, "r");
        reader.commit(); // t wrote no key of f, which was dead to it: u's out-adjacency is unchanged
        assertTrue(reader.isCommitted());
        Transaction check = node.begin(Isolation.SNAPSHOT);
        assertFalse(check.edgeExists(e));
        assertEquals(0L, check.countEdges(EdgeCursor.ANY_LABEL));
        assertArrayEquals(new long[0], check.allEdges(EdgeCursor.ANY_LABEL));
    }

    /** The properties of an element created by the same transaction: written, replaced and removed. */
    @Test
    void propertiesOfAnElementCreatedHere() {
        graph();
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        long n = t.addVertex(person);
        assertFalse(t.removeVertexProperty(n, x), "nothing to remove");
        t.setVertexProperty(n, x, 1L);
        t.setVertexProperty(n, x, 2L);
        assertEquals(2L, t.vertexProperty(n, x));
        assertTrue(t.removeVertexProperty(n, x));
        assertFalse(t.removeVertexProperty(n, x), "removed already");
        long f = t.addEdge(n, v, knows);
        t.setEdgeProperty(f, note, "f");
        assertTrue(t.removeEdgeProperty(f, note));
        assertFalse(t.removeEdgeProperty(f, note));
        t.setVertexProperty(n, note, "kept");
        t.commit();
        Transaction r = node.begin(Isolation.SNAPSHOT);
        assertEquals(Map.of(note, "kept"), r.vertexProperties(n));
        assertEquals(Map.of(), r.edgeProperties(f));
    }

    /** Closing a transaction that is still active rolls it back. */
    @Test
    void closingAnActiveTransactionRollsItBack() {
        graph();
        long n;
        Transaction closed;
        try (Transaction t = node.begin(Isolation.SERIALIZABLE)) {
            closed = t;
            t.setVertexProperty(v, x, 5L);
            n = t.addVertex(person);
        }
        assertFalse(closed.isActive());
        assertEquals(StatusTable.GONE, node.engine.statusTable().read(closed.id()));
        update(v, x, 6L); // no longer locked
        assertEquals(6L, read(v, x));
        assertFalse(node.begin(Isolation.SNAPSHOT).vertexExists(n));
    }

    /**
     * Versions a transaction replaced or removed before it committed (its own, and base versions
     * of an element it created) are handed to GC: once GC has run, only what is alive is left.
     */
    @Test
    void versionsReplacedBeforeCommitAreRecycled() throws InterruptedException {
        graph();
        quiesceGc();
        long before = versions();
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        t.setVertexProperty(v, x, 2L);
        t.setVertexProperty(v, x, 3L); // replaces its own version
        long n = t.addVertex(person);
        t.setVertexProperty(n, x, 1L);
        t.setVertexProperty(n, x, 2L); // replaces a base version
        t.setVertexProperty(n, note, "n");
        assertTrue(t.removeVertexProperty(n, note)); // unlinks a base version
        t.commit();
        quiesceGc();
        assertEquals(before + 1, versions(), "v's x replaced in place, n's x the only new version");
        assertEquals(3L, read(v, x));
        assertEquals(2L, read(n, x));
    }

    /**
     * What a commit leaves superseded is handed to GC: a property written and removed again by one
     * transaction (over a live version, and over a removed one), and one re-created on top of a removed version while GC ran (the removal's own
     * item frees only below the removed version, so the re-creation must report it again).
     */
    @Test
    void versionsSupersededAtCommitAreRecycled() throws InterruptedException {
        graph();
        update(u, note, "u");
        quiesceGc();
        long before = versions();
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        t.setVertexProperty(v, x, 2L);
        assertTrue(t.removeVertexProperty(v, x));
        t.commit();
        Transaction r = node.begin(Isolation.SERIALIZABLE);
        assertTrue(r.removeVertexProperty(u, note));
        r.commit();
        Transaction c = node.begin(Isolation.SERIALIZABLE);
        c.setVertexProperty(u, note, "again");
        quiesceGc(); // runs the removal's item while c's version sits unstamped above the removed one
        c.commit();
        Transaction d = node.begin(Isolation.SERIALIZABLE);
        d.setVertexProperty(v, x, 5L); // on top of t's removal, then removed again: nothing to lock
        assertTrue(d.removeVertexProperty(v, x));
        d.commit();
        quiesceGc();
        assertEquals(before - 1, versions(), "v's x gone; u's note one version");
        assertNull(read(v, x));
        assertEquals("again", read(u, note));
    }

    /** A layer above's own conflict: abortForConflict undoes every write and returns the exception to throw. */
    @Test
    void abortForConflictUndoesTheTransactionAndNamesTheConflict() {
        graph();
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        t.setVertexProperty(v, x, 5L);
        long n = t.addVertex(person);
        ConflictKey key = ConflictKey.custom(1, 2);
        TransactionConflictException c = t.abortForConflict(ConflictKind.WRITE_WRITE, 42L, key, "bound twice");
        assertEquals(ConflictKind.WRITE_WRITE, c.kind());
        assertEquals(42L, c.otherTransaction());
        assertFalse(t.isActive());
        assertEquals(1L, read(v, x));
        assertFalse(node.begin(Isolation.SNAPSHOT).vertexExists(n));
        assertThrows(IllegalStateException.class, () -> t.abortForConflict(ConflictKind.WRITE_WRITE, 0, key, "again"));
    }

    /** A transaction that committed or rolled back refuses every operation with IllegalStateException. */
    @Test
    void endedTransactionRefusesEveryOperation() {
        graph();
        Transaction committed = node.begin(Isolation.SERIALIZABLE);
        committed.setVertexProperty(v, x, 7L);
        committed.commit();
        Transaction rolledBack = node.begin(Isolation.SERIALIZABLE);
        rolledBack.rollback();
        rolledBack.rollback(); // does nothing
        rolledBack.close();
        List<Consumer<Transaction>> ops = List.of(
                Transaction::commit, t -> t.vertexExists(v), t -> t.edgeExists(e), t -> t.vertices(person),
                t -> t.allEdges(knows), t -> t.visibleVertices(new long[] {v}), t -> t.visibleEdges(new long[] {e}),
                t -> t.countVertices(person), t -> t.countEdges(knows), t -> t.recordRead(ConflictKey.custom(1, 1)),
                t -> t.recordWrite(ConflictKey.custom(1, 1)), t -> t.addVertex(person), t -> t.vertexProperty(v, x));
        for (Transaction t : new Transaction[] {committed, rolledBack}) {
            for (Consumer<Transaction> op : ops) {
                assertThrows(IllegalStateException.class, () -> op.accept(t));
            }
        }
        assertEquals(7L, read(v, x));
        assertSame(null, node.engine.recentCommitted().find(rolledBack.id()));
        assertNull(node.begin(Isolation.SNAPSHOT).vertexProperty(u, note));
    }

    /** A key a layer above writes (recordWrite) aborts, at SR, a transaction that read it (recordRead) in its window. */
    @Test
    void keysOfALayerAboveAreValidated() {
        graph();
        ConflictKey index = ConflictKey.custom(3, 4);
        Transaction t1 = node.begin(Isolation.SERIALIZABLE);
        t1.recordRead(index);
        Transaction t2 = node.begin(Isolation.SERIALIZABLE);
        t2.recordWrite(index);
        assertFalse(t2.isReadOnly());
        t2.commit();
        t1.setVertexProperty(u, x, 3L);
        expectConflict(ConflictKind.READ_WRITE, t2.id(), t1::commit);
    }
}
