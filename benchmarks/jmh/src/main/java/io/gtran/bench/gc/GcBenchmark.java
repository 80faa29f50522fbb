package io.gtran.bench.gc;

import io.gtran.bench.BenchArgs;
import io.gtran.storage.GraphStore;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.GtranNode;
import io.gtran.txn.TxnConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code bin/gtran bench gc [--seconds S] [--threads N] [--sample-ms MS] [--plot FILE] ...}: what
 * the transaction layer's garbage collection buys. For each mode, GC on then GC off, a fresh node
 * loads the same small graph ({@link UpdateLoad}) and runs the same steady SERIALIZABLE update load
 * for S seconds; every MS milliseconds it prints
 * {@code GC mode=<on|off> t=<s> commits=<n> live_versions=<n> live_slots=<n> reserved_bytes=<n>}
 * (live MV versions, live slots of every store pool, direct memory reserved by the pools), then
 * about once a second {@code GC_WAITING mode=.. t=.. total=.. <type>=<n> ...} (garbage reported to
 * the collector and not yet recycled, by type), and a summary per mode:
 * {@code GC_SUMMARY mode=.. seconds=.. commits=.. commits_per_s=.. live_versions_start=..
 * live_versions_end=.. reserved_bytes_end=.. levelled_off=<true|false>}, followed by
 * {@code GC_GROWTH} (what {@code levelled_off} was decided from) and {@code GC_STATS} (the
 * collector's recycled and waiting counts by garbage type, and the commit and abort counts).
 * Last it draws both modes' live versions and reserved memory over time into a PNG and prints
 * {@code GC_PLOT file=<path>}.
 *
 * <p>{@code levelled_off}. Live versions are the versions a reader may still need plus the
 * collector's backlog: what was superseded since its last pass finished. That backlog is the
 * commit rate times the time between passes, and the time between passes swings with how much
 * CPU the collector's threads get, so single samples (and slopes fitted through them) jump up and
 * down by more than the level itself on a busy machine. What must not grow is the level the
 * collector brings the versions back down to: the floor (smallest sample) of each third of the
 * run. {@code levelled_off} says the floor of the last third exceeds that of the middle third by
 * less than {@value #LEVEL_TOLERANCE} of itself (a tenth: committing transactions help GC once its
 * backlog passes a few thousand items, so the level settles at the live data plus that backlog,
 * within a few per cent from one third to the next). Without GC the floor of each third is its first
 * sample, so the difference is a third of the run's growth. {@code GC_GROWTH} also prints each
 * third's peak and the least-squares growth over the last third, so the swings stay visible.
 */
public final class GcBenchmark {
    private static final BenchArgs ARGS = new BenchArgs("bench gc");
    static final double LEVEL_TOLERANCE = 0.10;
    private static final String WAITING = "waiting.";
    private static final String USAGE = "usage: bin/gtran bench gc [--seconds S (20)] [--threads N (2)] [--sample-ms MS (250)]"
            + " [--plot FILE (target/gc-bench.png)] [--vertices N (10000)] [--edges M (30000)] [--seed S (42)]"
            + " [--set gtran.txn.KEY=VALUE | gtran.storage.KEY=VALUE ...]";

    private GcBenchmark() {
    }

    /** What to run. {@code settings} go to every node; the mode sets {@code gtran.txn.gc} over them. */
    record Options(double seconds, int threads, int sampleMs, int vertices, int edges, long seed, Path plot,
            Map<String, String> settings) {
        static Options defaults() {
            return new Options(20, 2, 250, 10_000, 30_000, 42, Path.of("target", "gc-bench.png"), Map.of());
        }
    }

    /** One reading, taken while the load runs. */
    record Sample(double seconds, long commits, long liveVersions, long liveSlots, long reservedBytes) {
    }

    /** One mode's run: its samples and the collector's and engine's final statistics. */
    record ModeResult(String mode, double seconds, long commits, List<Sample> samples, Map<String, Long> gcStats,
            Map<String, Long> txnStats) {
        /** The smallest live-version count sampled in third {@code third} (0, 1, 2) of the run. */
        long floor(int third) {
            return inThird(third).mapToLong(Sample::liveVersions).min().orElseThrow();
        }

        long peak(int third) {
            return inThird(third).mapToLong(Sample::liveVersions).max().orElseThrow();
        }

        /** See the class comment: the last third's floor is within the tolerance of the middle third's. */
        boolean levelledOff() {
            return floor(2) - floor(1) < LEVEL_TOLERANCE * floor(2);
        }

        /** Growth over the last third from the least-squares slope through its samples: noisy, for the record. */
        double fittedGrowthLastThird() {
            return slope(inThird(2).toList()) * seconds / 3;
        }

        private Stream<Sample> inThird(int third) {
            // Every third holds at least its nearest sample, so short runs still have three.
            double from = third * seconds / 3;
            double to = (third + 1) * seconds / 3;
            List<Sample> in = samples.stream().filter(s -> s.seconds() >= from && (s.seconds() < to || third == 2)).toList();
            if (!in.isEmpty()) {
                return in.stream();
            }
            double middle = (from + to) / 2;
            return samples.stream().min(Comparator.comparingDouble(s -> Math.abs(s.seconds() - middle))).stream();
        }

        Sample first() {
            return samples.get(0);
        }

        Sample last() {
            return samples.get(samples.size() - 1);
        }

        String summaryLine() {
            return String.format(Locale.ROOT, "GC_SUMMARY mode=%s seconds=%.2f commits=%d commits_per_s=%.1f live_versions_start=%d"
                    + " live_versions_end=%d reserved_bytes_end=%d levelled_off=%b", mode, seconds, commits, commits / seconds,
                    first().liveVersions(), last().liveVersions(), last().reservedBytes(), levelledOff());
        }
    }

    public static void main(String[] args) {
        Options o = Options.defaults();
        double seconds = o.seconds();
        int threads = o.threads();
        int sampleMs = o.sampleMs();
        int vertices = o.vertices();
        int edges = o.edges();
        long seed = o.seed();
        Path plot = o.plot();
        Map<String, String> settings = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--seconds" -> seconds = ARGS.parseDouble(arg, ARGS.value(args, ++i, arg));
                case "--threads" -> threads = ARGS.parseInt(arg, ARGS.value(args, ++i, arg));
                case "--sample-ms" -> sampleMs = ARGS.parseInt(arg, ARGS.value(args, ++i, arg));
                case "--vertices" -> vertices = ARGS.parseInt(arg, ARGS.value(args, ++i, arg));
                case "--edges" -> edges = ARGS.parseInt(arg, ARGS.value(args, ++i, arg));
                case "--seed" -> seed = ARGS.parseLong(arg, ARGS.value(args, ++i, arg));
                case "--plot" -> plot = Path.of(ARGS.value(args, ++i, arg));
                case "--set" -> ARGS.setting(ARGS.value(args, ++i, arg), settings);
                case "-h", "--help" -> {
                    System.out.println(USAGE);
                    return;
                }
                default -> ARGS.fail("unknown option: " + arg + " (try --help)");
            }
        }
        if (!(seconds > 0) || threads < 1 || sampleMs < 1 || vertices < 2 || edges < 1) {
            ARGS.fail("need --seconds > 0, --threads >= 1, --sample-ms >= 1, --vertices >= 2, --edges >= 1: seconds=" + seconds
                    + " threads=" + threads + " sample-ms=" + sampleMs + " vertices=" + vertices + " edges=" + edges);
        }
        if (settings.containsKey(TxnConfig.GC)) {
            ARGS.fail(TxnConfig.GC + " is what the benchmark varies; it cannot be set");
        }
        try {
            StoreConfig.from(settings);
            TxnConfig.from(settings);
        } catch (IllegalArgumentException e) {
            ARGS.fail(e.getMessage()); // a bad --set key or value
        }
        quietLogging();
        run(new Options(seconds, threads, sampleMs, vertices, edges, seed, plot, settings), System.out);
    }

    /** Runs GC on, then GC off, prints as described above, writes the plot; returns both modes. */
    static List<ModeResult> run(Options options, PrintStream out) {
        out.printf(Locale.ROOT, "gc bench: seconds=%s threads=%d sample_ms=%d vertices=%d edges=%d seed=%d churn_percent=%d settings=%s%n",
                options.seconds(), options.threads(), options.sampleMs(), options.vertices(), options.edges(), options.seed(),
                UpdateLoad.CHURN_PERCENT, options.settings());
        List<ModeResult> results = new ArrayList<>();
        for (boolean gc : new boolean[] {true, false}) {
            ModeResult result = runMode(gc, options, out);
            out.println(result.summaryLine());
            out.printf(Locale.ROOT, "GC_GROWTH mode=%s floors=%d,%d,%d peaks=%d,%d,%d floor_growth_last_third=%d tolerance=%.0f"
                    + " fitted_growth_last_third=%.0f%n", result.mode(), result.floor(0), result.floor(1), result.floor(2),
                    result.peak(0), result.peak(1), result.peak(2), result.floor(2) - result.floor(1),
                    LEVEL_TOLERANCE * result.floor(2), result.fittedGrowthLastThird());
            out.println("GC_STATS mode=" + result.mode() + " " + keyValues(result.gcStats()) + " " + keyValues(result.txnStats()));
            results.add(result);
        }
        try {
            GcPlot.write(options.plot(), results, String.format(Locale.ROOT, "gtran GC: %d threads, %d vertices, %d edges, %d%% edge churn",
                    options.threads(), options.vertices(), options.edges(), UpdateLoad.CHURN_PERCENT));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write plot " + options.plot(), e);
        }
        out.println("GC_PLOT file=" + options.plot().toAbsolutePath().normalize());
        return results;
    }

    static ModeResult runMode(boolean gc, Options options, PrintStream out) {
        String mode = gc ? "on" : "off";
        Map<String, Object> settings = new LinkedHashMap<>(options.settings());
        settings.put(TxnConfig.GC, gc);
        ExecutorService workers = Executors.newFixedThreadPool(options.threads());
        try (GtranNode node = GtranNode.open(settings)) {
            UpdateLoad load = new UpdateLoad(node, options.vertices(), options.edges());
            long loadStart = System.nanoTime();
            load.load(options.seed());
            out.printf(Locale.ROOT, "loaded mode=%s vertices=%d edges=%d in %.2fs%n", mode, node.store().vertices().count(),
                    node.store().edges().count(), (System.nanoTime() - loadStart) / 1e9);

            long start = System.nanoTime();
            long end = start + (long) (options.seconds() * 1e9);
            List<Sample> samples = new ArrayList<>();
            samples.add(sample(node.store(), load, 0));
            print(out, mode, samples.get(0));
            double nextWaitingLine = 1;
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < options.threads(); i++) {
                long seed = options.seed() * 1_000_003L + i;
                running.add(workers.submit(() -> load.runWorker(seed, () -> System.nanoTime() >= end)));
            }
            long next = start;
            while (true) {
                next = Math.min(next + options.sampleMs() * 1_000_000L, end);
                sleepUntil(next);
                Sample s = sample(node.store(), load, (System.nanoTime() - start) / 1e9);
                samples.add(s);
                print(out, mode, s);
                if (s.seconds() >= nextWaitingLine || next >= end) {
                    printWaiting(out, mode, s.seconds(), node.engine().gc().stats());
                    nextWaitingLine = Math.floor(s.seconds()) + 1;
                }
                if (next >= end) {
                    break;
                }
            }
            for (Future<?> f : running) {
                f.get(); // a worker's unexpected failure fails the benchmark
            }
            return new ModeResult(mode, samples.get(samples.size() - 1).seconds(), load.commits.sum(), samples,
                    node.engine().gc().stats(), txnStats(node, load));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("a load worker failed in mode " + mode, e.getCause());
        } finally {
            workers.shutdownNow();
            awaitQuietly(workers);
        }
    }

    private static Sample sample(GraphStore store, UpdateLoad load, double seconds) {
        long slots = 0;
        for (long v : store.liveSlots().values()) {
            slots += v;
        }
        // reservedBytes() lists every pool and then their "total"; the total is the sum.
        return new Sample(seconds, load.commits.sum(), store.mvStore().liveVersions(), slots, store.reservedBytes().get("total"));
    }

    private static void printWaiting(PrintStream out, String mode, double seconds, Map<String, Long> gcStats) {
        StringBuilder types = new StringBuilder();
        long total = 0;
        for (Map.Entry<String, Long> e : gcStats.entrySet()) {
            if (e.getKey().startsWith(WAITING)) {
                types.append(' ').append(e.getKey().substring(WAITING.length())).append('=').append(e.getValue());
                total += e.getValue();
            }
        }
        out.printf(Locale.ROOT, "GC_WAITING mode=%s t=%.2f total=%d%s passes=%d%n", mode, seconds, total, types, gcStats.get("passes"));
    }

    private static void print(PrintStream out, String mode, Sample s) {
        out.printf(Locale.ROOT, "GC mode=%s t=%.2f commits=%d live_versions=%d live_slots=%d reserved_bytes=%d%n",
                mode, s.seconds(), s.commits(), s.liveVersions(), s.liveSlots(), s.reservedBytes());
    }

    private static Map<String, Long> txnStats(GtranNode node, UpdateLoad load) {
        Map<String, Long> stats = new LinkedHashMap<>();
        stats.put("load.commits", load.commits.sum());
        stats.put("load.conflicts", load.conflicts.sum());
        stats.put("load.stale_edges", load.staleEdges.sum());
        for (Map.Entry<String, Long> e : node.engine().stats().entrySet()) {
            stats.put("engine." + e.getKey(), e.getValue());
        }
        return stats;
    }

    /** Least-squares slope of live versions per second through {@code samples}; 0 for fewer than two. */
    static double slope(List<Sample> samples) {
        if (samples.size() < 2) {
            return 0;
        }
        double meanT = samples.stream().mapToDouble(Sample::seconds).average().orElse(0);
        double meanV = samples.stream().mapToDouble(Sample::liveVersions).average().orElse(0);
        double cov = 0;
        double var = 0;
        for (Sample s : samples) {
            cov += (s.seconds() - meanT) * (s.liveVersions() - meanV);
            var += (s.seconds() - meanT) * (s.seconds() - meanT);
        }
        return var == 0 ? 0 : cov / var;
    }

    private static String keyValues(Map<String, Long> map) {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, Long> e : map.entrySet()) {
            if (b.length() > 0) {
                b.append(' ');
            }
            b.append(e.getKey()).append('=').append(e.getValue());
        }
        return b.toString();
    }

    /** Logback's default (no configuration file) logs DEBUG to stdout, amid the results: keep INFO and up. */
    private static void quietLogging() {
        if (LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME) instanceof ch.qos.logback.classic.Logger root) {
            root.setLevel(ch.qos.logback.classic.Level.INFO);
        }
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long left;
        while ((left = nanoTime - System.nanoTime()) > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }

    private static void awaitQuietly(ExecutorService workers) {
        try {
            workers.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
