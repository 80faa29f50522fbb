package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.storage.EdgeCursor;
import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TxnWords;
import io.gtran.txn.local.StatusTable;
import io.gtran.txn.local.StatusTableDescriptor;
import io.gtran.txn.local.TxnStatus;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Decisions of commit and of the reads around it that no other test pins: a read-only commit,
 * a registered writer that aborted inside a validator's window, a reader meeting a writer between
 * its two status moves (commit time pending), and a transaction's own writes as it sees them.
 */
@Timeout(60)
class CommitDecisionsTest extends DoBetterScenario {
    /** A read-only transaction commits at its begin time and frees its status entry at once. */
    @Test
    void readOnlyCommitTakesItsBeginTimeAndFreesItsStatusEntry() {
        open(Map.of());
        long v = committedVertex(1L);
        Transaction r = node.begin(Isolation.SERIALIZABLE);
        assertEquals(1L, r.vertexProperty(v, x));
        r.commit();
        assertTrue(r.isCommitted());
        assertEquals(r.beginTime(), r.commitTime());
        assertEquals(StatusTable.GONE, node.engine.statusTable().read(r.id()));
        assertNull(node.engine.recentCommitted().find(r.id()), "a read-only commit takes no commit time");
    }

    /**
     * W wrote what R read and took a commit time inside R's window, then aborted: it is no conflict,
     * even without optimistic validation (which would otherwise abort R at once).
     */
    @Test
    void writerThatAbortedAfterTakingItsCommitTimeIsNoConflict() {
        open(Map.of(TxnConfig.OPTIMISTIC_VALIDATION, false));
        long v = committedVertex(1L);
        long z = committedVertex(0L);
        Transaction r = node.begin(Isolation.SERIALIZABLE);
        assertEquals(1L, r.vertexProperty(v, x));
        Transaction w = node.begin(Isolation.SERIALIZABLE);
        w.setVertexProperty(v, x, 2L);
        assertTrue(new CommitProtocol(w).prepare());
        w.rollback();
        assertEquals(TxnStatus.ABORTED, node.engine.recentCommitted().find(w.id()).outcome());
        r.setVertexProperty(z, x, 3L);
        r.commit();
        assertTrue(r.isCommitted());
        assertEquals(1L, read(v, x));
    }

    /**
     * W has registered its commit time, below R's begin time, but its status still says the commit
     * time is pending: R must wait for it rather than take W's version for a later one, then read
     * it (optimistic pre-read) and commit once W commits.
     */
    @Test
    void readerWaitsForAWritersPendingCommitTimeThenPreReadsIt() throws Exception {
        open(Map.of());
        long v = committedVertex(1L);
        update(v, x, 1L);
        Transaction w = node.begin(Isolation.SERIALIZABLE);
        w.setVertexProperty(v, x, 2L);
        // CommitProtocol.prepare's step 2, stopped between its two status moves.
        StatusTable st = node.engine.statusTable();
        long pending = StatusTableDescriptor.PENDING_COMMIT_TIME;
        assertTrue(st.move(w.id(), TxnStatus.EXECUTING, 0, TxnStatus.VALIDATING, pending));
        w.registered = node.engine.recentCommitted().register(w.id(), w.writes.of(node.store.nodeId()), node.engine.clock());
        Transaction r = node.begin(Isolation.SERIALIZABLE);
        assertTrue(w.registered.commitTime < r.beginTime());
        Future<Object> read = executor.submit(() -> r.vertexProperty(v, x));
        Thread.sleep(200); // real time: a read that did not wait would be done by now
        assertFalse(read.isDone(), "R read W's word without knowing W's commit time");
        assertTrue(st.move(w.id(), TxnStatus.VALIDATING, pending, TxnStatus.VALIDATING, w.registered.commitTime));
        assertEquals(2L, read.get(30, TimeUnit.SECONDS), "W's commit time is below R's begin time: R pre-reads W");
        assertEquals(1, r.visibility.preReadDependencies.size());
        new CommitProtocol(w).decide();
        r.commit();
        assertTrue(r.isCommitted());
    }

    /**
     * A transaction's own writes as it sees them: what it created and deleted again is gone, what it
     * wrote and removed again is absent, and a count taken after its deltas were published (held
     * between prepare and decide) counts them once.
     */
    @Test
    void ownWritesAsTheWriterSeesThem() {
        open(Map.of());
        long v = committedVertex(1L);
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        long n = t.addVertex(person);
        long e = t.addEdge(v, n, knows);
        t.removeEdge(e);
        assertFalse(t.edgeExists(e));
        t.removeVertex(n);
        assertFalse(t.vertexExists(n));
        t.setVertexProperty(v, note, "a");
        assertTrue(t.removeVertexProperty(v, note));
        assertNull(t.vertexProperty(v, note));
        assertFalse(t.removeVertexProperty(v, note), "removed already");
        long m = t.addVertex(person);
        assertTrue(t.vertexExists(m));
        assertEquals(2L, t.countVertices(person));
        CommitProtocol held = new CommitProtocol(t);
        assertTrue(held.prepare());
        assertEquals(2L, t.countVertices(person), "own published delta counted once");
        assertEquals(0L, t.countEdges(EdgeCursor.ANY_LABEL));
        held.decide();
        Transaction r = node.begin(Isolation.SNAPSHOT);
        assertEquals(2L, r.countVertices(person));
        assertFalse(r.vertexExists(n));
        assertNull(r.vertexProperty(v, note));
    }

    /**
     * Without pre-read, a reader that meets a validating writer below its begin time waits; if the
     * writer aborts, the version it was removing is alive to the reader (decided by the outcome the
     * wait returned, before the abort undoes the word).
     */
    @Test
    void withoutPreReadAReaderOfAnAbortedValidatorReadsTheOldValue() throws Exception {
        open(Map.of(TxnConfig.PRE_READ, false, TxnConfig.DEPENDENCY_WAIT_MS, 60_000));
        long v = committedVertex(1L);
        update(v, x, 1L);
        Transaction w = node.begin(Isolation.SERIALIZABLE);
        assertTrue(w.removeVertexProperty(v, x));
        assertTrue(new CommitProtocol(w).prepare());
        Transaction r = node.begin(Isolation.SERIALIZABLE);
        Future<Object> read = executor.submit(() -> r.vertexProperty(v, x));
        awaitParkedOrDone(read);
        assertFalse(read.isDone(), "R read W's version before W decided");
        w.rollback();
        assertEquals(1L, read.get(30, TimeUnit.SECONDS));
        assertTrue(r.visibility.preReadDependencies.isEmpty());
        r.commit();
    }

    /**
     * R looks up a vertex id whose creator W is validating with a commit time after R's begin time
     * (so R reads no version around it, and remembers no skipped writer): W's write of the
     * vertex's key is what aborts R once W commits.
     */
    @Test
    void idLookUpOfAVertexWhoseCreatorIsValidatingIsValidated() {
        open(Map.of());
        long z = committedVertex(0L);
        Transaction r = node.begin(Isolation.SERIALIZABLE);
        Transaction w = node.begin(Isolation.SERIALIZABLE);
        long n = w.addVertex(person);
        CommitProtocol held = new CommitProtocol(w);
        assertTrue(held.prepare());
        assertFalse(r.vertexExists(n));
        assertTrue(r.visibility.skippedWriters.isEmpty());
        held.decide();
        r.setVertexProperty(z, x, 1L);
        expectConflict(ConflictKind.READ_WRITE, w.id(), r::commit);
    }

    /** A version written and removed by the same transaction: commit stamps both its words, abort leaves neither holding the id. */
    @Test
    void noWordHoldsTheIdOfAVersionWrittenAndRemovedByOneTransaction() {
        open(Map.of());
        long v = committedVertex(1L);
        for (boolean commit : new boolean[] {true, false}) {
            Transaction t = node.begin(Isolation.SERIALIZABLE);
            t.setVertexProperty(v, note, "n");
            assertTrue(t.removeVertexProperty(v, note));
            int own = node.store.vertices().propertyVersion(v, note);
            if (commit) {
                t.commit();
                assertEquals(t.commitTime(), node.store.mvStore().beginTime(own));
                assertEquals(t.commitTime(), node.store.mvStore().endTime(own));
            } else {
                t.rollback();
                assertEquals(TxnWords.NEVER, node.store.mvStore().beginTime(own));
                assertEquals(TxnWords.INFINITY, node.store.mvStore().endTime(own));
            }
            assertNull(read(v, note));
        }
    }
}
