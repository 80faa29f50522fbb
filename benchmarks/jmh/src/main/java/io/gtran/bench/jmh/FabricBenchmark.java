package io.gtran.bench.jmh;

import io.gtran.rdma.Batch;
import io.gtran.rdma.ClusterConfig;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.Fabrics;
import io.gtran.rdma.InJvmCluster;
import io.gtran.rdma.Mailbox;
import io.gtran.rdma.Message;
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
 * <p><b>Benchmarks</b> (one thread on node 0; node 1 answers messages on a thread of its own):
 * <ul>
 *   <li>{@link #readLong}: one synchronous one-sided 8-byte read: its average time is the read
 *       latency, its inverse the throughput of one caller that waits for each reply.
 *   <li>{@link #readLongBatched}: {@value #BATCH} reads gathered into one {@link Batch} and
 *       flushed, counted as {@value #BATCH} operations: the throughput of one caller that does not
 *       wait for each reply.
 *   <li>{@link #compareAndSwap}: one synchronous remote CAS (alternating values, so every one swaps).
 *   <li>{@link #messageRoundTrip}: a 64-byte message to node 1's {@code echo} mailbox, whose thread
 *       sends it back; the benchmark waits for the reply in its own mailbox. Two messages, two
 *       mailbox hand-offs between threads: the request/response pattern of G-Tran's remote queries.
 *   <li>{@link #messagesPipelined}: {@value #BATCH} messages sent to {@code echo} without waiting,
 *       then their {@value #BATCH} replies received, counted as {@value #BATCH} operations: mailbox
 *       messages/s each way with a bounded number in flight (a sender that outran the receiver
 *       would fill the mailbox, and a full mailbox refuses messages).
 * </ul>
 *
 * <p>Run {@code bin/gtran bench jmh FabricBenchmark -bm avgt -tu us} for latencies and
 * {@code -bm thrpt -tu s} for rates; both modes are declared, so plain {@code FabricBenchmark}
 * gives both.
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.Throughput, Mode.AverageTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS) // ops/us and us/op; pass -tu s for ops/s
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class FabricBenchmark extends GtranForkSettings {
    static final int BATCH = 64;
    private static final String REGION = "bench";
    private static final String ECHO = "echo";

    @Param({"in-jvm", "netty"})
    public String transport;

    private InJvmCluster inJvm;
    private Fabric node0;
    private Fabric node1;
    private Region remote;
    private Batch batch;
    private Mailbox client;
    private Mailbox echo;
    private ExecutorService echoThread;
    private Future<?> echoing;
    private final byte[] payload = new byte[64];
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
        echo = node1.openMailbox(ECHO);
        echoThread = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "fabric-benchmark-echo");
            thread.setDaemon(true);
            return thread;
        });
        echoing = echoThread.submit(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Message request = echo.receive(100, TimeUnit.MILLISECONDS);
                    if (request != null) {
                        echo.send(request.fromNode(), request.fromMailbox(), request.payload());
                    }
                } catch (InterruptedException | IllegalStateException e) {
                    return; // stopped, or node 1 closed
                }
            }
        });
        remote = node0.connect(1, REGION);
        batch = node0.batch();
        client = node0.openMailbox("client");
    }

    @TearDown(Level.Trial)
    public void stop() throws Exception {
        echoing.cancel(true);
        echoThread.shutdownNow();
        echoThread.awaitTermination(10, TimeUnit.SECONDS);
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
    public byte[] messageRoundTrip() throws InterruptedException {
        client.send(1, ECHO, payload);
        return reply().payload();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int messagesPipelined() throws InterruptedException {
        for (int i = 0; i < BATCH; i++) {
            client.send(1, ECHO, payload);
        }
        int bytes = 0;
        for (int i = 0; i < BATCH; i++) {
            bytes += reply().payload().length;
        }
        return bytes;
    }

    private Message reply() throws InterruptedException {
        Message reply = client.receive(10, TimeUnit.SECONDS);
        if (reply == null) {
            throw new IllegalStateException("no reply from node 1's echo mailbox within 10 s");
        }
        return reply;
    }

    /** A port on 127.0.0.1 free a moment ago (the fabric binds it right after). */
    private static InetSocketAddress freeLoopbackPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return new InetSocketAddress("127.0.0.1", socket.getLocalPort());
        }
    }
}
