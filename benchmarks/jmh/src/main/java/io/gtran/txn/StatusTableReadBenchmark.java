package io.gtran.txn;

import io.gtran.bench.jmh.GtranForkSettings;
import io.gtran.rdma.ClusterConfig;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.Fabrics;
import io.gtran.rdma.Region;
import io.gtran.txn.common.TxnWords;
import io.gtran.txn.local.StatusTable;
import io.gtran.txn.local.StatusTableDescriptor;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The latency of reading another node's transaction status over the Netty TCP fabric: two
 * {@code NettyFabric} nodes in this JVM over 127.0.0.1, node 0 reading the status of a running
 * transaction of node 1, one calling thread. In the package of {@link StatusTable}, which is not
 * public.
 *
 * <ul>
 *   <li>{@link #statusTableRead}: {@link StatusTable#read}, as the transaction layer calls it.
 *   <li>{@link #threeSynchronousReads}: the same three words (id, status, id) read with three
 *       synchronous {@code readLong}s, one round trip each: how {@code read} worked before it
 *       became one batch, measured side by side in the same run.
 * </ul>
 *
 * <p>Run {@code bin/gtran bench jmh StatusTableReadBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class StatusTableReadBenchmark extends GtranForkSettings {
    private Fabric node0;
    private Fabric node1;
    private StatusTable reader;
    private Region remote;
    private long txnId;
    private long base;

    @Setup(Level.Trial)
    public void start() throws IOException {
        List<InetSocketAddress> nodes = List.of(freeLoopbackPort(), freeLoopbackPort());
        node1 = Fabrics.start(ClusterConfig.builder(1).transport("netty").nodes(nodes).build());
        node0 = Fabrics.start(ClusterConfig.builder(0).transport("netty").nodes(nodes).build());
        StatusTable owner = new StatusTable(node1, 16);
        txnId = owner.allocate(0);
        reader = new StatusTable(node0, 16);
        remote = node0.connect(1, StatusTable.REGION_NAME);
        base = StatusTableDescriptor.offset(TxnWords.slot(txnId));
        if (reader.read(txnId) != threeSynchronousReads()) {
            throw new IllegalStateException("the two ways read different status words: txnId=" + TxnWords.toString(txnId));
        }
    }

    @TearDown(Level.Trial)
    public void stop() {
        node0.close();
        node1.close();
    }

    @Benchmark
    public long statusTableRead() {
        return reader.read(txnId);
    }

    @Benchmark
    public long threeSynchronousReads() {
        if (remote.readLong(base + StatusTableDescriptor.TXN_ID_OFFSET) != txnId) {
            return StatusTable.GONE;
        }
        long status = remote.readLong(base + StatusTableDescriptor.STATUS_OFFSET);
        return remote.readLong(base + StatusTableDescriptor.TXN_ID_OFFSET) == txnId ? status : StatusTable.GONE;
    }

    /** A port on 127.0.0.1 free a moment ago (the fabric binds it right after). */
    private static InetSocketAddress freeLoopbackPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return new InetSocketAddress("127.0.0.1", socket.getLocalPort());
        }
    }
}
