package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.InJvmCluster;
import io.gtran.storage.EdgeCursor;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Element counters while a transaction is being born (its status entry ANNOUNCING, so no fold cuts can be taken). */
@Timeout(60)
class ElementCountsBirthRaceTest {
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

    /**
     * While one transaction is being born (its status entry ANNOUNCING), foldCuts returns null and
     * fold(null) returns without resetting sinceFold: from then on every append by every committer
     * calls foldCuts again (a clock tick, a scan of all status-table entries, up to 1,000 spins on
     * the announcing one) instead of once per FOLD_AFTER appends.
     */
    @Test
    void aTransactionBeingBornDoesNotMakeEveryAppendRescanTheStatusTable() throws Exception {
        CountingGatedClock clock = new CountingGatedClock();
        InJvmCluster cluster = new InJvmCluster();
        Fabric fabric = cluster.join(0);
        GraphStore store = GraphStore.open(StoreConfig.from(Map.of(StoreConfig.CHUNK_BYTES, 1 << 16)));
        TransactionEngine engine = TransactionEngine.open(store, fabric, TxnConfig.from(Map.of(TxnConfig.GC, false)), clock);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            int knows = store.labels().intern("knows");
            Transaction setup = engine.begin(Isolation.SERIALIZABLE);
            long a = setup.addVertex(store.labels().intern("person"));
            setup.commit();
            int n = 1_280;
            long before = clock.calls.get();
            commitEdges(engine, a, knows, n);
            long baselineCalls = clock.calls.get() - before;

            clock.armed.set(true);
            Future<Transaction> born = pool.submit(() -> engine.begin(Isolation.SNAPSHOT)); // stays ANNOUNCING
            assertTrue(clock.reached.await(10, TimeUnit.SECONDS));
            before = clock.calls.get();
            commitEdges(engine, a, knows, n);
            long stuckCalls = clock.calls.get() - before;
            clock.release.countDown();
            born.get(10, TimeUnit.SECONDS).commit();
            Transaction r = engine.begin(Isolation.SERIALIZABLE);
            assertEquals(2L * n, r.countEdges(knows));
            r.commit();
            assertTrue(stuckCalls <= baselineCalls + n / 8,
                    "every append re-took the fold cuts while a transaction was being born: " + stuckCalls
                            + " clock calls vs " + baselineCalls + " for the same " + n + " commits");
        } finally {
            clock.release.countDown();
            pool.shutdownNow();
            engine.close();
            store.close();
            fabric.close();
            cluster.close();
        }
    }

    private static void commitEdges(TransactionEngine engine, long a, int label, int n) {
        for (int i = 0; i < n; i++) {
            Transaction t = engine.begin(Isolation.SERIALIZABLE);
            t.addEdge(a, a, label);
            t.commit();
        }
    }
}
