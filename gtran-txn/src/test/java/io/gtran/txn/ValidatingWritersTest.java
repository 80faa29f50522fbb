package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Optimistic pre-read and optimistic validation: what happens when a transaction meets another
 * that is validating. A writer is held between {@link CommitProtocol#prepare} (it has its commit
 * time and is VALIDATING) and {@link CommitProtocol#decide}, which a single-threaded interleaving
 * never shows.
 */
@Timeout(60)
class ValidatingWritersTest {
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private TxnFixture node;
    private int label;
    private int x;
    private int y;
    private long v;

    private void open(Map<String, ?> settings) {
        node = new TxnFixture(settings);
        label = node.label("row");
        x = node.key("x");
        y = node.key("y");
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        v = t.addVertex(label);
        t.commit();
        Transaction u = node.begin(Isolation.SERIALIZABLE);
        u.setVertexProperty(v, x, 1L);
        u.commit();
    }

    @AfterEach
    void close() {
        pool.shutdownNow();
        if (node != null) {
            node.close();
        }
    }

    /** A writer held VALIDATING with x=2; returns its protocol, to decide later. */
    private CommitProtocol validatingWriter(Transaction writer) {
        writer.setVertexProperty(v, x, 2L);
        CommitProtocol protocol = new CommitProtocol(writer);
        assertTrue(protocol.prepare());
        return protocol;
    }

    @Test
    void preReadSeesTheValidatingWriteAndCommitsWhenTheWriterCommits() {
        open(Map.of(TxnConfig.GC, false));
        Transaction writer = node.begin(Isolation.SERIALIZABLE);
        CommitProtocol held = validatingWriter(writer);
        Transaction reader = node.begin(Isolation.SERIALIZABLE); // begins after the writer's commit time
        assertEquals(2L, reader.vertexProperty(v, x), "optimistic pre-read: the validating writer's version");
        assertEquals(1, reader.visibility.preReadDependencies.size());
        reader.setVertexProperty(v, y, 7L);
        held.decide();
        reader.commit();
        assertTrue(reader.isCommitted());
    }

    @Test
    void preReadDependencyOnAnAbortedWriterAbortsTheReader() {
        open(Map.of(TxnConfig.GC, false));
        Transaction writer = node.begin(Isolation.SERIALIZABLE);
        validatingWriter(writer);
        Transaction reader = node.begin(Isolation.SNAPSHOT);
        assertEquals(2L, reader.vertexProperty(v, x));
        writer.rollback(); // aborts while validating
        TransactionConflictException e = assertThrows(TransactionConflictException.class, reader::commit);
        assertEquals(ConflictKind.PRE_READ_DEPENDENCY_ABORTED, e.kind());
        assertEquals(writer.id(), e.otherTransaction());
        Transaction check = node.begin(Isolation.SERIALIZABLE);
        assertEquals(1L, check.vertexProperty(v, x), "the aborted write is gone");
        check.commit();
    }

    @Test
    void withoutPreReadTheReaderWaitsForTheWritersOutcome() throws Exception {
        open(Map.of(TxnConfig.GC, false, TxnConfig.PRE_READ, false));
        Transaction writer = node.begin(Isolation.SERIALIZABLE);
        CommitProtocol held = validatingWriter(writer);
        Transaction reader = node.begin(Isolation.SERIALIZABLE);
        Future<Object> read = pool.submit(() -> reader.vertexProperty(v, x));
        Thread.sleep(100); // the read must still be waiting; a wrong early answer would show below
        assertFalse(read.isDone(), "without pre-read the reader waits for the validating writer");
        held.decide();
        assertEquals(2L, read.get(10, TimeUnit.SECONDS));
        assertTrue(reader.visibility.preReadDependencies.isEmpty());
        reader.commit();
    }

    @Test
    void optimisticValidationWaitsForTheConflictingValidatorAndCommitsIfItAborts() throws Exception {
        open(Map.of(TxnConfig.GC, false));
        Transaction reader = node.begin(Isolation.SERIALIZABLE);
        assertEquals(1L, reader.vertexProperty(v, x));
        Transaction writer = node.begin(Isolation.SERIALIZABLE);
        validatingWriter(writer);
        reader.setVertexProperty(v, y, 1L);
        Future<?> commit = pool.submit(reader::commit);
        Thread.sleep(100); // real time: a commit that did not wait would be done by now
        assertFalse(commit.isDone(), "the reader waits: it commits only if the validating writer aborts");
        writer.rollback();
        commit.get(10, TimeUnit.SECONDS);
        assertTrue(reader.isCommitted());
    }

    @Test
    void optimisticValidationAbortsIfTheConflictingValidatorCommits() throws Exception {
        open(Map.of(TxnConfig.GC, false));
        Transaction reader = node.begin(Isolation.SERIALIZABLE);
        assertEquals(1L, reader.vertexProperty(v, x));
        Transaction writer = node.begin(Isolation.SERIALIZABLE);
        CommitProtocol held = validatingWriter(writer);
        reader.setVertexProperty(v, y, 1L);
        Future<?> commit = pool.submit(reader::commit);
        Thread.sleep(100); // real time: the reader is (most likely) waiting on the writer when it commits
        held.decide();
        ExecutionException e = assertThrows(ExecutionException.class, () -> commit.get(10, TimeUnit.SECONDS));
        TransactionConflictException conflict = (TransactionConflictException) e.getCause();
        assertEquals(ConflictKind.VALIDATION_DEPENDENCY_COMMITTED, conflict.kind());
        assertEquals(writer.id(), conflict.otherTransaction());
    }

    @Test
    void withoutOptimisticValidationAConflictWithAValidatorAbortsAtOnce() {
        open(Map.of(TxnConfig.GC, false, TxnConfig.OPTIMISTIC_VALIDATION, false));
        Transaction reader = node.begin(Isolation.SERIALIZABLE);
        assertEquals(1L, reader.vertexProperty(v, x));
        Transaction writer = node.begin(Isolation.SERIALIZABLE);
        CommitProtocol held = validatingWriter(writer);
        reader.setVertexProperty(v, y, 1L);
        TransactionConflictException e = assertThrows(TransactionConflictException.class, reader::commit);
        assertEquals(ConflictKind.READ_WRITE, e.kind());
        assertEquals(writer.id(), e.otherTransaction());
        held.decide();
    }

    @Test
    void aDependencyThatNeverDecidesEndsInABoundedAbort() {
        open(Map.of(TxnConfig.GC, false, TxnConfig.DEPENDENCY_WAIT_MS, 200));
        Transaction writer = node.begin(Isolation.SERIALIZABLE);
        CommitProtocol held = validatingWriter(writer);
        Transaction reader = node.begin(Isolation.SERIALIZABLE);
        assertEquals(2L, reader.vertexProperty(v, x));
        reader.setVertexProperty(v, y, 3L);
        TransactionConflictException e = assertThrows(TransactionConflictException.class, reader::commit);
        assertEquals(ConflictKind.DEPENDENCY_TIMEOUT, e.kind());
        assertTrue(e.getMessage().contains(TxnConfig.DEPENDENCY_WAIT_MS), e.getMessage());
        assertEquals(1L, node.engine.stats().get("aborts.DEPENDENCY_TIMEOUT"));
        held.decide();
        Transaction check = node.begin(Isolation.SERIALIZABLE);
        assertEquals(2L, check.vertexProperty(v, x));
        assertEquals(null, check.vertexProperty(v, y), "the aborted reader's write is gone");
        check.commit();
    }
}
