package io.gtran.lbv.gtran;

import io.gtran.lbv.Dataset;
import io.gtran.lbv.Datasets;
import io.gtran.lbv.LatencyQuery;
import io.gtran.lbv.LbvQuery;
import io.gtran.lbv.ParamSampler;
import io.gtran.lbv.QueryMix;
import io.gtran.lbv.QueryParams;
import io.gtran.lbv.ValuePool;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * Messages per LBV query on gtran partitioned over an in-JVM cluster, in each execution mode:
 * {@code bin/gtran bench lbv-messages [--nodes 3] [--dataset social] [--edges 20000] [--runs 20]
 * [--seed 1]}. For each mode ({@code gtran.execution=element}, {@code batched}, then {@code pushed}) it loads the
 * LBV dataset into a {@link GtranClusterLbvSystem} (elements placed on the members by their ids,
 * node 0 coordinating), then runs the latency queries' look-up alone ({@code lookup}: Q11 on the
 * lookup key), the latency queries (IS1-IS4, k-hop 1-3) and the LBV queries
 * (reads, then writes) {@code --runs} times each, through the system's own query code, one
 * transaction per run, with the same parameters in each mode, and counts the operation and
 * commit messages the members sent each other ({@link io.gtran.txn.QueryTraffic}). Prints {@code
 * MESSAGES mode=M query=Q per_query=X bytes_per_query=Y results=R failed=F} per query and mode, then
 * a Markdown table of the modes side by side.
 */
public final class LbvMessages {
    static final List<String> MODES = List.of("element", "batched", "pushed");
    /** The latency queries measured: IS1-IS4 and k-hop 1-3 (k-hop 4 reads most of a small graph). */
    static final List<LatencyQuery> LATENCY = List.of(LatencyQuery.IS1, LatencyQuery.IS2, LatencyQuery.IS3,
            LatencyQuery.IS4, LatencyQuery.KHOP1, LatencyQuery.KHOP2, LatencyQuery.KHOP3);

    /** The row of the latency queries' look-up by key alone. */
    static final String LOOKUP = "lookup";

    private LbvMessages() {
    }

    /** The command line, checked. */
    record Options(int nodes, String dataset, long edges, int runs, long seed) {
        static Options parse(String... args) {
            int nodes = 3;
            String dataset = "social";
            long edges = 20_000;
            int runs = 20;
            long seed = 1;
            for (int i = 0; i < args.length; i++) {
                String flag = args[i];
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(flag.startsWith("--") ? "option " + flag + " needs a value"
                            : "unknown argument: " + flag);
                }
                String value = args[++i];
                switch (flag) {
                    case "--nodes" -> nodes = (int) number(flag, value, 2, GtranClusterLbvSystem.MAX_NODES);
                    case "--dataset" -> dataset = value;
                    case "--edges" -> edges = number(flag, value, 1, Long.MAX_VALUE);
                    case "--runs" -> runs = (int) number(flag, value, 1, 1_000_000);
                    case "--seed" -> seed = number(flag, value, Long.MIN_VALUE, Long.MAX_VALUE);
                    default -> throw new IllegalArgumentException("unknown option: " + flag);
                }
            }
            if (!Datasets.NAMES.contains(dataset)) {
                throw new IllegalArgumentException("unknown dataset: --dataset " + dataset + " (known: " + Datasets.NAMES + ")");
            }
            return new Options(nodes, dataset, edges, runs, seed);
        }

        private static long number(String flag, String value, long min, long max) {
            long n;
            try {
                n = Long.parseLong(value.replace("_", ""));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("option " + flag + " takes a number: " + flag + " " + value);
            }
            if (n < min || n > max) {
                throw new IllegalArgumentException("option " + flag + " must be in [" + min + ", " + max + "]: " + flag + " "
                        + value);
            }
            return n;
        }
    }

    /** Messages and bytes per run of one query in one mode. */
    record Cost(double messages, double bytes, long results, long failed) {
    }

    public static void main(String[] args) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("gtran bench lbv-messages: " + e.getMessage());
            System.err.println("usage: bin/gtran bench lbv-messages [--nodes N] [--dataset social|kronecker|grateful-dead]"
                    + " [--edges E] [--runs R] [--seed S]");
            System.exit(2);
            return;
        }
        run(options, System.out);
    }

    /** Measures each mode; returns the costs by mode, then query name. */
    static Map<String, Map<String, Cost>> run(Options options, PrintStream out) {
        Dataset dataset = Datasets.open(options.dataset(), options.edges(), options.seed());
        ValuePool pool = ValuePool.collect(dataset, options.seed());
        out.printf(Locale.ROOT, "# nodes=%d dataset=%s vertices=%d edges=%d runs=%d seed=%d%n", options.nodes(),
                options.dataset(), dataset.info().vertices(), dataset.info().edges(), options.runs(), options.seed());
        Map<String, Map<String, Cost>> byMode = new LinkedHashMap<>();
        for (String mode : MODES) {
            Map<String, Cost> costs = new LinkedHashMap<>();
            byMode.put(mode, costs);
            try (GtranClusterLbvSystem system = new GtranClusterLbvSystem(Map.of(GtranClusterLbvSystem.NODES,
                    Integer.toString(options.nodes()), "gtran.execution", mode))) {
                system.load(dataset, (v, e) -> { });
                ParamSampler sampler = new ParamSampler(pool, options.seed() + 1); // same draws per mode
                // The look-up every latency query starts with, alone: Q11 on the lookup key.
                String key = dataset.info().lookupKey();
                List<QueryParams> lookups = draw(options.runs(), () -> {
                    Object value = sampler.sample(LatencyQuery.KHOP1).lookupValue();
                    return new QueryParams(0, 0, 0, null, key, value, Map.of(), 0, value);
                });
                costs.put(LOOKUP, measure(LOOKUP, system, lookups, p -> system.execute(LbvQuery.Q11, p)));
                for (LatencyQuery query : LATENCY) {
                    List<QueryParams> params = draw(options.runs(), () -> sampler.sample(query));
                    costs.put(label(query), measure(label(query), system, params, p -> system.latency(query, p)));
                }
                List<LbvQuery> order = new ArrayList<>(QueryMix.READS);
                order.addAll(QueryMix.WRITES);
                for (LbvQuery query : order) {
                    List<QueryParams> params = draw(options.runs(), () -> sampler.sample(query));
                    costs.put(query.name(), measure(query.name(), system, params, p -> system.execute(query, p)));
                }
            }
            costs.forEach((query, cost) -> out.printf(Locale.ROOT,
                    "MESSAGES mode=%s query=%s per_query=%.1f bytes_per_query=%.0f results=%d failed=%d%n", mode, query,
                    cost.messages(), cost.bytes(), cost.results(), cost.failed()));
        }
        out.print(table(byMode));
        return byMode;
    }

    private static List<QueryParams> draw(int runs, java.util.function.Supplier<QueryParams> sample) {
        List<QueryParams> params = new ArrayList<>(runs);
        for (int i = 0; i < runs; i++) {
            params.add(sample.get());
        }
        return params;
    }

    /** IS1..IS4, khop1..khop3: the names docs/benchmarks.md uses. */
    static String label(LatencyQuery query) {
        return query.name().startsWith("KHOP") ? "khop" + query.name().substring(4) : query.name();
    }

    private static Cost measure(String name, GtranClusterLbvSystem system, List<QueryParams> params, ToLongFunction<QueryParams> query) {
        long messages = system.messages();
        long bytes = system.bytes();
        long results = 0;
        long failed = 0;
        for (QueryParams p : params) {
            try {
                results += query.applyAsLong(p);
            } catch (RuntimeException e) { // a conflict cannot happen with one client: say what did
                if (failed++ == 0) {
                    System.err.println("LBV_MESSAGES_ERROR query=" + name + ": " + e);
                }
            }
        }
        int n = params.size();
        return new Cost((system.messages() - messages) / (double) n, (system.bytes() - bytes) / (double) n, results, failed);
    }

    /** The modes side by side, one row per query, as docs/benchmarks.md shows it. */
    static String table(Map<String, Map<String, Cost>> byMode) {
        StringBuilder b = new StringBuilder();
        b.append("| query |");
        MODES.forEach(mode -> b.append(' ').append(mode).append(" msgs | ").append(mode).append(" bytes |"));
        b.append("\n|---|");
        MODES.forEach(mode -> b.append("---:|---:|"));
        b.append('\n');
        for (String query : byMode.get(MODES.get(0)).keySet()) {
            b.append("| ").append(query).append(" |");
            for (String mode : MODES) {
                Cost cost = byMode.get(mode).get(query);
                b.append(String.format(Locale.ROOT, " %.1f | %.0f |", cost.messages(), cost.bytes()));
            }
            b.append('\n');
        }
        return b.toString();
    }
}
