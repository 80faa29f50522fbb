package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;

/**
 * The "do better" tests: one test (or a few) per item of DESIGN.md's "Where G-Tran's own code
 * falls short — do better", each building the dangerous interleaving step by step (transactions
 * driven from the test thread, no timing). They are split by topic:
 * <ul>
 *   <li>{@link GcAndCommitTimeTest}: (a) the GC watermark, (b) commit times and RCT registration,
 *       (h) GC recycling;
 *   <li>{@link ReadValidationTest}: (c) versions read around, (d) phantoms;
 *   <li>{@link LostUpdateAndDependencyTest}: (e) lost updates, (f) dependency waits, (g) nothing
 *       half-applied.
 * </ul>
 * This class holds what they share: one node (GC off; tests run GC passes themselves), the labels
 * and keys they use, small steps that run in a transaction of their own, and a single worker
 * thread for a step that must block.
 *
 * <p>Not covered: "control messages over a reliable channel" is a matter of the cluster transport
 * (status, RCT and commit traffic between nodes); this single-node module has none, so it is left
 * to the cluster tests.
 */
abstract class DoBetterScenario {
    TxnFixture node;
    private final AtomicReference<Thread> worker = new AtomicReference<>();
    final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "do-better-worker");
        t.setDaemon(true);
        worker.set(t);
        return t;
    });
    int person;
    int knows;
    int x;
    int note;

    void open(Map<String, ?> settings) {
        Map<String, Object> all = new LinkedHashMap<>(Map.of(TxnConfig.GC, false));
        all.putAll(settings);
        node = new TxnFixture(all);
        person = node.label("person");
        knows = node.label("knows");
        x = node.key("x");
        note = node.key("note");
    }

    @AfterEach
    void close() {
        executor.shutdownNow();
        if (node != null) {
            node.close();
            node = null; // a test that opens several nodes in turn closes each
        }
    }

    /** The two ways a writer replaces the value a reader read: (c) and (e) run each. */
    enum Write { UPDATE, REMOVE }

    // ---------------------------------------------------------------- helpers

    long committedVertex(Object value) {
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        long v = t.addVertex(person);
        t.setVertexProperty(v, x, value);
        t.commit();
        return v;
    }

    /** Commits one write in its own transaction; returns that transaction's id. */
    long update(long v, int key, Object value) {
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        t.setVertexProperty(v, key, value);
        t.commit();
        return t.id();
    }

    Object read(long v, int key) {
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        Object value = t.vertexProperty(v, key);
        t.commit();
        return value;
    }

    long versions() {
        return node.store.mvStore().liveVersions();
    }

    /** GC passes with nothing running, the clock moved past every commit before each. */
    void quiesceGc() throws InterruptedException {
        for (int i = 0; i < 5; i++) {
            node.engine.clock().next();
            node.engine.gc().runOnce();
        }
    }

    static void expectConflict(ConflictKind kind, long other, Runnable action) {
        TransactionConflictException e = assertThrows(TransactionConflictException.class, action::run);
        assertEquals(kind, e.kind(), e.getMessage());
        assertEquals(other, e.otherTransaction(), e.getMessage());
    }

    /** Waits for the future and rethrows the exception its task threw. */
    static void getCause(Future<?> future) {
        try {
            future.get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new AssertionError(e.getCause());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Until the worker thread is parked in a timed wait (the wait under test). */
    void awaitParked() throws InterruptedException {
        while (worker.get() == null || worker.get().getState() != Thread.State.TIMED_WAITING) {
            Thread.sleep(1);
        }
    }

    /** Until the worker thread is parked in a timed wait, or {@code task} finished without waiting. */
    void awaitParkedOrDone(Future<?> task) throws InterruptedException {
        while (!task.isDone() && (worker.get() == null || worker.get().getState() != Thread.State.TIMED_WAITING)) {
            Thread.sleep(1);
        }
    }
}
