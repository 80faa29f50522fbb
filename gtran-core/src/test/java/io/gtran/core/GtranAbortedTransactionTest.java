package io.gtran.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.txn.common.ConflictKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.tinkerpop.gremlin.structure.Transaction;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A transaction that a conflict aborted while it ran stays aborted, awaiting rollback:
 * its thread's later reads, writes and commits are refused, so nothing of the unit of work lands,
 * until rollback (or close) clears it; then the thread works again.
 */
class GtranAbortedTransactionTest {
    private static final String WHILE_RUNNING = "roll back, then retry the whole transaction";
    private static final String AWAITING = "roll back before using it again";
    private final TestGraphs opened = new TestGraphs();
    private GtranGraph graph;
    private Object account;
    /** The thread holding the balance's write lock, once a test took it. */
    private Worker holder;
    private final Callable<Object> commit = () -> { graph.tx().commit(); return null; };
    private final Callable<Object> rollback = () -> { graph.tx().rollback(); return null; };

    @AfterEach
    void cleanUp() {
        opened.close();
    }

    /** A graph at {@code isolation} with one committed account whose balance is 100. */
    private void openWithAccount(String isolation) {
        graph = opened.open(isolation);
        account = graph.addVertex("name", "account", "balance", 100).id();
        graph.tx().commit();
    }

    /** A thread whose open transaction holds the write lock on the account's balance. */
    private Worker lockBalance() throws Exception {
        Worker locking = opened.worker();
        locking.run(() -> graph.vertices(account).next().property("balance", 150));
        return locking;
    }

    /** Has {@link #holder} lock the balance ({@link #lockBalance}); returns another thread, to meet the lock. */
    private Worker lockedBalanceLoser() throws Exception {
        holder = lockBalance();
        return opened.worker();
    }

    /** {@code loser} writes the balance the holder has locked: the conflict aborts its transaction while it runs. */
    private void conflict(Worker loser) throws Exception {
        assertAborted(loser.fails(() -> graph.vertices(account).next().property("balance", 50)), WHILE_RUNNING);
    }

    private static void assertAborted(Throwable t, String advice) {
        TransactionAbortedException aborted = assertInstanceOf(TransactionAbortedException.class, t, () -> "expected a TransactionAbortedException, got " + t);
        assertEquals(ConflictKind.WRITE_WRITE, aborted.conflict().kind());
        assertNull(t.getCause(), "the conflict is suppressed, not the cause: Gremlin Server's script engine answers the root cause");
        assertTrue(t.getMessage().startsWith("transaction aborted by a conflict (conflict=WRITE_WRITE "), t::getMessage);
        assertTrue(t.getMessage().endsWith("); " + advice), t::getMessage);
    }

    private Set<Object> names() {
        Set<Object> names = graph.traversal().V().values("name").toSet();
        graph.tx().rollback();
        return names;
    }

    private Object balance() {
        Object balance = graph.vertices(account).next().value("balance");
        graph.tx().rollback();
        return balance;
    }

    @ParameterizedTest
    @ValueSource(strings = {"SERIALIZABLE", "SNAPSHOT"})
    @Timeout(60)
    void nothingOfAUnitOfWorkLandsAfterAConflictMidTransaction(String isolation) throws Exception {
        openWithAccount(isolation);
        holder = lockBalance();
        Worker loser = opened.worker();
        Vertex seen = loser.run(() -> graph.vertices(account).next());
        loser.run(() -> graph.addVertex("name", "first half"));
        assertAborted(loser.fails(() -> seen.property("balance", 50)), WHILE_RUNNING);
        assertTrue(loser.run(() -> graph.tx().isOpen()), "the aborted transaction awaits rollback");

        // the client goes on as if nothing had happened: every use is refused, the transaction stays
        List<Callable<?>> uses = List.of(
                () -> graph.addVertex("name", "second half"),
                () -> seen.property("balance", 60),
                () -> seen.value("balance"),
                () -> graph.vertices(account).hasNext(),
                () -> graph.traversal().V().count().next(),
                () -> graph.traversal().addV().property("name", "second half").iterate(),
                commit,
                commit);
        for (Callable<?> use : uses) {
            assertAborted(loser.fails(use), AWAITING);
            assertTrue(loser.run(() -> graph.tx().isOpen()), "still awaiting rollback");
        }
        holder.run(commit);
        assertEquals(Set.of("account"), names(), "nothing of the aborted unit of work landed");
        assertEquals(150, balance());

        loser.run(rollback);
        assertFalse(loser.run(() -> graph.tx().isOpen()), "rolled back: the thread has no transaction");
        loser.run(() -> { // the retry, at a new begin time, commits
            graph.addVertex("name", "first half");
            graph.vertices(account).next().property("balance", 50);
            graph.tx().commit();
            return null;
        });
        assertEquals(Set.of("account", "first half"), names());
        assertEquals(50, balance());
    }

    @Test
    @Timeout(60)
    void closeWithItsDefaultRollbackClearsAnAbortedTransaction() throws Exception {
        openWithAccount("SERIALIZABLE");
        Worker loser = lockedBalanceLoser();
        conflict(loser);
        loser.run(() -> { graph.tx().close(); return null; });
        assertFalse(loser.run(() -> graph.tx().isOpen()));
        holder.run(rollback);
        loser.run(() -> { graph.vertices(account).next().property("balance", 50); graph.tx().commit(); return null; });
        assertEquals(50, balance());
    }

    @Test
    @Timeout(60)
    void inManualModeOpeningAnAbortedTransactionSaysToRollBack() throws Exception {
        openWithAccount("SERIALIZABLE");
        Worker loser = lockedBalanceLoser();
        loser.run(() -> graph.tx().onReadWrite(Transaction.READ_WRITE_BEHAVIOR.MANUAL));
        loser.run(() -> { graph.tx().open(); return null; });
        conflict(loser);
        assertAborted(loser.fails(() -> { graph.tx().open(); return null; }), AWAITING);
        assertAborted(loser.fails(() -> graph.vertices(account).next()), AWAITING);
        holder.run(rollback);
        loser.run(() -> {
            graph.tx().rollback();
            graph.tx().open();
            graph.vertices(account).next().property("balance", 50);
            graph.tx().commit();
            return null;
        });
        assertEquals(50, balance());
    }

    @Test
    @Timeout(60)
    void listenersHearOneRollbackForAnAbortedTransaction() throws Exception {
        openWithAccount("SERIALIZABLE");
        Worker loser = lockedBalanceLoser();
        List<Transaction.Status> heard = new ArrayList<>();
        loser.run(() -> { graph.tx().addTransactionListener(heard::add); return null; });
        conflict(loser);
        assertAborted(loser.fails(commit), AWAITING);
        loser.run(rollback);
        assertEquals(List.of(Transaction.Status.ROLLBACK), loser.run(() -> List.copyOf(heard)));
        holder.run(rollback);
    }

    @Test
    @Timeout(60)
    void aConflictAtCommitEndsTheTransaction() throws Exception {
        openWithAccount("SERIALIZABLE");
        Worker reader = opened.worker();
        reader.run(() -> graph.vertices(account).next().value("balance"));
        Worker writer = opened.worker();
        writer.run(() -> { graph.vertices(account).next().property("balance", 150); graph.tx().commit(); return null; });
        reader.run(() -> graph.addVertex("name", "based on a stale balance"));
        Throwable t = reader.fails(() -> { graph.tx().commit(); return null; }); // SR validation: read-write conflict
        assertInstanceOf(TransactionAbortedException.class, t);
        assertTrue(t.getMessage().startsWith("transaction aborted, retry it: "), t::getMessage);
        assertFalse(reader.run(() -> graph.tx().isOpen()), "a failed commit ends the transaction");
        reader.run(() -> { graph.addVertex("name", "retried"); graph.tx().commit(); return null; });
        assertEquals(Set.of("account", "retried"), names());
    }

    @Test
    @Timeout(60)
    void aThreadThatEndsAwaitingRollbackLeavesNothingBehind() throws Exception {
        openWithAccount("SERIALIZABLE");
        holder = lockBalance();
        ExecutorService thread = opened.thread();
        Worker loser = new Worker(thread);
        loser.run(() -> graph.addVertex("name", "first half"));
        conflict(loser);
        thread.shutdown();
        assertTrue(thread.awaitTermination(10, TimeUnit.SECONDS));
        holder.run(commit);
        Thread.sleep(3 * GtranTransaction.ORPHAN_SCAN_MILLIS); // real time: the orphan scanner would have acted by now
        assertEquals(Set.of("account"), names());
        assertEquals(0L, graph.stats().get("running"));
        assertEquals(0L, graph.stats().get("orphans.rolledBack"), "an aborted transaction holds nothing to roll back");
    }
}
