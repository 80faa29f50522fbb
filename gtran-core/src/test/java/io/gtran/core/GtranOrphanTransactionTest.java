package io.gtran.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.util.TransactionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A transaction whose thread ends with it open (what Gremlin Server leaves when a session's
 * connection closes) is rolled back by the orphan reaper: its locks go, its writes and its
 * user-supplied ids with them; a transaction whose thread lives is left alone.
 */
class GtranOrphanTransactionTest {
    /** Generous against {@link GtranTransaction#ORPHAN_SCAN_MILLIS} on a loaded machine. */
    private static final long BOUND_MILLIS = 2_000;
    private final TestGraphs opened = new TestGraphs();
    private GtranGraph graph;
    private Object id;

    @BeforeEach
    void openGraph() {
        graph = opened.open("SR");
        id = graph.addVertex("owner", "nobody").id();
        graph.tx().commit();
    }

    @AfterEach
    void cleanUp() {
        opened.close();
    }

    /** A thread of its own that has set {@code owner} on the vertex in a transaction it keeps open. */
    private ExecutorService threadThatWrote(String owner, Runnable andThen) throws Exception {
        ExecutorService thread = opened.thread();
        thread.submit(() -> {
            graph.vertices(id).next().property("owner", owner);
            andThen.run();
        }).get(10, TimeUnit.SECONDS);
        return thread;
    }

    @Test
    @Timeout(30)
    void aTransactionWhoseThreadEndedIsRolledBackAndReleasesItsLocks() throws Exception {
        ExecutorService vanishing = threadThatWrote("vanished", () -> graph.addVertex(T.id, "taken", "owner", "vanished"));
        vanishing.shutdown();
        assertTrue(vanishing.awaitTermination(10, TimeUnit.SECONDS), "the thread ended");

        long waited = writeOwnerWithin("survivor");
        System.out.printf("GtranOrphanTransactionTest: lock gone %d ms after its thread ended%n", waited);
        graph.addVertex(T.id, "taken", "owner", "survivor"); // the orphan's id binding went with it
        graph.tx().commit();
        assertEquals(2L, graph.traversal().V().has("owner", "survivor").count().next());
        assertFalse(graph.traversal().V().has("owner", "vanished").hasNext(), "none of the orphan's writes survived");
        graph.tx().rollback();
        assertEquals(1L, graph.stats().get("orphans.rolledBack"));
        assertEquals(0L, graph.stats().get("running"));
    }

    @Test
    @Timeout(30)
    void aTransactionWhoseThreadLivesIsLeftOpen() throws Exception {
        ExecutorService living = threadThatWrote("living", () -> { });
        Thread.sleep(5 * GtranTransaction.ORPHAN_SCAN_MILLIS); // real time: a wrong orphan scan would have run by now
        living.submit(() -> graph.tx().commit()).get(10, TimeUnit.SECONDS);
        assertEquals("living", graph.vertices(id).next().value("owner"), "the living thread's transaction committed");
        graph.tx().rollback();
        assertEquals(0L, graph.stats().get("orphans.rolledBack"));
    }

    @Test
    @Timeout(30)
    void theReaperKeepsReapingAfterAnOrphanFailsToRevert() throws Exception {
        ExecutorService failing = opened.thread();
        failing.submit(() -> {
            graph.addVertex("owner", "failing");
            graph.transaction().scope().onAbort(() -> {
                throw new IllegalStateException("an undo action that fails");
            });
        }).get(10, TimeUnit.SECONDS);
        failing.shutdown();
        assertTrue(failing.awaitTermination(10, TimeUnit.SECONDS), "the thread ended");
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(BOUND_MILLIS);
        while (graph.stats().get("orphans.rolledBack") < 1) {
            assertTrue(System.nanoTime() < deadline, "the failing orphan was not rolled back");
            Thread.sleep(10);
        }
        Thread.sleep(2 * GtranTransaction.ORPHAN_SCAN_MILLIS); // its revert has run (and thrown) by now

        ExecutorService vanishing = threadThatWrote("vanished", () -> { });
        vanishing.shutdown();
        assertTrue(vanishing.awaitTermination(10, TimeUnit.SECONDS), "the thread ended");
        writeOwnerWithin("survivor"); // fails if the failed revert stopped the reaper
        graph.tx().commit();
        assertEquals(2L, graph.stats().get("orphans.rolledBack"));
    }

    /** Writes {@code owner} on vertex {@code id}, retrying on conflicts for {@link #BOUND_MILLIS}; the milliseconds it took. */
    private long writeOwnerWithin(String owner) throws InterruptedException {
        long start = System.nanoTime();
        while (true) {
            try {
                Vertex v = graph.vertices(id).next();
                v.property("owner", owner);
                return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            } catch (TransactionException conflict) {
                graph.tx().rollback(); // the aborted transaction awaits it
                if (System.nanoTime() - start > TimeUnit.MILLISECONDS.toNanos(BOUND_MILLIS)) {
                    fail("the orphan still holds its lock after " + BOUND_MILLIS + " ms: " + conflict.getMessage());
                }
                Thread.sleep(10);
            }
        }
    }
}
