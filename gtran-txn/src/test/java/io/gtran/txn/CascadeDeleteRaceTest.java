package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.storage.EdgeCursor;
import io.gtran.txn.common.Isolation;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * removeVertex's cascade over the vertex's edges when an edge's deleter finishes between the
 * remover's read of the edge's end word and its read of the deleter's status (RETRY). The edge was
 * deleted before the remover's snapshot, so the remover must skip it; it used to
 * take the edge for alive, re-read the word and abort with a spurious DELETED_ELEMENT, or, if GC
 * had freed the edge meanwhile, let UnknownElementException escape. Forced with a fabric that
 * pauses the remover at its status-table read of the deleter.
 */
@Timeout(60)
class CascadeDeleteRaceTest {
    private final PausingNode node = new PausingNode();

    @AfterEach
    void close() {
        node.close();
    }

    private void run(boolean gcFreesTheEdge) throws Exception {
        int person = node.store.labels().intern("person");
        int knows = node.store.labels().intern("knows");
        Transaction setup = node.engine.begin(Isolation.SERIALIZABLE);
        long a = setup.addVertex(person);
        long b = setup.addVertex(person);
        long e = setup.addEdge(a, b, knows);
        setup.commit();

        // D deletes the edge and takes its commit time (VALIDATING).
        Transaction d = node.engine.begin(Isolation.SERIALIZABLE);
        d.removeEdge(e);
        CommitProtocol held = new CommitProtocol(d);
        assertTrue(held.prepare());
        // R begins after D's commit time: the edge is already deleted in R's snapshot.
        Transaction r = node.engine.begin(Isolation.SERIALIZABLE);
        assertTrue(r.beginTime() > d.registered.commitTime);

        Future<?> removal = node.worker.submit(() -> {
            node.fabric.pauseAt(Thread.currentThread(), d.id());
            r.removeVertex(a); // reads e's end word (D's id), then pauses reading D's status
            return null;
        });
        PausingStatusFabric.await(node.fabric.reached);
        held.decide(); // D commits, stamps, releases its entry: R's status read will say GONE (RETRY)
        if (gcFreesTheEdge) {
            node.engine.gc().runOnce(); // watermark = R's begin time > D's commit time: the dead edge is freed
        }
        node.fabric.release.countDown();
        removal.get(20, TimeUnit.SECONDS); // fails here: conflict / UnknownElementException
        r.commit();
        Transaction check = node.engine.begin(Isolation.SNAPSHOT);
        assertEquals(1, check.countVertices(EdgeCursor.ANY_LABEL));
        assertEquals(0, check.countEdges(EdgeCursor.ANY_LABEL));
        check.commit();
    }

    @Test
    void removeVertexSkipsAnEdgeDeletedBeforeItsSnapshotWhoseDeleterFinishedMidRead() throws Exception {
        run(false);
    }

    @Test
    void removeVertexSkipsAnEdgeGcFreedAfterItsDeleterFinishedMidRead() throws Exception {
        run(true);
    }
}
