package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.ForwardingFabric;
import io.gtran.rdma.ForwardingRegion;
import io.gtran.rdma.InJvmCluster;
import io.gtran.rdma.Region;
import io.gtran.storage.GraphStore;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.clock.Clock;
import io.gtran.txn.clock.LocalClock;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Reads that race a writer's commit, in interleavings the list-append history check
 * (gtran-check's {@code io.gtran.check.history.ListAppendHistoryTest}) met in real runs: a reader that begins after
 * the writer took its commit time but before it left EXECUTING, and a reader that holds a version
 * the writer replaces before committing. Each interleaving is forced with a gated clock or a
 * pausing fabric decorator, GC is off, and the test states what MV-OCC must do.
 */
@Timeout(30)
class ReadsRacingCommitTest {
    /** A clock that, once armed, holds the next caller after it took its timestamp until released. */
    static final class GatedClock implements Clock {
        private final LocalClock inner = new LocalClock();
        final AtomicBoolean armed = new AtomicBoolean();
        final CountDownLatch reached = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public long next() {
            long time = inner.next();
            if (armed.compareAndSet(true, false)) {
                reached.countDown();
                await(release);
            }
            return time;
        }

        @Override
        public long current() {
            return inner.current();
        }
    }

    /** A fabric whose registered regions hold one chosen thread at its next long read, until released. */
    static final class PausingFabric extends ForwardingFabric {
        final AtomicReference<Thread> pauseThread = new AtomicReference<>();
        final CountDownLatch reached = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        PausingFabric(Fabric delegate) {
            super(delegate);
        }

        @Override
        public Region register(String name, long bytes) {
            return new ForwardingRegion(delegate().register(name, bytes)) {
                @Override
                public long readLong(long offset) {
                    if (pauseThread.compareAndSet(Thread.currentThread(), null)) {
                        reached.countDown();
                        await(release);
                    }
                    return super.readLong(offset);
                }
            };
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private final InJvmCluster cluster = new InJvmCluster();
    private final PausingFabric fabric = new PausingFabric(cluster.join(0));
    private final GraphStore store = GraphStore.open(StoreConfig.from(Map.of(StoreConfig.CHUNK_BYTES, 1 << 16)));
    private final GatedClock clock = new GatedClock();
    private final TransactionEngine engine = TransactionEngine.open(store, fabric, TxnConfig.from(Map.of(TxnConfig.GC, false)), clock);
    private final ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "racing-worker");
        t.setDaemon(true); // a worker spinning in the engine must not keep the JVM alive
        return t;
    });
    private final int list = store.propertyKeys().intern("list");
    private boolean workerStuck;

    @AfterEach
    void close() {
        clock.release.countDown();
        fabric.release.countDown();
        executor.shutdownNow();
        if (!workerStuck) { // never free the store under a thread still inside it
            engine.close();
            store.close();
            fabric.close();
            cluster.close();
        }
    }

    /** A vertex whose {@code list} property holds {@code value}, committed by a transaction of its own. */
    private long vertexWithList(String value) {
        Transaction create = engine.begin(Isolation.SERIALIZABLE);
        long v = create.addVertex(store.labels().intern("key"));
        create.commit();
        Transaction set = engine.begin(Isolation.SERIALIZABLE);
        set.setVertexProperty(v, list, value);
        set.commit();
        return v;
    }

    /**
     * Found as G-single, G2, "internal" (non-repeatable reads), empty reads and lost updates at
     * SR. A writer takes its commit time (CommitProtocol step 2, registering in the recent
     * committed table) and only then moves its status from EXECUTING to VALIDATING. A reader that
     * begins in between gets a begin time above the writer's commit time, yet sees it EXECUTING
     * and reads around its version (Transaction.readTime: "its commit time will exceed our begin
     * time"). Once the writer commits, the reader sees its version: two reads of one item in one
     * snapshot disagree, and validation does not notice, since the writer's commit time is below
     * the reader's window.
     */
    @Test
    void readerBeginningAfterAWritersCommitTimeSeesItsWriteInEveryRead() throws Exception {
        long v = vertexWithList("1");
        Transaction writer = engine.begin(Isolation.SERIALIZABLE);
        writer.setVertexProperty(v, list, "1,2");
        clock.armed.set(true);
        Future<?> commit = executor.submit(writer::commit);
        assertTrue(clock.reached.await(10, TimeUnit.SECONDS), "writer reached its commit-time call");

        Transaction reader = engine.begin(Isolation.SERIALIZABLE); // begin time above the writer's commit time
        Future<Object> firstRead = executor.submit(() -> reader.vertexProperty(v, list));
        Object before;
        try {
            before = firstRead.get(1, TimeUnit.SECONDS);
        } catch (TimeoutException waitsForTheWriter) {
            before = null; // the reader waits for the writer's decision: fine, let the writer go on
        }
        clock.release.countDown();
        commit.get(10, TimeUnit.SECONDS);
        if (before == null) {
            before = firstRead.get(10, TimeUnit.SECONDS);
        }
        assertTrue(writer.commitTime() < reader.beginTime(), "writer committed below the reader's begin time");
        Object after = reader.vertexProperty(v, list);
        boolean committed;
        try {
            reader.commit();
            committed = true;
        } catch (TransactionConflictException e) {
            committed = false;
        }
        if (committed) {
            assertEquals(after, before, "a committed SR reader read " + before + " then " + after + " in one snapshot (writer commit="
                    + writer.commitTime() + ", reader begin=" + reader.beginTime() + ")");
            assertEquals("1,2", after, "the writer committed below the reader's begin time");
        }
    }

    /**
     * Found as a hang of the SR and SI workloads (a worker spinning in Transaction.readVersionTime).
     * A transaction that writes a property twice replaces its first version (replaceOwnVersion)
     * and unlinks it, but leaves its id in that version's begin word: nobody ever rewrites it. A
     * reader that picked that version up as the head before the replacement, and looks at it once
     * the writer has finished (status entry gone), reads the word again and again, expecting the
     * writer to have stamped it.
     */
    @Test
    void readerHoldingAReplacedVersionDoesNotSpin() throws Exception {
        long v = vertexWithList("1");
        Transaction writer = engine.begin(Isolation.SERIALIZABLE);
        writer.setVertexProperty(v, list, "1,2"); // first version, the head
        Transaction reader = engine.begin(Isolation.SERIALIZABLE);
        CountDownLatch started = new CountDownLatch(1);
        Future<Object> read = executor.submit(() -> {
            fabric.pauseThread.set(Thread.currentThread()); // held at its status-table read of the writer
            started.countDown();
            return reader.vertexProperty(v, list);
        });
        assertTrue(started.await(10, TimeUnit.SECONDS));
        assertTrue(fabric.reached.await(10, TimeUnit.SECONDS), "reader reached the writer's status entry");
        writer.setVertexProperty(v, list, "1,2,3"); // replaces the version the reader holds
        writer.commit();
        fabric.release.countDown();
        try {
            assertEquals("1", read.get(5, TimeUnit.SECONDS), "the reader began before the writer committed");
        } catch (TimeoutException e) {
            workerStuck = true;
            throw new AssertionError("the reader is still spinning on the replaced version's begin word after 5 s", e);
        }
        reader.commit();
    }

}
