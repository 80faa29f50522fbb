package io.gtran.rdma.netty;

import io.gtran.rdma.ClusterConfig;
import io.gtran.rdma.LoopbackPorts;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A cluster of {@link NettyFabric} nodes in this JVM on 127.0.0.1, on ports the kernel hands out
 * (bound at port 0, then released; if another process takes one in between, the whole cluster is
 * started again on fresh ports). Some node ids may be left unstarted, for tests that play those
 * nodes themselves. Closing closes every node; {@code toString()} shows each node's state.
 */
final class NettyTestCluster implements AutoCloseable {
    /** Time limits short enough for tests, long enough for a loaded two-core machine. */
    static final UnaryOperator<ClusterConfig.Builder> TEST_LIMITS = builder -> builder
            .connectTimeout(Duration.ofSeconds(5))
            .operationTimeout(Duration.ofSeconds(10))
            .heartbeatInterval(Duration.ofMillis(250))
            .peerLostAfter(Duration.ofSeconds(5));
    private static final int START_ATTEMPTS = 5;

    private final List<InetSocketAddress> addresses;
    private final List<NettyFabric> fabrics;

    private NettyTestCluster(List<InetSocketAddress> addresses, List<NettyFabric> fabrics) {
        this.addresses = addresses;
        this.fabrics = fabrics;
    }

    /** Starts nodes {@code 0..nodes-1}. */
    static NettyTestCluster start(int nodes) {
        return start(nodes, nodes, TEST_LIMITS);
    }

    /**
     * Starts nodes {@code 0..started-1} of a cluster configured with {@code nodes} addresses.
     *
     * @param limits sets the time limits of every node's configuration
     */
    static NettyTestCluster start(int nodes, int started, UnaryOperator<ClusterConfig.Builder> limits) {
        IllegalStateException last = null;
        for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
            List<InetSocketAddress> addresses = LoopbackPorts.free(nodes);
            List<NettyFabric> fabrics = new ArrayList<>();
            try {
                for (int node = 0; node < started; node++) {
                    fabrics.add(NettyFabric.start(limits.apply(ClusterConfig.builder(node).nodes(addresses)).build()));
                }
                return new NettyTestCluster(addresses, fabrics);
            } catch (IllegalStateException e) { // a port was taken between finding and binding it
                fabrics.forEach(NettyFabric::close);
                last = e;
            }
        }
        throw new IllegalStateException("could not start a cluster on free ports in " + START_ATTEMPTS + " attempts", last);
    }


    NettyFabric node(int id) {
        return fabrics.get(id);
    }

    InetSocketAddress address(int id) {
        return addresses.get(id);
    }

    @Override
    public void close() {
        fabrics.forEach(NettyFabric::close);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("NettyTestCluster[");
        for (NettyFabric fabric : fabrics) {
            text.append("\n  ").append(fabric);
        }
        return text.append("]").toString();
    }
}
