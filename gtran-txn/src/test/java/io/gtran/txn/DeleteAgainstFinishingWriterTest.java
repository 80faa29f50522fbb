package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A deletion at SI must not commit over a property write committed after its snapshot (first
 * committer wins), even when the writer finishes between the deleter's read of the property
 * version's word (which still holds the writer's id) and its read of the writer's status (which
 * the writer has released by then, so {@code inspect} answers RETRY). The deleter must read the
 * word again, find the writer's commit time, and abort; taking RETRY for "no conflict" lost the
 * write. Forced with a fabric that pauses the deleter at its status read.
 */
@Timeout(60)
class DeleteAgainstFinishingWriterTest {
    private final PausingNode node = new PausingNode();

    @AfterEach
    void close() {
        node.close();
    }

    /**
     * @param element what is deleted: a vertex or an edge
     * @param write   what the concurrent writer does to the element's property: sets or removes it
     */
    @ParameterizedTest(name = "{0}, writer {1}s the property")
    @CsvSource({"vertex, set", "vertex, remove", "edge, set", "edge, remove"})
    void deletionAbortsOnAPropertyWriteCommittedAfterItsSnapshot(String element, String write) throws Exception {
        boolean edge = element.equals("edge");
        int person = node.store.labels().intern("person");
        int knows = node.store.labels().intern("knows");
        int balance = node.store.propertyKeys().intern("balance");
        Transaction setup = node.engine.begin(Isolation.SNAPSHOT);
        long a = setup.addVertex(person);
        long b = setup.addVertex(person);
        long e = setup.addEdge(a, b, knows);
        setup.commit();
        long target = edge ? e : a;
        Transaction first = node.engine.begin(Isolation.SNAPSHOT); // a version of its own, not the base version
        set(first, edge, target, balance, 10L);
        first.commit();

        Transaction deleter = node.engine.begin(Isolation.SNAPSHOT);
        Transaction writer = node.engine.begin(Isolation.SNAPSHOT);
        if (write.equals("set")) {
            set(writer, edge, target, balance, 20L);
        } else {
            assertTrue(edge ? writer.removeEdgeProperty(target, balance) : writer.removeVertexProperty(target, balance));
        }
        CommitProtocol held = new CommitProtocol(writer);
        assertTrue(held.prepare());

        Future<?> deletion = node.worker.submit(() -> {
            node.fabric.pauseAt(Thread.currentThread(), writer.id());
            if (edge) {
                deleter.removeEdge(target);
            } else {
                deleter.removeVertex(target);
            }
            deleter.commit();
            return null;
        });
        PausingStatusFabric.await(node.fabric.reached); // the deleter read the writer's id in the version word
        held.decide(); // the writer commits after the deleter's snapshot, stamps, releases its entry
        assertTrue(writer.isCommitted());
        node.fabric.release.countDown();
        ExecutionException failed = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> deletion.get(20, TimeUnit.SECONDS), "the deletion committed over a later committed write");
        TransactionConflictException conflict = assertInstanceOf(TransactionConflictException.class, failed.getCause());
        assertEquals(ConflictKind.FIRST_COMMITTER_WINS, conflict.kind(), conflict::getMessage);

        Transaction check = node.engine.begin(Isolation.SNAPSHOT);
        assertTrue(edge ? check.edgeExists(target) : check.vertexExists(target), "the element is still there");
        Object expected = write.equals("set") ? 20L : null;
        assertEquals(expected, edge ? check.edgeProperty(target, balance) : check.vertexProperty(target, balance));
        check.commit();
    }

    /**
     * The same first-committer-wins rule when the later committed write lies under an aborted
     * write that GC has not unlinked yet: the aborted version on top hides nothing.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"vertex", "edge"})
    void deletionLooksBelowAnAbortedWriteForOneCommittedAfterItsSnapshot(String element) {
        boolean edge = element.equals("edge");
        int person = node.store.labels().intern("person");
        int balance = node.store.propertyKeys().intern("balance");
        Transaction setup = node.engine.begin(Isolation.SNAPSHOT);
        long a = setup.addVertex(person);
        long e = setup.addEdge(a, setup.addVertex(person), node.store.labels().intern("knows"));
        setup.commit();
        long target = edge ? e : a;
        Transaction first = node.engine.begin(Isolation.SNAPSHOT);
        set(first, edge, target, balance, 10L);
        first.commit();

        Transaction deleter = node.engine.begin(Isolation.SNAPSHOT);
        Transaction later = node.engine.begin(Isolation.SNAPSHOT);
        set(later, edge, target, balance, 20L);
        later.commit(); // after the deleter's snapshot
        Transaction aborted = node.engine.begin(Isolation.SNAPSHOT);
        set(aborted, edge, target, balance, 30L);
        aborted.rollback(); // its version stays on top until GC (off here) unlinks it

        TransactionConflictException conflict = org.junit.jupiter.api.Assertions.assertThrows(TransactionConflictException.class, () -> {
            if (edge) {
                deleter.removeEdge(target);
            } else {
                deleter.removeVertex(target);
            }
            deleter.commit();
        }, "the deletion committed over a later committed write");
        assertEquals(ConflictKind.FIRST_COMMITTER_WINS, conflict.kind(), conflict::getMessage);
        Transaction check = node.engine.begin(Isolation.SNAPSHOT);
        assertEquals(20L, edge ? check.edgeProperty(target, balance) : check.vertexProperty(target, balance));
        check.commit();
    }

    private static void set(Transaction txn, boolean edge, long element, int key, Object value) {
        if (edge) {
            txn.setEdgeProperty(element, key, value);
        } else {
            txn.setVertexProperty(element, key, value);
        }
    }
}
