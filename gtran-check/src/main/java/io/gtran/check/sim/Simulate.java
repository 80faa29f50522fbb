package io.gtran.check.sim;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

/**
 * {@code bin/gtran check simulate --nodes N --schedules K [--seed S] [--faults LIST] [--max-faults M]
 * [--loss-rule group|heard]}: runs K
 * simulated schedules of N nodes (schedule i from seed S+i; S is drawn and printed if not given),
 * on every core, prints each failing schedule with its seed, its faults and how to replay it, and
 * ends with {@code SIMULATION nodes=N schedules=K violations=V seed=S}. Exit status 1 if a schedule
 * failed, 2 for bad arguments.
 */
public final class Simulate {
    private Simulate() {
    }

    /** What the command line asks for. */
    record Options(int nodes, int schedules, long seed, Set<Fault> faults, int maxFaults, LossRule lossRule, boolean verbose,
            boolean log) {
        static Options parse(String[] args) {
            int nodes = 3;
            int schedules = 1000;
            Long seed = null;
            Set<Fault> faults = Fault.DEFAULT;
            int maxFaults = 3;
            LossRule lossRule = LossRule.GROUP;
            boolean verbose = false;
            boolean log = false;
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                if (arg.equals("--verbose")) {
                    verbose = true;
                    continue;
                }
                if (arg.equals("--log")) {
                    log = true; // the real code's log, for replaying one schedule
                    continue;
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(arg + " needs a value");
                }
                String value = args[++i];
                switch (arg) {
                    case "--nodes" -> nodes = number(arg, value, 2, 16);
                    case "--schedules" -> schedules = number(arg, value, 1, 10_000_000);
                    case "--seed" -> seed = longNumber(arg, value);
                    case "--faults" -> faults = Fault.parse(value);
                    case "--max-faults" -> maxFaults = number(arg, value, 1, 20);
                    case "--loss-rule" -> lossRule = LossRule.parse(value);
                    default -> throw new IllegalArgumentException("unknown option " + arg
                            + "; options: --nodes N --schedules K [--seed S] [--faults LIST] [--max-faults M] [--loss-rule group|heard] [--verbose] [--log]");
                }
            }
            return new Options(nodes, schedules, seed != null ? seed : new java.security.SecureRandom().nextLong() >>> 16, faults,
                    maxFaults, lossRule, verbose, log);
        }

        private static int number(String option, String value, int min, int max) {
            long n = longNumber(option, value);
            if (n < min || n > max) {
                throw new IllegalArgumentException(option + " must be in [" + min + ", " + max + "]: " + option + "=" + value);
            }
            return (int) n;
        }

        private static long longNumber(String option, String value) {
            try {
                return Long.parseLong(value.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + " must be a whole number: " + option + "=" + value);
            }
        }
    }

    /** Every schedule's result, failing ones first, and the totals. */
    record Summary(Options options, List<Simulation.Result> failures, long committed, long events, long millis) {
        int violations() {
            return failures.stream().mapToInt(r -> r.violations().size()).sum();
        }
    }

    public static void main(String[] args) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("gtran check simulate: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (!options.log()) {
            Quiet.logging();
        }
        Summary summary = run(options, System.out);
        System.exit(summary.failures().isEmpty() ? 0 : 1);
    }

    /** Runs the schedules and prints what {@link #main} prints. */
    static Summary run(Options options, PrintStream out) {
        long start = System.nanoTime();
        ConcurrentLinkedQueue<Simulation.Result> failures = new ConcurrentLinkedQueue<>();
        AtomicLong committed = new AtomicLong();
        AtomicLong events = new AtomicLong();
        AtomicLong inDoubt = new AtomicLong();
        LongStream.range(0, options.schedules()).parallel().forEach(i -> {
            Simulation.Result result = new Simulation(options.seed() + i, options.nodes(), options.faults(), options.maxFaults(),
                    options.lossRule()).run();
            committed.addAndGet(result.committed());
            events.addAndGet(result.events());
            inDoubt.addAndGet(result.inDoubt());
            if (!result.violations().isEmpty()) {
                failures.add(result);
            }
            if (options.verbose()) {
                out.println("schedule seed=" + result.seed() + " committed=" + result.committed() + " aborted=" + result.aborted()
                        + " unknown=" + result.unknown() + " in_doubt=" + result.inDoubt() + " events=" + result.events()
                        + " faults=" + result.faults());
            }
        });
        List<Simulation.Result> failed = new ArrayList<>(failures);
        failed.sort(Comparator.comparingLong(Simulation.Result::seed));
        for (Simulation.Result result : failed) {
            out.println("VIOLATION seed=" + result.seed() + " faults=" + result.faults());
            for (String violation : result.violations()) {
                out.println("  " + violation);
            }
            out.println("  replay: bin/gtran check simulate --nodes " + options.nodes() + " --schedules 1 --seed " + result.seed()
                    + " --faults " + String.join(",", options.faults().stream().map(Fault::toString).toList())
                    + " --max-faults " + options.maxFaults() + " --loss-rule " + options.lossRule());
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        Summary summary = new Summary(options, failed, committed.get(), events.get(), millis);
        out.println(String.format(Locale.ROOT, "SIMULATION nodes=%d schedules=%d violations=%d seed=%d committed=%d events=%d"
                + " failing_schedules=%d in_doubt=%d seconds=%.1f", options.nodes(), options.schedules(), summary.violations(),
                options.seed(), summary.committed(), summary.events(), failed.size(), inDoubt.get(), millis / 1000.0));
        return summary;
    }
}
