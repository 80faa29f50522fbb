package io.gtran.bench.jmh;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.InJvmCluster;
import io.gtran.storage.EdgeCursor;
import io.gtran.storage.EdgeDirection;
import io.gtran.storage.GraphStore;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.Transaction;
import io.gtran.txn.TransactionEngine;
import io.gtran.txn.TxnConfig;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * MV-OCC transactions on one in-JVM node ({@link InJvmCluster}, {@link GraphStore},
 * {@link TransactionEngine}), two threads at once, under each isolation level and with each of
 * G-Tran's switches turned off in turn. The graph: {@code vertices} accounts, each with a Long
 * {@code balance} (initially {@link #INITIAL_BALANCE}) and a Long {@code score}, and {@code edges}
 * power-law edges ({@link JmhGraphs#powerLaw}: sources skewed to low ids, targets uniform), loaded
 * by committed transactions in batches.
 *
 * <p><b>Units.</b> {@link Mode#Throughput}: one operation is one transaction, whatever its outcome.
 * The {@code commits} and {@code aborts} secondary results split it (per second, both threads
 * together); an abort is a {@link TransactionConflictException}, counted and not retried. JMH
 * counts them from the moment every thread has started, so they run a few percent above the
 * primary score, which covers only the timed window. {@link Cpu} adds the fork's CPU and wall time
 * per iteration, from which commits per CPU-second follow (see there).
 *
 * <p><b>Benchmarks.</b> Vertices are drawn uniformly from all vertices, except in
 * {@link #hotTransfer}, which draws from {@link #HOT_SET} of them.
 * <ul>
 *   <li>{@link #readOnlyPointReads}: read four balances (read-only: it commits at its begin time
 *       without validation).
 *   <li>{@link #transfer}: read two balances, move 1 from one to the other (a bank transfer).
 *   <li>{@link #hotTransfer}: the same on a hot set, so that the two threads collide and
 *       write-write, first-committer-wins, validation, pre-read and dependency paths are taken.
 *   <li>{@link #neighbourhoodRead}: scan a vertex's out-edges and read each neighbour's balance
 *       (read-only, so nothing is validated at commit).
 *   <li>{@link #neighbourhoodUpdate}: the same reads, then write their sum into the vertex's
 *       {@code score}: a read-write transaction, so at SERIALIZABLE the adjacency scan and every
 *       read are validated at commit.
 * </ul>
 *
 * <p><b>Switches</b> ({@code mode}): {@code default} (everything on), {@code no-pre-read}
 * ({@value TxnConfig#PRE_READ}=false: a reader waits for a validating writer instead of reading its
 * version), {@code no-optimistic-validation} ({@value TxnConfig#OPTIMISTIC_VALIDATION}=false: a
 * conflict with a validating transaction aborts instead of becoming a dependency), {@code no-gc}
 * ({@value TxnConfig#GC}=false: old versions are never collected, so chains and pools grow for the
 * whole trial).
 *
 * <p><b>Checks.</b> At the end of each trial the balances are summed in one transaction; the total
 * must still be {@code vertices * INITIAL_BALANCE} (transfers conserve money at SR and at SI, since
 * both balances are written). A violation is printed as {@code INVARIANT VIOLATED} with the numbers
 * and fails the trial. The engine's counters (aborts by kind) and GC statistics are printed too.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 4, time = 1)
@Threads(2)
public class TransactionBenchmark extends GtranForkSettings {
    static final long INITIAL_BALANCE = 1_000L;
    static final int HOT_SET = 16;
    private static final int LOAD_BATCH = 1_000;

    @Param({"10000"})
    public int vertices;

    @Param({"30000"})
    public int edges;

    @Param({"SERIALIZABLE", "SNAPSHOT"})
    public Isolation isolation;

    /** Which switch is off: {@code default}, {@code no-pre-read}, {@code no-optimistic-validation}, {@code no-gc}. */
    @Param({"default", "no-pre-read", "no-optimistic-validation", "no-gc"})
    public String mode;

    InJvmCluster cluster;
    Fabric fabric;
    GraphStore store;
    TransactionEngine engine;
    long[] ids;
    long[] hot;
    int balance;
    int score;
    private final AtomicInteger threadSeeds = new AtomicInteger();
    private final AtomicBoolean cpuRecorder = new AtomicBoolean();

    /** The {@code gtran.txn.*} settings of a mode. */
    static Map<String, Object> settings(String mode) {
        Map<String, Object> settings = new HashMap<>();
        switch (mode) {
            case "default" -> { }
            case "no-pre-read" -> settings.put(TxnConfig.PRE_READ, false);
            case "no-optimistic-validation" -> settings.put(TxnConfig.OPTIMISTIC_VALIDATION, false);
            case "no-gc" -> settings.put(TxnConfig.GC, false);
            default -> throw new IllegalArgumentException("unknown mode: " + mode
                    + "; known: default, no-pre-read, no-optimistic-validation, no-gc");
        }
        return settings;
    }

    @Setup(Level.Trial)
    public void open() {
        Map<String, Object> settings = settings(mode);
        cluster = new InJvmCluster();
        fabric = cluster.join(0);
        store = GraphStore.open(StoreConfig.from(settings));
        engine = TransactionEngine.open(store, fabric, TxnConfig.from(settings));
        balance = store.propertyKeys().intern("balance");
        score = store.propertyKeys().intern("score");
        load();
        hot = new long[HOT_SET];
        for (int i = 0; i < HOT_SET; i++) {
            hot[i] = ids[i * (vertices / HOT_SET)]; // spread over the slots, not neighbours in memory
        }
    }

    /** Commits the accounts and edges in batches of {@link #LOAD_BATCH}. */
    private void load() {
        int account = store.labels().intern("account");
        int link = store.labels().intern("link");
        ids = new long[vertices];
        for (int from = 0; from < vertices; from += LOAD_BATCH) {
            Transaction t = engine.begin(Isolation.SERIALIZABLE);
            for (int i = from; i < Math.min(vertices, from + LOAD_BATCH); i++) {
                ids[i] = t.addVertex(account);
                t.setVertexProperty(ids[i], balance, INITIAL_BALANCE);
                t.setVertexProperty(ids[i], score, 0L);
            }
            t.commit();
        }
        JmhGraphs.EdgeList list = JmhGraphs.powerLaw(vertices, edges, 1, JmhGraphs.SEED);
        for (int from = 0; from < edges; from += LOAD_BATCH) {
            Transaction t = engine.begin(Isolation.SERIALIZABLE);
            for (int i = from; i < Math.min(edges, from + LOAD_BATCH); i++) {
                t.addEdge(ids[list.source()[i]], ids[list.target()[i]], link);
            }
            t.commit();
        }
    }

    @TearDown(Level.Trial)
    public void close() {
        try {
            checkAndReport();
        } finally {
            engine.close();
            store.close();
            fabric.close();
            cluster.close();
        }
    }

    /** Sums the balances (money is conserved) and prints the engine's and GC's counters. */
    private void checkAndReport() {
        long total = 0;
        try (Transaction t = engine.begin(Isolation.SERIALIZABLE)) {
            for (long id : ids) {
                total += (Long) t.vertexProperty(id, balance);
            }
            t.commit();
        }
        long expected = vertices * INITIAL_BALANCE;
        System.out.println("[txn-bench] " + isolation + " " + mode + " engine " + engine.stats());
        System.out.println("[txn-bench] " + isolation + " " + mode + " gc " + engine.gc().stats()
                + " liveVersions=" + store.mvStore().liveVersions() + " reservedBytes=" + store.reservedBytes());
        if (total != expected) {
            String message = "INVARIANT VIOLATED: " + isolation + " " + mode + " total balance " + total + " != " + expected;
            System.out.println("[txn-bench] " + message);
            throw new IllegalStateException(message);
        }
    }

    /**
     * Per-thread outcome counters, reported by JMH as {@code commits} and {@code aborts} per
     * second (summed over threads), and the thread's random source.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Outcomes {
        public long commits;
        public long aborts;
        private SplittableRandom random;

        @Setup(Level.Trial)
        public void seed(TransactionBenchmark b) {
            random = new SplittableRandom(JmhGraphs.SEED + b.threadSeeds.incrementAndGet());
        }

        @Setup(Level.Iteration)
        public void reset() {
            commits = 0;
            aborts = 0;
        }

        long pick(long[] from) {
            return from[random.nextInt(from.length)];
        }

        /** Another element of {@code from} than {@code not}. */
        long pickOther(long[] from, long not) {
            long other;
            do {
                other = pick(from);
            } while (other == not);
            return other;
        }
    }

    /**
     * CPU used by the whole fork (benchmark threads, gtran's GC workers, JIT, the JVM's own GC)
     * per iteration, next to the wall time of the same window, both in microseconds; JMH reports
     * them as {@code cpuMicros} and {@code wallMicros} (events per iteration). One thread of the
     * trial records them, the others report 0, so the sums JMH shows are the process's figures.
     * Their ratio is how many cores the fork had: on a shared machine, commits per CPU-second
     * ({@code commits * wallMicros / cpuMicros}) is steadier than commits per second, though it
     * hides time spent blocked (waiting is not CPU).
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Cpu {
        private static final com.sun.management.OperatingSystemMXBean OS =
                (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        public long cpuMicros;
        public long wallMicros;
        private boolean recorder;
        private long cpuStart;
        private long wallStart;

        @Setup(Level.Trial)
        public void claim(TransactionBenchmark b) {
            recorder = b.cpuRecorder.compareAndSet(false, true);
        }

        @Setup(Level.Iteration)
        public void start() {
            wallStart = System.nanoTime();
            cpuStart = OS.getProcessCpuTime();
        }

        @TearDown(Level.Iteration)
        public void stop() {
            long cpu = OS.getProcessCpuTime() - cpuStart;
            long wall = System.nanoTime() - wallStart;
            cpuMicros = recorder ? cpu / 1_000 : 0;
            wallMicros = recorder ? wall / 1_000 : 0;
        }
    }

    // ------------------------------------------------------------------ benchmarks

    @Benchmark
    public long readOnlyPointReads(Outcomes o, Cpu cpu) {
        Transaction t = engine.begin(isolation);
        long sum = 0;
        try {
            for (int i = 0; i < 4; i++) {
                sum += (Long) t.vertexProperty(o.pick(ids), balance);
            }
            t.commit();
            o.commits++;
        } catch (TransactionConflictException e) {
            o.aborts++;
        } finally {
            if (t.isActive()) {
                t.rollback();
            }
        }
        return sum;
    }

    @Benchmark
    public long transfer(Outcomes o, Cpu cpu) {
        return transfer(o, ids);
    }

    @Benchmark
    public long hotTransfer(Outcomes o, Cpu cpu) {
        return transfer(o, hot);
    }

    /** Moves 1 between two distinct accounts of {@code accounts}. */
    private long transfer(Outcomes o, long[] accounts) {
        long from = o.pick(accounts);
        long to = o.pickOther(accounts, from);
        Transaction t = engine.begin(isolation);
        try {
            long fromBalance = (Long) t.vertexProperty(from, balance);
            long toBalance = (Long) t.vertexProperty(to, balance);
            t.setVertexProperty(from, balance, fromBalance - 1);
            t.setVertexProperty(to, balance, toBalance + 1);
            t.commit();
            o.commits++;
            return fromBalance;
        } catch (TransactionConflictException e) {
            o.aborts++;
            return 0;
        } finally {
            if (t.isActive()) {
                t.rollback();
            }
        }
    }

    @Benchmark
    public long neighbourhoodRead(Outcomes o, Cpu cpu) {
        return neighbourhood(o, false);
    }

    @Benchmark
    public long neighbourhoodUpdate(Outcomes o, Cpu cpu) {
        return neighbourhood(o, true);
    }

    /** Sums the balances of a random vertex's out-neighbours; writes the sum to its score if asked. */
    private long neighbourhood(Outcomes o, boolean write) {
        long vertex = o.pick(ids);
        Transaction t = engine.begin(isolation);
        long sum = 0;
        try {
            for (long edge : t.edges(vertex, EdgeDirection.OUT, EdgeCursor.ANY_LABEL)) {
                sum += (Long) t.vertexProperty(t.edgeInVertex(edge), balance);
            }
            if (write) {
                t.setVertexProperty(vertex, score, sum);
            }
            t.commit();
            o.commits++;
        } catch (TransactionConflictException e) {
            o.aborts++;
        } finally {
            if (t.isActive()) {
                t.rollback();
            }
        }
        return sum;
    }
}
