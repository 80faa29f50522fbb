package io.gtran.txn;

import static io.gtran.storage.MvTupleDescriptor.NO_TUPLE;

import io.gtran.storage.GraphStore;
import io.gtran.storage.MvStore;
import io.gtran.storage.UnknownElementException;
import io.gtran.txn.agent.Agent;
import io.gtran.txn.agent.AgentHandle;
import io.gtran.txn.agent.IdlePause;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.TxnWords;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Garbage collection of the transaction layer (G-Tran §5): commits and aborts report what they
 * left behind; a scanner takes the GC watermark (the earliest begin time of any running
 * transaction, {@link TransactionEngine#watermark}), collects what no running or future
 * transaction can see into batches by type, and GC workers recycle each batch into the store's
 * pools. Batch types, in the order a pass runs them:
 * <ol>
 *   <li>{@link Batch#ABORTED_VERSIONS}: versions of aborted writes still at the head of their
 *       chain are unlinked (and retired, below).
 *   <li>{@link Batch#OBSOLETE_VERSIONS}: a property superseded at a commit time below the
 *       watermark keeps the versions from the one visible at the watermark upwards; older ones are
 *       freed. A property removed before the watermark loses its whole chain.
 *   <li>{@link Batch#DEAD_EDGES}, then {@link Batch#DEAD_VERTICES}: elements deleted before the
 *       watermark, or created by aborted transactions, are removed with their cells and
 *       properties; their emptied edge rows go back to the row pool as the row-lists merge.
 *   <li>{@link Batch#RETIRED_VERSIONS}: versions unlinked while readers might still hold them are
 *       freed once every such reader has finished.
 *   <li>{@link Batch#EXPIRED_RCT_ENTRIES}: recent-committed-table entries below the watermark.
 *   <li>The element counters are folded ({@link ElementCounts}).
 * </ol>
 * One pass handles each chain in one worker, and passes do not overlap.
 */
public final class GarbageCollector implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GarbageCollector.class);
    private static final int BATCH_SIZE = 512;
    /** Garbage waiting past which committing transactions help recycle it (pacing, so GC keeps up). */
    static final int HELP_THRESHOLD = 4_096;
    /** The longest pause between two passes of an idle scanner (see {@link Scanner}). */
    static final int IDLE_PAUSE_MAX_MS = 320;
    /** Items a committing transaction recycles when it helps. */
    private static final int HELP_ITEMS = 8;
    private static final int CHAIN_LOCKS = 1024;
    /** One help in this many takes a fresh watermark (a scan of the status table; other members' as last read). */
    private static final int FRESH_WATERMARK_EVERY = 64;

    /** The kinds of garbage, each recycled by its own batches. */
    public enum Batch {
        ABORTED_VERSIONS, OBSOLETE_VERSIONS, DEAD_EDGES, DEAD_VERTICES, RETIRED_VERSIONS, RETIRED_CHAINS, EXPIRED_RCT_ENTRIES
    }

    /** One piece of garbage: what and since when (it may go once the watermark passes {@code time}). */
    record Item(ElementKind kind, long element, int key, int version, long time) {
    }

    private record ChainRef(ElementKind kind, long element, int key) {
    }

    private final TransactionEngine engine;
    private final GraphStore store;
    private final MvStore versions;
    private final TxnConfig config;
    private final Map<Batch, ConcurrentLinkedQueue<Item>> queues = new EnumMap<>(Batch.class);
    /** Items waiting per queue (ConcurrentLinkedQueue.size() walks the queue). */
    private final Map<Batch, AtomicLong> waiting = new EnumMap<>(Batch.class);
    private final Map<Batch, LongAdder> recycled = new EnumMap<>(Batch.class);
    private final LongAdder passes = new LongAdder();
    private final LongAdder versionsFreed = new LongAdder();
    private final AtomicLong helps = new AtomicLong();
    /** One chain is trimmed by one thread at a time: a worker, or a committing transaction helping. */
    private final Object[] chainLocks = new Object[CHAIN_LOCKS];
    private ExecutorService workers;
    /** The workers' threads, joined by {@link #close}: a terminated pool's last thread may still be exiting. */
    private final List<Thread> workerThreads = new java.util.concurrent.CopyOnWriteArrayList<>();
    private AgentHandle scanner;
    private volatile boolean running;

    GarbageCollector(TransactionEngine engine, TxnConfig config) {
        this.engine = engine;
        this.store = engine.store();
        this.versions = store.mvStore();
        this.config = config;
        for (Batch batch : Batch.values()) {
            queues.put(batch, new ConcurrentLinkedQueue<>());
            recycled.put(batch, new LongAdder());
            waiting.put(batch, new AtomicLong());
        }
        for (int i = 0; i < CHAIN_LOCKS; i++) {
            chainLocks[i] = new Object();
        }
    }

    // ---------------------------------------------------------------- reports from commit and abort

    void obsoleteVersions(ElementKind kind, long element, int key, long supersededAt) {
        enqueue(Batch.OBSOLETE_VERSIONS, new Item(kind, element, key, NO_TUPLE, supersededAt));
    }

    void abortedVersion(ElementKind kind, long element, int key, int version) {
        enqueue(Batch.ABORTED_VERSIONS, new Item(kind, element, key, version, 0));
    }

    void retiredVersion(int version, long unlinkedAt) {
        enqueue(Batch.RETIRED_VERSIONS, new Item(null, 0, 0, version, unlinkedAt));
    }

    void deadElement(ElementKind kind, long element, long diedAt) {
        enqueue(kind == ElementKind.EDGE ? Batch.DEAD_EDGES : Batch.DEAD_VERTICES, new Item(kind, element, 0, NO_TUPLE, diedAt));
    }

    // ---------------------------------------------------------------- scanning

    void start() {
        workers = Executors.newFixedThreadPool(config.gcWorkers, named("gtran-gc-worker-" + store.nodeId() + "-", workerThreads));
        running = true;
        scanner = engine.agents().start(new Scanner());
    }

    /**
     * The scanner's loop: a pass, then the next an interval later (after a failed pass too). A pass
     * that recycled nothing and left nothing waiting doubles the pause, up to {@link
     * #IDLE_PAUSE_MAX_MS}; any other pass sets it back to the interval. An idle node then reads its
     * peers' watermarks a few times a second instead of fifty, and its own published watermark lags
     * by at most that pause (others keep versions that much longer; it never runs ahead).
     */
    private final class Scanner implements Agent {
        private final long intervalNanos = TimeUnit.MILLISECONDS.toNanos(config.gcIntervalMs);
        private long pauseNanos = intervalNanos;

        @Override
        public long doWork(long nowNanos) {
            try {
                pauseNanos = IdlePause.next(pauseNanos, runOnce() == 0 && nothingWaiting(), intervalNanos,
                        TimeUnit.MILLISECONDS.toNanos(IDLE_PAUSE_MAX_MS));
                return nowNanos + pauseNanos;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // close: the runner stops
            } catch (io.gtran.txn.clock.ClockUnavailableException e) {
                if (running) {
                    LOG.warn("GC pass has no watermark; the next pass retries: {}", e.getMessage());
                }
            } catch (RuntimeException e) {
                LOG.error("GC pass failed; the next pass retries", e);
            }
            pauseNanos = intervalNanos;
            return nowNanos + intervalNanos;
        }

        @Override
        public String roleName() {
            return "gc-scanner-" + store.nodeId();
        }
    }

    /**
     * Runs one pass now, in the calling thread if GC is not running (tests, the GC benchmark's
     * off mode can call it to compare). Returns how many items it recycled.
     */
    public synchronized int runOnce() throws InterruptedException {
        long watermark = engine.watermark();
        int done = 0;
        done += run(Batch.ABORTED_VERSIONS, watermark, this::unlinkAborted);
        done += runChains(watermark);
        done += run(Batch.DEAD_EDGES, watermark, this::removeElement);
        done += run(Batch.DEAD_VERTICES, watermark, this::removeElement);
        done += run(Batch.RETIRED_VERSIONS, watermark, item -> {
            versions.freeVersion(item.version());
            versionsFreed.increment();
        });
        done += run(Batch.RETIRED_CHAINS, watermark, item -> versionsFreed.add(versions.freeChain(item.version())));
        int pruned = engine.recentCommitted().pruneBelow(watermark);
        engine.counts().foldAll();
        recycled.get(Batch.EXPIRED_RCT_ENTRIES).add(pruned);
        passes.increment();
        return done + pruned;
    }

    /** Takes the ready items of one type, recycles them in batches on the workers, requeues the rest. */
    private int run(Batch type, long watermark, Consumer<Item> recycle) throws InterruptedException {
        List<Item> ready = drainReady(type, watermark);
        return inBatches(type, ready, recycle);
    }

    private int runChains(long watermark) throws InterruptedException {
        // One item per chain, so that no two workers trim the same chain.
        Map<ChainRef, Item> chains = new LinkedHashMap<>();
        for (Item item : drainReady(Batch.OBSOLETE_VERSIONS, watermark)) {
            chains.merge(new ChainRef(item.kind(), item.element(), item.key()), item,
                    (a, b) -> a.time() >= b.time() ? a : b);
        }
        return inBatches(Batch.OBSOLETE_VERSIONS, new ArrayList<>(chains.values()), item -> trim(item, watermark));
    }

    private boolean nothingWaiting() {
        for (AtomicLong count : waiting.values()) {
            if (count.get() != 0) {
                return false;
            }
        }
        return true;
    }

    private void enqueue(Batch type, Item item) {
        queues.get(type).add(item);
        waiting.get(type).incrementAndGet();
    }

    private List<Item> drainReady(Batch type, long watermark) {
        ConcurrentLinkedQueue<Item> queue = queues.get(type);
        List<Item> ready = new ArrayList<>();
        List<Item> later = new ArrayList<>();
        Item item;
        long budget = waiting.get(type).get(); // what was there when the pass began
        while (budget-- > 0 && (item = queue.poll()) != null) {
            waiting.get(type).decrementAndGet();
            (item.time() < watermark ? ready : later).add(item);
        }
        for (Item wait : later) {
            enqueue(type, wait);
        }
        return ready;
    }

    private int inBatches(Batch type, List<Item> items, Consumer<Item> recycle) throws InterruptedException {
        if (items.isEmpty()) {
            return 0;
        }
        AtomicInteger done = new AtomicInteger();
        Consumer<List<Item>> work = batch -> {
            for (Item item : batch) {
                try {
                    recycle.accept(item);
                    done.incrementAndGet();
                } catch (Requeue requeue) {
                    enqueue(type, item);
                } catch (UnknownElementException gone) {
                    done.incrementAndGet(); // its element was removed, and its versions with it
                }
            }
        };
        if (workers == null) {
            work.accept(items);
        } else {
            List<Future<?>> futures = new ArrayList<>();
            for (int from = 0; from < items.size(); from += BATCH_SIZE) {
                List<Item> batch = items.subList(from, Math.min(items.size(), from + BATCH_SIZE));
                futures.add(workers.submit(() -> work.accept(batch)));
            }
            for (Future<?> f : futures) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    LOG.error("GC batch of {} failed", type, e.getCause());
                }
            }
        }
        recycled.get(type).add(done.get());
        return done.get();
    }

    /** Thrown by a recycler for an item that cannot go yet; it goes back in its queue. */
    private static final class Requeue extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Requeue() {
            super(null, null, false, false);
        }
    }

    // ---------------------------------------------------------------- recyclers

    private void unlinkAborted(Item item) {
        ElementKind kind = item.kind();
        int aborted = item.version();
        if (kind.table(store).propertyVersion(item.element(), item.key()) != aborted) {
            return; // a writer linked over it and retired it
        }
        int older = versions.older(aborted);
        boolean unlinked = older == NO_TUPLE
                ? kind.table(store).unlinkProperty(item.element(), item.key(), aborted)
                : kind.table(store).linkPropertyVersion(item.element(), item.key(), aborted, older);
        if (unlinked) {
            retiredVersion(aborted, engine.gcTime()); // a reader may be looking at it right now
            long end = older == NO_TUPLE ? TxnWords.INFINITY : versions.endTime(older);
            if (TxnWords.isTimestamp(end) && end != TxnWords.INFINITY) {
                // The restored head was removed before the aborted write: its trim may already
                // have run (and stopped at the aborted version), so ask for it again.
                obsoleteVersions(kind, item.element(), item.key(), end);
            }
        }
    }

    /**
     * Frees the versions of a chain older than the one a reader at the watermark sees. Readers
     * stop at the first version that began before their begin time (see Transaction), so none
     * goes past it.
     */
    private void trim(Item item, long watermark) {
        synchronized (chainLock(item)) {
            trimLocked(item, watermark);
        }
    }

    private Object chainLock(Item item) {
        long h = item.element() * 0x9E3779B97F4A7C15L + item.key() * 31L + item.kind().ordinal();
        return chainLocks[(int) (h >>> 40) & (CHAIN_LOCKS - 1)];
    }

    /**
     * Called by a committing transaction: when garbage piles up faster than the GC threads
     * recycle it (they share the cores with the load), the committer recycles a few superseded
     * chains itself. This paces writers to what GC can keep up with, so memory stays flat.
     */
    void help() {
        if (!running || waiting.get(Batch.OBSOLETE_VERSIONS).get() < HELP_THRESHOLD) {
            return;
        }
        // The scanner's last watermark is cheap but goes stale when the scanner gets no CPU; every
        // so often a helper takes a fresh one, so helping does not stall behind a starved scanner.
        long watermark = helps.getAndIncrement() % FRESH_WATERMARK_EVERY == 0 ? engine.freshWatermark() : engine.lastWatermark();
        for (int i = 0; i < HELP_ITEMS; i++) {
            Item item = queues.get(Batch.OBSOLETE_VERSIONS).poll();
            if (item == null) {
                return;
            }
            waiting.get(Batch.OBSOLETE_VERSIONS).decrementAndGet();
            if (item.time() >= watermark) {
                enqueue(Batch.OBSOLETE_VERSIONS, item); // not garbage yet
                continue;
            }
            try {
                trim(item, watermark);
                recycled.get(Batch.OBSOLETE_VERSIONS).increment();
            } catch (Requeue requeue) {
                enqueue(Batch.OBSOLETE_VERSIONS, item);
            } catch (UnknownElementException gone) {
                recycled.get(Batch.OBSOLETE_VERSIONS).increment();
            }
        }
    }

    private void trimLocked(Item item, long watermark) {
        ElementKind kind = item.kind();
        int head = kind.table(store).propertyVersion(item.element(), item.key());
        if (head == NO_TUPLE) {
            return; // the chain is gone already (unlinked by an earlier trim)
        }
        int version = head;
        while (version != NO_TUPLE) {
            if (MvStore.isBase(version)) {
                return; // a lone base version: nothing older
            }
            long begin = versions.beginTime(version);
            if (TxnWords.isTimestamp(begin) && begin < watermark) {
                break;
            }
            version = versions.older(version);
        }
        if (version == NO_TUPLE) {
            throw new Requeue(); // the committing writer has not stamped its version yet
        }
        int freed = store.freeVersionsOlderThan(version);
        versionsFreed.add(freed);
        long end = versions.endTime(version);
        if (version == head && TxnWords.isTimestamp(end) && end != TxnWords.INFINITY && end <= watermark
                && kind.table(store).unlinkProperty(item.element(), item.key(), head)) {
            // Removed before every running transaction began: the property is gone for good.
            enqueue(Batch.RETIRED_CHAINS, new Item(null, 0, 0, head, engine.gcTime()));
        }
    }

    private void removeElement(Item item) {
        ElementKind kind = item.kind();
        long begin = kind.table(store).beginTime(item.element());
        long end = kind.table(store).endTime(item.element());
        boolean aborted = begin == TxnWords.NEVER;
        boolean deleted = TxnWords.isTimestamp(end) && end != TxnWords.INFINITY;
        if (!aborted && !deleted) {
            throw new Requeue(); // the deleting transaction has not stamped it yet
        }
        if (kind == ElementKind.EDGE) {
            store.removeEdge(item.element());
            engine.mirrors().forget(item.element());
        } else {
            try {
                store.removeVertex(item.element());
            } catch (IllegalStateException stillHasEdges) {
                throw new Requeue(); // its edges go first, in a later pass
            }
        }
    }

    // ---------------------------------------------------------------- lifecycle and statistics

    /** Items recycled so far by batch type, passes run, and items waiting. */
    public Map<String, Long> stats() {
        Map<String, Long> stats = new LinkedHashMap<>();
        for (Batch batch : Batch.values()) {
            stats.put("recycled." + batch, recycled.get(batch).sum());
        }
        for (Batch batch : Batch.values()) {
            stats.put("waiting." + batch, waiting.get(batch).get());
        }
        stats.put("versions.freed", versionsFreed.sum());
        stats.put("passes", passes.sum());
        return stats;
    }

    public boolean isRunning() {
        return running;
    }

    @Override
    public void close() {
        running = false;
        if (scanner != null) {
            scanner.close(10_000);
        }
        if (workers != null) {
            workers.shutdown();
            try {
                workers.awaitTermination(10, TimeUnit.SECONDS);
                for (Thread t : workerThreads) {
                    t.join(10_000);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static java.util.concurrent.ThreadFactory named(String prefix, List<Thread> created) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            created.add(t);
            return t;
        };
    }
}
