package io.gtran.lbv;

import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The child JVM's entry point: constructs one {@link LbvSystem}, has {@link LbvRunner} load and
 * run it, and prints {@code LBV_RESULT <json>} ({@link LbvResult#toJson}) as its last stdout line.
 * Progress, phases and a summary table go to stderr.
 *
 * <p>Exit status: 0 done; 2 usage error (bad or missing argument, unknown dataset or system class,
 * options the system's constructor rejects with {@link IllegalArgumentException}); 1 the system
 * failed outside a query (constructor, load, a run that hangs, close) or the run itself broke;
 * {@code LBV_ERROR <message>} and the stack trace go to stderr. A failing close after a complete
 * run still prints the result before exiting 1. Queries that fail are counted, not fatal.
 */
public final class LbvChildMain {
    static final int EXIT_OK = 0;
    static final int EXIT_FAILED = 1;
    static final int EXIT_USAGE = 2;

    static final String USAGE = """
            usage: java -cp <classpath> io.gtran.lbv.LbvChildMain --system <LbvSystem class> [--option key=value]...
                   --dataset social|kronecker|grateful-dead [--edges N] [--seed S] [--workload RO|RI|WI|MIX]
                   [--threads T] [--seconds D] [--warmup W] [--latency] [--latency-runs N]
                   [--latency-seconds B] [--max-retries R] [--skew THETA]
              --system           FQCN of an LbvSystem with a public (java.util.Map<String,String>) constructor
              --option k=v       passed to that constructor; repeatable
              --edges N          target edge count (default 1000000)
              --seed S           dataset and query seed (default 1)
              --workload W       RO, RI, WI or MIX (default MIX)
              --threads T        client threads (default 1)
              --seconds D        measured run in seconds, may be fractional; 0 skips it (default 10)
              --warmup W         warm-up seconds before it (default 2)
              --latency          afterwards, run each latency query (IS1-IS4, KHOP1-4) single-threaded
              --latency-runs N   measured runs per latency query (default 20)
              --latency-seconds B  time budget per latency query (default 30)
              --max-retries R    retries of an aborted query before it counts as failed (default 20)
              --skew THETA       Zipf theta of the throughput queries' vertices and edges (not those
                                 Q18 and Q19 remove), in [0, 5); 0 is uniform (default 0)
            """;

    private LbvChildMain() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** {@link #main} without the exit, for tests. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        ChildArgs a;
        Dataset dataset;
        LbvSystem system;
        try {
            a = ChildArgs.parse(args);
            dataset = Datasets.open(a.dataset, a.edges, a.seed);
            system = construct(a.system, a.options);
        } catch (UsageException | IllegalArgumentException e) {
            err.println("LBV_USAGE " + e.getMessage());
            err.print(USAGE);
            return EXIT_USAGE;
        } catch (RuntimeException | LinkageError e) {
            return failed(err, "constructing system=" + args(args, "--system"), e);
        }
        LbvRunner.Config config = new LbvRunner.Config(a.dataset, a.edges, a.seed, a.workload, a.threads, a.seconds,
                a.warmup, a.latency, a.latencyRuns, a.latencySeconds, a.maxRetries, a.skew);
        LbvResult result;
        try {
            result = new LbvRunner(config, err).run(system, dataset, a.system, a.options);
        } catch (RuntimeException | LinkageError e) {
            closeQuietly(system, err);
            return failed(err, "system=" + a.system + " run", e);
        }
        int status = EXIT_OK;
        try {
            system.close();
        } catch (RuntimeException e) {
            status = failed(err, "system=" + a.system + " close", e);
        }
        err.print(result.table());
        err.println("LBV_SUMMARY " + result.summary());
        err.flush();
        out.println(LbvResult.LINE_PREFIX + result.toJson());
        out.flush();
        return status;
    }

    private static LbvSystem construct(String className, Map<String, String> options) throws UsageException {
        Class<?> type;
        try {
            type = Class.forName(className);
        } catch (ClassNotFoundException e) {
            throw new UsageException("system=" + className + " is not on the classpath");
        }
        if (!LbvSystem.class.isAssignableFrom(type)) {
            throw new UsageException("system=" + className + " does not implement " + LbvSystem.class.getName());
        }
        Constructor<?> constructor;
        try {
            constructor = type.getConstructor(Map.class);
        } catch (NoSuchMethodException e) {
            throw new UsageException("system=" + className + " has no public constructor taking java.util.Map");
        }
        try {
            return (LbvSystem) constructor.newInstance(Map.copyOf(options));
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof IllegalArgumentException bad) {
                throw new UsageException("system=" + className + " rejected options=" + options + ": " + bad.getMessage());
            }
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new UsageException("system=" + className + " cannot be constructed: " + e);
        }
    }

    private static int failed(PrintStream err, String what, Throwable e) {
        err.println("LBV_ERROR " + what + " failed: " + e);
        e.printStackTrace(err);
        err.flush();
        return EXIT_FAILED;
    }

    private static void closeQuietly(LbvSystem system, PrintStream err) {
        try {
            system.close();
        } catch (RuntimeException e) {
            err.println("LBV_WARN close after a failed run failed too: " + e);
        }
    }

    private static String args(String[] args, String flag) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(flag)) {
                return args[i + 1];
            }
        }
        return "?";
    }

    /** A bad command line; its message names the argument and the bad value. */
    static final class UsageException extends Exception {
        UsageException(String message) {
            super(message);
        }
    }

    /** The parsed command line. */
    static final class ChildArgs {
        String system;
        final Map<String, String> options = new LinkedHashMap<>();
        String dataset;
        long edges = 1_000_000;
        long seed = 1;
        Workload workload = Workload.MIX;
        int threads = 1;
        double seconds = 10;
        double warmup = 2;
        boolean latency;
        int latencyRuns = 20;
        double latencySeconds = 30;
        int maxRetries = LbvRunner.DEFAULT_MAX_RETRIES;
        double skew;

        static ChildArgs parse(String[] args) throws UsageException {
            ChildArgs a = new ChildArgs();
            for (int i = 0; i < args.length; i++) {
                String flag = args[i];
                if (flag.equals("--latency")) {
                    a.latency = true;
                    continue;
                }
                if (flag.equals("--help") || flag.equals("-h")) {
                    throw new UsageException("help");
                }
                if (i + 1 >= args.length) {
                    throw new UsageException("argument=" + flag + (flag.startsWith("--") ? " needs a value" : " is unknown"));
                }
                String value = args[++i];
                switch (flag) {
                    case "--system" -> a.system = value;
                    case "--option" -> {
                        int eq = value.indexOf('=');
                        if (eq <= 0) {
                            throw new UsageException("option=" + value + " is not key=value");
                        }
                        a.options.put(value.substring(0, eq), value.substring(eq + 1));
                    }
                    case "--dataset" -> a.dataset = value;
                    case "--edges" -> a.edges = positive("edges", parseLong("edges", value));
                    case "--seed" -> a.seed = parseLong("seed", value);
                    case "--workload" -> a.workload = workload(value);
                    case "--threads" -> a.threads = (int) positive("threads", parseLong("threads", value));
                    case "--seconds" -> a.seconds = nonNegative("seconds", parseDouble("seconds", value));
                    case "--warmup" -> a.warmup = nonNegative("warmup", parseDouble("warmup", value));
                    case "--latency-runs" -> a.latencyRuns = (int) positive("latency-runs", parseLong("latency-runs", value));
                    case "--latency-seconds" -> a.latencySeconds =
                            positive("latency-seconds", parseDouble("latency-seconds", value));
                    case "--max-retries" -> a.maxRetries = (int) nonNegative("max-retries", parseLong("max-retries", value));
                    case "--skew" -> a.skew = skew(parseDouble("skew", value));
                    default -> throw new UsageException("argument=" + flag + " is unknown");
                }
            }
            if (a.system == null) {
                throw new UsageException("argument=--system is required");
            }
            if (a.dataset == null) {
                throw new UsageException("argument=--dataset is required");
            }
            return a;
        }

        private static Workload workload(String value) throws UsageException {
            try {
                return Workload.valueOf(value.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new UsageException("workload=" + value + " is not one of RO, RI, WI, MIX");
            }
        }

        private static long parseLong(String name, String value) throws UsageException {
            try {
                return Long.parseLong(value.replace("_", ""));
            } catch (NumberFormatException e) {
                throw new UsageException(name + "=" + value + " is not an integer");
            }
        }

        private static double parseDouble(String name, String value) throws UsageException {
            try {
                double d = Double.parseDouble(value);
                if (!Double.isFinite(d)) {
                    throw new NumberFormatException();
                }
                return d;
            } catch (NumberFormatException e) {
                throw new UsageException(name + "=" + value + " is not a number");
            }
        }

        private static double skew(double value) throws UsageException {
            if (value < 0 || value >= ParamSampler.MAX_SKEW) {
                throw new UsageException("skew=" + value + " must be in [0, " + ParamSampler.MAX_SKEW + ")");
            }
            return value;
        }

        private static long positive(String name, long value) throws UsageException {
            if (value <= 0 || value > Integer.MAX_VALUE && !name.equals("edges")) {
                throw new UsageException(name + "=" + value + " must be a positive integer");
            }
            return value;
        }

        private static double positive(String name, double value) throws UsageException {
            if (value <= 0) {
                throw new UsageException(name + "=" + value + " must be positive");
            }
            return value;
        }

        private static long nonNegative(String name, long value) throws UsageException {
            if (value < 0 || value > Integer.MAX_VALUE) {
                throw new UsageException(name + "=" + value + " must be 0 or more");
            }
            return value;
        }

        private static double nonNegative(String name, double value) throws UsageException {
            if (value < 0) {
                throw new UsageException(name + "=" + value + " must be 0 or more");
            }
            return value;
        }
    }
}
