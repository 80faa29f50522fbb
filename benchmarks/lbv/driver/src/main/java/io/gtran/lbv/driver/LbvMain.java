package io.gtran.lbv.driver;

import io.gtran.lbv.LbvResult;
import io.gtran.lbv.Workload;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code bin/gtran bench lbv}: runs the LBV throughput benchmark for one or more systems, each in a
 * child JVM of its own, on the same generated dataset and seed, and reports each run (a table per
 * query type and one {@code LBV ...} line); {@code --compare} runs every system over every
 * workload and writes a JSON result and PNG charts. See docs/benchmarks.md.
 *
 * <pre>
 * bin/gtran bench lbv [--system S[,S..]] [--workload RO|RI|WI|MIX[,..]] [--isolation SR|SI[,..]]
 *                     [--threads T] [--seconds D] [--warmup W] [--dataset social|kronecker|grateful-dead]
 *                     [--edges N] [--seed S] [--latency] [--compare] [--out DIR] [--heap SIZE]
 * </pre>
 *
 * <p>Exit status 0 when every run succeeded, 1 when any failed (the others still ran and are
 * reported), 2 on a usage error.
 */
public final class LbvMain {
    static final String USAGE = """
            usage: bin/gtran bench lbv [options]
              --system S[,S...]     systems to run (default gtran): %s
              --compare             every system above, every workload (or those given), one JSON + PNG charts
              --workload W[,W...]   RO, RI, WI, MIX (default RI; with --compare all four)
              --isolation I[,I...]  SR, SI for the systems that offer a choice (default SR; with --compare,
                                    gtran runs at SR and SI); the others run at what they have
              --threads T           client threads (default 2)
              --seconds D           measured seconds per run (default 30)
              --warmup W            warm-up seconds before each run (default 5)
              --dataset NAME        social, kronecker, grateful-dead (default social)
              --edges N             dataset size in edges (default 1000000; grateful-dead is fixed)
              --seed S              dataset and query seed (default 1)
              --latency             also run IS1-IS4 and k-hop 1-4 once per system (single-threaded)
              --out DIR             where results, charts and child logs go (default target/lbv)
              --heap SIZE           -Xmx of each child JVM (default 8g)
            """.formatted(SystemCatalog.ALL.stream().map(SystemCatalog.Entry::name).toList());

    private LbvMain() {
    }

    public static void main(String[] args) throws Exception {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("gtran bench lbv: " + e.getMessage());
            System.err.print(USAGE);
            System.exit(2);
            return;
        }
        System.exit(run(options, System.out));
    }

    /** Runs what {@code options} asks; returns the exit status. */
    static int run(Options options, PrintStream out) throws IOException, InterruptedException {
        Path home = Path.of(System.getProperty("gtran.home", ".")).toAbsolutePath().normalize();
        Path outDir = home.resolve(options.out);
        ChildRun children = new ChildRun(home, outDir.resolve("logs"), options.heap, out);
        List<Run> runs = plan(options);
        out.printf(Locale.ROOT, "LBV plan: %d run(s) on dataset=%s edges=%d seed=%d threads=%d seconds=%s warmup=%s%n",
                runs.size(), options.dataset, options.edges, options.seed, options.threads, options.seconds, options.warmup);
        List<Outcome> outcomes = new ArrayList<>();
        java.util.Set<String> latencyDone = new java.util.HashSet<>();
        for (Run run : runs) {
            out.println();
            out.println("== " + run.label() + " ==");
            boolean latency = options.latency && latencyDone.add(run.entry().name() + "@" + run.isolation());
            List<String> childArgs = new ArrayList<>(List.of("--dataset", options.dataset, "--edges",
                    Long.toString(options.edges), "--seed", Long.toString(options.seed), "--workload", run.workload(),
                    "--threads", Integer.toString(options.threads), "--seconds", Double.toString(options.seconds),
                    "--warmup", Double.toString(options.warmup)));
            if (latency) {
                childArgs.add("--latency");
            }
            try {
                LbvResult result = children.run(run.entry(), run.entry().optionsFor(run.isolation()), childArgs,
                        run.label(), options.seconds + options.warmup);
                outcomes.add(new Outcome(run, result, null));
                out.println("isolation: " + result.isolation());
                out.print(result.table());
                out.println(lbvLine(run, result));
            } catch (IllegalStateException | IOException e) {
                outcomes.add(new Outcome(run, null, e.getMessage()));
                out.println("LBV_FAILED " + run.label() + ": " + e.getMessage());
            }
        }
        if (options.compare || runs.size() > 1) {
            CompareReport report = new CompareReport(options, outcomes);
            out.println();
            out.print(report.summary());
            Files.createDirectories(outDir);
            Path json = outDir.resolve("lbv-" + options.dataset + ".json");
            Files.writeString(json, report.json());
            out.println("LBV_JSON " + json);
            if (options.compare) {
                for (Path chart : report.charts(outDir)) {
                    out.println("LBV_CHART " + chart);
                }
            }
        }
        return outcomes.stream().anyMatch(o -> o.error() != null) ? 1 : 0;
    }

    /** The issue's result line: {@code LBV system= workload= isolation= threads= tps= abort_rate= p99_ms=}. */
    static String lbvLine(Run run, LbvResult result) {
        return String.format(Locale.ROOT, "LBV system=%s workload=%s isolation=%s threads=%d tps=%.1f abort_rate=%.4f "
                        + "p99_ms=%.3f", run.entry().name(), run.workload(), run.entry().isolationFor(run.isolation()),
                result.threads(), result.tps(), result.abortRate(), result.p99Ms());
    }

    /** Every (system, isolation, workload) to run, system by system. */
    static List<Run> plan(Options options) {
        List<Run> runs = new ArrayList<>();
        for (String name : options.systems) {
            SystemCatalog.Entry entry = SystemCatalog.named(name);
            List<String> isolations;
            if (entry.isolations().isEmpty()) {
                isolations = List.of(entry.fixedIsolation());
            } else if (options.compare && !options.isolationGiven) {
                isolations = entry.name().equals("gtran") ? List.of("SR", "SI") : List.of("SR");
            } else {
                isolations = options.isolations;
            }
            for (String isolation : isolations) {
                for (String workload : options.workloads) {
                    runs.add(new Run(entry, isolation, workload));
                }
            }
        }
        return runs;
    }

    /** One run: a system at an isolation level on a workload. */
    record Run(SystemCatalog.Entry entry, String isolation, String workload) {
        /** {@code gtran@SR/RI}. */
        String label() {
            return entry.name() + "@" + entry.isolationFor(isolation) + "/" + workload;
        }

        /** {@code gtran@SR}: the series this run belongs to in charts. */
        String series() {
            return entry.name() + "@" + entry.isolationFor(isolation);
        }
    }

    /** A run's result, or why it failed. */
    record Outcome(Run run, LbvResult result, String error) {
    }

    /** The command line, checked. */
    static final class Options {
        List<String> systems = List.of("gtran");
        List<String> workloads = List.of("RI");
        List<String> isolations = List.of("SR");
        boolean isolationGiven;
        boolean workloadGiven;
        boolean compare;
        boolean latency;
        int threads = 2;
        double seconds = 30;
        double warmup = 5;
        String dataset = "social";
        long edges = 1_000_000;
        long seed = 1;
        String out = "target/lbv";
        String heap = "8g";

        static Options parse(String... args) {
            Options o = new Options();
            boolean systemGiven = false;
            for (int i = 0; i < args.length; i++) {
                String flag = args[i];
                if (flag.equals("--compare")) {
                    o.compare = true;
                    continue;
                }
                if (flag.equals("--latency")) {
                    o.latency = true;
                    continue;
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("argument=" + flag + (flag.startsWith("--") ? " needs a value"
                            : " is unknown"));
                }
                String value = args[++i];
                switch (flag) {
                    case "--system" -> {
                        o.systems = list(value);
                        systemGiven = true;
                        o.systems.forEach(SystemCatalog::named);
                    }
                    case "--workload" -> {
                        o.workloads = list(value);
                        o.workloadGiven = true;
                        for (String w : o.workloads) {
                            try {
                                Workload.valueOf(w);
                            } catch (IllegalArgumentException e) {
                                throw new IllegalArgumentException("unknown workload: workload=" + w
                                        + " (known: RO, RI, WI, MIX)");
                            }
                        }
                    }
                    case "--isolation" -> {
                        o.isolations = list(value);
                        o.isolationGiven = true;
                        for (String level : o.isolations) {
                            if (!level.equals("SR") && !level.equals("SI")) {
                                throw new IllegalArgumentException("unknown isolation: isolation=" + level
                                        + " (known: SR, SI)");
                            }
                        }
                    }
                    case "--threads" -> o.threads = (int) positive(flag, value);
                    case "--seconds" -> o.seconds = positiveDouble(flag, value);
                    case "--warmup" -> o.warmup = nonNegativeDouble(flag, value);
                    case "--dataset" -> o.dataset = value;
                    case "--edges" -> o.edges = positive(flag, value);
                    case "--seed" -> o.seed = number(flag, value);
                    case "--out" -> o.out = value;
                    case "--heap" -> {
                        if (!value.matches("\\d+[kKmMgG]?")) {
                            throw new IllegalArgumentException("heap must be like 8g or 4096m: heap=" + value);
                        }
                        o.heap = value;
                    }
                    default -> throw new IllegalArgumentException("argument=" + flag + " is unknown");
                }
            }
            if (o.compare) {
                if (!systemGiven) {
                    o.systems = SystemCatalog.ALL.stream().map(SystemCatalog.Entry::name).toList();
                }
                if (!o.workloadGiven) {
                    o.workloads = List.of("RO", "RI", "WI", "MIX");
                }
            }
            if (!List.of("social", "kronecker", "grateful-dead").contains(o.dataset)) {
                throw new IllegalArgumentException("unknown dataset: dataset=" + o.dataset
                        + " (known: social, kronecker, grateful-dead)");
            }
            return o;
        }

        /** The settings as a JSON-ready map. */
        Map<String, Object> describe() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("dataset", dataset);
            m.put("target_edges", edges);
            m.put("seed", seed);
            m.put("threads", threads);
            m.put("seconds", seconds);
            m.put("warmup_seconds", warmup);
            return m;
        }

        private static List<String> list(String value) {
            List<String> items = new ArrayList<>();
            for (String item : value.split(",")) {
                if (!item.isBlank()) {
                    items.add(item.trim());
                }
            }
            if (items.isEmpty()) {
                throw new IllegalArgumentException("empty list: " + value);
            }
            return List.copyOf(items);
        }

        private static long number(String flag, String value) {
            try {
                return Long.parseLong(value.replace("_", ""));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a number: " + flag.substring(2) + "=" + value);
            }
        }

        private static long positive(String flag, String value) {
            long n = number(flag, value);
            if (n <= 0) {
                throw new IllegalArgumentException("must be positive: " + flag.substring(2) + "=" + value);
            }
            return n;
        }

        private static double nonNegativeDouble(String flag, String value) {
            double d;
            try {
                d = Double.parseDouble(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a number: " + flag.substring(2) + "=" + value);
            }
            if (!(d >= 0) || Double.isInfinite(d)) {
                throw new IllegalArgumentException("must be a non-negative number: " + flag.substring(2) + "=" + value);
            }
            return d;
        }

        private static double positiveDouble(String flag, String value) {
            double d = nonNegativeDouble(flag, value);
            if (d == 0) {
                throw new IllegalArgumentException("must be positive: " + flag.substring(2) + "=" + value);
            }
            return d;
        }
    }
}
