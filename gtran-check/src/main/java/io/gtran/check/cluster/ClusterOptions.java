package io.gtran.check.cluster;

import java.nio.file.Path;
import java.util.List;

/** The parsed command line of {@link ClusterCheck}; {@link #parse} names the bad option in its message. */
record ClusterOptions(Path hosts, String workload, String graphSource, int seconds, int threads, int keys, long seed,
        String schedule, long faultMillis, List<String> clusterCmd, String isolationLabel, long lockBoundMillis, long callTimeoutMillis,
        boolean help) {
    static final List<String> WORKLOADS = List.of("list-append", "bank");
    static final List<String> SCHEDULES = List.of("none", "kill", "restart", "crash", "pause", "partition", "isolate", "master", "link", "oneway", "delay-loss",
            "clock-jump");
    static final String USAGE = "usage: bin/gtran check cluster --hosts FILE [--workload list-append|bank] [--graph-source g]"
            + " [--seconds S] [--threads T] [--keys K] [--seed S]"
            + " [--schedule none|kill|restart|crash|pause|partition|isolate|master|link|oneway|delay-loss|clock-jump] [--fault-ms MS] [--cluster-cmd \"CMD\"]"
            + " [--isolation-label SR|SI] [--lock-bound-ms MS] [--call-timeout-ms MS]\n"
            + "  defaults: --workload list-append --graph-source g --seconds 30 --threads 6 --keys 24 --seed (time)"
            + " --schedule none --fault-ms S*1000/3 --lock-bound-ms 10000 --call-timeout-ms 15000; --cluster-cmd is required unless --schedule none";

    static ClusterOptions parse(String[] args) {
        Path hosts = null;
        String workload = "list-append";
        String source = "g";
        int seconds = 30;
        int threads = 6;
        int keys = 24;
        long seed = System.nanoTime() & 0xffffff;
        String schedule = "none";
        long faultMillis = 0; // S/3
        List<String> cmd = List.of();
        String label = "SR";
        long lockBound = 10_000;
        long callTimeout = 15_000;
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            if (name.equals("--help") || name.equals("-h")) {
                return new ClusterOptions(hosts, workload, source, seconds, threads, keys, seed, schedule, faultMillis, cmd, label, lockBound,
                        callTimeout, true);
            }
            if (!name.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument: " + name);
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(name + " needs a value");
            }
            String value = args[++i];
            switch (name) {
                case "--hosts" -> hosts = Path.of(value);
                case "--workload" -> workload = oneOf(name, value, WORKLOADS);
                case "--graph-source" -> source = value;
                case "--seconds" -> seconds = (int) number(name, value, 3, 86_400);
                case "--threads" -> threads = (int) number(name, value, 1, 1024);
                case "--keys" -> keys = (int) number(name, value, 2, 100_000);
                case "--seed" -> seed = number(name, value, Long.MIN_VALUE, Long.MAX_VALUE);
                case "--schedule" -> schedule = oneOf(name, value, SCHEDULES);
                case "--fault-ms" -> faultMillis = number(name, value, 100, 86_400_000);
                case "--cluster-cmd" -> cmd = List.of(value.trim().split("\\s+"));
                case "--isolation-label" -> label = oneOf(name, value, List.of("SR", "SI"));
                case "--lock-bound-ms" -> lockBound = number(name, value, 1, 3_600_000);
                case "--call-timeout-ms" -> callTimeout = number(name, value, 100, 3_600_000);
                default -> throw new IllegalArgumentException("unknown option: " + name);
            }
        }
        if (hosts == null) {
            throw new IllegalArgumentException("--hosts is required");
        }
        if (!schedule.equals("none") && (cmd.isEmpty() || cmd.get(0).isEmpty())) {
            throw new IllegalArgumentException("--cluster-cmd is required with --schedule " + schedule);
        }
        if (faultMillis == 0) {
            faultMillis = seconds * 1000L / 3;
        }
        if (faultMillis >= seconds * 1000L * 2 / 3) {
            throw new IllegalArgumentException("--fault-ms must leave load after the heal: under two thirds of --seconds "
                    + seconds + ": " + faultMillis);
        }
        return new ClusterOptions(hosts, workload, source, seconds, threads, keys, seed, schedule, faultMillis, cmd, label, lockBound,
                callTimeout, false);
    }

    private static String oneOf(String name, String value, List<String> allowed) {
        if (!allowed.contains(value)) {
            throw new IllegalArgumentException(name + " must be one of " + String.join(", ", allowed) + ": " + value);
        }
        return value;
    }

    private static long number(String name, String value, long min, long max) {
        try {
            long n = Long.parseLong(value.trim());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(name + " must be an integer in [" + min + ", " + max + "]: " + value);
    }
}
