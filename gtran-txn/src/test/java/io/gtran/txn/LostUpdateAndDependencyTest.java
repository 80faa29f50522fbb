package io.gtran.txn;

import static io.gtran.txn.common.TxnWords.INFINITY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.storage.EdgeCursor;
import io.gtran.storage.EdgeDirection;
import io.gtran.storage.MvStore;
import io.gtran.txn.common.ConflictKey;
import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import io.gtran.txn.common.TxnWords;
import io.gtran.txn.local.RecentCommittedTable;
import io.gtran.txn.local.StatusTable;
import io.gtran.txn.local.TxnStatus;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Do-better items (e), (f) and (g) (the list and what all the do-better tests share are in
 * {@link DoBetterScenario}): how a conflict ends a transaction. Each test builds the dangerous
 * interleaving step by step:
 * <ul>
 *   <li>(e) SI first-committer-wins, also when an aborted version sits on top of the committed
 *       one; SR stops the same lost update;
 *   <li>(f) dependency waits are bounded, wait for the outcome, and end in an abort with its
 *       reason;
 *   <li>(g) an aborted transaction leaves nothing half-applied.
 * </ul>
 * Where a step must block (a commit waiting on a dependency), it runs on an executor and the test
 * waits until that thread is parked in its timed wait.
 */
@Timeout(60)
class LostUpdateAndDependencyTest extends DoBetterScenario {
    // ---------------------------------------------------------------- (e) lost updates

    /** SI: T1 and T2 read x=10; T2 writes 11 and commits; T1's write of 12 aborts (first committer wins). */
    @ParameterizedTest
    @EnumSource(names = {"UPDATE", "REMOVE"})
    void snapshotIsolationFirstCommitterWins(Write kind) {
        open(Map.of());
        long v = committedVertex(10L);
        Transaction t1 = node.begin(Isolation.SNAPSHOT);
        Transaction t2 = node.begin(Isolation.SNAPSHOT);
        assertEquals(10L, t1.vertexProperty(v, x));
        assertEquals(10L, t2.vertexProperty(v, x));
        if (kind == Write.UPDATE) {
            t2.setVertexProperty(v, x, 11L);
        } else {
            t2.removeVertexProperty(v, x);
        }
        t2.commit();
        expectConflict(ConflictKind.FIRST_COMMITTER_WINS, 0, () -> t1.setVertexProperty(v, x, 12L));
        assertEquals(kind == Write.UPDATE ? 11L : null, read(v, x), "the first committer's write stands");
    }

    /**
     * SI, the same lost update with an aborted version on top: T2 commits x=11 after T1 began,
     * then T3 writes x=12 and rolls back, leaving its aborted version at the head of the chain. T1's
     * write must still abort: the version it would supersede was committed after T1 began.
     */
    @Test
    void firstCommitterWinsAlsoBelowAnAbortedVersion() {
        open(Map.of());
        long v = committedVertex(10L);
        Transaction t1 = node.begin(Isolation.SNAPSHOT);
        assertEquals(10L, t1.vertexProperty(v, x));
        update(v, x, 11L);
        Transaction t3 = node.begin(Isolation.SNAPSHOT);
        t3.setVertexProperty(v, x, 12L);
        t3.rollback();
        expectConflict(ConflictKind.FIRST_COMMITTER_WINS, 0, () -> {
            t1.setVertexProperty(v, x, 13L);
            t1.commit();
        });
        assertEquals(11L, read(v, x), "T2's committed update was lost");
    }

    /** SR, same lost-update interleaving: T1 aborts, at its write or at commit. */
    @Test
    void serializableStopsLostUpdates() {
        open(Map.of());
        long v = committedVertex(10L);
        Transaction t1 = node.begin(Isolation.SERIALIZABLE);
        Transaction t2 = node.begin(Isolation.SERIALIZABLE);
        assertEquals(10L, t1.vertexProperty(v, x));
        assertEquals(10L, t2.vertexProperty(v, x));
        t2.setVertexProperty(v, x, 11L);
        t2.commit();
        TransactionConflictException e = assertThrows(TransactionConflictException.class, () -> {
            t1.setVertexProperty(v, x, 12L);
            t1.commit();
        });
        assertTrue(EnumSet.of(ConflictKind.READ_WRITE, ConflictKind.FIRST_COMMITTER_WINS).contains(e.kind()), e.getMessage());
        assertEquals(11L, read(v, x));
    }

    // ---------------------------------------------------------------- (f) dependency waits

    /** A validating transaction that never decides: a reader that pre-read it aborts, bounded, naming it. */
    @Test
    @Timeout(30)
    void dependencyWaitIsBoundedAndEndsInANamedAbort() {
        open(Map.of(TxnConfig.DEPENDENCY_WAIT_MS, 200));
        long v = committedVertex(0L);
        update(v, x, 1L);
        FakeValidator fake = new FakeValidator(v, 99L);
        Transaction r = node.begin(Isolation.SERIALIZABLE);
        assertEquals(99L, r.vertexProperty(v, x), "optimistic pre-read of a validator with a smaller commit time");
        expectConflict(ConflictKind.DEPENDENCY_TIMEOUT, fake.id, r::commit);
        assertFalse(r.isActive());
        assertEquals(StatusTable.GONE, node.engine.statusTable().read(r.id()), "the aborted reader's entry is released");
        assertEquals(1L, node.engine.stats().get("aborts.DEPENDENCY_TIMEOUT"));
        fake.decide(TxnStatus.ABORTED); // an abort decided elsewhere: readers see the old value again
        assertEquals(1L, read(v, x));
    }

    /** The wait is for the outcome: the reader commits if the validator commits, aborts if it aborts. */
    @ParameterizedTest
    @EnumSource(value = TxnStatus.class, names = {"COMMITTED", "ABORTED"})
    void dependencyWaitEndsWithTheOutcome(TxnStatus outcome) throws Exception {
        open(Map.of(TxnConfig.DEPENDENCY_WAIT_MS, 60_000));
        long v = committedVertex(0L);
        update(v, x, 1L);
        FakeValidator fake = new FakeValidator(v, 99L);
        Transaction r = node.begin(Isolation.SERIALIZABLE);
        assertEquals(99L, r.vertexProperty(v, x));
        Future<?> commit = executor.submit(r::commit);
        awaitParked();
        assertFalse(commit.isDone(), "the reader committed before its dependency decided");
        fake.decide(outcome);
        if (outcome == TxnStatus.COMMITTED) {
            commit.get(30, TimeUnit.SECONDS);
            assertTrue(r.isCommitted());
        } else {
            expectConflict(ConflictKind.PRE_READ_DEPENDENCY_ABORTED, fake.id, () -> getCause(commit));
        }
    }

    /**
     * R pre-reads an edge created by a validating transaction, which then aborts: R is doomed, and
     * its next look at that edge must say so (PRE_READ_DEPENDENCY_ABORTED naming the validator),
     * not throw ElementNotFoundException, which is not retryable, for an edge R was just given.
     */
    @Test
    void readerOfAnAbortedValidatorsEdgeLearnsWhyItIsGone() {
        open(Map.of());
        long v = committedVertex(0L);
        long u = committedVertex(0L);
        update(v, x, 1L);
        FakeValidator fake = new FakeValidator(v, 99L);
        long e = node.store.addEdge(v, u, knows, fake.id, INFINITY); // the validator's new edge
        Transaction r = node.begin(Isolation.SERIALIZABLE);
        assertEquals(1, r.edges(v, EdgeDirection.OUT, knows).length, "optimistic pre-read of the validator's edge");
        fake.decide(TxnStatus.ABORTED);
        expectConflict(ConflictKind.PRE_READ_DEPENDENCY_ABORTED, fake.id, () -> r.edgeInVertex(e));
    }

    /** Validation waiting for a commit time that never registers is bounded too, and the abort is recorded. */
    @Test
    void validationWaitForUnregisteredCommitTimesIsBounded() {
        open(Map.of(TxnConfig.DEPENDENCY_WAIT_MS, 200));
        long v = committedVertex(0L);
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        node.engine.recentCommitted().reserve(node.engine.clock()); // never published
        t.setVertexProperty(v, x, 1L);
        expectConflict(ConflictKind.DEPENDENCY_TIMEOUT, 0, t::commit);
        assertEquals(TxnStatus.ABORTED, node.engine.recentCommitted().find(t.id()).outcome());
        assertEquals(1L, node.engine.stats().get("aborts.DEPENDENCY_TIMEOUT"));
        assertEquals(0L, read(v, x));
    }

    /**
     * A transaction frozen in VALIDATING, built as CommitProtocol builds one (package-private
     * access): a status entry, a version of the property with its id as begin time over the
     * committed head (whose end time it locks), an RCT entry with its commit time, status VALIDATING.
     */
    private final class FakeValidator {
        final long id;
        final RecentCommittedTable.Entry entry;

        FakeValidator(long vertex, long value) {
            StatusTable st = node.engine.statusTable();
            MvStore mv = node.store.mvStore();
            id = st.allocate(0);
            st.publishBeginTime(id, node.engine.clock().next());
            int head = node.store.vertices().propertyVersion(vertex, x);
            assertFalse(MvStore.isBase(head));
            int fresh = mv.createVersion(value, id, INFINITY, head);
            assertTrue(mv.compareAndSetEndTime(head, INFINITY, id));
            assertTrue(node.store.vertices().linkPropertyVersion(vertex, x, head, fresh));
            entry = node.engine.recentCommitted().register(id, Set.of(ConflictKey.property(vertex, x)), node.engine.clock());
            assertTrue(st.move(id, TxnStatus.EXECUTING, 0, TxnStatus.VALIDATING, entry.commitTime));
        }

        void decide(TxnStatus outcome) {
            assertTrue(node.engine.statusTable().move(id, TxnStatus.VALIDATING, entry.commitTime, outcome, entry.commitTime));
            node.engine.recentCommitted().decide(entry, outcome);
        }
    }

    // ---------------------------------------------------------------- (g) nothing half-applied

    enum Abort { WRITE_WRITE, FIRST_COMMITTER_WINS, READ_WRITE }

    /**
     * T writes four properties, an edge with a property, and then a fifth property that conflicts
     * (another writer holds it, or committed it after T began at SI, or, at SR, committed what T
     * read so that T fails at commit). Nothing of T's is visible afterwards, and the exception
     * names the kind and the other transaction.
     */
    @ParameterizedTest
    @EnumSource(Abort.class)
    void anAbortedTransactionLeavesNothingHalfApplied(Abort mode) {
        open(Map.of());
        long[] vs = new long[5];
        for (int i = 0; i < 5; i++) {
            vs[i] = committedVertex(0L);
        }
        Transaction t = node.begin(mode == Abort.FIRST_COMMITTER_WINS ? Isolation.SNAPSHOT : Isolation.SERIALIZABLE);
        assertEquals(0L, t.vertexProperty(vs[4], x));
        Transaction o = node.begin(Isolation.SERIALIZABLE);
        o.setVertexProperty(vs[4], x, 100L);
        if (mode != Abort.WRITE_WRITE) {
            o.commit();
        }
        long[] edge = new long[1];
        TransactionConflictException e = assertThrows(TransactionConflictException.class, () -> {
            t.setVertexProperty(vs[0], x, 1L);
            t.setVertexProperty(vs[1], x, 1L);
            edge[0] = t.addEdge(vs[0], vs[1], knows);
            t.setEdgeProperty(edge[0], note, "half");
            t.setVertexProperty(vs[2], x, 1L);
            t.setVertexProperty(vs[3], x, 1L);
            t.setVertexProperty(vs[4], x, 1L);
            t.commit();
        });
        assertEquals(ConflictKind.valueOf(mode.name()), e.kind(), e.getMessage());
        assertTrue(e.getMessage().contains(mode.name()), e.getMessage());
        if (mode != Abort.FIRST_COMMITTER_WINS) {
            assertEquals(o.id(), e.otherTransaction());
            assertTrue(e.getMessage().contains(TxnWords.toString(o.id())), e.getMessage());
        }
        if (mode == Abort.WRITE_WRITE) {
            o.commit();
        }
        Transaction check = node.begin(Isolation.SERIALIZABLE);
        for (int i = 0; i < 4; i++) {
            assertEquals(0L, check.vertexProperty(vs[i], x), "a write of the aborted transaction is visible");
        }
        assertEquals(100L, check.vertexProperty(vs[4], x));
        assertFalse(check.edgeExists(edge[0]));
        assertEquals(0, check.edges(vs[0], EdgeDirection.BOTH, EdgeCursor.ANY_LABEL).length);
        assertEquals(0, check.allEdges(EdgeCursor.ANY_LABEL).length);
        check.commit();
    }
}
