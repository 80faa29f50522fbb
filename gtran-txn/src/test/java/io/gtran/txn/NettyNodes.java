package io.gtran.txn;

import io.gtran.rdma.ClusterConfig;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.Fabrics;
import io.gtran.rdma.LoopbackPorts;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Netty TCP nodes on 127.0.0.1 for cluster tests, started by name through {@link Fabrics}. */
public final class NettyNodes {
    private NettyNodes() {
    }

    private static final int ATTEMPTS = 5;

    /** Nodes 0..n-1 of a fresh Netty cluster on free loopback ports (heartbeats 200 ms, peers lost after 1 s). */
    public static Fabric[] start(int n) {
        return start(n, Duration.ofSeconds(1));
    }

    /** As {@link #start(int)}, a peer lost after {@code peerLostAfter} without a frame from it. */
    public static Fabric[] start(int n, Duration peerLostAfter) {
        IllegalStateException last = null;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            List<InetSocketAddress> addresses = LoopbackPorts.free(n);
            Fabric[] fabrics = new Fabric[n];
            try {
                for (int i = 0; i < n; i++) {
                    fabrics[i] = Fabrics.start(ClusterConfig.builder(i).transport("netty").nodes(addresses)
                            .heartbeatInterval(Duration.ofMillis(200)).peerLostAfter(peerLostAfter).build());
                }
                return fabrics;
            } catch (IllegalStateException e) { // a port was taken between finding and binding it
                for (Fabric fabric : fabrics) {
                    if (fabric != null) {
                        fabric.close();
                    }
                }
                last = e;
            }
        }
        throw new IllegalStateException("could not start " + n + " Netty nodes on free ports", last);
    }

}
