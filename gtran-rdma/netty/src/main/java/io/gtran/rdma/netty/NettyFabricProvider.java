package io.gtran.rdma.netty;

import io.gtran.rdma.ClusterConfig;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.spi.FabricProvider;

/**
 * The {@code netty} transport for {@link io.gtran.rdma.Fabrics#start}: starts a
 * {@link NettyFabric}. Listed in {@code META-INF/services/io.gtran.rdma.FabricProvider}.
 */
public final class NettyFabricProvider implements FabricProvider {
    /** The transport's name in {@code gtran.fabric.transport}. */
    public static final String NAME = "netty";

    /** For the service loader. */
    public NettyFabricProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Fabric start(ClusterConfig config) {
        return NettyFabric.start(config);
    }
}
