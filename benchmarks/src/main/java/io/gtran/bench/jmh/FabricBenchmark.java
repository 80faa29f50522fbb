package io.gtran.bench.jmh;

import io.gtran.rdma.Batch;
import io.gtran.rdma.ClusterConfig;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.Fabrics;
import io.gtran.rdma.InJvmCluster;
import io.gtran.rdma.Mailbox;
import io.gtran.rdma.Region;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cluster transport, node 0 acting on node 1, for each {@code transport}: {@code in-jvm} (both
 * nodes in one {@link InJvmCluster}: a region operation is a memory access, a message a queue
 * insert) and {@code netty} (two TCP fabrics in this JVM talking over 127.0.0.1, started through
 * {@link Fabrics}: every operation crosses the loopback socket and node 1's event loop).
 *
 * <p><b>Benchmarks</b> (one thread on node 0; node 1 drains its mailbox on a thread of its own):
 * <ul>
 *   <li>{@link #readLong}: one synchronous one-sided 8-byte read: its average time is the read
 *       latency, its inverse the throughput of one caller that waits for each reply.
 *   <li>{@link #readLongBatched}: {@value #BATCH} reads gathered into one {@link Batch} and
 *       flushed, counted as {@value #BATCH} operations: the throughput of one caller that does not
 *       wait for each reply.
 *   <li>{@link #compareAndSwap}: one synchronous remote CAS (alternating values, so every one swaps).
 *   <li>{@link #sendMessage}: one 64-byte message into node 1's mailbox, waiting for its
 *       acknowledgement (the message is in the mailbox).
 *   <li>{@link #sendMessagesPipelined}: {@value #BATCH} 64-byte messages sent without waiting, then
 *       all acknowledgements awaited, counted as {@value #BATCH} operations: mailbox messages/s.
 * </ul>
 *
 * <p>Run {@code bin/gtran bench jmh FabricBenchmark -bm avgt -tu us} for latencies and
 * {@code -bm thrpt -tu s} for rates; both modes are declared, so plain {@code FabricBenchmark}
 * gives both.
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.Throughput, Mode.AverageTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class FabricBenchmark extends GtranForkSettings {
    static final int BATCH = 64;
    private static final String REGION = "bench";
    private static final String SINK = "sink";

    @Param({"in-jvm", "netty"})
    public String transport;

    private InJvmCluster inJvm;
    private Fabric node0;
    private Fabric node1;
    private Region remote;
    private Batch batch;
    private Mailbox outbox;
    private Mailbox sink;
    private ExecutorService drainer;
    private Future<?> draining;
    private final byte[] payload = new byte[64];
    private final List<CompletableFuture<?>> pending = new ArrayList<>(BATCH);
    private long casValue;

    @Setup(Level.Trial)
    public void start() throws IOException {
        if (transport.equals("in-jvm")) {
            inJvm = new InJvmCluster();
            node0 = inJvm.join(0);
            node1 = inJvm.join(1);
        } else {
            List<InetSocketAddress> nodes = List.of(freeLoopbackPort(), freeLoopbackPort());
            node1 = Fabrics.start(ClusterConfig.builder(1).transport(transport).nodes(nodes).build());
            node0 = Fabrics.start(ClusterConfig.builder(0).transport(transport).nodes(nodes).build());
        }
        node1.register(REGION, 4096).writeLong(0, 42);
        sink = node1.openMailbox(SINK);
        drainer = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "fabric-benchmark-sink");
            thread.setDaemon(true);
            return thread;
        });
        draining = drainer.submit(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    sink.receive(100, TimeUnit.MILLISECONDS);
                } catch (InterruptedException | IllegalStateException e) {
                    return; // stopped, or node 1 closed
                }
            }
        });
        remote = node0.connect(1, REGION);
        batch = node0.batch();
        outbox = node0.openMailbox("source");
    }

    @TearDown(Level.Trial)
    public void stop() throws Exception {
        draining.cancel(true);
        drainer.shutdownNow();
        drainer.awaitTermination(10, TimeUnit.SECONDS);
        node0.close();
        node1.close();
        if (inJvm != null) {
            inJvm.close();
        }
    }

    @Benchmark
    public long readLong() {
        return remote.readLong(0);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long readLongBatched() {
        List<CompletableFuture<Long>> reads = new ArrayList<>(BATCH);
        for (int i = 0; i < BATCH; i++) {
            reads.add(batch.readLong(remote, (i & 63) * 8L));
        }
        batch.flush().join();
        long sum = 0;
        for (CompletableFuture<Long> read : reads) {
            sum += read.join();
        }
        return sum;
    }

    @Benchmark
    public boolean compareAndSwap() {
        long current = casValue;
        casValue = current + 1;
        return remote.compareAndSwap(8, current, current + 1);
    }

    @Benchmark
    public void sendMessage() {
        outbox.send(1, SINK, payload).join();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void sendMessagesPipelined() {
        pending.clear();
        for (int i = 0; i < BATCH; i++) {
            pending.add(outbox.send(1, SINK, payload));
        }
        CompletableFuture.allOf(pending.toArray(new CompletableFuture<?>[0])).join();
    }

    /** A port on 127.0.0.1 free a moment ago (the fabric binds it right after). */
    private static InetSocketAddress freeLoopbackPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return new InetSocketAddress("127.0.0.1", socket.getLocalPort());
        }
    }
}
