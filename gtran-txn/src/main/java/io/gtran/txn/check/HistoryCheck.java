package io.gtran.txn.check;

import io.gtran.storage.StoreConfig;
import io.gtran.txn.GtranNode;
import io.gtran.txn.Isolation;
import io.gtran.txn.TransactionEngine;
import io.gtran.txn.TxnConfig;
import java.io.PrintStream;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * Runs the list-append workload on one in-JVM gtran node and checks the history with {@link
 * ListAppendChecker}. Prints progress, then up to five example anomalies with their
 * transactions, then exactly one summary line:
 * <pre>HISTORY isolation=SR txns=&lt;committed&gt; aborted=&lt;n&gt; anomalies=&lt;count&gt; kinds=&lt;G2,...|none&gt;</pre>
 * {@code --txns} is how many transactions must commit; aborted ones are recorded, not retried. Exit
 * code 0 once the check ran, anomalies or not (the line reports them); 2 for a bad argument
 * (the message names it); 1 if the engine threw something other than a transaction conflict, or
 * the workload did not finish within {@code --timeout} seconds (then no HISTORY line).
 */
public final class HistoryCheck {
    static final String USAGE = "usage: HistoryCheck [--isolation SR|SI] [--threads T] [--txns N] [--keys K] [--seed S]"
            + " [--timeout SECONDS]"
            + " [--set gtran.txn.KEY=VALUE | gtran.storage.KEY=VALUE ...]\n"
            + "  defaults: --isolation SR --threads 8 --txns 20000 --keys 10 --seed 1 --timeout 600;"
            + " --txns is how many transactions must commit (aborted ones are recorded, not retried)";
    private static final int EXAMPLES = 5;
    private static final String LOGBACK_CONFIGURATION = "logback.configurationFile";

    /** Parsed command line. */
    record Options(Isolation isolation, int threads, int txns, int keys, long seed, int timeoutSeconds, Map<String, String> settings,
            boolean help) {
        static Options parse(String[] args) {
            Isolation isolation = Isolation.SERIALIZABLE;
            int threads = 8;
            int txns = 20_000;
            int keys = 10;
            long seed = 1;
            int timeout = 600;
            Map<String, String> settings = new LinkedHashMap<>();
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                if (arg.equals("--help") || arg.equals("-h")) {
                    return new Options(isolation, threads, txns, keys, seed, timeout, settings, true);
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
                    case "--timeout" -> timeout = positive(name, require(name, value), 86_400);
                    case "--set" -> setting(require(name, value), settings);
                    default -> throw new IllegalArgumentException("unknown argument: " + arg);
                }
            }
            return new Options(isolation, threads, txns, keys, seed, timeout, settings, false);
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
            if (!key.startsWith("gtran.txn.") && !key.startsWith("gtran.storage.")) {
                throw new IllegalArgumentException("--set key must be a gtran.txn.* or gtran.storage.* setting: " + key);
            }
            settings.put(key, value.substring(eq + 1).trim());
        }

        String isolationName() {
            return isolation == Isolation.SERIALIZABLE ? "SR" : "SI";
        }
    }

    private HistoryCheck() {
    }

    public static void main(String[] args) throws Exception {
        // Before anything logs: the engine's errors go to stderr, so stdout ends with the HISTORY line.
        if (System.getProperty(LOGBACK_CONFIGURATION) == null) {
            System.setProperty(LOGBACK_CONFIGURATION, "io/gtran/txn/check/logback-check.xml");
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
        } catch (IllegalArgumentException e) {
            err.println("history check: bad argument: --set " + e.getMessage());
            err.println(USAGE);
            return 2;
        }
        GtranNode node = GtranNode.open(options.settings());
        out.printf("history check: isolation=%s threads=%d txns=%d keys=%d seed=%d settings=%s%n", options.isolationName(),
                options.threads(), options.txns(), options.keys(), options.seed(), options.settings());
        ListAppendWorkload.Result result;
        try {
            ListAppendWorkload workload = new ListAppendWorkload(node.engine(), new ListAppendWorkload.Settings(
                    options.isolation(), options.threads(), options.txns(), options.keys(), options.seed()));
            long start = System.nanoTime();
            result = workload.run((attempted, committed, aborted) -> out.printf(
                    "progress attempted=%d committed=%d aborted=%d elapsed=%dms%n", attempted, committed, aborted,
                    (System.nanoTime() - start) / 1_000_000), Math.max(1, options.txns() / 10), options.timeoutSeconds() * 1000L);
        } catch (TimeoutException e) {
            // Workers are stuck inside the engine (daemon threads): the node is left open, since
            // freeing its memory under them could crash the JVM.
            err.println("history check: " + e.getMessage());
            return 1;
        } catch (RuntimeException | ExecutionException e) {
            node.close();
            throw e;
        }
        try (node) {
            History history = result.history();
            out.printf("workload: attempted=%d committed=%d aborted=%d wall=%dms engine=%s%n", history.txns().size(),
                    history.committedCount(), history.abortedCount(), result.wallMillis(), node.engine().stats());
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
