package io.gtran.rdma.disni;

import io.gtran.rdma.ClusterConfig;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;

/**
 * Starts clusters of {@link DisniFabric} nodes in this JVM for the transport-agnostic suites, or skips
 * the calling test (a JUnit assumption, reported with {@link RdmaSupport}'s message) where RDMA is
 * unavailable. Nodes listen on {@code 127.0.0.1}, or on the address in system property
 * {@value #ADDRESS_PROPERTY} (an IP of an RDMA-capable interface, e.g. the netdev of a Soft-RoCE
 * device), from port {@value #PORT_PROPERTY} (default 17100) upwards, fresh ports for every cluster.
 */
final class DisniTestClusters {
    static final String ADDRESS_PROPERTY = "gtran.rdma.test.address";
    static final String PORT_PROPERTY = "gtran.rdma.test.port";

    private static final AtomicInteger NEXT_PORT = new AtomicInteger(Integer.getInteger(PORT_PROPERTY, 17100));

    private DisniTestClusters() {
    }

    /** Skips the caller unless RDMA is available here. */
    static void assumeRdma() {
        RdmaSupport.Status status = RdmaSupport.check();
        Assumptions.assumeTrue(status.available(), status.message());
    }

    /** Starts nodes {@code 0..nodes-1}; if one fails to start, closes the others and throws. */
    static List<DisniFabric> start(int nodes) {
        assumeRdma();
        String host = System.getProperty(ADDRESS_PROPERTY, "127.0.0.1");
        int base = NEXT_PORT.getAndAdd(nodes);
        List<InetSocketAddress> addresses = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            addresses.add(new InetSocketAddress(host, base + i));
        }
        List<DisniFabric> fabrics = new ArrayList<>();
        try {
            for (int i = 0; i < nodes; i++) {
                fabrics.add(DisniFabric.start(ClusterConfig.builder(i).transport(DisniFabricProvider.NAME).nodes(addresses)
                        .connectTimeout(Duration.ofSeconds(3)).operationTimeout(Duration.ofSeconds(10))
                        .heartbeatInterval(Duration.ofMillis(500)).peerLostAfter(Duration.ofSeconds(4)).build()));
            }
        } catch (RuntimeException e) {
            fabrics.forEach(DisniFabric::close);
            throw e;
        }
        return fabrics;
    }
}
