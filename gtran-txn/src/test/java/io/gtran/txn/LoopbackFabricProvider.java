package io.gtran.txn;

import io.gtran.rdma.ClusterConfig;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.ForwardingFabric;
import io.gtran.rdma.InJvmCluster;
import io.gtran.rdma.spi.FabricProvider;

/**
 * A transport for tests of configuration-chosen fabrics ({@code gtran.fabric.transport=test-loopback}):
 * the node alone in an in-JVM cluster of its own, closed with its fabric. It stands in for Netty or
 * RDMA, whose modules gtran-txn does not depend on.
 */
public final class LoopbackFabricProvider implements FabricProvider {
    public static final String NAME = "test-loopback";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Fabric start(ClusterConfig config) {
        InJvmCluster cluster = new InJvmCluster();
        return new ForwardingFabric(cluster.join(config.localNode())) {
            @Override
            public void close() {
                super.close();
                cluster.close();
            }
        };
    }
}
