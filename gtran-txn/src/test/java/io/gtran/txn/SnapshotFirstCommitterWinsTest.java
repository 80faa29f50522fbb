package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.storage.EdgeCursor;
import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * SI's first committer wins against a version committed after the writer began, decided at the
 * write (WriteRules), one test per path that decides it: a property update, a property removal,
 * and the deletion of a vertex or an edge whose property another transaction committed after the
 * deleter's begin time. Each also checks that SR lets the blind write through where SI must not,
 * so the isolation test in each rule is pinned from both sides. Single-threaded interleavings.
 */
@Timeout(60)
class SnapshotFirstCommitterWinsTest extends DoBetterScenario {
    /** What the other transaction commits on the element's property after T began. */
    enum Committed { UPDATE, REMOVE }

    /**
     * T begins; O updates x and commits; T writes x blind. SI: T aborts at the write and O's
     * value stands. SR lets the blind write through: it serializes after O's commit.
     */
    @ParameterizedTest
    @EnumSource(Isolation.class)
    void blindPropertyUpdateOverAVersionCommittedAfterTheWriterBegan(Isolation isolation) {
        open(Map.of());
        long v = committedVertex(10L);
        Transaction t = node.begin(isolation);
        update(v, x, 11L);
        if (isolation == Isolation.SNAPSHOT) {
            expectConflict(ConflictKind.FIRST_COMMITTER_WINS, 0, () -> t.setVertexProperty(v, x, 12L));
            assertFalse(t.isActive(), "a conflict at a write aborts the transaction");
            assertEquals(11L, read(v, x), "the first committer's write stands");
        } else {
            t.setVertexProperty(v, x, 12L);
            t.commit();
            assertEquals(12L, read(v, x));
        }
    }

    /** SI and SR: removing a property that a commit after T's begin time updated aborts (T's snapshot still shows the old value). */
    @ParameterizedTest
    @EnumSource(Isolation.class)
    void propertyRemovalOverAVersionCommittedAfterTheWriterBeganAborts(Isolation isolation) {
        open(Map.of());
        long v = committedVertex(10L);
        Transaction t = node.begin(isolation);
        update(v, x, 11L);
        expectWriteOutcome(isolation, Write.REMOVE, t, v, 11L);
    }

    /**
     * O removes x and commits after T began; T then writes or removes x. SI: first committer wins
     * either way. SR: a blind write goes on top of the removal, but a removal of what T's snapshot
     * still shows must not silently do nothing: it aborts too.
     */
    @ParameterizedTest
    @CsvSource({"SNAPSHOT, UPDATE", "SNAPSHOT, REMOVE", "SERIALIZABLE, UPDATE", "SERIALIZABLE, REMOVE"})
    void writeOverARemovalCommittedAfterTheWriterBegan(Isolation isolation, Write write) {
        open(Map.of());
        long v = committedVertex(10L);
        update(v, x, 11L); // a full version at the head
        Transaction t = node.begin(isolation);
        Transaction o = node.begin(Isolation.SNAPSHOT);
        assertTrue(o.removeVertexProperty(v, x));
        o.commit();
        expectWriteOutcome(isolation, write, t, v, null);
    }

    /**
     * The same below an aborted version (rolled back, so its begin time is NEVER): what decides is
     * the committed version under it, committed after T began (a conflict as above) or before (none).
     */
    @ParameterizedTest
    @CsvSource({"SNAPSHOT, UPDATE, true", "SNAPSHOT, REMOVE, true", "SERIALIZABLE, UPDATE, true", "SERIALIZABLE, REMOVE, true",
            "SNAPSHOT, UPDATE, false", "SNAPSHOT, REMOVE, false", "SERIALIZABLE, UPDATE, false", "SERIALIZABLE, REMOVE, false"})
    void writeBelowAnAbortedVersionDecidesByTheCommittedOneUnderIt(Isolation isolation, Write write, boolean committedAfter) {
        open(Map.of());
        long v = committedVertex(10L);
        Transaction early = node.begin(isolation);
        update(v, x, 11L);
        Transaction t = committedAfter ? early : node.begin(isolation);
        Transaction a = node.begin(Isolation.SNAPSHOT);
        a.setVertexProperty(v, x, 99L);
        a.rollback();
        if (committedAfter) {
            expectWriteOutcome(isolation, write, t, v, 11L);
        } else {
            write(t, write, v);
            t.commit();
            assertEquals(write == Write.UPDATE ? 12L : null, read(v, x));
        }
    }

    /**
     * The list-append history check's case of the above (it reported incompatible orders, lost
     * appends, at SI): when the head is an aborted version, the write must not supersede the
     * version below without checking that it was committed after this transaction began, or a
     * concurrent committed update is overwritten.
     */
    @Test
    void snapshotIsolationFirstCommitterWinsSeesPastAnAbortedHead() {
        open(Map.of());
        int list = node.key("list");
        long v = vertexWithList(list, "1");
        Transaction late = node.begin(Isolation.SNAPSHOT);
        assertEquals("1", late.vertexProperty(v, list));
        Transaction first = node.begin(Isolation.SNAPSHOT);
        first.setVertexProperty(v, list, "1,2");
        first.commit(); // committed after `late` began
        Transaction aborted = node.begin(Isolation.SNAPSHOT);
        aborted.setVertexProperty(v, list, "1,2,3");
        aborted.rollback(); // leaves an aborted version at the head (GC is off)
        assertThrows(TransactionConflictException.class, () -> {
            late.setVertexProperty(v, list, "1,4");
            late.commit();
        }, "SI must not let `late` overwrite the update committed after it began (first committer wins)");
        Transaction check = node.begin(Isolation.SNAPSHOT);
        assertEquals("1,2", check.vertexProperty(v, list));
        check.commit();
    }

    /**
     * SI: T begins; O writes (or removes) a property of vertex v and commits; T deletes v. The
     * deletion is a write of the whole vertex, so T must abort (first committer wins), and v and
     * O's write stand.
     */
    @ParameterizedTest
    @EnumSource(Committed.class)
    void vertexDeleteAgainstAPropertyCommittedAfterTheDeleterBeganAborts(Committed committed) {
        open(Map.of());
        long v = committedVertex(10L);
        update(v, x, 11L); // a full version, so the removal below ends a version with time words
        Transaction t = node.begin(Isolation.SNAPSHOT);
        commitOn(v, committed, false);
        expectConflict(ConflictKind.FIRST_COMMITTER_WINS, 0, () -> t.removeVertex(v));
        Transaction check = node.begin(Isolation.SERIALIZABLE);
        assertTrue(check.vertexExists(v), "the aborted deletion is undone");
        assertEquals(committed == Committed.UPDATE ? 12L : null, check.vertexProperty(v, x));
        check.commit();
    }

    /** The same with an edge: its property was written or removed after T began; T's removeEdge aborts. */
    @ParameterizedTest
    @EnumSource(Committed.class)
    void edgeDeleteAgainstAPropertyCommittedAfterTheDeleterBeganAborts(Committed committed) {
        open(Map.of());
        long e = committedEdgeWithNote();
        Transaction t = node.begin(Isolation.SNAPSHOT);
        commitOn(e, committed, true);
        expectConflict(ConflictKind.FIRST_COMMITTER_WINS, 0, () -> t.removeEdge(e));
        Transaction check = node.begin(Isolation.SERIALIZABLE);
        assertTrue(check.edgeExists(e), "the aborted deletion is undone");
        check.commit();
    }

    /** Deleting a vertex deletes its edges: a property of one of them committed after T began aborts T too. */
    @Test
    void vertexDeleteAgainstAnEdgePropertyCommittedAfterTheDeleterBeganAborts() {
        open(Map.of());
        long e = committedEdgeWithNote();
        long v = node.store.edgeOutVertex(e);
        Transaction t = node.begin(Isolation.SNAPSHOT);
        commitOn(e, Committed.UPDATE, true);
        expectConflict(ConflictKind.FIRST_COMMITTER_WINS, 0, () -> t.removeVertex(v));
        Transaction check = node.begin(Isolation.SERIALIZABLE);
        assertTrue(check.vertexExists(v));
        assertEquals(1, check.allEdges(EdgeCursor.ANY_LABEL).length);
        check.commit();
    }

    /**
     * SR lets a blind deletion through the same interleaving (it serializes after the property
     * write, which it does not read); and at either isolation a property committed before T began
     * is no conflict.
     */
    @ParameterizedTest
    @EnumSource(Committed.class)
    void deleteIsNoConflictAtSerializableOrForAPropertyCommittedBefore(Committed committed) {
        open(Map.of());
        long v = committedVertex(10L);
        update(v, x, 11L);
        Transaction sr = node.begin(Isolation.SERIALIZABLE);
        commitOn(v, committed, false);
        sr.removeVertex(v);
        sr.commit();
        assertTrue(sr.isCommitted());

        long w = committedVertex(10L);
        update(w, x, 11L);
        commitOn(w, committed, false);
        Transaction si = node.begin(Isolation.SNAPSHOT);
        si.removeVertex(w);
        si.commit();
        assertTrue(si.isCommitted());
    }

    // ---------------------------------------------------------------- helpers

    /** T's write over a version committed after it began: aborts at SI, and at SR for a removal; else goes through. */
    private void expectWriteOutcome(Isolation isolation, Write write, Transaction t, long v, Object committed) {
        if (isolation == Isolation.SNAPSHOT || write == Write.REMOVE) {
            expectConflict(ConflictKind.FIRST_COMMITTER_WINS, 0, () -> write(t, write, v));
            assertEquals(committed, read(v, x), "the first committer's write stands");
        } else {
            write(t, write, v);
            t.commit();
            assertEquals(12L, read(v, x));
        }
    }

    private void write(Transaction t, Write write, long v) {
        if (write == Write.UPDATE) {
            t.setVertexProperty(v, x, 12L);
        } else {
            t.removeVertexProperty(v, x);
        }
    }

    /** Commits, in a transaction of its own, an update of x to 12 or a removal of x (note on an edge). */
    private void commitOn(long element, Committed committed, boolean edge) {
        Transaction o = node.begin(Isolation.SNAPSHOT);
        if (edge) {
            if (committed == Committed.UPDATE) {
                o.setEdgeProperty(element, note, "o");
            } else {
                assertTrue(o.removeEdgeProperty(element, note));
            }
        } else if (committed == Committed.UPDATE) {
            o.setVertexProperty(element, x, 12L);
        } else {
            assertTrue(o.removeVertexProperty(element, x));
        }
        o.commit();
    }

    /** An edge v->u with a note whose newest version is a full one (written after the edge's creation). */
    private long committedEdgeWithNote() {
        long v = committedVertex(0L);
        long u = committedVertex(0L);
        Transaction s = node.begin(Isolation.SERIALIZABLE);
        long e = s.addEdge(v, u, knows);
        s.commit();
        Transaction n = node.begin(Isolation.SERIALIZABLE);
        n.setEdgeProperty(e, note, "n");
        n.commit();
        return e;
    }

    /** A vertex whose {@code list} property holds {@code value}, set by a transaction after the one that created it. */
    private long vertexWithList(int list, String value) {
        Transaction create = node.begin(Isolation.SERIALIZABLE);
        long v = create.addVertex(node.label("key"));
        create.commit();
        Transaction set = node.begin(Isolation.SERIALIZABLE);
        set.setVertexProperty(v, list, value);
        set.commit();
        return v;
    }
}
