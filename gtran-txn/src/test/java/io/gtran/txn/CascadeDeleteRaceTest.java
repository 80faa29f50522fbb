package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.ForwardingFabric;
import io.gtran.rdma.ForwardingRegion;
import io.gtran.rdma.InJvmCluster;
import io.gtran.rdma.Region;
import io.gtran.storage.EdgeCursor;
import io.gtran.storage.GraphStore;
import io.gtran.storage.StoreConfig;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * removeVertex's cascade over the vertex's edges when an edge's deleter finishes between the
 * remover's read of the edge's end word and its read of the deleter's status (RETRY). The edge was
 * deleted before the remover's snapshot, so the remover must skip it: a reviewer found that it
 * took the edge for alive, re-read the word and aborted with a spurious DELETED_ELEMENT, or, if GC
 * had freed the edge meanwhile, let UnknownElementException escape. Forced with a fabric that
 * pauses the remover at its status-table read of the deleter.
 */
@Timeout(60)
class CascadeDeleteRaceTest {
    /** Pauses {@link #pauseThread} when it reads the txn-id word of status slot {@link #slot}. */
    static final class PausingFabric extends ForwardingFabric {
        final AtomicReference<Thread> pauseThread = new AtomicReference<>();
        final AtomicLong offset = new AtomicLong(-1);
        final CountDownLatch reached = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        PausingFabric(Fabric delegate) {
            super(delegate);
        }

        @Override
        public Region register(String name, long bytes) {
            Region region = delegate().register(name, bytes);
            if (!StatusTable.REGION_NAME.equals(name)) {
                return region;
            }
            return new ForwardingRegion(region) {
                @Override
                public long readLong(long at) {
                    if (at == offset.get() && pauseThread.compareAndSet(Thread.currentThread(), null)) {
                        reached.countDown();
                        await(release);
                    }
                    return super.readLong(at);
                }
            };
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(20, TimeUnit.SECONDS), "latch timed out");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private final InJvmCluster cluster = new InJvmCluster();
    private final PausingFabric fabric = new PausingFabric(cluster.join(0));
    private final GraphStore store = GraphStore.open(StoreConfig.from(Map.of(StoreConfig.CHUNK_BYTES, 1 << 16)));
    private final TransactionEngine engine = TransactionEngine.open(store, fabric, TxnConfig.from(Map.of(TxnConfig.GC, false)));
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "review-remover");
        t.setDaemon(true);
        return t;
    });

    @AfterEach
    void close() {
        fabric.release.countDown();
        worker.shutdownNow();
        engine.close();
        store.close();
        fabric.close();
        cluster.close();
    }

    private void run(boolean gcFreesTheEdge) throws Exception {
        int person = store.labels().intern("person");
        int knows = store.labels().intern("knows");
        Transaction setup = engine.begin(Isolation.SERIALIZABLE);
        long a = setup.addVertex(person);
        long b = setup.addVertex(person);
        long e = setup.addEdge(a, b, knows);
        setup.commit();

        // D deletes the edge and takes its commit time (VALIDATING).
        Transaction d = engine.begin(Isolation.SERIALIZABLE);
        d.removeEdge(e);
        CommitProtocol held = new CommitProtocol(d);
        assertTrue(held.prepare());
        // R begins after D's commit time: the edge is already deleted in R's snapshot.
        Transaction r = engine.begin(Isolation.SERIALIZABLE);
        assertTrue(r.beginTime() > d.registered.commitTime);

        fabric.offset.set(StatusTableDescriptor.offset(TxnWords.slot(d.id())) + StatusTableDescriptor.TXN_ID_OFFSET);
        Future<?> removal = worker.submit(() -> {
            fabric.pauseThread.set(Thread.currentThread());
            r.removeVertex(a); // reads e's end word (D's id), then pauses reading D's status
            return null;
        });
        await(fabric.reached);
        held.decide(); // D commits, stamps, releases its entry: R's status read will say GONE (RETRY)
        if (gcFreesTheEdge) {
            engine.gc().runOnce(); // watermark = R's begin time > D's commit time: the dead edge is freed
        }
        fabric.release.countDown();
        removal.get(20, TimeUnit.SECONDS); // fails here: conflict / UnknownElementException
        r.commit();
        Transaction check = engine.begin(Isolation.SNAPSHOT);
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
