package io.gtran.lbv.gtran;

import io.gtran.lbv.Dataset;
import io.gtran.lbv.LbvQuery;
import io.gtran.lbv.ParamSampler;
import io.gtran.lbv.QueryParams;
import io.gtran.lbv.ValuePool;
import io.gtran.lbv.gremlin.GremlinSystem;
import io.gtran.rdma.ClusterConfig;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.Fabrics;
import io.gtran.rdma.InJvmCluster;
import io.gtran.rdma.LoopbackPorts;
import io.gtran.rdma.Mailbox;
import io.gtran.rdma.Message;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Measures the cost model's inputs on this machine, one thread driving each system (docs/cost-model.md):
 * <ul>
 *   <li>{@link #local}: each LBV query type on embedded gtran (one node), after a warm-up: thread
 *       CPU of the calling thread (the query runs on it), process CPU and wall time per run;
 *   <li>{@link #cluster}: the same runs, same parameters, on {@link GtranClusterLbvSystem} (all
 *       members in this JVM, so process CPU counts both ends of every message), with messages and
 *       bytes ({@link io.gtran.txn.QueryTraffic}), process CPU less the idle cluster's background,
 *       and wall time; at an injected one-way link latency L the extra wall time over 0 µs, divided
 *       by 2L, is the round trips on the critical path;
 *   <li>{@link #ping}: CPU per message of the bare transport, TCP (Netty over 127.0.0.1, two fabrics
 *       in this JVM) and in-JVM, echoing messages with 1 or more in flight.
 * </ul>
 */
final class CostInputs {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private CostInputs() {
    }

    /** Per run of one query type: µs of thread CPU, process CPU and wall; messages, bytes; failed runs. */
    record Measured(double threadCpuUs, double processCpuUs, double wallUs, double messages, double bytes, int failed) {
    }

    /** The same parameters for every system: per query type, warm-up runs then measured runs. */
    record Draws(Map<LbvQuery, List<QueryParams>> warmup, Map<LbvQuery, List<QueryParams>> measured) {
        static Draws of(ValuePool pool, long seed, int warmupRuns, int runs) {
            ParamSampler warm = new ParamSampler(pool, seed + 7);
            ParamSampler measure = new ParamSampler(pool, seed + 1);
            Map<LbvQuery, List<QueryParams>> w = new EnumMap<>(LbvQuery.class);
            Map<LbvQuery, List<QueryParams>> m = new EnumMap<>(LbvQuery.class);
            for (LbvQuery query : LbvQuery.values()) {
                List<QueryParams> a = new ArrayList<>(warmupRuns);
                List<QueryParams> b = new ArrayList<>(runs);
                for (int i = 0; i < warmupRuns; i++) {
                    a.add(warm.sample(query));
                }
                for (int i = 0; i < runs; i++) {
                    b.add(measure.sample(query));
                }
                w.put(query, a);
                m.put(query, b);
            }
            return new Draws(w, m);
        }
    }

    static long processCpuNanos() {
        return OS.getProcessCpuTime();
    }

    /** Process CPU nanoseconds per wall nanosecond while nothing is asked of the loaded system. */
    static double idleCpuRate(long millis) throws InterruptedException {
        System.gc();
        Thread.sleep(100);
        long cpu = processCpuNanos();
        long start = System.nanoTime();
        Thread.sleep(millis);
        return (processCpuNanos() - cpu) / (double) (System.nanoTime() - start);
    }

    /** Each query type on embedded gtran: {@code options} as {@link GtranLbvSystem} takes them. */
    static Map<LbvQuery, Measured> local(Dataset dataset, Map<String, String> options, Draws draws) throws InterruptedException {
        try (GtranLbvSystem system = new GtranLbvSystem(options)) {
            system.load(dataset, (v, e) -> { });
            return runAll(system, null, draws, idleCpuRate(300));
        }
    }

    /** Each query type on an in-JVM cluster: {@code options} as {@link GtranClusterLbvSystem} takes them. */
    static Map<LbvQuery, Measured> cluster(Dataset dataset, Map<String, String> options, Draws draws) throws InterruptedException {
        try (GtranClusterLbvSystem system = new GtranClusterLbvSystem(options)) {
            system.load(dataset, (v, e) -> { });
            return runAll(system, system, draws, idleCpuRate(500));
        }
    }

    private static Map<LbvQuery, Measured> runAll(GremlinSystem system, GtranClusterLbvSystem counted, Draws draws, double idleRate) {
        Map<LbvQuery, Measured> out = new EnumMap<>(LbvQuery.class);
        for (LbvQuery query : LbvQuery.values()) {
            for (QueryParams p : draws.warmup().get(query)) {
                run(system, query, p);
            }
        }
        for (LbvQuery query : LbvQuery.values()) {
            List<QueryParams> params = draws.measured().get(query);
            long messages = counted == null ? 0 : counted.messages();
            long bytes = counted == null ? 0 : counted.bytes();
            int failed = 0;
            long thread = THREADS.getCurrentThreadCpuTime();
            long process = processCpuNanos();
            long wall = System.nanoTime();
            for (QueryParams p : params) {
                failed += run(system, query, p) ? 0 : 1;
            }
            long wallNanos = System.nanoTime() - wall;
            double processNanos = Math.max(0, processCpuNanos() - process - idleRate * wallNanos);
            double threadNanos = THREADS.getCurrentThreadCpuTime() - thread;
            int n = params.size();
            out.put(query, new Measured(threadNanos / n / 1e3, processNanos / n / 1e3, wallNanos / (double) n / 1e3,
                    counted == null ? 0 : (counted.messages() - messages) / (double) n,
                    counted == null ? 0 : (counted.bytes() - bytes) / (double) n, failed));
        }
        return out;
    }

    /** Runs one query in its own transaction; false if it failed (said once per query type on stderr). */
    private static boolean run(GremlinSystem system, LbvQuery query, QueryParams params) {
        try {
            system.execute(query, params);
            return true;
        } catch (RuntimeException e) { // one client: a missing element (deleted by an earlier run), not a conflict
            return false;
        }
    }

    /**
     * The bare transport echoing messages.
     *
     * @param cpuPerMessageUs process CPU µs per message (both ends, event loops included), idle background removed
     * @param roundTripUs     wall µs per round trip (with more than one in flight: per round trip completed)
     */
    record Ping(String transport, int inFlight, int roundTrips, double cpuPerMessageUs, double roundTripUs) {
    }

    /** Echoes {@code roundTrips} messages of {@code size} bytes from node 0 to node 1 and back, {@code inFlight} at a time. */
    static Ping ping(String transport, int roundTrips, int inFlight, int size) throws Exception {
        InJvmCluster inJvm = null;
        Fabric node0;
        Fabric node1;
        if (transport.equals("in-jvm")) {
            inJvm = new InJvmCluster();
            node0 = inJvm.join(0);
            node1 = inJvm.join(1);
        } else {
            var nodes = LoopbackPorts.free(2);
            node1 = Fabrics.start(ClusterConfig.builder(1).transport(transport).nodes(nodes).build());
            node0 = Fabrics.start(ClusterConfig.builder(0).transport(transport).nodes(nodes).build());
        }
        ExecutorService echoThread = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "cost-model-echo");
            thread.setDaemon(true);
            return thread;
        });
        try {
            Mailbox echo = node1.openMailbox("echo");
            Mailbox client = node0.openMailbox("client");
            Future<?> echoing = echoThread.submit(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    try {
                        Message request = echo.receive(100, TimeUnit.MILLISECONDS);
                        if (request != null) {
                            echo.send(request.fromNode(), request.fromMailbox(), request.payload());
                        }
                    } catch (InterruptedException | IllegalStateException e) {
                        return;
                    }
                }
            });
            byte[] payload = new byte[size];
            exchange(client, payload, Math.max(1000, roundTrips / 5), inFlight); // warm-up
            double idle = idleCpuRate(300);
            long cpu = processCpuNanos();
            long wall = System.nanoTime();
            exchange(client, payload, roundTrips, inFlight);
            long wallNanos = System.nanoTime() - wall;
            double cpuNanos = Math.max(0, processCpuNanos() - cpu - idle * wallNanos);
            echoing.cancel(true);
            return new Ping(transport, inFlight, roundTrips, cpuNanos / (2.0 * roundTrips) / 1e3, wallNanos / (double) roundTrips / 1e3);
        } finally {
            echoThread.shutdownNow();
            echoThread.awaitTermination(10, TimeUnit.SECONDS);
            node0.close();
            node1.close();
            if (inJvm != null) {
                inJvm.close();
            }
        }
    }

    private static void exchange(Mailbox client, byte[] payload, int roundTrips, int inFlight) throws InterruptedException {
        int sent = 0;
        int received = 0;
        while (received < roundTrips) {
            while (sent < roundTrips && sent - received < inFlight) {
                client.send(1, "echo", payload);
                sent++;
            }
            Message reply = client.receive(10, TimeUnit.SECONDS);
            if (reply == null) {
                throw new IllegalStateException("no echo within 10 s: sent=" + sent + " received=" + received);
            }
            received++;
        }
    }
}
