package io.gtran.lbv.driver;

import io.gtran.lbv.LbvResult;
import io.gtran.lbv.ParamSampler;
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
 *                     [--edges N] [--seed S] [--skew THETA] [--latency] [--compare] [--out DIR] [--heap SIZE]
 *                     [--nodes N[,N..]] [--node-jit J[,J..]] [--link-latency-us L[,L..]] [--execution E[,E..]]
 * </pre>
 *
 * <p>{@code --nodes} shapes the runs of the cluster systems: {@code gtran-cluster} and {@code
 * gtran-cluster-noopt} (gtran on separate server processes started by deploy/gtran-cluster,
 * {@code GtranProcessClusterLbvSystem}) and {@code gtran-jvm-cluster} (gtran over in-JVM nodes,
 * {@code GtranClusterLbvSystem}): one run per node count. {@code --node-jit} shapes the server-process
 * clusters only: one run per JIT the node JVMs run (deploy/gtran-cluster's {@code GTRAN_NODE_JIT}:
 * auto, quick or full). {@code --link-latency-us} and {@code
 * --execution} shape {@code gtran-jvm-cluster} only: for more than one node one run per injected
 * one-way latency, so {@code --system gtran-jvm-cluster --nodes 1,3 --link-latency-us 20,100}
 * compares one node with three at two latencies in one invocation, and {@code --execution
 * batched,pushed} one per execution mode ({@code gtran.execution}).
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
              --skew THETA          Zipf theta of the vertices and edges the queries name, in [0, 5): 0 is
                                    uniform (default), 0.99 YCSB's skew; what Q18 and Q19 remove and the
                                    latency queries stay uniform
              --latency             also run IS1-IS4 and k-hop 1-4 once per system, isolation and cluster
                                    shape (single-threaded)
              --out DIR             where results, charts and child logs go (default target/lbv)
              --heap SIZE           -Xmx of each child JVM (default 8g)
              --nodes N[,N...]      for gtran-cluster(-noopt, -sync, -async): server processes, for gtran-jvm-cluster:
                                    in-JVM nodes; a run per count (default 3)
              --node-jit J[,J...]   for gtran-cluster(-noopt, -sync, -async): the JIT of the node JVMs, auto,
                                    quick (C1 alone) or full (C1 and C2), a run per value (default auto:
                                    quick where the nodes have under two cores each; docs/deployment.md)
              --link-latency-us L[,L...]
                                    for gtran-jvm-cluster with more than one node: one-way latency injected
                                    per message between nodes, microseconds, a run per value (default 0)
              --execution E[,E...]  for gtran-jvm-cluster with more than one node: gtran.execution (element,
                                    batched, pushed), a run per value (default: the graph's, batched)
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
        out.printf(Locale.ROOT, "LBV plan: %d run(s) on dataset=%s edges=%d seed=%d threads=%d seconds=%s warmup=%s"
                        + " skew=%s%n", runs.size(), options.dataset, options.edges, options.seed, options.threads,
                options.seconds, options.warmup, options.skew);
        List<Outcome> outcomes = new ArrayList<>();
        java.util.Set<String> latencyDone = new java.util.HashSet<>();
        for (Run run : runs) {
            out.println();
            out.println("== " + run.label() + " ==");
            boolean latency = options.latency && latencyDone.add(run.series()); // per system, isolation and cluster shape
            List<String> childArgs = new ArrayList<>(List.of("--dataset", options.dataset, "--edges",
                    Long.toString(options.edges), "--seed", Long.toString(options.seed), "--workload", run.workload(),
                    "--threads", Integer.toString(options.threads), "--seconds", Double.toString(options.seconds),
                    "--warmup", Double.toString(options.warmup), "--skew", Double.toString(options.skew)));
            if (latency) {
                childArgs.add("--latency");
            }
            try {
                LbvResult result = children.run(run.entry(), run.options(), childArgs,
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

    /**
     * The issue's result line: {@code LBV system= workload= isolation= threads= tps= abort_rate= p99_ms=}, then
     * {@code skew=} if the draws were skewed and the cluster shape if there is one.
     */
    static String lbvLine(Run run, LbvResult result) {
        String line = String.format(Locale.ROOT, "LBV system=%s workload=%s isolation=%s threads=%d tps=%.1f abort_rate=%.4f "
                        + "p99_ms=%.3f", run.entry().name(), run.workload(), run.entry().isolationFor(run.isolation()),
                result.threads(), result.tps(), result.abortRate(), result.p99Ms());
        if (result.skew() != 0) {
            line += " skew=" + result.skew();
        }
        if (result.hasTraffic()) {
            line += String.format(Locale.ROOT, " messages_per_query=%.2f bytes_per_query=%.1f", result.messagesPerQuery(),
                    result.bytesPerQuery());
        }
        if (run.cluster().isEmpty()) {
            return line;
        }
        line += " nodes=" + run.cluster().get(NODES);
        if (run.cluster().containsKey(NODE_JIT)) {
            line += " node_jit=" + run.cluster().get(NODE_JIT);
        }
        if (!run.cluster().containsKey(LINK_LATENCY_US)) {
            return line;
        }
        line += " link_latency_us=" + run.cluster().get(LINK_LATENCY_US);
        return run.cluster().containsKey(EXECUTION) ? line + " execution=" + run.cluster().get(EXECUTION) : line;
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
            for (Map<String, String> cluster : clusterShapes(entry, options)) {
                for (String isolation : isolations) {
                    for (String workload : options.workloads) {
                        runs.add(new Run(entry, isolation, workload, cluster));
                    }
                }
            }
        }
        return runs;
    }

    /** The system options of each cluster shape {@code entry} runs in: one empty map for a system on one node. */
    private static List<Map<String, String>> clusterShapes(SystemCatalog.Entry entry, Options options) {
        if (!SystemCatalog.CLUSTERS.contains(entry.name())) {
            return List.of(Map.of());
        }
        if (!entry.name().equals(SystemCatalog.JVM_CLUSTER)) { // server processes: a node count and a JIT, nothing injected
            List<Map<String, String>> shapes = new ArrayList<>();
            for (int nodes : options.nodes) {
                for (String jit : options.nodeJits.isEmpty() ? java.util.Collections.<String>singletonList(null)
                        : options.nodeJits) {
                    Map<String, String> shape = new LinkedHashMap<>();
                    shape.put(NODES, Integer.toString(nodes));
                    if (jit != null) {
                        shape.put(NODE_JIT, jit);
                    }
                    shapes.add(shape);
                }
            }
            return shapes;
        }
        List<Map<String, String>> shapes = new ArrayList<>();
        for (int nodes : options.nodes) {
            for (int latency : nodes == 1 ? List.of(0) : options.linkLatencies) {
                for (String execution : nodes == 1 || options.executions.isEmpty() ? java.util.Collections.<String>singletonList(null)
                        : options.executions) {
                    Map<String, String> shape = new LinkedHashMap<>();
                    shape.put(NODES, Integer.toString(nodes));
                    shape.put(LINK_LATENCY_US, Integer.toString(latency));
                    if (execution != null) {
                        shape.put(EXECUTION, execution);
                    }
                    shapes.add(shape);
                }
            }
        }
        return shapes;
    }

    /** The cluster systems' options (this JVM does not load the systems' classes). */
    static final String NODES = "nodes";
    static final String LINK_LATENCY_US = "link-latency-us";
    /** The server-process clusters' option (GtranProcessClusterLbvSystem.NODE_JIT). */
    static final String NODE_JIT = "node-jit";
    static final List<String> NODE_JITS = List.of("auto", "quick", "full");
    /** The graph setting {@code --execution} gives (GtranGraph.EXECUTION). */
    static final String EXECUTION = "gtran.execution";

    /**
     * One run: a system at an isolation level on a workload, and for a cluster system its {@code
     * nodes} option, with {@code link-latency-us} (and {@code gtran.execution}) for {@code
     * gtran-jvm-cluster} (else empty).
     */
    record Run(SystemCatalog.Entry entry, String isolation, String workload, Map<String, String> cluster) {
        Run(SystemCatalog.Entry entry, String isolation, String workload) {
            this(entry, isolation, workload, Map.of());
        }

        /** {@code gtran@SR/RI}, {@code gtran-cluster[3n]@SR/RI}, {@code gtran-jvm-cluster[3n,20us]@SR/RI}. */
        String label() {
            return series() + "/" + workload;
        }

        /** {@code gtran@SR}: the series this run belongs to in charts. */
        String series() {
            String shape = cluster.isEmpty() ? "" : "[" + cluster.get(NODES) + "n"
                    + (cluster.containsKey(LINK_LATENCY_US) ? "," + cluster.get(LINK_LATENCY_US) + "us" : "")
                    + (cluster.containsKey(EXECUTION) ? "," + cluster.get(EXECUTION) : "")
                    + (cluster.containsKey(NODE_JIT) ? ",jit=" + cluster.get(NODE_JIT) : "") + "]";
            return entry.name() + shape + "@" + entry.isolationFor(isolation);
        }

        /** The child's system options: the catalog's, the isolation, the cluster shape. */
        Map<String, String> options() {
            Map<String, String> all = new LinkedHashMap<>(entry.optionsFor(isolation));
            all.putAll(cluster);
            return all;
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
        double skew;
        static final int MAX_NODES = 16;
        static final int MAX_LINK_LATENCY_US = 1_000_000;
        String out = "target/lbv";
        String heap = "8g";
        List<Integer> nodes = List.of(3);
        List<Integer> linkLatencies = List.of(0);
        List<String> executions = List.of();
        List<String> nodeJits = List.of();

        static Options parse(String... args) {
            Options o = new Options();
            boolean systemGiven = false;
            boolean nodesGiven = false;
            boolean latencyGiven = false;
            boolean executionGiven = false;
            boolean jitGiven = false;
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
                    case "--skew" -> o.skew = skew(value);
                    case "--out" -> o.out = value;
                    case "--nodes" -> {
                        o.nodes = integers(flag, value, 1, MAX_NODES);
                        nodesGiven = true;
                    }
                    case "--link-latency-us" -> {
                        o.linkLatencies = integers(flag, value, 0, MAX_LINK_LATENCY_US);
                        latencyGiven = true;
                    }
                    case "--execution" -> {
                        o.executions = list(value);
                        executionGiven = true;
                        for (String mode : o.executions) {
                            if (!List.of("element", "batched", "pushed").contains(mode)) {
                                throw new IllegalArgumentException("unknown execution: execution=" + mode
                                        + " (known: element, batched, pushed)");
                            }
                        }
                    }
                    case "--node-jit" -> {
                        o.nodeJits = list(value);
                        jitGiven = true;
                        for (String jit : o.nodeJits) {
                            if (!NODE_JITS.contains(jit)) {
                                throw new IllegalArgumentException("unknown node JIT: node-jit=" + jit
                                        + " (known: auto, quick, full)");
                            }
                        }
                    }
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
                if (!systemGiven) { // every system but the clusters, whose shapes --nodes and --link-latency-us choose
                    o.systems = SystemCatalog.ALL.stream().map(SystemCatalog.Entry::name)
                            .filter(name -> !SystemCatalog.CLUSTERS.contains(name)).toList();
                }
                if (!o.workloadGiven) {
                    o.workloads = List.of("RO", "RI", "WI", "MIX");
                }
            }
            if (nodesGiven && o.systems.stream().noneMatch(SystemCatalog.CLUSTERS::contains)) {
                throw new IllegalArgumentException("--nodes shapes the cluster systems " + String.join(", ", SystemCatalog.CLUSTERS)
                        + " only, none of which is among system=" + String.join(",", o.systems));
            }
            if (jitGiven && o.systems.stream().noneMatch(name -> SystemCatalog.CLUSTERS.contains(name)
                    && !name.equals(SystemCatalog.JVM_CLUSTER))) {
                throw new IllegalArgumentException("--node-jit shapes the server-process clusters only (not "
                        + SystemCatalog.JVM_CLUSTER + "), none of which is among system=" + String.join(",", o.systems));
            }
            if ((latencyGiven || executionGiven) && !o.systems.contains(SystemCatalog.JVM_CLUSTER)) {
                throw new IllegalArgumentException("--link-latency-us and --execution shape system " + SystemCatalog.JVM_CLUSTER
                        + " only (in-JVM nodes; gtran-cluster's server processes talk over real TCP), which is not among system="
                        + String.join(",", o.systems));
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
            m.put("skew", skew);
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

        /** A list of integers in [{@code min}, {@code max}], each named in the error if it is not. */
        private static List<Integer> integers(String flag, String value, int min, int max) {
            List<Integer> numbers = new ArrayList<>();
            for (String item : list(value)) {
                long n = number(flag, item);
                if (n < min || n > max) {
                    throw new IllegalArgumentException("must be in [" + min + ", " + max + "]: " + flag.substring(2) + "="
                            + item);
                }
                numbers.add((int) n);
            }
            return List.copyOf(numbers);
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

        /** A Zipf theta in [0, MAX_SKEW); theta 1 is fine (the sampler is exact for every theta). */
        private static double skew(String value) {
            double theta = nonNegativeDouble("--skew", value);
            if (theta >= ParamSampler.MAX_SKEW) {
                throw new IllegalArgumentException("must be in [0, " + ParamSampler.MAX_SKEW + "): skew=" + value);
            }
            return theta;
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
