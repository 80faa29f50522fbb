package io.gtran.check.history;

import io.gtran.storage.GraphStore;
import io.gtran.txn.Transaction;
import io.gtran.txn.TransactionEngine;
import io.gtran.txn.common.CommitOutcomeUnknownException;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import io.gtran.txn.common.TxnWords;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The list-append workload on the transaction engines of one gtran cluster (one engine: a node
 * alone). Each key is a vertex (label {@code key}) whose property {@code list} holds its list as
 * {@code "3,7,12"} (absent or {@code ""}: empty). An append reads the property and writes it back
 * with the value added, in the same transaction; a read reads it. Appended values are unique per
 * key.
 *
 * <p>With {@code n} engines, key {@code k} is a vertex on the node of engine {@code k % n}, all of
 * them created by one setup transaction on engine 0 ({@link Transaction#addVertex(int, int)}), and
 * worker {@code i} begins its transactions on engine {@code i % n}: a transaction touches the
 * nodes its keys happen to live on, its own or others. Label and property-key ids are each node's
 * own, so every engine interns {@code list} in its own dictionary.
 *
 * <p>{@code threads} workers run transactions until {@code txns} have committed (a few more may
 * commit as the workers stop; at most {@link #MAX_ATTEMPTS_PER_COMMIT} times {@code txns} are
 * attempted, so a workload where nearly everything aborts still ends), each of 1 to 4 micro-ops,
 * half appends and half reads, on keys drawn with a Zipf (s=1) skew from {@code keys} keys.
 * Every attempt is recorded, committed or aborted; aborted ones are not retried. Worker {@code i}
 * draws its transactions from {@code Random(seed * 1_000_003 + i)}. A commit whose outcome is
 * unknown at first ({@link CommitOutcomeUnknownException}, votes slow to come) is recorded once
 * the protocol has decided it, as committed or aborted; one still undecided after {@link
 * #UNKNOWN_OUTCOME_WAIT_MS} counts as an error.
 */
public final class ListAppendWorkload {
    public static final String KEY_LABEL = "key";
    public static final String LIST_PROPERTY = "list";
    /** Bounds the attempts: {@code txns} times this. */
    public static final int MAX_ATTEMPTS_PER_COMMIT = 50;
    /** How long a commit whose outcome was unknown is waited for before it counts as an error. */
    public static final long UNKNOWN_OUTCOME_WAIT_MS = 60_000;

    /** What to run. */
    public record Settings(Isolation isolation, int threads, int txns, int keys, long seed) {
        public Settings {
            if (threads < 1 || txns < 0 || keys < 1) {
                throw new IllegalArgumentException("bad workload settings: threads=" + threads + " txns=" + txns + " keys=" + keys);
            }
        }
    }

    /** Called every {@code every} attempts with the counts so far. */
    public interface Progress {
        void report(int attempted, int committed, int aborted);
    }

    /** The outcome of a run: the history, and the unexpected (non-conflict) exceptions met. */
    public record Result(History history, int errors, Throwable firstError, long wallMillis) {
    }

    private final List<TransactionEngine> engines;
    private final Settings settings;
    /** The id of property {@code list} in each engine's dictionary. */
    private final int[] listKeys;
    private final long[] keyVertices;
    private final AtomicInteger[] nextValue;
    private final double[] cumulative;

    /** The workload on one node: {@link #ListAppendWorkload(List, Settings)} with that engine alone. */
    public ListAppendWorkload(TransactionEngine engine, Settings settings) {
        this(List.of(engine), settings);
    }

    /**
     * Creates the key vertices in one committed transaction on {@code engines.get(0)}, key {@code k}
     * on the node of {@code engines.get(k % n)}: even keys with {@code ""}, odd ones with no property.
     *
     * @param engines the engines of distinct members of one cluster (at least one)
     */
    public ListAppendWorkload(List<TransactionEngine> engines, Settings settings) {
        if (engines.isEmpty()) {
            throw new IllegalArgumentException("the workload needs at least one engine");
        }
        this.engines = List.copyOf(engines);
        this.settings = settings;
        listKeys = new int[engines.size()];
        int[] nodes = new int[engines.size()];
        for (int e = 0; e < engines.size(); e++) {
            GraphStore store = engines.get(e).store();
            listKeys[e] = store.propertyKeys().intern(LIST_PROPERTY);
            nodes[e] = store.nodeId();
        }
        TransactionEngine first = engines.get(0);
        int label = first.store().labels().intern(KEY_LABEL);
        keyVertices = new long[settings.keys()];
        nextValue = new AtomicInteger[settings.keys()];
        for (int attempt = 1; ; attempt++) {
            // The first cross-node transaction of a cluster just started, on a loaded machine, has timed
            // out and aborted (CI, 2026-11-29): a retryable abort of the set-up is run again, as a user would.
            try {
                Transaction setup = first.begin(Isolation.SERIALIZABLE);
                for (int k = 0; k < settings.keys(); k++) {
                    keyVertices[k] = setup.addVertex(nodes[k % nodes.length], label);
                    if (k % 2 == 0) {
                        setup.setVertexProperty(keyVertices[k], listKeys[0], ""); // both "no list yet" encodings get exercised
                    }
                }
                setup.commit();
                break;
            } catch (io.gtran.txn.common.TransactionConflictException retryable) {
                if (attempt == 5) {
                    throw retryable;
                }
            }
        }
        for (int k = 0; k < settings.keys(); k++) {
            nextValue[k] = new AtomicInteger();
        }
        cumulative = new double[settings.keys()];
        double sum = 0;
        for (int k = 0; k < settings.keys(); k++) {
            sum += 1.0 / (k + 1);
            cumulative[k] = sum;
        }
        for (int k = 0; k < settings.keys(); k++) {
            cumulative[k] /= sum;
        }
    }

    /** How many engines (cluster members) the workload runs on. */
    public int nodes() {
        return engines.size();
    }

    /**
     * Whether a transaction of this workload's history touched a key on a node other than the one
     * it began on (worker {@code i} begins on engine {@code i % n}, key {@code k} lives on engine
     * {@code k % n}): its commit went through the cross-node protocol.
     */
    public boolean spansNodes(TxnRecord txn) {
        int n = engines.size();
        for (Op op : txn.ops()) {
            if (op.key() % n != txn.thread() % n) {
                return true;
            }
        }
        return false;
    }

    /**
     * Runs the workload to completion and returns what happened.
     *
     * @throws TimeoutException if the workers did not finish within {@code timeoutMillis}; the
     *     message says where each one still running is (they are daemon threads, left behind)
     */
    public Result run(Progress progress, int every, long timeoutMillis)
            throws InterruptedException, ExecutionException, TimeoutException {
        History history = new History();
        AtomicInteger claimed = new AtomicInteger();
        AtomicInteger finished = new AtomicInteger();
        AtomicInteger committed = new AtomicInteger();
        AtomicInteger errors = new AtomicInteger();
        AtomicReference<Throwable> firstError = new AtomicReference<>();
        List<Thread> threads = new CopyOnWriteArrayList<>();
        long start = System.nanoTime();
        long deadline = start + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        ExecutorService pool = Executors.newFixedThreadPool(settings.threads(), runnable -> {
            Thread t = new Thread(runnable, "list-append-worker-" + threads.size());
            t.setDaemon(true); // a worker stuck in the engine must not keep the JVM alive
            threads.add(t);
            return t;
        });
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int i = 0; i < settings.threads(); i++) {
                int thread = i;
                workers.add(pool.submit(() -> {
                    Random random = new Random(settings.seed() * 1_000_003 + thread);
                    long maxAttempts = (long) settings.txns() * MAX_ATTEMPTS_PER_COMMIT;
                    while (committed.get() < settings.txns() && claimed.getAndIncrement() < maxAttempts) {
                        TxnRecord r = runOne(thread, random, history, errors, firstError);
                        int committedNow = r.committed() ? committed.incrementAndGet() : committed.get();
                        int done = finished.incrementAndGet();
                        if (progress != null && every > 0 && done % every == 0) {
                            progress.report(done, committedNow, done - committedNow);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> worker : workers) {
                try {
                    worker.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (TimeoutException e) {
                    throw new TimeoutException(stuck(threads, finished.get(), timeoutMillis));
                }
            }
        } finally {
            pool.shutdownNow();
        }
        return new Result(history, errors.get(), firstError.get(), (System.nanoTime() - start) / 1_000_000);
    }

    private String stuck(List<Thread> threads, int finished, long timeoutMillis) {
        StringBuilder b = new StringBuilder("list-append workload did not finish within ").append(timeoutMillis)
                .append(" ms (").append(finished).append(" transactions done, aiming at ").append(settings.txns()).append(" committed)");
        for (Thread t : threads) {
            if (t.isAlive() && t.getState() == Thread.State.RUNNABLE) {
                b.append("; ").append(t.getName()).append(" is at");
                StackTraceElement[] stack = t.getStackTrace();
                for (int i = 0; i < Math.min(8, stack.length); i++) {
                    b.append("\n        ").append(stack[i]);
                }
            }
        }
        return b.toString();
    }

    private TxnRecord runOne(int thread, Random random, History history, AtomicInteger errors, AtomicReference<Throwable> firstError) {
        int count = 1 + random.nextInt(4);
        List<Op> done = new ArrayList<>(count);
        int engine = thread % engines.size();
        int listKey = listKeys[engine];
        long start = System.nanoTime(); // invoked: real-time order is taken on this JVM's one clock
        Transaction t = engines.get(engine).begin(settings.isolation());
        String reason;
        try {
            for (int i = 0; i < count; i++) {
                int k = pickKey(random);
                boolean append = random.nextBoolean();
                if (append) {
                    int value = nextValue[k].incrementAndGet();
                    done.add(Op.append(k, value)); // recorded first: an aborted append still counts for G1a
                    String list = (String) t.vertexProperty(keyVertices[k], listKey);
                    t.setVertexProperty(keyVertices[k], listKey, list == null || list.isEmpty() ? Integer.toString(value) : list + "," + value);
                } else {
                    done.add(Op.read(k, parse((String) t.vertexProperty(keyVertices[k], listKey))));
                }
            }
            t.commit();
            return history.add(thread, TxnRecord.Outcome.COMMITTED, done, note(t, "commit=" + t.commitTime()), start,
                    System.nanoTime());
        } catch (TransactionConflictException e) {
            reason = "aborted: " + e.kind();
        } catch (CommitOutcomeUnknownException e) {
            // Decided later, alike everywhere: wait for it. Never roll back here, that is not ours to decide.
            if (awaitDecided(t)) {
                if (t.isCommitted()) {
                    return history.add(thread, TxnRecord.Outcome.COMMITTED, done, note(t, "commit=" + t.commitTime()
                            + " (outcome known late)"), start, System.nanoTime());
                }
                reason = "aborted: outcome known late";
            } else {
                // Not a conflict, and no outcome to record truthfully: an error, which fails the run.
                errors.incrementAndGet();
                firstError.compareAndSet(null, e);
                reason = "error: outcome still unknown after " + UNKNOWN_OUTCOME_WAIT_MS + " ms: " + e.getMessage();
            }
        } catch (RuntimeException e) {
            // Not a conflict: a bug. Count it; the transaction's outcome is still known to the engine.
            errors.incrementAndGet();
            firstError.compareAndSet(null, e);
            if (t.isActive()) {
                t.rollback();
            }
            if (t.isCommitted()) {
                return history.add(thread, TxnRecord.Outcome.COMMITTED, done, note(t, "commit=" + t.commitTime() + " error: " + e),
                        start, System.nanoTime());
            }
            reason = "error: " + e;
        }
        return history.add(thread, TxnRecord.Outcome.ABORTED, done, note(t, reason), start, System.nanoTime());
    }

    /** Waits, bounded, for a transaction whose commit outcome was unknown to be committed or aborted. */
    private static boolean awaitDecided(Transaction t) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(UNKNOWN_OUTCOME_WAIT_MS);
        while (t.isActive()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            LockSupport.parkNanos(1_000_000);
        }
        return true;
    }

    private static String note(Transaction t, String detail) {
        return "engine " + TxnWords.toString(t.id()) + " begin=" + t.beginTime() + " " + detail;
    }

    private int pickKey(Random random) {
        double x = random.nextDouble();
        for (int k = 0; k < cumulative.length - 1; k++) {
            if (x < cumulative[k]) {
                return k;
            }
        }
        return cumulative.length - 1;
    }

    /** {@code "3,7,12"} to {@code [3, 7, 12]}; null or empty to {@code []}. */
    static int[] parse(String list) {
        if (list == null || list.isEmpty()) {
            return new int[0];
        }
        int n = 1;
        for (int i = 0; i < list.length(); i++) {
            if (list.charAt(i) == ',') {
                n++;
            }
        }
        int[] values = new int[n];
        int at = 0;
        int current = 0;
        for (int i = 0; i < list.length(); i++) {
            char c = list.charAt(i);
            if (c == ',') {
                values[at++] = current;
                current = 0;
            } else if (c >= '0' && c <= '9') {
                current = current * 10 + (c - '0');
            } else {
                throw new IllegalStateException("list property is not a list of numbers: " + list);
            }
        }
        values[at] = current;
        return values;
    }
}
