package io.gtran.bench.jmh;

import io.gtran.check.fabric.CountingFabric;
import io.gtran.rdma.ClusterConfig;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.Fabrics;
import io.gtran.rdma.InJvmCluster;
import io.gtran.rdma.LoopbackPorts;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.GtranNode;
import io.gtran.txn.Transaction;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.membership.Membership;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * One transaction's latency, from begin to commit, when it writes one property on each of
 * {@code participants} nodes of a three-node cluster (coordinated on node 0), over the in-JVM
 * fabric or Netty on loopback; {@code participants=alone} is today's single-node commit (a node
 * alone in its cluster, no fabric traffic) for comparison, in the same run. One thread.
 *
 * <p>The {@code ·messages} and {@code ·commits} counters give messages per commit: every message
 * any node sent while a transaction ran (operations, votes, decisions, acknowledgements, and the
 * clock synchronisation and heartbeats that run meanwhile, so a little above the protocol's own
 * count); commits per second are the reciprocal of the average time.
 *
 * <p>Run {@code bin/gtran bench jmh CommitBenchmark -wi 3 -w 1 -i 5 -r 1}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class CommitBenchmark extends GtranForkSettings {
    @Param({"in-jvm", "netty"})
    public String transport;

    @Param({"alone", "1", "2", "3"})
    public String participants;

    private GtranNode[] nodes;
    private CountingFabric[] fabrics;
    private InJvmCluster cluster;
    private long[] vertices;
    private int key;
    private long value;

    /**
     * Messages sent during the commits, summed over the nodes, the one-sided round trips (status
     * reads of other nodes' tables), and the commits: each count over commits is its figure per commit.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Messages {
        public long messages;
        public long roundTrips;
        public long commits;
    }

    @Setup(Level.Trial)
    public void start() {
        if (participants.equals("alone")) {
            nodes = new GtranNode[] {GtranNode.open(Map.of(StoreConfig.NODE_ID, 0))};
            fabrics = new CountingFabric[0];
            vertices = new long[] {create(nodes[0], 0)};
            return;
        }
        int n = 3;
        Fabric[] started = new Fabric[n];
        if (transport.equals("netty")) {
            List<InetSocketAddress> addresses = LoopbackPorts.free(n);
            for (int i = 0; i < n; i++) {
                started[i] = Fabrics.start(ClusterConfig.builder(i).transport("netty").nodes(addresses)
                        .heartbeatInterval(Duration.ofMillis(200)).peerLostAfter(Duration.ofSeconds(2)).build());
            }
        } else {
            cluster = new InJvmCluster();
            for (int i = 0; i < n; i++) {
                started[i] = cluster.join(i);
            }
        }
        nodes = new GtranNode[n];
        fabrics = new CountingFabric[n];
        for (int i = 0; i < n; i++) {
            Map<String, Object> settings = new HashMap<>();
            settings.put(StoreConfig.NODE_ID, i);
            settings.put(Membership.NODES, "0,1,2");
            fabrics[i] = new CountingFabric(started[i]);
            nodes[i] = GtranNode.open(fabrics[i], settings);
        }
        int p = Integer.parseInt(participants);
        vertices = new long[p];
        for (int i = 0; i < p; i++) {
            vertices[i] = create(nodes[0], i);
        }
    }

    private long create(GtranNode coordinator, int on) {
        int label = coordinator.store().labels().intern("item");
        key = coordinator.store().propertyKeys().intern("value");
        Transaction t = coordinator.engine().begin(Isolation.SERIALIZABLE);
        long v = t.addVertex(on, label);
        t.setVertexProperty(v, key, 0L);
        t.commit();
        return v;
    }

    @TearDown(Level.Trial)
    public void stop() {
        for (GtranNode node : nodes) {
            node.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Benchmark
    public long commit(Messages counted) {
        long before = sent();
        long tripsBefore = roundTrips();
        Transaction t = nodes[0].engine().begin(Isolation.SERIALIZABLE);
        value++;
        for (long v : vertices) {
            t.setVertexProperty(v, key, value);
        }
        t.commit();
        counted.messages += sent() - before;
        counted.roundTrips += roundTrips() - tripsBefore;
        counted.commits++;
        return t.commitTime();
    }

    private long roundTrips() {
        long sum = 0;
        for (CountingFabric f : fabrics) {
            sum += f.counts().roundTrips();
        }
        return sum;
    }

    private long sent() {
        long sum = 0;
        for (CountingFabric f : fabrics) {
            sum += f.counts().messages();
        }
        return sum;
    }
}
