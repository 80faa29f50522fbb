package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.txn.common.ConflictKey;
import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import io.gtran.txn.local.TxnStatus;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Validation's re-check of the writers a reader read around (Transaction.skippedWriters): a
 * reader that skipped the version of an executing writer, which then takes a commit time inside
 * the reader's window, must not commit at SR, even when no key of the reader's read set names
 * what the writer wrote. The reads here are {@link Transaction#visibleVertices} and
 * {@link Transaction#visibleEdges}, which record no key (the layer above records its own, and here
 * records one the writer does not write), so the re-check is the only thing that can catch them.
 */
@Timeout(60)
class ReadAroundRecheckTest extends DoBetterScenario {
    /** What the writer does that the reader reads around. */
    enum Around { NEW_VERTEX, NEW_EDGE, DELETED_VERTEX }

    private long v;
    private long u;
    private long z;
    private final ConflictKey indexEntry = ConflictKey.custom(7, 1);

    /**
     * R (SR) checks a candidate that W, still executing, creates or deletes, and reads around it;
     * W commits; R, which wrote elsewhere, must abort naming W (READ_WRITE), though no key of its
     * read set is in W's write set.
     */
    @ParameterizedTest
    @EnumSource(Around.class)
    void readerOfAVersionReadAroundAWriterThatCommittedInItsWindowAborts(Around around) {
        open(Map.of());
        graph();
        Transaction r = node.begin(Isolation.SERIALIZABLE);
        Transaction w = node.begin(Isolation.SERIALIZABLE);
        writeAndReadAround(around, r, w);
        assertEquals(Set.of(w.id()), r.visibility.skippedWriters, "the reader remembers the writer it read around");
        w.commit();
        r.setVertexProperty(z, note, "r");
        TransactionConflictException e = assertThrows(TransactionConflictException.class, r::commit);
        assertEquals(ConflictKind.READ_WRITE, e.kind(), e.getMessage());
        assertEquals(w.id(), e.otherTransaction());
        assertTrue(e.getMessage().contains("read around"), e.getMessage());
    }

    /** The same writer, still validating when R validates: with optimistic validation R commits only if W aborts. */
    @ParameterizedTest
    @EnumSource(value = TxnStatus.class, names = {"COMMITTED", "ABORTED"})
    void writerReadAroundThatIsValidatingBecomesADependency(TxnStatus outcome) throws Exception {
        open(Map.of(TxnConfig.DEPENDENCY_WAIT_MS, 60_000));
        Held h = readAroundAValidatingWriter();
        Transaction r = h.reader();
        Transaction w = h.writer();
        CommitProtocol held = h.protocol();
        Future<?> commit = executor.submit(r::commit);
        awaitParkedOrDone(commit);
        assertFalse(commit.isDone(), "the reader decided before the writer it read around");
        if (outcome == TxnStatus.COMMITTED) {
            held.decide();
            expectConflict(ConflictKind.VALIDATION_DEPENDENCY_COMMITTED, w.id(), () -> getCause(commit));
        } else {
            w.rollback();
            commit.get(30, TimeUnit.SECONDS);
            assertTrue(r.isCommitted());
        }
    }

    /** Without optimistic validation a validating writer read around aborts the reader at once. */
    @Test
    void writerReadAroundThatIsValidatingAbortsWithoutOptimisticValidation() {
        open(Map.of(TxnConfig.OPTIMISTIC_VALIDATION, false));
        Held h = readAroundAValidatingWriter();
        expectConflict(ConflictKind.READ_WRITE, h.writer().id(), h.reader()::commit);
        h.protocol().decide();
        assertTrue(h.writer().isCommitted());
    }

    /**
     * What the re-check must let through: a writer read around that aborted, or that had not
     * committed when R committed; R at SI (nothing validated); R at SR with validation off.
     */
    enum Harmless { WRITER_ABORTED, WRITER_COMMITS_AFTER, SNAPSHOT, VALIDATION_OFF }

    @ParameterizedTest
    @EnumSource(Harmless.class)
    void readerCommitsWhenTheWriterItReadAroundCannotHaveChangedItsSnapshot(Harmless h) {
        open(h == Harmless.VALIDATION_OFF ? Map.of(TxnConfig.VALIDATION, false) : Map.of());
        graph();
        Transaction r = node.begin(h == Harmless.SNAPSHOT ? Isolation.SNAPSHOT : Isolation.SERIALIZABLE);
        Transaction w = node.begin(Isolation.SERIALIZABLE);
        writeAndReadAround(Around.NEW_VERTEX, r, w);
        if (h == Harmless.WRITER_ABORTED) {
            w.rollback();
        } else if (h != Harmless.WRITER_COMMITS_AFTER) {
            w.commit();
        }
        r.setVertexProperty(z, note, "r");
        r.commit();
        assertTrue(r.isCommitted());
        if (h == Harmless.WRITER_COMMITS_AFTER) {
            w.commit();
            assertTrue(w.isCommitted());
        }
    }

    /** A reader that read around a writer, wrote elsewhere, and the writer held VALIDATING. */
    private record Held(Transaction reader, Transaction writer, CommitProtocol protocol) {
    }

    private Held readAroundAValidatingWriter() {
        graph();
        Transaction r = node.begin(Isolation.SERIALIZABLE);
        Transaction w = node.begin(Isolation.SERIALIZABLE);
        writeAndReadAround(Around.NEW_VERTEX, r, w);
        CommitProtocol protocol = new CommitProtocol(w);
        assertTrue(protocol.prepare());
        r.setVertexProperty(z, note, "r");
        return new Held(r, w, protocol);
    }

    /** Three committed vertices without edges: v and u (the endpoints of W's edge), z (what R writes). */
    private void graph() {
        v = committedVertex(0L);
        u = committedVertex(0L);
        z = committedVertex(0L);
    }

    /**
     * Lets W create or delete a candidate, and has R look the candidate up as a layer above would:
     * recording a key of its own (which W does not write), then {@link Transaction#visibleVertices}
     * or {@link Transaction#visibleEdges}.
     */
    private void writeAndReadAround(Around around, Transaction r, Transaction w) {
        r.recordRead(indexEntry);
        switch (around) {
            case NEW_VERTEX -> {
                long created = w.addVertex(person);
                assertArrayEquals(new long[0], r.visibleVertices(new long[] {created}), "an executing writer's vertex is read around");
            }
            case NEW_EDGE -> {
                long created = w.addEdge(v, u, knows);
                assertArrayEquals(new long[0], r.visibleEdges(new long[] {created}), "an executing writer's edge is read around");
            }
            case DELETED_VERTEX -> {
                w.removeVertex(u);
                assertArrayEquals(new long[] {u}, r.visibleVertices(new long[] {u}), "an executing deleter's vertex is still there");
            }
            default -> throw new AssertionError(around);
        }
    }
}
