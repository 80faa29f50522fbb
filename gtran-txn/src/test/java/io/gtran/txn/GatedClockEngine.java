package io.gtran.txn;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.InJvmCluster;
import io.gtran.storage.GraphStore;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.clock.Clock;
import io.gtran.txn.clock.LocalClock;
import io.gtran.txn.common.Isolation;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A node alone (GC off) whose clock can hold one begin inside {@link Clock#next()}, after it took
 * its time: the transaction is being born (its status entry announcing) for as long as the test
 * wants.
 */
final class GatedClockEngine implements AutoCloseable {
    /** A LocalClock that counts calls and, once armed, holds the next caller (after it took its time) until released. */
    static final class CountingGatedClock implements Clock {
        private final LocalClock inner = new LocalClock();
        final AtomicLong calls = new AtomicLong();
        final AtomicBoolean armed = new AtomicBoolean();
        final CountDownLatch reached = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public long next() {
            calls.incrementAndGet();
            long time = inner.next();
            if (armed.compareAndSet(true, false)) {
                reached.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return time;
        }

        @Override
        public long current() {
            return inner.current();
        }
    }

    final CountingGatedClock clock = new CountingGatedClock();
    private final InJvmCluster cluster = new InJvmCluster();
    private final Fabric fabric = cluster.join(0);
    final GraphStore store = GraphStore.open(StoreConfig.from(Map.of(StoreConfig.CHUNK_BYTES, 1 << 16)));
    final TransactionEngine engine = TransactionEngine.open(store, fabric, TxnConfig.from(Map.of(TxnConfig.GC, false)), clock);
    private final ExecutorService pool = Executors.newSingleThreadExecutor();

    /** Begins a transaction on another thread and returns once it is held in the clock. */
    Future<Transaction> beginHeld() throws InterruptedException {
        clock.armed.set(true);
        Future<Transaction> born = pool.submit(() -> engine.begin(Isolation.SNAPSHOT));
        if (!clock.reached.await(10, TimeUnit.SECONDS)) {
            throw new AssertionError("the begin did not reach the clock in 10 s");
        }
        return born;
    }

    /** Lets the held begin go on. */
    void release() {
        clock.release.countDown();
    }

    @Override
    public void close() {
        release();
        pool.shutdownNow();
        engine.close();
        store.close();
        fabric.close();
        cluster.close();
    }
}
