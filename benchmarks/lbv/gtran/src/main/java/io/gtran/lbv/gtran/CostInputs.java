package io.gtran.lbv.gtran;

import io.gtran.lbv.Dataset;
import io.gtran.lbv.LbvQuery;
import io.gtran.lbv.ParamSampler;
import io.gtran.lbv.QueryMix;
import io.gtran.lbv.QueryParams;
import io.gtran.lbv.ValuePool;
import io.gtran.lbv.Workload;
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
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

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
 *   <li>on each, the 50/50 mix driven by several clients at once ({@link Concurrent}): CPU per
 *       attempt under concurrency, where a message's thread hand-offs overlap;
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

    /**
     * Per run of one query type, µs: the calling thread's CPU, every Java thread's CPU (ns clocks,
     * idle background removed; GC and JIT threads are not Java threads and are left out), the OS's
     * process CPU (10 ms ticks here, so coarse per query type) and wall time; messages, bytes; failed runs.
     */
    record Measured(double threadCpuUs, double allThreadsCpuUs, double processCpuUs, double wallUs, double messages, double bytes,
                    int failed) {
    }

    /**
     * The 50/50 mix driven by {@code threads} clients at once for a while, per attempt: every Java
     * thread's CPU µs, the OS's process CPU µs, messages; and attempts/s, failed attempts.
     */
    record Concurrent(int threads, long attempts, long failed, double allThreadsCpuUs, double processCpuUs, double messages,
                      double attemptsPerSecond) {
    }

    /** One system measured: per query type, then the mix under concurrency (null when not asked). */
    record Phase(Map<LbvQuery, Measured> perQuery, Concurrent mix) {
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

    /** CPU of every live Java thread, ns (a thread that ended since the last call takes its CPU with it). */
    static long allThreadsCpuNanos() {
        long sum = 0;
        for (long id : THREADS.getAllThreadIds()) {
            long t = THREADS.getThreadCpuTime(id);
            sum += Math.max(0, t);
        }
        return sum;
    }

    /**
     * CPU ns per wall ns while nothing is asked of the loaded system: [0] all Java threads, [1] the
     * process; the least of three samples of {@code millis / 3}, so that work left over from the
     * load (or another process's burst) does not count as background.
     */
    static double[] idleCpuRate(long millis) throws InterruptedException {
        System.gc();
        Thread.sleep(100);
        double[] least = {Double.MAX_VALUE, Double.MAX_VALUE};
        for (int i = 0; i < 3; i++) {
            long threads = allThreadsCpuNanos();
            long cpu = processCpuNanos();
            long start = System.nanoTime();
            Thread.sleep(Math.max(1, millis / 3));
            double wall = System.nanoTime() - start;
            least[0] = Math.min(least[0], (allThreadsCpuNanos() - threads) / wall);
            least[1] = Math.min(least[1], (processCpuNanos() - cpu) / wall);
        }
        return least;
    }

    /** Each query type on embedded gtran: {@code options} as {@link GtranLbvSystem} takes them. */
    static Phase local(Dataset dataset, Map<String, String> options, Draws draws, MixRun mix) throws InterruptedException {
        try (GtranLbvSystem system = new GtranLbvSystem(options)) {
            system.load(dataset, (v, e) -> { });
            Map<LbvQuery, Measured> perQuery = runAll(system, null, draws, idleCpuRate(900));
            return new Phase(perQuery, mix == null ? null : concurrent(system, null, mix, idleCpuRate(900)));
        }
    }

    /** Each query type on an in-JVM cluster: {@code options} as {@link GtranClusterLbvSystem} takes them. */
    static Phase cluster(Dataset dataset, Map<String, String> options, Draws draws, MixRun mix) throws InterruptedException {
        try (GtranClusterLbvSystem system = new GtranClusterLbvSystem(options)) {
            system.load(dataset, (v, e) -> { });
            Map<LbvQuery, Measured> perQuery = runAll(system, system, draws, idleCpuRate(900));
            return new Phase(perQuery, mix == null ? null : concurrent(system, system, mix, idleCpuRate(900)));
        }
    }

    /** How to drive the 50/50 mix concurrently: clients, seconds (after a warm-up of a third as long), seed. */
    record MixRun(ValuePool pool, int threads, double seconds, long seed) {
    }

    private static Concurrent concurrent(GremlinSystem system, GtranClusterLbvSystem counted, MixRun mix, double[] idle)
            throws InterruptedException {
        drive(system, null, mix, mix.seconds() / 3, 1000); // warm-up, other parameters
        long messages = counted == null ? 0 : counted.messages();
        double[] d = drive(system, counted, mix, mix.seconds(), 0);
        double attempts = d[0];
        double wallNanos = d[4];
        double threadNanos = Math.max(0, d[2] - idle[0] * wallNanos);
        double processNanos = Math.max(0, d[3] - idle[1] * wallNanos);
        return new Concurrent(mix.threads(), (long) attempts, (long) d[1], threadNanos / attempts / 1e3, processNanos / attempts / 1e3,
                counted == null ? 0 : (counted.messages() - messages) / attempts, attempts / (wallNanos / 1e9));
    }

    /**
     * Runs the 50/50 mix on {@code threads} clients for {@code seconds}; returns attempts, failures,
     * all Java threads' CPU ns, the process's CPU ns and wall ns. The CPU is read once the clients
     * have stopped but before their threads end, so that it includes theirs.
     */
    private static double[] drive(GremlinSystem system, GtranClusterLbvSystem counted, MixRun mix, double seconds, long seedOffset)
            throws InterruptedException {
        ExecutorService clients = Executors.newFixedThreadPool(mix.threads());
        LongAdder attempts = new LongAdder();
        LongAdder failed = new LongAdder();
        long threads = allThreadsCpuNanos();
        long process = processCpuNanos();
        long start = System.nanoTime();
        long deadline = start + (long) (seconds * 1e9);
        List<Future<?>> running = new ArrayList<>();
        for (int i = 0; i < mix.threads(); i++) {
            long seed = mix.seed() + seedOffset + 100 + i;
            running.add(clients.submit(() -> {
                QueryMix queries = new QueryMix(Workload.MIX, new Random(seed));
                ParamSampler sampler = new ParamSampler(mix.pool(), seed);
                while (System.nanoTime() < deadline) {
                    LbvQuery q = queries.next();
                    attempts.increment();
                    if (!run(system, q, sampler.sample(q))) {
                        failed.increment();
                    }
                }
            }));
        }
        try {
            for (Future<?> f : running) {
                f.get();
            }
            double wall = System.nanoTime() - start;
            return new double[] {attempts.sum(), failed.sum(), allThreadsCpuNanos() - threads, processCpuNanos() - process, wall};
        } catch (ExecutionException e) {
            throw new IllegalStateException("a mix client failed", e.getCause());
        } finally {
            clients.shutdownNow();
            clients.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    private static Map<LbvQuery, Measured> runAll(GremlinSystem system, GtranClusterLbvSystem counted, Draws draws, double[] idle) {
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
            long all = allThreadsCpuNanos();
            long process = processCpuNanos();
            long wall = System.nanoTime();
            for (QueryParams p : params) {
                failed += run(system, query, p) ? 0 : 1;
            }
            long wallNanos = System.nanoTime() - wall;
            double processNanos = Math.max(0, processCpuNanos() - process - idle[1] * wallNanos);
            double allNanos = Math.max(0, allThreadsCpuNanos() - all - idle[0] * wallNanos);
            double threadNanos = THREADS.getCurrentThreadCpuTime() - thread;
            int n = params.size();
            out.put(query, new Measured(threadNanos / n / 1e3, allNanos / n / 1e3, processNanos / n / 1e3, wallNanos / (double) n / 1e3,
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
     * @param cpuPerMessageUs CPU µs of every Java thread per message (both ends, event loops included), idle background removed
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
            double[] idle = idleCpuRate(300);
            long cpu = allThreadsCpuNanos();
            long wall = System.nanoTime();
            exchange(client, payload, roundTrips, inFlight);
            long wallNanos = System.nanoTime() - wall;
            double cpuNanos = Math.max(0, allThreadsCpuNanos() - cpu - idle[0] * wallNanos);
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
