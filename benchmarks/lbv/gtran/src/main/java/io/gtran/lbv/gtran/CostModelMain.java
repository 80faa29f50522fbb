package io.gtran.lbv.gtran;

import io.gtran.lbv.Dataset;
import io.gtran.lbv.Datasets;
import io.gtran.lbv.LbvQuery;
import io.gtran.lbv.ValuePool;
import io.gtran.lbv.Workload;
import io.gtran.lbv.gtran.CostInputs.Measured;
import io.gtran.lbv.gtran.CostInputs.Ping;
import io.gtran.lbv.gtran.CostModel.Cluster;
import io.gtran.lbv.gtran.CostModel.Link;
import io.gtran.lbv.gtran.CostModel.Projection;
import io.gtran.lbv.gtran.CostModel.QueryCost;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code bin/gtran bench model}: measures the cost model's inputs on this machine ({@link
 * CostInputs}), then projects LBV throughput to clusters of 16-core machines ({@link CostModel})
 * and prints it beside G-Tran's published figures (docs/cost-model.md). Ends with a {@code
 * MODEL} line per projection and writes them, with the inputs, as JSON to {@code --out}.
 */
public final class CostModelMain {
    /** The nodes the messages are measured on (node 0 coordinating, as in {@code bench lbv-messages}). */
    static final int MEASURED_NODES = 3;
    static final List<String> ISOLATIONS = List.of("SR", "SI");

    private CostModelMain() {
    }

    /** The command line, checked. */
    record Options(String dataset, long edges, int runs, int warmup, int rtRuns, int probeLatencyUs, int checkNodes,
                   int pingRoundTrips, int threads, double mixSeconds, boolean serialMessageCost, List<String> isolations, long seed, List<Integer> nodes, int cores, double utilisation, int clientsPerNode,
                   double bandwidthGbps, Map<String, Double> links, double abortRate, double cpuScale, Path out) {
        static Options parse(String... args) {
            String dataset = "social";
            long edges = 20_000;
            int runs = 200;
            int warmup = 500;
            int rtRuns = 30;
            int probe = 1000;
            int check = 5; // 4 would do, but loading the default dataset into 4 in-JVM nodes fails (docs/cost-model.md)
            int ping = 20_000;
            int threads = 8;
            double mixSeconds = 5;
            boolean serial = false;
            List<String> isolations = ISOLATIONS;
            long seed = 1;
            List<Integer> nodes = List.of(4, 8, 10);
            int cores = 16;
            double utilisation = 1.0;
            int clients = 20;
            double bandwidth = 40;
            Map<String, Double> links = new LinkedHashMap<>(Map.of("tcp", 25.0));
            links.put("rdma", 3.0);
            double abort = 0.0826;
            double cpuScale = 1.0;
            Path out = Path.of("target/model/model.json");
            for (int i = 0; i < args.length; i++) {
                String flag = args[i];
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(flag.startsWith("--") ? "option " + flag + " needs a value"
                            : "unknown argument: " + flag);
                }
                String value = args[++i];
                switch (flag) {
                    case "--dataset" -> dataset = value;
                    case "--edges" -> edges = (long) number(flag, value, 1, 1e12);
                    case "--runs" -> runs = (int) number(flag, value, 1, 1e6);
                    case "--warmup" -> warmup = (int) number(flag, value, 0, 1e6);
                    case "--rt-runs" -> rtRuns = (int) number(flag, value, 1, 1e6);
                    case "--probe-latency-us" -> probe = (int) number(flag, value, 1, 100_000);
                    case "--check-nodes" -> check = (int) number(flag, value, 0, GtranClusterLbvSystem.MAX_NODES);
                    case "--ping" -> ping = (int) number(flag, value, 100, 1e8);
                    case "--isolations" -> {
                        isolations = List.of(value.split(","));
                        if (isolations.size() != 2 || !isolations.containsAll(ISOLATIONS)) {
                            throw new IllegalArgumentException("option --isolations is SR,SI or SI,SR (the order they are measured in): "
                                    + flag + " " + value);
                        }
                    }
                    case "--threads" -> threads = (int) number(flag, value, 1, 1024);
                    case "--mix-seconds" -> mixSeconds = number(flag, value, 0.1, 3600);
                    case "--msg-cost" -> {
                        if (!value.equals("concurrent") && !value.equals("serial")) {
                            throw new IllegalArgumentException("option --msg-cost is concurrent or serial: --msg-cost " + value);
                        }
                        serial = value.equals("serial");
                    }
                    case "--seed" -> seed = Long.parseLong(value);
                    case "--nodes" -> {
                        List<Integer> list = new ArrayList<>();
                        for (String n : value.split(",")) {
                            list.add((int) number(flag, n.trim(), 1, 100_000));
                        }
                        nodes = List.copyOf(list);
                    }
                    case "--cores" -> cores = (int) number(flag, value, 1, 1e6);
                    case "--utilisation" -> utilisation = number(flag, value, 1e-6, 1);
                    case "--clients-per-node" -> clients = (int) number(flag, value, 1, 1e6);
                    case "--bandwidth-gbps" -> bandwidth = number(flag, value, 1e-6, 1e6);
                    case "--link" -> links = links(flag, value);
                    case "--abort-rate" -> abort = number(flag, value, 0, 0.999);
                    case "--cpu-scale" -> cpuScale = number(flag, value, 1e-3, 1e3);
                    case "--out" -> out = Path.of(value);
                    default -> throw new IllegalArgumentException("unknown option: " + flag);
                }
            }
            if (!Datasets.NAMES.contains(dataset)) {
                throw new IllegalArgumentException("unknown dataset: --dataset " + dataset + " (known: " + Datasets.NAMES + ")");
            }
            if (check == 1 || check == MEASURED_NODES) {
                throw new IllegalArgumentException("option --check-nodes is 0 (no check) or a count other than 1 and "
                        + MEASURED_NODES + ": --check-nodes " + check);
            }
            return new Options(dataset, edges, runs, warmup, rtRuns, probe, check, ping, threads, mixSeconds, serial, isolations, seed, nodes, cores, utilisation,
                    clients, bandwidth, links, abort, cpuScale, out);
        }

        /** {@code tcp=25,rdma=3}: round trip µs per link; the name says which CPU per message it takes. */
        static Map<String, Double> links(String flag, String value) {
            Map<String, Double> links = new LinkedHashMap<>();
            for (String part : value.split(",")) {
                String[] kv = part.trim().split("=", 2);
                if (kv.length != 2 || !(kv[0].equals("tcp") || kv[0].equals("rdma"))) {
                    throw new IllegalArgumentException("option " + flag + " takes tcp=RTT_US and/or rdma=RTT_US: " + flag + " " + value);
                }
                links.put(kv[0], number(flag, kv[1], 0, 1e7));
            }
            return links;
        }

        private static double number(String flag, String value, double min, double max) {
            double n;
            try {
                n = Double.parseDouble(value.replace("_", ""));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("option " + flag + " takes a number: " + flag + " " + value);
            }
            if (!(n >= min && n <= max)) {
                throw new IllegalArgumentException("option " + flag + " must be in [" + min + ", " + max + "]: " + flag + " " + value);
            }
            return n;
        }
    }

    /** G-Tran's published figures (paper §6.1.1, Figure 5: 8 machines, 20 threads each, LDBC-L, 50/50 mix). */
    static final String GTRAN_FIGURES = """
            G-Tran, 8 machines x 2x8-core E5-2620v4, 40 Gbps ConnectX-3 InfiniBand, 20 threads/machine, LDBC-L (495M edges), LBV 50/50 mix:
              SR 7.55K tx/s; No-Opt SR 4.49K tx/s (paper text, sec. 6.1.1, Fig. 5a)
              SI 10.89K tx/s; abort rate 8.26% at SR (Fig. 5, as the issue quotes it; not in the paper's text)
              Cent (central coordinator) SR 4K tx/s (LDBC-L), 7.66K (Amazon); IPoIB 30-50% below G-Tran (sec. 6.1.1)
              4-10 machines, RO/RI/WI: Figs. 7-9 (values in the plots only)""";

    public static void main(String[] args) throws Exception {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("gtran bench model: " + e.getMessage());
            System.err.println("usage: bin/gtran bench model [--edges E] [--runs R] [--warmup W] [--rt-runs R] [--probe-latency-us L]"
                    + " [--check-nodes N] [--ping P] [--threads T] [--mix-seconds S] [--msg-cost concurrent|serial] [--isolations SR,SI] [--seed S] [--nodes 4,8,10] [--cores 16] [--utilisation U]"
                    + " [--clients-per-node C] [--bandwidth-gbps B] [--link tcp=25,rdma=3] [--abort-rate A] [--cpu-scale F] [--out FILE]");
            System.exit(2);
            return;
        }
        run(options, System.out);
    }

    static void run(Options o, PrintStream out) throws Exception {
        long started = System.nanoTime();
        double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        Dataset dataset = Datasets.open(o.dataset(), o.edges(), o.seed());
        ValuePool pool = ValuePool.collect(dataset, o.seed());
        out.printf(Locale.ROOT, "# bench model: dataset=%s vertices=%d edges=%d runs=%d warmup=%d rt_runs=%d probe_latency_us=%d"
                        + " seed=%d cpus=%d load_average=%.2f%n", o.dataset(), dataset.info().vertices(), dataset.info().edges(),
                o.runs(), o.warmup(), o.rtRuns(), o.probeLatencyUs(), o.seed(), Runtime.getRuntime().availableProcessors(), loadBefore);
        CostInputs.Draws draws = CostInputs.Draws.of(pool, o.seed(), o.warmup(), o.runs());
        CostInputs.Draws rtDraws = CostInputs.Draws.of(pool, o.seed(), Math.min(o.warmup(), 5), o.rtRuns()); // the JIT is warm by then

        CostInputs.MixRun mix = new CostInputs.MixRun(pool, o.threads(), o.mixSeconds(), o.seed());
        Map<String, Map<LbvQuery, QueryCost>> costs = new LinkedHashMap<>();
        Map<String, double[]> perMessage = new LinkedHashMap<>(); // [0] one client, [1] the mix under concurrency
        Map<String, Object> json = new LinkedHashMap<>();
        Map<String, Object> inputs = new LinkedHashMap<>();
        // A throwaway pass first: whichever isolation was measured first ran 2-4x dearer on one node (SI first as much as
        // SR first), the JIT still compiling; the second was not.
        CostInputs.local(dataset, Map.of(GtranLbvSystem.ISOLATION, o.isolations().get(0)), draws, null);
        for (String isolation : o.isolations()) {
            CostInputs.Phase local = CostInputs.local(dataset, Map.of(GtranLbvSystem.ISOLATION, isolation), draws, mix);
            CostInputs.Phase cluster = CostInputs.cluster(dataset, Map.of(GtranLbvSystem.ISOLATION, isolation,
                    GtranClusterLbvSystem.NODES, Integer.toString(MEASURED_NODES)), draws, mix);
            CostInputs.Phase slow = CostInputs.cluster(dataset, Map.of(GtranLbvSystem.ISOLATION, isolation,
                    GtranClusterLbvSystem.NODES, Integer.toString(MEASURED_NODES),
                    GtranClusterLbvSystem.LINK_LATENCY_US, Integer.toString(o.probeLatencyUs())), rtDraws, null);
            Map<LbvQuery, QueryCost> byQuery = new EnumMap<>(LbvQuery.class);
            // The calling thread's CPU leaves out the JVM's GC and JIT threads; the OS's process CPU counts them, in 10 ms
            // ticks, and with the JIT's and GC's work that runs when it likes (under load it swung 1.7x-2.4x between runs).
            // Their ratio is printed as a check, not applied.
            double threadSum = 0;
            double processSum = 0;
            for (LbvQuery q : LbvQuery.values()) {
                threadSum += local.perQuery().get(q).threadCpuUs();
                processSum += local.perQuery().get(q).processCpuUs();
            }
            double localFactor = threadSum == 0 ? 1 : Math.max(1, processSum / threadSum);
            double extraCpu = 0;
            double extraProcess = 0;
            double messages = 0;
            List<Object> rows = new ArrayList<>();
            out.printf(Locale.ROOT, "%n## inputs at %s, per run (CPU: 1 node, embedded; messages, round trips: %d in-JVM nodes,"
                    + " node 0 coordinating; one client)%n", isolation, MEASURED_NODES);
            out.println("| query | CPU us, calling thread (1 node) | CPU us, all threads (1 node) | wall us (1 node) | messages | bytes |"
                    + " CPU us, all threads (3 nodes) | wall us (3 nodes) | wall us (3 nodes, +" + o.probeLatencyUs()
                    + " us/msg) | round trips | failed (1 node / 3 / 3 slow) |");
            out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
            for (LbvQuery q : LbvQuery.values()) {
                Measured l = local.perQuery().get(q);
                Measured c = cluster.perQuery().get(q);
                Measured s = slow.perQuery().get(q);
                double roundTrips = Math.max(0, (s.wallUs() - c.wallUs()) / (2.0 * o.probeLatencyUs()));
                byQuery.put(q, new QueryCost(q, l.threadCpuUs() * o.cpuScale(), c.messages(), c.bytes(), roundTrips));
                extraCpu += c.allThreadsCpuUs() - l.allThreadsCpuUs();
                extraProcess += c.processCpuUs() - l.processCpuUs();
                messages += c.messages();
                out.printf(Locale.ROOT, "| %s | %.1f | %.1f | %.1f | %.1f | %.0f | %.1f | %.1f | %.1f | %.2f | %d / %d / %d |%n", q,
                        l.threadCpuUs(), l.allThreadsCpuUs(), l.wallUs(), c.messages(), c.bytes(), c.allThreadsCpuUs(), c.wallUs(),
                        s.wallUs(), roundTrips, l.failed(), c.failed(), s.failed());
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("query", q.name());
                row.put("thread_cpu_us_1node", l.threadCpuUs());
                row.put("all_threads_cpu_us_1node", l.allThreadsCpuUs());
                row.put("process_cpu_us_1node", l.processCpuUs());
                row.put("wall_us_1node", l.wallUs());
                row.put("messages_3nodes", c.messages());
                row.put("bytes_3nodes", c.bytes());
                row.put("all_threads_cpu_us_3nodes", c.allThreadsCpuUs());
                row.put("process_cpu_us_3nodes", c.processCpuUs());
                row.put("wall_us_3nodes", c.wallUs());
                row.put("wall_us_3nodes_probe", s.wallUs());
                row.put("round_trips_3nodes", roundTrips);
                row.put("failed", List.of(l.failed(), c.failed(), s.failed()));
                rows.add(row);
            }
            // Java threads' CPU (ns clocks) is the input; the process's (GC and JIT included, noisy) is printed beside it.
            double serial = messages == 0 ? 0 : Math.max(0, extraCpu / messages);
            double serialProcess = messages == 0 ? 0 : Math.max(0, extraProcess / messages);
            CostInputs.Concurrent lm = local.mix();
            CostInputs.Concurrent cm = cluster.mix();
            double concurrent = cm.messages() == 0 ? 0 : Math.max(0, (cm.allThreadsCpuUs() - lm.allThreadsCpuUs()) / cm.messages());
            double concurrentProcess = cm.messages() == 0 ? 0 : Math.max(0, (cm.processCpuUs() - lm.processCpuUs()) / cm.messages());
            out.printf(Locale.ROOT, "CPU per query on 1 node: the calling thread's (process CPU / calling-thread CPU, summed over"
                    + " query types, GC and JIT included: %.2f, not applied)%n", localFactor);
            out.printf(Locale.ROOT, "CPU per message, gtran over the in-JVM fabric, one client (sum over query types of 3-node"
                    + " - 1-node CPU of all Java threads, / sum of messages): %.2f us (OS process CPU: %.2f us)%n", serial, serialProcess);
            out.printf(Locale.ROOT, "MIX with %d clients for %.0f s: 1 node %.0f attempts/s, %.1f us process CPU per attempt"
                            + " (Java threads %.1f; failed %d of %d); 3 nodes %.0f attempts/s, %.1f us process CPU (Java threads %.1f)"
                            + " and %.1f messages per attempt (failed %d of %d)%n", o.threads(),
                    o.mixSeconds(), lm.attemptsPerSecond(), lm.processCpuUs(), lm.allThreadsCpuUs(), lm.failed(), lm.attempts(),
                    cm.attemptsPerSecond(), cm.processCpuUs(), cm.allThreadsCpuUs(), cm.messages(), cm.failed(), cm.attempts());
            out.printf(Locale.ROOT, "CPU per message, gtran over the in-JVM fabric, MIX with %d clients ((3-node - 1-node CPU of all"
                    + " Java threads per attempt) / messages per attempt): %.2f us (OS process CPU: %.2f us)%n", o.threads(), concurrent,
                    concurrentProcess);
            costs.put(isolation, byQuery);
            perMessage.put(isolation, new double[] {serial, concurrent});
            Map<String, Object> summary = new LinkedHashMap<>();
            summary.put("queries", rows);
            summary.put("cpu_per_message_us_in_jvm_one_client", serial);
            summary.put("cpu_per_message_us_in_jvm_one_client_os_process", serialProcess);
            summary.put("cpu_per_message_us_in_jvm_mix_concurrent_os_process", concurrentProcess);
            summary.put("local_cpu_factor", localFactor);
            summary.put("cpu_per_message_us_in_jvm_mix_concurrent", concurrent);
            summary.put("mix_1node", mixJson(lm));
            summary.put("mix_3nodes", mixJson(cm));
            inputs.put(isolation, summary);
        }

        if (o.checkNodes() > 0) {
            try {
                checkScaling(o, dataset, draws, costs.get("SR"), out, inputs);
            } catch (RuntimeException e) { // a check, not an input: say why it failed and go on
                out.printf(Locale.ROOT, "SCALING_CHECK nodes=%d failed: %s%n", o.checkNodes(), e);
                inputs.put("scaling_check_failed", e.toString());
            }
        }

        List<Ping> pings = new ArrayList<>();
        for (String transport : List.of("in-jvm", "netty")) {
            for (int inFlight : List.of(1, 16)) {
                pings.add(CostInputs.ping(transport, o.pingRoundTrips(), inFlight, 64));
            }
        }
        out.printf(Locale.ROOT, "%n## the bare transport: 64-byte messages echoed node 0 -> node 1 -> node 0, two fabrics in this JVM%n");
        out.println("| transport | in flight | round trips | CPU us per message (both ends, all Java threads) | wall us per round trip |");
        out.println("|---|---:|---:|---:|---:|");
        List<Object> pingJson = new ArrayList<>();
        for (Ping p : pings) {
            out.printf(Locale.ROOT, "| %s | %d | %d | %.2f | %.2f |%n", p.transport(), p.inFlight(), p.roundTrips(), p.cpuPerMessageUs(),
                    p.roundTripUs());
            pingJson.add(Map.of("transport", p.transport(), "in_flight", p.inFlight(), "round_trips", p.roundTrips(),
                    "cpu_per_message_us", p.cpuPerMessageUs(), "round_trip_us", p.roundTripUs()));
        }
        inputs.put("ping", pingJson);
        // TCP adds to gtran's in-JVM per-message cost what the bare TCP transport costs over the bare in-JVM one, at the
        // matching concurrency (one in flight for the one-client figure, 16 for the mix); RDMA keeps the in-JVM cost, a
        // stand-in for a kernel-bypass transport.
        double[] transportDelta = {Math.max(0, pings.get(2).cpuPerMessageUs() - pings.get(0).cpuPerMessageUs()),
                Math.max(0, pings.get(3).cpuPerMessageUs() - pings.get(1).cpuPerMessageUs())};
        out.printf(Locale.ROOT, "TCP over in-JVM, CPU per message: +%.2f us one in flight, +%.2f us 16 in flight (added for link tcp)%n",
                transportDelta[0], transportDelta[1]);
        inputs.put("tcp_minus_in_jvm_cpu_per_message_us", Map.of("one_in_flight", transportDelta[0], "in_flight_16", transportDelta[1]));
        json.put("inputs", inputs);
        int chosen = o.serialMessageCost() ? 0 : 1;
        Map<String, Double> linkCpu = new LinkedHashMap<>();
        for (String isolation : ISOLATIONS) {
            for (String link : o.links().keySet()) {
                linkCpu.put(link + "/" + isolation, perMessage.get(isolation)[chosen] + (link.equals("tcp") ? transportDelta[chosen] : 0));
            }
        }
        out.printf(Locale.ROOT, "CPU per message used (--msg-cost %s): %s%n", o.serialMessageCost() ? "serial" : "concurrent",
                format(linkCpu));

        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("nodes", o.nodes());
        parameters.put("cores", o.cores());
        parameters.put("utilisation", o.utilisation());
        parameters.put("clients_per_node", o.clientsPerNode());
        parameters.put("bandwidth_gbps", o.bandwidthGbps());
        parameters.put("link_rtt_us", o.links());
        parameters.put("abort_rate", o.abortRate());
        parameters.put("cpu_scale", o.cpuScale());
        parameters.put("measured_nodes", MEASURED_NODES);
        parameters.put("msg_cost", o.serialMessageCost() ? "serial" : "concurrent");
        parameters.put("cpu_per_message_us", linkCpu);
        json.put("parameters", parameters);

        List<Projection> projections = new ArrayList<>();
        for (int n : o.nodes()) {
            Cluster cluster = new Cluster(n, o.cores(), o.utilisation(), o.clientsPerNode(), o.bandwidthGbps());
            for (Map.Entry<String, Double> link : o.links().entrySet()) {
                for (Workload workload : List.of(Workload.MIX, Workload.RO, Workload.RI, Workload.WI)) {
                    for (String isolation : ISOLATIONS) {
                        projections.add(CostModel.project(costs.get(isolation), MEASURED_NODES, cluster,
                                new Link(link.getKey(), link.getValue(), linkCpu.get(link.getKey() + "/" + isolation)), workload,
                                isolation, o.abortRate()));
                    }
                }
            }
        }
        out.printf(Locale.ROOT, "%n## projection: %s cores/node, utilisation %.2f, %d clients/node, %.0f Gbps, abort rate %.4f, CPU scale %.2f%n",
                o.cores(), o.utilisation(), o.clientsPerNode(), o.bandwidthGbps(), o.abortRate(), o.cpuScale());
        out.println("| nodes | link (RTT us) | workload | isolation | CPU us/query | msgs/query | round trips | response us |"
                + " CPU bound | latency bound | bandwidth bound | committed tx/s | bound |");
        out.println("|---:|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|");
        List<Object> projJson = new ArrayList<>();
        for (Projection p : projections) {
            out.printf(Locale.ROOT, "| %d | %s (%.0f) | %s | %s | %.1f | %.1f | %.2f | %.1f | %.0f | %.0f | %.3g | **%.0f** | %s |%n",
                    p.nodes(), p.link(), o.links().get(p.link()), p.workload(), p.isolation(), p.cpuUs(), p.messages(),
                    p.roundTrips(), p.responseUs(), p.cpuBound(), p.latencyBound(), p.bandwidthBound(), p.committed(),
                    p.bound().name().toLowerCase(Locale.ROOT));
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("nodes", p.nodes());
            row.put("link", p.link());
            row.put("workload", p.workload().name());
            row.put("isolation", p.isolation());
            row.put("cpu_us_per_query", p.cpuUs());
            row.put("messages_per_query", p.messages());
            row.put("bytes_per_query", p.bytes());
            row.put("round_trips_per_query", p.roundTrips());
            row.put("response_us", p.responseUs());
            row.put("cpu_bound", p.cpuBound());
            row.put("latency_bound", p.latencyBound());
            row.put("bandwidth_bound", p.bandwidthBound());
            row.put("attempts", p.attempts());
            row.put("committed", p.committed());
            row.put("bound", p.bound().name().toLowerCase(Locale.ROOT));
            projJson.add(row);
        }
        json.put("projections", projJson);
        out.printf("%n%s%n", GTRAN_FIGURES);
        for (Projection p : projections) {
            if (p.nodes() == 8 && p.workload() == Workload.MIX) {
                double published = p.isolation().equals("SR") ? 7_550 : 10_890;
                out.printf(Locale.ROOT, "MODEL nodes=8 link=%s workload=MIX isolation=%s projected=%.0f bound=%s gtran_published=%.0f"
                        + " ratio=%.1f%n", p.link(), p.isolation(), p.committed(), p.bound().name().toLowerCase(Locale.ROOT),
                        published, p.committed() / published);
            }
        }
        // The same 8-node 50/50 projection with the other per-message figure, to show how much rests on it.
        for (Map.Entry<String, Double> link : o.links().entrySet()) {
            for (String isolation : ISOLATIONS) {
                int other = 1 - chosen;
                double perMsg = perMessage.get(isolation)[other] + (link.getKey().equals("tcp") ? transportDelta[other] : 0);
                Projection p = CostModel.project(costs.get(isolation), MEASURED_NODES, new Cluster(8, o.cores(), o.utilisation(),
                        o.clientsPerNode(), o.bandwidthGbps()), new Link(link.getKey(), link.getValue(), perMsg), Workload.MIX, isolation,
                        o.abortRate());
                out.printf(Locale.ROOT, "MODEL_SENSITIVITY nodes=8 link=%s workload=MIX isolation=%s msg_cost=%s cpu_per_message_us=%.2f"
                        + " projected=%.0f bound=%s%n", p.link(), isolation, other == 0 ? "serial" : "concurrent", perMsg, p.committed(),
                        p.bound().name().toLowerCase(Locale.ROOT));
            }
        }
        double loadAfter = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        json.put("load_average", List.of(loadBefore, loadAfter));
        json.put("seconds", (System.nanoTime() - started) / 1e9);
        Path file = o.out();
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        Files.writeString(file, JsonText.write(json) + "\n", StandardCharsets.UTF_8);
        out.printf(Locale.ROOT, "# wrote %s in %.0f s; load average %.2f -> %.2f%n", file, (System.nanoTime() - started) / 1e9,
                loadBefore, loadAfter);
    }

    private static Map<String, Object> mixJson(CostInputs.Concurrent m) {
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("threads", m.threads());
        j.put("attempts", m.attempts());
        j.put("failed", m.failed());
        j.put("attempts_per_second", m.attemptsPerSecond());
        j.put("all_threads_cpu_us_per_attempt", m.allThreadsCpuUs());
        j.put("process_cpu_us_per_attempt", m.processCpuUs());
        j.put("messages_per_attempt", m.messages());
        return j;
    }

    private static String format(Map<String, Double> values) {
        StringBuilder b = new StringBuilder();
        values.forEach((k, v) -> b.append(b.length() == 0 ? "" : ", ").append(k).append('=').append(String.format(Locale.ROOT, "%.2f us", v)));
        return b.toString();
    }

    /** Measures messages on {@code --check-nodes} nodes and sets them beside what the model scales from 3 nodes. */
    private static void checkScaling(Options o, Dataset dataset, CostInputs.Draws draws, Map<LbvQuery, QueryCost> measured3,
                                     PrintStream out, Map<String, Object> inputs) throws InterruptedException {
        int n = o.checkNodes();
        Map<LbvQuery, Measured> check = CostInputs.cluster(dataset, Map.of(GtranLbvSystem.ISOLATION, "SR",
                GtranClusterLbvSystem.NODES, Integer.toString(n)), draws, null).perQuery();
        out.printf(Locale.ROOT, "%n## the message scaling checked: SR, measured on %d nodes against scaled from %d%n", n, MEASURED_NODES);
        out.println("| query | measured, 3 nodes | scaled to " + n + " | measured, " + n + " nodes |");
        out.println("|---|---:|---:|---:|");
        List<Object> rows = new ArrayList<>();
        Map<Workload, double[]> totals = new EnumMap<>(Workload.class);
        for (LbvQuery q : LbvQuery.values()) {
            double from = measured3.get(q).messages();
            double scaled = from * CostModel.messageScale(q, MEASURED_NODES, n);
            double got = check.get(q).messages();
            out.printf(Locale.ROOT, "| %s | %.1f | %.1f | %.1f |%n", q, from, scaled, got);
            rows.add(Map.of("query", q.name(), "measured_3", from, "scaled", scaled, "measured", got));
            for (Workload w : Workload.values()) {
                double weight = CostModel.weights(w).get(q);
                double[] t = totals.computeIfAbsent(w, k -> new double[2]);
                t[0] += weight * scaled;
                t[1] += weight * got;
            }
        }
        totals.forEach((w, t) -> out.printf(Locale.ROOT, "SCALING_CHECK nodes=%d workload=%s scaled=%.2f measured=%.2f error=%+.1f%%%n",
                n, w, t[0], t[1], 100 * (t[0] - t[1]) / t[1]));
        inputs.put("scaling_check_" + n + "_nodes", rows);
    }

    /** Minimal JSON for maps, lists, strings, numbers (non-finite as null) and booleans. */
    static final class JsonText {
        private JsonText() {
        }

        static String write(Object value) {
            StringBuilder b = new StringBuilder();
            write(b, value);
            return b.toString();
        }

        private static void write(StringBuilder b, Object value) {
            if (value == null) {
                b.append("null");
            } else if (value instanceof Map<?, ?> map) {
                b.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    b.append(first ? "" : ",");
                    first = false;
                    string(b, String.valueOf(e.getKey()));
                    b.append(':');
                    write(b, e.getValue());
                }
                b.append('}');
            } else if (value instanceof List<?> list) {
                b.append('[');
                for (int i = 0; i < list.size(); i++) {
                    b.append(i == 0 ? "" : ",");
                    write(b, list.get(i));
                }
                b.append(']');
            } else if (value instanceof Double d) {
                b.append(Double.isFinite(d) ? String.format(Locale.ROOT, "%.6g", d) : "null");
            } else if (value instanceof Number || value instanceof Boolean) {
                b.append(value);
            } else {
                string(b, value.toString());
            }
        }

        private static void string(StringBuilder b, String s) {
            b.append('"');
            for (char c : s.toCharArray()) {
                switch (c) {
                    case '"' -> b.append("\\\"");
                    case '\\' -> b.append("\\\\");
                    case '\n' -> b.append("\\n");
                    default -> {
                        if (c < 0x20) {
                            b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                        } else {
                            b.append(c);
                        }
                    }
                }
            }
            b.append('"');
        }
    }
}
