package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.storage.EdgeCursor;
import io.gtran.storage.EdgeDirection;
import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.ExternalIdTakenException;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import io.gtran.txn.local.RecentCommittedTable;
import io.gtran.txn.local.TxnStatus;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Words of a writer whose status is decided but which has not yet rewritten them: between its
 * status move (COMMITTED or ABORTED) and its commit or abort phase, every word it wrote still holds
 * its id, and readers and writers decide by its status (Transaction.inspect). A single thread never
 * sees that window, so the writer is stopped in it: {@link #freeze} moves its status as
 * CommitProtocol would and rewrites nothing.
 */
@Timeout(60)
class DecidedWriterWordsTest extends DoBetterScenario {
    private long v;
    private long d;
    private long e;
    private int y;

    /** v (x=1, full version; y=2), d with an edge v->d, and then W's writes: x=5 on v, y removed, d deleted, a new vertex. */
    private long writeAll(Transaction w) {
        w.setVertexProperty(v, x, 5L);
        assertTrue(w.removeVertexProperty(v, y));
        w.removeVertex(d);
        return w.addVertex(person);
    }

    private void graph() {
        open(Map.of());
        y = node.key("y");
        v = committedVertex(0L);
        update(v, x, 1L);
        update(v, y, 2L);
        d = committedVertex(0L);
        Transaction s = node.begin(Isolation.SERIALIZABLE);
        e = s.addEdge(v, d, knows);
        s.commit();
    }

    /** Stops {@code w} with its status decided and every word it wrote still holding its id. */
    private void freeze(Transaction w, TxnStatus outcome) {
        CommitProtocol protocol = new CommitProtocol(w);
        assertTrue(protocol.prepare());
        RecentCommittedTable.Entry entry = w.registered;
        assertTrue(node.engine.statusTable().move(w.id(), TxnStatus.VALIDATING, entry.commitTime, outcome, entry.commitTime));
        node.engine.recentCommitted().decide(entry, outcome);
    }

    /** A reader that began after W's commit time sees all of W's writes by W's status; one that began before sees none. */
    @Test
    void readersDecideACommittedButUnstampedWriterByItsCommitTime() {
        graph();
        Transaction before = node.begin(Isolation.SNAPSHOT);
        Transaction w = node.begin(Isolation.SERIALIZABLE);
        long n = writeAll(w);
        freeze(w, TxnStatus.COMMITTED);
        assertEquals(w.id(), node.store.vertices().endTime(d), "the words still hold W's id");
        Transaction after = node.begin(Isolation.SNAPSHOT);
        assertEquals(5L, after.vertexProperty(v, x));
        assertNull(after.vertexProperty(v, y));
        assertFalse(after.vertexExists(d));
        assertTrue(after.vertexExists(n));
        assertEquals(0, after.edges(v, EdgeDirection.OUT, EdgeCursor.ANY_LABEL).length);
        assertEquals(1L, before.vertexProperty(v, x));
        assertEquals(2L, before.vertexProperty(v, y));
        assertTrue(before.vertexExists(d));
        assertFalse(before.vertexExists(n));
        assertEquals(1, before.edges(v, EdgeDirection.OUT, EdgeCursor.ANY_LABEL).length);
    }

    /** An aborted writer's words read as if it had never written: its versions never began, what it ended lives on. */
    @Test
    void readersIgnoreAnAbortedWriterWhoseWordsAreNotYetUndone() {
        graph();
        Transaction w = node.begin(Isolation.SERIALIZABLE);
        long n = writeAll(w);
        freeze(w, TxnStatus.ABORTED);
        Transaction r = node.begin(Isolation.SNAPSHOT);
        assertEquals(1L, r.vertexProperty(v, x));
        assertEquals(2L, r.vertexProperty(v, y));
        assertTrue(r.vertexExists(d));
        assertFalse(r.vertexExists(n));
        assertEquals(1, r.edges(v, EdgeDirection.OUT, EdgeCursor.ANY_LABEL).length);
        assertEquals(2, r.countVertices(person), "v and d");
    }

    /**
     * A writer takes over every word an aborted writer left holding its id: the version it locked
     * (x), the removal it started (y), the vertex and edge it was deleting (d, e), at SI and SR.
     */
    @ParameterizedTest
    @EnumSource(Isolation.class)
    void writersTakeOverWhatAnAbortedWriterLeftLocked(Isolation isolation) {
        graph();
        Transaction w = node.begin(Isolation.SERIALIZABLE);
        writeAll(w);
        freeze(w, TxnStatus.ABORTED);
        Transaction t = node.begin(isolation);
        t.setVertexProperty(v, x, 7L);
        assertTrue(t.removeVertexProperty(v, y), "y is alive: its remover aborted");
        t.setVertexProperty(d, x, 8L);
        long f = t.addEdge(d, v, knows);
        t.commit();
        Transaction u = node.begin(Isolation.SERIALIZABLE);
        u.removeVertex(d); // ends e, which the aborted writer had ended too, and f
        u.commit();
        Transaction r = node.begin(Isolation.SNAPSHOT);
        assertEquals(7L, r.vertexProperty(v, x));
        assertNull(r.vertexProperty(v, y));
        assertFalse(r.vertexExists(d));
        assertFalse(r.edgeExists(e));
        assertFalse(r.edgeExists(f));
        assertEquals(0L, r.countEdges(EdgeCursor.ANY_LABEL));
        assertEquals(1L, r.countVertices(person));
    }

    /**
     * Deleting a vertex with an edge that an aborted writer created, its words not yet undone: the
     * edge is no edge (its count is not decremented), and the deletion goes through.
     */
    @Test
    void deletingAVertexSkipsAnEdgeOfAnAbortedWriter() {
        graph();
        Transaction w = node.begin(Isolation.SERIALIZABLE);
        w.addEdge(d, v, knows);
        freeze(w, TxnStatus.ABORTED);
        Transaction t = node.begin(Isolation.SNAPSHOT);
        t.removeVertex(d);
        assertEquals(0L, t.countEdges(EdgeCursor.ANY_LABEL), "e is deleted with d; W's edge never existed");
        t.commit();
        Transaction r = node.begin(Isolation.SNAPSHOT);
        assertEquals(0L, r.countEdges(knows));
        assertEquals(0, r.allEdges(EdgeCursor.ANY_LABEL).length);
    }

    /** What W's committed deletion of d means to a writer that began before W's commit time, stamped or not. */
    enum Stamped { STAMPED, UNSTAMPED }

    @ParameterizedTest
    @EnumSource(Stamped.class)
    void writesToAnElementDeletedAfterTheWriterBeganAbort(Stamped stamped) {
        graph();
        Transaction[] t = new Transaction[3];
        for (int i = 0; i < t.length; i++) {
            t[i] = node.begin(Isolation.SNAPSHOT);
        }
        Transaction w = node.begin(Isolation.SERIALIZABLE);
        w.removeVertex(d);
        if (stamped == Stamped.STAMPED) {
            w.commit();
        } else {
            freeze(w, TxnStatus.COMMITTED);
        }
        expectConflict(ConflictKind.DELETED_ELEMENT, 0, () -> t[0].removeVertex(d));
        expectConflict(ConflictKind.DELETED_ELEMENT, 0, () -> t[1].addEdge(v, d, knows));
        expectConflict(ConflictKind.DELETED_ELEMENT, 0, () -> t[2].setVertexProperty(d, x, 3L));
    }

    /** Deleting v, which W's committed (unstamped) edge joined after the deleter began: the deleter aborts. */
    @Test
    void deletingAVertexWhoseEdgeCommittedAfterTheDeleterBeganAborts() {
        graph();
        Transaction t = node.begin(Isolation.SNAPSHOT);
        Transaction w = node.begin(Isolation.SERIALIZABLE);
        w.addEdge(d, v, knows);
        freeze(w, TxnStatus.COMMITTED);
        expectConflict(ConflictKind.DELETED_ELEMENT, 0, () -> t.removeVertex(d));
    }

    /**
     * An id whose element's deletion is decided but not yet rewritten (at a node that has not had
     * the coordinator's DECIDE yet, say) is bound again if the deletion committed, and is still taken
     * if it aborted; only a deletion still running is a conflict.
     */
    @ParameterizedTest
    @EnumSource(value = TxnStatus.class, names = {"COMMITTED", "ABORTED"})
    void anIdIsBoundAgainByTheStatusOfItsElementsDeleter(TxnStatus outcome) {
        open(Map.of(TxnConfig.GC, false));
        ExternalIds ids = node.engine.externalIds();
        long old = committedVertexBoundTo(ids, "ann");

        Transaction deleter = node.begin(Isolation.SERIALIZABLE);
        deleter.removeVertex(old);
        freeze(deleter, outcome);

        Transaction again = node.begin(Isolation.SERIALIZABLE);
        long fresh = again.addVertex(person);
        if (outcome == TxnStatus.COMMITTED) {
            assertEquals("ann", ids.bind(again, ElementKind.VERTEX, "ann", "ann", fresh), "the deletion committed: the id is free");
            again.commit();
        } else {
            assertThrows(ExternalIdTakenException.class, () -> ids.bind(again, ElementKind.VERTEX, "ann", "ann", fresh),
                    "the deletion aborted: the id still names the old vertex");
            again.rollback();
        }
    }

    /** A deleter still validating, with a commit time before the binder began: the binder cannot wait on it, so it aborts. */
    @Test
    void bindingAnIdWhoseElementAValidatingTransactionDeletesIsAConflict() {
        open(Map.of(TxnConfig.GC, false));
        ExternalIds ids = node.engine.externalIds();
        long old = committedVertexBoundTo(ids, "bob");
        Transaction deleter = node.begin(Isolation.SERIALIZABLE);
        deleter.removeVertex(old);
        assertTrue(new CommitProtocol(deleter).prepare()); // VALIDATING, its commit time taken
        Transaction again = node.begin(Isolation.SERIALIZABLE);
        long fresh = again.addVertex(person);
        TransactionConflictException e = assertThrows(TransactionConflictException.class,
                () -> ids.bind(again, ElementKind.VERTEX, "bob", "bob", fresh));
        assertEquals(ConflictKind.WRITE_WRITE, e.kind());
        assertTrue(e.getMessage().contains("being deleted"), e.getMessage());
    }

    /** A committed vertex that user id {@code id} is bound to. */
    private long committedVertexBoundTo(ExternalIds ids, String id) {
        Transaction setup = node.begin(Isolation.SERIALIZABLE);
        long vertex = setup.addVertex(person);
        ids.bind(setup, ElementKind.VERTEX, id, id, vertex);
        setup.commit();
        return vertex;
    }
}
