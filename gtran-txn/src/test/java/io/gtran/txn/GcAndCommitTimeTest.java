package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.InJvmCluster;
import io.gtran.storage.GraphStore;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.clock.Clock;
import io.gtran.txn.clock.LocalClock;
import io.gtran.txn.common.ConflictKey;
import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import io.gtran.txn.common.TxnWords;
import io.gtran.txn.local.RecentCommittedTable;
import io.gtran.txn.local.TxnStatus;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Do-better items (a), (b) and (h) (the list and what all the do-better tests share are in
 * {@link DoBetterScenario}), each building the dangerous interleaving step by step:
 * <ul>
 *   <li>(a) the GC watermark is the minimum begin time: versions and RCT entries an old
 *       transaction needs survive GC passes;
 *   <li>(b) commit times and RCT registration: a query waits for smaller reserved commit times, a
 *       late one does not escape validation, and a reader that begins after a writer took its
 *       commit time sees all of that writer or none of it;
 *   <li>(h) GC recycles aborted writes and dead elements down to exactly the live graph.
 * </ul>
 * Where a step must block (a query or a commit waiting on the RCT), it runs on an executor and the
 * test waits until that thread is parked in its timed wait.
 */
@Timeout(60)
class GcAndCommitTimeTest extends DoBetterScenario {
    // ---------------------------------------------------------------- (a) GC watermark

    /**
     * An old reader R holds the watermark down while a writer updates x twenty times with a GC
     * pass after each commit (and a younger reader comes and goes): R keeps reading its value,
     * the watermark never passes R's begin time and no version is freed. Once R ends, GC frees
     * every version but the newest.
     */
    @Test
    void gcWatermarkIsTheMinimumBeginTimeOfActiveTransactions() throws Exception {
        open(Map.of());
        long v = committedVertex(0L);
        update(v, x, 1L);
        quiesceGc();
        assertEquals(1, versions(), "one property, one version after GC");
        Transaction r = node.begin(Isolation.SERIALIZABLE);
        assertEquals(1L, r.vertexProperty(v, x));
        Transaction young = null;
        for (long i = 2; i <= 21; i++) {
            update(v, x, i);
            if (i == 10) {
                young = node.begin(Isolation.SERIALIZABLE);
                assertEquals(10L, young.vertexProperty(v, x));
            }
            if (i == 15) {
                young.commit(); // the youngest leaves; the watermark must stay at R
            }
            node.engine.gc().runOnce();
            assertTrue(node.engine.watermark() <= r.beginTime(), "watermark passed the oldest running transaction");
            assertEquals(1L, r.vertexProperty(v, x), "the old reader's version must survive GC");
            assertEquals(i, versions(), "nothing may be freed while R runs");
        }
        assertTrue(node.engine.stats().get("rct.entries") >= 20, "RCT entries in R's window must survive");
        r.commit();
        quiesceGc();
        assertEquals(1, versions(), "after R, only the newest version remains");
        assertEquals(0L, node.engine.stats().get("rct.entries"));
    }

    /** The same, with R writing: the RCT entries GC kept let R's validation see the first writer. */
    @Test
    void gcKeepsRecentCommittedEntriesARunningValidatorNeeds() throws Exception {
        open(Map.of());
        long v = committedVertex(0L);
        long z = committedVertex(0L);
        Transaction r = node.begin(Isolation.SERIALIZABLE);
        assertEquals(0L, r.vertexProperty(v, x));
        long firstWriter = 0;
        for (long i = 1; i <= 20; i++) {
            long writer = update(v, x, i);
            firstWriter = firstWriter == 0 ? writer : firstWriter;
            node.engine.gc().runOnce();
        }
        r.setVertexProperty(z, note, "r");
        expectConflict(ConflictKind.READ_WRITE, firstWriter, r::commit);
    }

    // ---------------------------------------------------------------- (b) commit time and RCT

    /** A reserved commit time holds back every RCT query above it until its write set is published; bounded. */
    @Test
    void rctQueryWaitsForEverySmallerCommitTimeToRegister() throws Exception {
        RecentCommittedTable rct = new RecentCommittedTable();
        Clock clock = new LocalClock();
        long ct1 = rct.reserve(clock);
        long ct2 = clock.next();
        assertTrue(rct.awaitRegisteredBelow(ct1, 0), "nothing below ct1 is missing");
        assertFalse(rct.awaitRegisteredBelow(ct2, 50), "ct1 is missing: a query above it must time out");
        AtomicBoolean published = new AtomicBoolean();
        Future<Boolean> waiter = executor.submit(() -> rct.awaitRegisteredBelow(ct2, 60_000) && published.get());
        awaitParked();
        assertFalse(waiter.isDone(), "the query answered before ct1 registered");
        long fake = TxnWords.txnId(1, 7, 1); // a remote participant
        published.set(true);
        RecentCommittedTable.Entry entry = rct.publish(ct1, fake, Set.of(ConflictKey.element(42)));
        assertTrue(waiter.get(30, TimeUnit.SECONDS), "the query must answer once ct1 registered, and not before");
        assertEquals(entry, rct.between(ct1 - 1, ct2).iterator().next());
    }

    /** A writer W that took its commit time before T (W wrote what T read): T's validation sees W. */
    @Test
    void validationSeesAWriterWithASmallerCommitTime() {
        open(Map.of());
        long v = committedVertex(0L);
        long z = committedVertex(0L);
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        assertEquals(0L, t.vertexProperty(v, x));
        long w = update(v, x, 1L);
        t.setVertexProperty(z, note, "t");
        expectConflict(ConflictKind.READ_WRITE, w, t::commit);
    }

    /**
     * A remote participant's commit time, reserved below T's and published late, with a write set
     * that T's reads meet: T's validation waits for it instead of missing it, then aborts.
     */
    @Test
    void lateRegisteredCommitTimeDoesNotEscapeValidation() throws Exception {
        open(Map.of(TxnConfig.DEPENDENCY_WAIT_MS, 60_000));
        long v = committedVertex(0L);
        long z = committedVertex(0L);
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        assertEquals(0L, t.vertexProperty(v, x));
        RecentCommittedTable rct = node.engine.recentCommitted();
        long ct = rct.reserve(node.engine.clock());
        t.setVertexProperty(z, note, "t");
        Future<?> commit = executor.submit(t::commit);
        awaitParked();
        assertFalse(commit.isDone(), "T validated while a smaller commit time was unregistered");
        long fake = TxnWords.txnId(1, 9, 1);
        synchronized (rct) { // T wakes only after both steps: it sees the entry committed
            rct.decide(rct.publish(ct, fake, Set.of(ConflictKey.property(v, x))), TxnStatus.COMMITTED);
        }
        expectConflict(ConflictKind.READ_WRITE, fake, () -> getCause(commit));
    }

    /**
     * W takes its commit time; before W's status says VALIDATING, R begins (R's begin time is
     * after W's commit time, so W belongs in R's snapshot) and reads x, which W wrote. Once W has
     * committed R reads y, which W also wrote. R must see both of W's writes or neither: taking a
     * commit time must be atomic with publishing it to readers, not only with the RCT. The hook
     * runs R's step on another thread and waits for it, bounded, so a fixed engine that makes R
     * wait for W's commit time cannot deadlock the test.
     */
    @Test
    void readerBeginningAfterAWritersCommitTimeSeesAllOrNoneOfItsWrites() throws Exception {
        HookedClock clock = new HookedClock();
        InJvmCluster cluster = new InJvmCluster();
        GraphStore store = GraphStore.open(StoreConfig.from(Map.of(StoreConfig.CHUNK_BYTES, 1 << 16)));
        TransactionEngine engine = TransactionEngine.open(store, cluster.join(0), TxnConfig.from(Map.of(TxnConfig.GC, false)), clock);
        try {
            int k = store.propertyKeys().intern("k");
            int label = store.labels().intern("l");
            Transaction setup = engine.begin(Isolation.SERIALIZABLE);
            long a = setup.addVertex(label);
            long b = setup.addVertex(label);
            setup.setVertexProperty(a, k, 0L);
            setup.setVertexProperty(b, k, 0L);
            setup.commit();
            Transaction w = engine.begin(Isolation.SERIALIZABLE);
            w.setVertexProperty(a, k, 1L);
            w.setVertexProperty(b, k, 1L);
            AtomicReference<Transaction> reader = new AtomicReference<>();
            AtomicReference<Object> first = new AtomicReference<>();
            clock.armForCurrentThread(() -> {
                Future<?> step = executor.submit(() -> {
                    reader.set(engine.begin(Isolation.SERIALIZABLE));
                    first.set(reader.get().vertexProperty(a, k));
                });
                try {
                    step.get(1, TimeUnit.SECONDS);
                } catch (TimeoutException e) {
                    // R waits for W's commit time (a fixed engine): let W go on
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            w.commit();
            executor.submit(() -> { }).get(30, TimeUnit.SECONDS); // R's first step has finished
            Transaction r = reader.get();
            assertNotNull(r, "the clock hook did not run R");
            assertTrue(r.beginTime() > w.commitTime(), "R began after W took its commit time");
            Object second = r.vertexProperty(b, k);
            r.commit();
            assertEquals(second, first.get(), "R saw a=" + first.get() + " and b=" + second + " of one transaction W");
            assertEquals(1L, second, "W committed before R's begin time: R must see its writes");
        } finally {
            engine.close();
            store.close();
            cluster.close();
        }
    }

    // ---------------------------------------------------------------- (h) GC recycles

    /**
     * Committed and aborted writes, a write-write abort, a vertex deleted with its edge, a string
     * property added and removed; then GC with nothing running. Exactly the live graph remains:
     * vertices a and b, edge a->b with one property; a.x (updated: one version), b.x
     * (materialized by an aborted update: one version), the edge's base version; no string value.
     */
    @Test
    void gcRecyclesAbortedWritesAndDeadElementsExactly() throws Exception {
        open(Map.of());
        int y = node.key("y");
        Map<String, Long> empty = node.store.liveSlots();
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        long a = t.addVertex(person);
        long b = t.addVertex(person);
        long c = t.addVertex(person);
        for (long v : new long[] {a, b, c}) {
            t.setVertexProperty(v, x, 0L);
        }
        long ab = t.addEdge(a, b, knows);
        t.setEdgeProperty(ab, note, 1L);
        t.addEdge(b, c, knows);
        t.commit();
        update(a, x, 2L); // committed update
        Transaction aborted = node.begin(Isolation.SERIALIZABLE);
        aborted.setVertexProperty(b, x, 99L);
        long d = aborted.addVertex(person);
        aborted.setVertexProperty(d, x, 1L);
        aborted.setEdgeProperty(aborted.addEdge(a, d, knows), note, "gone");
        aborted.rollback(); // rolled back
        Transaction holder = node.begin(Isolation.SERIALIZABLE);
        holder.setVertexProperty(c, x, 5L);
        Transaction loser = node.begin(Isolation.SERIALIZABLE);
        loser.setVertexProperty(a, y, "a string value");
        assertThrows(TransactionConflictException.class, () -> loser.setVertexProperty(c, x, 6L)); // write-write abort
        holder.rollback();
        Transaction removal = node.begin(Isolation.SERIALIZABLE);
        removal.removeVertex(c); // and edge b->c with it
        removal.commit();
        update(a, y, "another string");
        Transaction removeY = node.begin(Isolation.SERIALIZABLE);
        removeY.removeVertexProperty(a, y);
        removeY.commit();
        quiesceGc();

        Map<String, Long> expected = new LinkedHashMap<>(empty); // a, b; a->b; a row each; a.x, b.x, the edge's base
        Map.of("vertex-header", 2L, "edge-header", 1L, "edge-row", 2L, "vertex-property-row", 2L, "edge-property-row", 1L,
                "mv-tuple", 3L).forEach((pool, n) -> expected.merge(pool, n, Long::sum));
        assertEquals(expected, node.store.liveSlots(), () -> "GC stats " + node.engine.gc().stats());
        for (Map.Entry<String, Long> s : node.engine.gc().stats().entrySet()) {
            if (s.getKey().startsWith("waiting.")) {
                assertEquals(0L, s.getValue(), s.getKey());
            }
        }
        Transaction check = node.begin(Isolation.SERIALIZABLE);
        assertEquals(2, check.vertices(person).length);
        assertEquals(Map.of(x, 2L), check.vertexProperties(a));
        assertEquals(Map.of(x, 0L), check.vertexProperties(b));
        assertEquals(1L, check.edgeProperty(ab, note));
        check.commit();
    }

    /** A LocalClock that runs a hook inside the next call to {@link #next} from one thread, after taking the time. */
    private static final class HookedClock implements Clock {
        private final LocalClock clock = new LocalClock();
        private volatile Thread armedThread;
        private volatile Runnable hook;

        void armForCurrentThread(Runnable r) {
            hook = r;
            armedThread = Thread.currentThread();
        }

        @Override
        public long next() {
            long time = clock.next();
            if (Thread.currentThread() == armedThread) {
                armedThread = null;
                hook.run();
            }
            return time;
        }

        @Override
        public long current() {
            return clock.current();
        }
    }
}
