package io.gtran.check.history;

import io.gtran.check.fabric.FaultPlan;
import io.gtran.rdma.InJvmCluster;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.GtranNode;
import io.gtran.txn.TransactionEngine;
import io.gtran.txn.TxnConfig;
import io.gtran.txn.clock.ClockConfig;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.membership.Membership;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Runs the list-append workload on in-JVM gtran nodes and checks the history with {@link
 * ListAppendChecker}: one node alone by default, or {@code --nodes N} members of one in-JVM
 * cluster, the keys spread over them and worker {@code i} beginning its transactions on node
 * {@code i % N} (see {@link ListAppendWorkload}). {@code --faults} puts the cluster's fabric under
 * a {@link FaultPlan}: seeded delays and message drops between every two nodes ({@link
 * FaultSpec}). Prints progress, then up to five example anomalies with their transactions, then
 * exactly one summary line (the same whatever the node count; the first line says it):
 * <pre>HISTORY isolation=SR txns=&lt;committed&gt; aborted=&lt;n&gt; anomalies=&lt;count&gt; kinds=&lt;G2,...|none&gt;</pre>
 * {@code --txns} is how many transactions must commit; aborted ones are recorded, not retried. Exit
 * code 0 once the check ran, anomalies or not (the line reports them); 2 for a bad argument
 * (the message names it); 1 if the engine threw something other than a transaction conflict, or
 * the workload did not finish within {@code --timeout} seconds (then no HISTORY line).
 */
public final class HistoryCheck {
    static final String USAGE = "usage: HistoryCheck [--isolation SR|SI] [--threads T] [--txns N] [--keys K] [--seed S]"
            + " [--nodes N] [--faults delay=MIN-MAXms,drop=P,seed=S] [--timeout SECONDS]"
            + " [--set gtran.txn.KEY=VALUE | gtran.storage.KEY=VALUE | gtran.clock.KEY=VALUE ...]\n"
            + "  defaults: --isolation SR --threads 8 --txns 20000 --keys 10 --seed 1 --nodes 1 --timeout 600;"
            + " --txns is how many transactions must commit (aborted ones are recorded, not retried);"
            + " --nodes N runs N in-JVM members of one cluster, key k on node k % N, worker i on node i % N;"
            + " --faults (needs --nodes 2 or more) delays and drops what the nodes send each other,"
            + " e.g. delay=0-50ms,drop=0.05,seed=7 (seed defaults to --seed)";
    /** The most members --nodes may ask for (one JVM runs them all). */
    static final int MAX_NODES = 16;
    private static final int EXAMPLES = 5;
    private static final String LOGBACK_CONFIGURATION = "logback.configurationFile";

    /** Parsed command line. */
    record Options(Isolation isolation, int threads, int txns, int keys, long seed, int nodes, FaultSpec faults, int timeoutSeconds,
            Map<String, String> settings, boolean help) {
        static Options parse(String[] args) {
            Isolation isolation = Isolation.SERIALIZABLE;
            int threads = 8;
            int txns = 20_000;
            int keys = 10;
            long seed = 1;
            int nodes = 1;
            String faults = null;
            int timeout = 600;
            Map<String, String> settings = new LinkedHashMap<>();
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                if (arg.equals("--help") || arg.equals("-h")) {
                    return new Options(isolation, threads, txns, keys, seed, nodes, null, timeout, settings, true);
                }
                String name = arg;
                String value;
                int eq = arg.indexOf('=');
                if (arg.startsWith("--") && eq > 0) {
                    name = arg.substring(0, eq);
                    value = arg.substring(eq + 1);
                } else if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
                    value = args[++i];
                } else {
                    value = null;
                }
                switch (name) {
                    case "--isolation" -> isolation = isolation(require(name, value));
                    case "--threads" -> threads = positive(name, require(name, value), 1024);
                    case "--txns" -> txns = positive(name, require(name, value), Integer.MAX_VALUE);
                    case "--keys" -> keys = positive(name, require(name, value), 1_000_000);
                    case "--seed" -> seed = seed(require(name, value));
                    case "--nodes" -> nodes = positive(name, require(name, value), MAX_NODES);
                    case "--faults" -> faults = require(name, value);
                    case "--timeout" -> timeout = positive(name, require(name, value), 86_400);
                    case "--set" -> setting(require(name, value), settings);
                    default -> throw new IllegalArgumentException("unknown argument: " + arg);
                }
            }
            if (nodes > 1 && settings.containsKey(StoreConfig.NODE_ID)) {
                throw new IllegalArgumentException("--set " + StoreConfig.NODE_ID + " does not go with --nodes " + nodes
                        + ": the members are nodes 0.." + (nodes - 1));
            }
            FaultSpec spec = null;
            if (faults != null) {
                spec = FaultSpec.parse(faults, seed);
                if (nodes < 2) {
                    throw new IllegalArgumentException("--faults needs --nodes 2 or more (faults are between nodes): --nodes " + nodes);
                }
            }
            return new Options(isolation, threads, txns, keys, seed, nodes, spec, timeout, settings, false);
        }

        private static String require(String name, String value) {
            if (value == null) {
                throw new IllegalArgumentException(name + " needs a value");
            }
            return value;
        }

        private static Isolation isolation(String value) {
            return switch (value.toUpperCase()) {
                case "SR" -> Isolation.SERIALIZABLE;
                case "SI" -> Isolation.SNAPSHOT;
                default -> throw new IllegalArgumentException("--isolation must be SR or SI: " + value);
            };
        }

        private static int positive(String name, String value, int max) {
            long n;
            try {
                n = Long.parseLong(value.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + " must be a positive integer: " + value);
            }
            if (n < 1 || n > max) {
                throw new IllegalArgumentException(name + " must be in [1, " + max + "]: " + value);
            }
            return (int) n;
        }

        private static long seed(String value) {
            try {
                return Long.parseLong(value.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--seed must be an integer: " + value);
            }
        }

        private static void setting(String value, Map<String, String> settings) {
            int eq = value.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--set must be KEY=VALUE: " + value);
            }
            String key = value.substring(0, eq).trim();
            if (!key.startsWith("gtran.txn.") && !key.startsWith("gtran.storage.") && !key.startsWith("gtran.clock.")) {
                throw new IllegalArgumentException("--set key must be a gtran.txn.*, gtran.storage.* or gtran.clock.* setting: " + key);
            }
            settings.put(key, value.substring(eq + 1).trim());
        }

        String isolationName() {
            return isolation == Isolation.SERIALIZABLE ? "SR" : "SI";
        }
    }

    /**
     * What {@code --faults} asks for, between every two nodes in both directions: a delay drawn
     * uniformly from {@code [minDelay, maxDelay]} for each message and region operation, and a
     * probability of dropping each message, seeded. Written as comma-separated {@code name=value}
     * items: {@code delay=0-50ms} (or a fixed {@code delay=5ms}; units ms, us or s, ms if none),
     * {@code drop=0.05} (a probability in [0, 1]), {@code seed=7} (default: {@code --seed}). At least
     * one of delay and drop.
     */
    record FaultSpec(Duration minDelay, Duration maxDelay, double drop, long seed) {
        private static final Pattern DELAY = Pattern.compile("(\\d+)(ms|us|s)?(?:-(\\d+)(ms|us|s)?)?");

        static FaultSpec parse(String spec, long defaultSeed) {
            Duration min = Duration.ZERO;
            Duration max = Duration.ZERO;
            double drop = 0;
            long seed = defaultSeed;
            boolean any = false;
            Set<String> seen = new TreeSet<>();
            for (String item : spec.split(",", -1)) {
                int eq = item.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("--faults items are name=value (delay, drop, seed): '" + item + "' in " + spec);
                }
                String name = item.substring(0, eq).trim();
                String value = item.substring(eq + 1).trim();
                if (!seen.add(name)) {
                    throw new IllegalArgumentException("--faults names " + name + " twice: " + spec);
                }
                switch (name) {
                    case "delay" -> {
                        Matcher m = DELAY.matcher(value);
                        if (!m.matches()) {
                            throw new IllegalArgumentException("--faults delay must be MIN-MAX with a unit (ms, us, s), e.g. delay=0-50ms,"
                                    + " or a fixed delay=5ms: delay=" + value);
                        }
                        String maxUnit = m.group(4) != null ? m.group(4) : m.group(2);
                        String minUnit = m.group(2) != null ? m.group(2) : maxUnit;
                        min = duration(m.group(1), minUnit, value);
                        max = m.group(3) == null ? min : duration(m.group(3), maxUnit, value);
                        if (min.compareTo(max) > 0) {
                            throw new IllegalArgumentException("--faults delay range is empty (MIN above MAX): delay=" + value);
                        }
                        if (max.compareTo(FaultPlan.MAX_DELAY) > 0) {
                            throw new IllegalArgumentException("--faults delay is over " + FaultPlan.MAX_DELAY + ": delay=" + value);
                        }
                        any = true;
                    }
                    case "drop" -> {
                        try {
                            drop = Double.parseDouble(value);
                        } catch (NumberFormatException e) {
                            drop = Double.NaN;
                        }
                        if (!(drop >= 0 && drop <= 1)) {
                            throw new IllegalArgumentException("--faults drop must be a probability in [0, 1]: drop=" + value);
                        }
                        any = true;
                    }
                    case "seed" -> {
                        try {
                            seed = Long.parseLong(value);
                        } catch (NumberFormatException e) {
                            throw new IllegalArgumentException("--faults seed must be an integer: seed=" + value);
                        }
                    }
                    default -> throw new IllegalArgumentException("--faults has no item " + name + " (known: delay, drop, seed): " + spec);
                }
            }
            if (!any) {
                throw new IllegalArgumentException("--faults names no fault (delay or drop): " + spec);
            }
            return new FaultSpec(min, max, drop, seed);
        }

        private static Duration duration(String amount, String unit, String value) {
            try {
                long n = Long.parseLong(amount);
                return switch (unit == null ? "ms" : unit) {
                    case "us" -> Duration.ofNanos(Math.multiplyExact(n, 1_000L));
                    case "s" -> Duration.ofSeconds(n);
                    default -> Duration.ofMillis(n);
                };
            } catch (NumberFormatException | ArithmeticException e) {
                throw new IllegalArgumentException("--faults delay is too long: delay=" + value);
            }
        }

        /** Applies the rules to every pair of distinct nodes of {@code nodes}. */
        void applyTo(FaultPlan plan, Set<Integer> nodes) {
            FaultPlan.Links links = plan.links(nodes, nodes);
            if (!maxDelay.isZero()) {
                links.delay(minDelay, maxDelay);
            }
            if (drop > 0) {
                links.dropWithProbability(drop);
            }
        }

        @Override
        public String toString() {
            return "delay=" + minDelay.toNanos() / 1e6 + "-" + maxDelay.toNanos() / 1e6 + "ms,drop=" + drop + ",seed=" + seed;
        }
    }

    /** The nodes the check runs on, and what they share; closed in reverse order of opening. */
    private static final class Nodes implements AutoCloseable {
        final List<GtranNode> nodes = new ArrayList<>();
        InJvmCluster cluster;
        FaultPlan plan;

        static Nodes open(Options options) {
            Nodes opened = new Nodes();
            try {
                if (options.nodes() == 1) {
                    opened.nodes.add(GtranNode.open(options.settings())); // as before: a node alone
                    return opened;
                }
                StringBuilder members = new StringBuilder();
                Set<Integer> ids = new TreeSet<>();
                for (int i = 0; i < options.nodes(); i++) {
                    members.append(i == 0 ? "" : ",").append(i);
                    ids.add(i);
                }
                opened.cluster = new InJvmCluster();
                if (options.faults() != null) {
                    opened.plan = new FaultPlan(options.faults().seed());
                    options.faults().applyTo(opened.plan, ids);
                }
                for (int i = 0; i < options.nodes(); i++) {
                    Map<String, Object> settings = new HashMap<>(options.settings());
                    settings.put(StoreConfig.NODE_ID, i);
                    settings.put(Membership.NODES, members.toString());
                    opened.nodes.add(opened.plan == null ? GtranNode.join(opened.cluster, settings)
                            : GtranNode.open(opened.plan.wrap(opened.cluster.join(i)), settings));
                }
                return opened;
            } catch (RuntimeException e) {
                opened.close();
                throw e;
            }
        }

        List<TransactionEngine> engines() {
            return nodes.stream().map(GtranNode::engine).toList();
        }

        /** Every node's engine statistics. */
        String stats() {
            if (nodes.size() == 1) {
                return nodes.get(0).engine().stats().toString();
            }
            StringBuilder b = new StringBuilder();
            for (GtranNode node : nodes) {
                b.append(b.length() == 0 ? "" : " ").append("node").append(node.id()).append('=').append(node.engine().stats());
            }
            return b.toString();
        }

        @Override
        public void close() {
            for (int i = nodes.size() - 1; i >= 0; i--) {
                nodes.get(i).close();
            }
            if (plan != null) {
                plan.close();
            }
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    private HistoryCheck() {
    }

    public static void main(String[] args) throws Exception {
        // Before anything logs: the engine's errors go to stderr, so stdout ends with the HISTORY line.
        if (System.getProperty(LOGBACK_CONFIGURATION) == null) {
            System.setProperty(LOGBACK_CONFIGURATION, "io/gtran/check/history/logback-check.xml");
        }
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the check; returns the exit code. */
    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("history check: bad argument: " + e.getMessage());
            err.println(USAGE);
            return 2;
        }
        if (options.help()) {
            out.println(USAGE);
            return 0;
        }
        try {
            TxnConfig.from(options.settings()); // validated before anything is opened
            StoreConfig.from(options.settings());
            ClockConfig.from(options.settings());
        } catch (IllegalArgumentException e) {
            err.println("history check: bad argument: --set " + e.getMessage());
            err.println(USAGE);
            return 2;
        }
        Nodes nodes = Nodes.open(options);
        out.printf("history check: isolation=%s threads=%d txns=%d keys=%d seed=%d nodes=%d faults=%s settings=%s%n",
                options.isolationName(), options.threads(), options.txns(), options.keys(), options.seed(), options.nodes(),
                options.faults() == null ? "none" : options.faults(), options.settings());
        ListAppendWorkload.Result result;
        ListAppendWorkload workload;
        try {
            workload = new ListAppendWorkload(nodes.engines(), new ListAppendWorkload.Settings(
                    options.isolation(), options.threads(), options.txns(), options.keys(), options.seed()));
            long start = System.nanoTime();
            result = workload.run((attempted, committed, aborted) -> out.printf(
                    "progress attempted=%d committed=%d aborted=%d elapsed=%dms%n", attempted, committed, aborted,
                    (System.nanoTime() - start) / 1_000_000), Math.max(1, options.txns() / 10), options.timeoutSeconds() * 1000L);
        } catch (TimeoutException e) {
            // Workers are stuck inside the engine (daemon threads): the nodes are left open, since
            // freeing their memory under them could crash the JVM.
            err.println("history check: " + e.getMessage());
            return 1;
        } catch (RuntimeException | ExecutionException e) {
            nodes.close();
            throw e;
        }
        try (nodes) {
            History history = result.history();
            long spanning = history.txns().stream().filter(t -> t.committed() && workload.spansNodes(t)).count();
            out.printf("workload: nodes=%d attempted=%d committed=%d aborted=%d committed_across_nodes=%d wall=%dms engine=%s%n",
                    options.nodes(), history.txns().size(), history.committedCount(), history.abortedCount(), spanning,
                    result.wallMillis(), nodes.stats());
            long checkStart = System.nanoTime();
            List<Anomaly> anomalies = ListAppendChecker.check(history);
            out.printf("check: %d anomalies in %dms%n", anomalies.size(), (System.nanoTime() - checkStart) / 1_000_000);
            for (int i = 0; i < Math.min(EXAMPLES, anomalies.size()); i++) {
                out.printf("example %d/%d: %s%n", i + 1, anomalies.size(), anomalies.get(i).describe());
            }
            if (result.errors() > 0) {
                err.println("history check: the engine threw " + result.errors() + " unexpected exception(s); the first:");
                result.firstError().printStackTrace(err);
            }
            out.println(summary(options.isolationName(), history, anomalies));
            return result.errors() > 0 ? 1 : 0;
        }
    }

    /** The final line. */
    static String summary(String isolation, History history, List<Anomaly> anomalies) {
        Set<Anomaly.Kind> kinds = EnumSet.noneOf(Anomaly.Kind.class);
        anomalies.forEach(a -> kinds.add(a.kind()));
        String names = kinds.isEmpty() ? "none" : kinds.stream().map(Anomaly.Kind::display).collect(Collectors.joining(","));
        return "HISTORY isolation=" + isolation + " txns=" + history.committedCount() + " aborted=" + history.abortedCount()
                + " anomalies=" + anomalies.size() + " kinds=" + names;
    }
}
