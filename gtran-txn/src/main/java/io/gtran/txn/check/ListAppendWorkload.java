package io.gtran.txn.check;

import io.gtran.storage.GraphStore;
import io.gtran.txn.Isolation;
import io.gtran.txn.Transaction;
import io.gtran.txn.TransactionConflictException;
import io.gtran.txn.TransactionEngine;
import io.gtran.txn.TxnWords;
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

/**
 * The list-append workload on one gtran node's transaction engine. Each key is a vertex (label
 * {@code key}) whose property {@code list} holds its list as {@code "3,7,12"} (absent or
 * {@code ""}: empty). An append reads the property and writes it back with the value added, in
 * the same transaction; a read reads it. Appended values are unique per key.
 *
 * <p>{@code threads} workers run transactions until {@code txns} have committed (a few more may
 * commit as the workers stop; at most {@link #MAX_ATTEMPTS_PER_COMMIT} times {@code txns} are
 * attempted, so a workload where nearly everything aborts still ends), each of 1 to 4 micro-ops,
 * half appends and half reads, on keys drawn with a Zipf (s=1) skew from {@code keys} keys.
 * Every attempt is recorded, committed or aborted; aborted ones are not retried. Worker {@code i}
 * draws its transactions from {@code Random(seed * 1_000_003 + i)}.
 */
public final class ListAppendWorkload {
    public static final String KEY_LABEL = "key";
    public static final String LIST_PROPERTY = "list";
    /** Bounds the attempts: {@code txns} times this. */
    public static final int MAX_ATTEMPTS_PER_COMMIT = 50;

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

    private final TransactionEngine engine;
    private final Settings settings;
    private final int listKey;
    private final long[] keyVertices;
    private final AtomicInteger[] nextValue;
    private final double[] cumulative;

    /** Creates the key vertices in one committed transaction: even keys with {@code ""}, odd ones with no property. */
    public ListAppendWorkload(TransactionEngine engine, Settings settings) {
        this.engine = engine;
        this.settings = settings;
        GraphStore store = engine.store();
        this.listKey = store.propertyKeys().intern(LIST_PROPERTY);
        int label = store.labels().intern(KEY_LABEL);
        keyVertices = new long[settings.keys()];
        nextValue = new AtomicInteger[settings.keys()];
        Transaction setup = engine.begin(Isolation.SERIALIZABLE);
        for (int k = 0; k < settings.keys(); k++) {
            keyVertices[k] = setup.addVertex(label);
            if (k % 2 == 0) {
                setup.setVertexProperty(keyVertices[k], listKey, ""); // both "no list yet" encodings get exercised
            }
            nextValue[k] = new AtomicInteger();
        }
        setup.commit();
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
        Transaction t = engine.begin(settings.isolation());
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
            return history.add(thread, TxnRecord.Outcome.COMMITTED, done, note(t, "commit=" + t.commitTime()));
        } catch (TransactionConflictException e) {
            reason = "aborted: " + e.kind();
        } catch (RuntimeException e) {
            // Not a conflict: a bug. Count it; the transaction's outcome is still known to the engine.
            errors.incrementAndGet();
            firstError.compareAndSet(null, e);
            if (t.isActive()) {
                t.rollback();
            }
            if (t.isCommitted()) {
                return history.add(thread, TxnRecord.Outcome.COMMITTED, done, note(t, "commit=" + t.commitTime() + " error: " + e));
            }
            reason = "error: " + e;
        }
        return history.add(thread, TxnRecord.Outcome.ABORTED, done, note(t, reason));
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
