package io.gtran.lbv;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs the LBV benchmark against one {@link LbvSystem}:
 * <ol>
 *   <li>collects the {@link ValuePool} (one generation pass of its own);
 *   <li>loads the system, printing {@code LBV_PROGRESS system=.. vertices=v/V edges=e/E seconds=s}
 *       about every second and {@code LBV_LOADED system=.. vertices=V edges=E seconds=s} at the end;
 *   <li>if {@code seconds > 0}: a warm-up of {@code warmupSeconds} and then the measured run, each
 *       with {@code threads} client threads drawing from their own {@link QueryMix} and
 *       {@link ParamSampler}, seeded from (seed, phase, thread) and skewed by {@code skew};
 *   <li>if {@code latency}: each {@link LatencyQuery} on one thread, {@code latencyRuns} times
 *       (after twenty unmeasured runs, as many as the budget allows), at most {@code latencySeconds} per query.
 * </ol>
 * Every query that fails with a {@link LbvSystem#isRetryable retryable} exception is an abort and
 * is retried, after a random pause of up to {@code min(1 ms, 10 µs * 2^retry)}, up to
 * {@code maxRetries} times; one that fails otherwise, or still fails after the last retry, is a
 * failure, and the first few distinct failure messages are kept. A query's latency runs from its
 * first attempt to its commit; failed queries have none. Queries started before the deadline
 * finish and count; the measured window ends when the last thread does.
 *
 * <p>Log lines go to the {@code log} stream (the child's stderr); nothing goes to stdout.
 */
public final class LbvRunner {
    /** How many distinct failure messages a result keeps. */
    public static final int MAX_ERRORS = 5;
    /** Retries of an aborted query before it counts as a failure, unless configured otherwise. */
    public static final int DEFAULT_MAX_RETRIES = 20;
    /** How long past its planned end a run may take before the runner gives up on it. */
    static final long GRACE_SECONDS = 120;
    private static final int LATENCY_WARMUP_RUNS = 20;
    private static final long SALT_WARMUP = 1, SALT_MEASURE = 2, SALT_LATENCY = 3, SALT_POOL = 4;
    private static final long BACKOFF_BASE_NANOS = 10_000, BACKOFF_MAX_NANOS = 1_000_000;

    /**
     * What to run.
     *
     * @param dataset the dataset name (for the result; the runner is handed the {@link Dataset})
     * @param targetEdges the edge count asked for (for the result)
     * @param seconds the measured run; 0 skips the throughput run (and its warm-up)
     * @param latency whether to run the latency queries afterwards
     * @param latencyRuns measured runs per latency query
     * @param latencySeconds time budget per latency query (at least one measured run happens)
     * @param maxRetries retries of an aborted query before it counts as a failure
     * @param skew the Zipf theta of the throughput queries' vertices and edges ({@link ParamSampler}); 0 uniform
     */
    public record Config(String dataset, long targetEdges, long seed, Workload workload, int threads, double seconds,
                         double warmupSeconds, boolean latency, int latencyRuns, double latencySeconds, int maxRetries,
                         double skew) {
        /** Uniform draws (skew 0). */
        public Config(String dataset, long targetEdges, long seed, Workload workload, int threads, double seconds,
                      double warmupSeconds, boolean latency, int latencyRuns, double latencySeconds, int maxRetries) {
            this(dataset, targetEdges, seed, workload, threads, seconds, warmupSeconds, latency, latencyRuns,
                    latencySeconds, maxRetries, 0);
        }

        public Config {
            Objects.requireNonNull(dataset, "dataset");
            Objects.requireNonNull(workload, "workload");
            check(threads >= 1, "threads", threads);
            check(seconds >= 0, "seconds", seconds);
            check(warmupSeconds >= 0, "warmup", warmupSeconds);
            check(latencyRuns >= 1, "latencyRuns", latencyRuns);
            check(latencySeconds > 0, "latencySeconds", latencySeconds);
            check(maxRetries >= 0, "maxRetries", maxRetries);
            check(skew >= 0 && skew < ParamSampler.MAX_SKEW, "skew", skew);
        }

        private static void check(boolean ok, String name, Object value) {
            if (!ok) {
                throw new IllegalArgumentException(name + "=" + value + " is out of range");
            }
        }
    }

    private final Config config;
    private final PrintStream log;

    public LbvRunner(Config config, PrintStream log) {
        this.config = Objects.requireNonNull(config, "config");
        this.log = Objects.requireNonNull(log, "log");
    }

    /** Loads and runs {@code system}; {@code systemClass} and {@code options} only go into the result. */
    public LbvResult run(LbvSystem system, Dataset dataset, String systemClass, Map<String, String> options) {
        DatasetInfo info = dataset.info();
        long t0 = System.nanoTime();
        ValuePool pool = ValuePool.collect(dataset, SplitMix64.hash(config.seed(), SALT_POOL));
        log(String.format(Locale.ROOT, "LBV_DATASET name=%s vertices=%d edges=%d pool_seconds=%.1f", info.name(),
                info.vertices(), info.edges(), seconds(System.nanoTime() - t0)));
        double loadSeconds = load(system, dataset);

        RunStats measured = new RunStats(MAX_ERRORS);
        double measuredSeconds = 0;
        Traffic traffic = Traffic.NONE;
        if (config.seconds() > 0) {
            if (config.warmupSeconds() > 0) {
                phase(system, "warmup", config.warmupSeconds());
                runPhase(system, pool, config.warmupSeconds(), SALT_WARMUP);
            }
            phase(system, "measure", config.seconds());
            Traffic before = system.traffic();
            long start = System.nanoTime();
            measured = runPhase(system, pool, config.seconds(), SALT_MEASURE);
            measuredSeconds = seconds(measured.endNanos - start);
            traffic = system.traffic().since(before);
        }
        Set<String> errors = new LinkedHashSet<>(measured.errors);
        List<LbvResult.LatencyStats> latency = config.latency() ? latency(system, pool, errors) : List.of();

        long commits = measured.total(measured.commits);
        long aborts = measured.total(measured.aborts);
        Histogram all = measured.allLatencies();
        double messagesPerQuery = traffic.counted() && commits > 0 ? (double) traffic.messages() / commits : Double.NaN;
        double bytesPerQuery = traffic.counted() && commits > 0 ? (double) traffic.bytes() / commits : Double.NaN;
        if (traffic.counted()) {
            log(String.format(Locale.ROOT, "LBV_TRAFFIC system=%s messages=%d bytes=%d commits=%d messages_per_query=%.2f"
                    + " bytes_per_query=%.1f", system.name(), traffic.messages(), traffic.bytes(), commits,
                    messagesPerQuery, bytesPerQuery));
        }
        return new LbvResult(system.name(), system.isolation(), systemClass, options, config.dataset(), info.name(),
                config.targetEdges(), config.seed(), info.vertices(), info.edges(), config.workload().name(),
                config.threads(), config.seconds(), config.warmupSeconds(), config.skew(), loadSeconds, measuredSeconds,
                commits, aborts, measured.total(measured.failures), measuredSeconds > 0 ? commits / measuredSeconds : 0,
                commits + aborts > 0 ? (double) aborts / (commits + aborts) : 0, RunStats.ms(all.quantileNanos(0.5)),
                RunStats.ms(all.quantileNanos(0.99)), measured.queryStats(), latency,
                new ArrayList<>(errors).subList(0, Math.min(MAX_ERRORS, errors.size())), messagesPerQuery, bytesPerQuery);
    }

    private double load(LbvSystem system, Dataset dataset) {
        DatasetInfo info = dataset.info();
        AtomicLong vertices = new AtomicLong();
        AtomicLong edges = new AtomicLong();
        long start = System.nanoTime();
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(daemon("lbv-progress"));
        ticker.scheduleAtFixedRate(() -> log(String.format(Locale.ROOT,
                "LBV_PROGRESS system=%s vertices=%d/%d edges=%d/%d seconds=%.1f", system.name(), vertices.get(),
                info.vertices(), edges.get(), info.edges(), seconds(System.nanoTime() - start))), 1, 1, TimeUnit.SECONDS);
        try {
            system.load(dataset, (v, e) -> {
                vertices.set(v);
                edges.set(e);
            });
        } finally {
            ticker.shutdownNow();
        }
        double took = seconds(System.nanoTime() - start);
        log(String.format(Locale.ROOT, "LBV_LOADED system=%s vertices=%d edges=%d seconds=%.1f", system.name(),
                info.vertices(), info.edges(), took));
        return took;
    }

    private void phase(LbvSystem system, String phase, double seconds) {
        log(String.format(Locale.ROOT, "LBV_PHASE system=%s phase=%s workload=%s threads=%d seconds=%.1f",
                system.name(), phase, config.workload(), config.threads(), seconds));
    }

    /** {@code threads} clients for {@code seconds}; their stats merged. */
    RunStats runPhase(LbvSystem system, ValuePool pool, double seconds, long salt) {
        int threads = config.threads();
        ExecutorService clients = Executors.newFixedThreadPool(threads, daemon("lbv-client"));
        CountDownLatch go = new CountDownLatch(1);
        long planned = (long) (seconds * 1e9);
        try {
            List<Future<RunStats>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long threadSeed = SplitMix64.hash(config.seed(), salt, t);
                futures.add(clients.submit(() -> {
                    go.await();
                    return client(system, pool, threadSeed, System.nanoTime() + planned);
                }));
            }
            go.countDown();
            RunStats total = new RunStats(MAX_ERRORS);
            long giveUp = System.nanoTime() + planned + TimeUnit.SECONDS.toNanos(GRACE_SECONDS);
            for (Future<RunStats> f : futures) {
                total.add(f.get(Math.max(1, giveUp - System.nanoTime()), TimeUnit.NANOSECONDS));
            }
            return total;
        } catch (TimeoutException e) {
            throw new IllegalStateException("system=" + system.name() + " still runs a query " + GRACE_SECONDS
                    + " s after the run's end; giving up", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("client thread failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            clients.shutdownNow();
        }
    }

    /** One client thread's loop until {@code deadline}. */
    private RunStats client(LbvSystem system, ValuePool pool, long seed, long deadline) {
        QueryMix mix = new QueryMix(config.workload(), new Random(SplitMix64.hash(seed, 1)));
        ParamSampler sampler = new ParamSampler(pool, SplitMix64.hash(seed, 2), config.skew());
        SplitMix64 backoff = SplitMix64.of(seed, 3);
        RunStats stats = new RunStats(MAX_ERRORS);
        while (System.nanoTime() < deadline) {
            LbvQuery query = mix.next();
            QueryParams params = sampler.sample(query);
            long start = System.nanoTime();
            for (int retry = 0; ; retry++) {
                try {
                    long results = system.execute(query, params);
                    stats.commit(query, System.nanoTime() - start, results);
                    break;
                } catch (Exception e) {
                    boolean retryable = system.isRetryable(e);
                    if (retryable) {
                        stats.abort(query);
                    }
                    if (!retryable || retry >= config.maxRetries()) {
                        stats.fail(query, e, retryable ? retry : 0);
                        break;
                    }
                    pause(backoff, retry);
                }
            }
        }
        stats.endNanos = System.nanoTime();
        return stats;
    }

    private static void pause(SplitMix64 random, int retry) {
        long bound = Math.min(BACKOFF_MAX_NANOS, BACKOFF_BASE_NANOS << Math.min(retry, 20));
        LockSupport.parkNanos(1 + random.nextLong(bound));
    }

    private List<LbvResult.LatencyStats> latency(LbvSystem system, ValuePool pool, Set<String> errors) {
        ParamSampler sampler = new ParamSampler(pool, SplitMix64.hash(config.seed(), SALT_LATENCY));
        SplitMix64 backoff = SplitMix64.of(config.seed(), SALT_LATENCY);
        List<LbvResult.LatencyStats> stats = new ArrayList<>();
        for (LatencyQuery query : LatencyQuery.values()) {
            log(String.format(Locale.ROOT, "LBV_PHASE system=%s phase=latency query=%s runs=%d", system.name(), query,
                    config.latencyRuns()));
            long budgetEnd = System.nanoTime() + (long) (config.latencySeconds() * 1e9);
            Histogram h = new Histogram();
            long failures = 0;
            long results = 0;
            long messages = 0;
            long bytes = 0;
            boolean counted = true;
            for (int run = -LATENCY_WARMUP_RUNS; run < config.latencyRuns(); run++) {
                if (run != 0 && System.nanoTime() > budgetEnd) {
                    if (run < 0) { // out of time already: skip the warm-up, still measure once
                        run = -1;
                        continue;
                    }
                    break;
                }
                QueryParams params = sampler.sample(query);
                Traffic before = run >= 0 && counted ? system.traffic() : Traffic.NONE; // outside the timed query
                long start = System.nanoTime();
                for (int retry = 0; ; retry++) {
                    try {
                        long n = system.latency(query, params);
                        if (run >= 0) {
                            h.record(System.nanoTime() - start);
                            results += n;
                            Traffic sent = before.counted() ? system.traffic().since(before) : Traffic.NONE;
                            counted = sent.counted();
                            messages += Math.max(0, sent.messages());
                            bytes += Math.max(0, sent.bytes());
                        }
                        break;
                    } catch (Exception e) {
                        boolean retryable = system.isRetryable(e);
                        if (!retryable || retry >= config.maxRetries()) {
                            if (run >= 0) {
                                failures++;
                            }
                            RunStats.error(errors, MAX_ERRORS, query.name(), e, retryable ? retry : 0);
                            break;
                        }
                        pause(backoff, retry);
                    }
                }
            }
            stats.add(new LbvResult.LatencyStats(query.name(), h.count(), failures, results,
                    RunStats.ms(h.meanNanos()), RunStats.ms(h.quantileNanos(0.5)), RunStats.ms(h.quantileNanos(0.99)),
                    RunStats.ms(h.maxNanos()), counted && h.count() > 0 ? (double) messages / h.count() : Double.NaN,
                    counted && h.count() > 0 ? (double) bytes / h.count() : Double.NaN));
        }
        return stats;
    }

    private void log(String line) {
        synchronized (log) {
            log.println(line);
            log.flush();
        }
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    private static java.util.concurrent.ThreadFactory daemon(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.getAndIncrement());
            t.setDaemon(true);
            return t;
        };
    }
}
