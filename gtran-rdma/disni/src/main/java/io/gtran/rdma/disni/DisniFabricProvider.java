package io.gtran.rdma.disni;

import io.gtran.rdma.ClusterConfig;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.spi.FabricProvider;

/**
 * The RDMA-verbs transport ({@link DisniFabric}) for {@link io.gtran.rdma.Fabrics}, named
 * {@value #NAME}: {@code gtran.fabric.transport=rdma}. Listed in
 * {@code META-INF/services/io.gtran.rdma.FabricProvider}; loading it touches no native code, so
 * listing transports works on machines without RDMA.
 */
public final class DisniFabricProvider implements FabricProvider {
    /** The transport's name in configurations. */
    public static final String NAME = "rdma";

    @Override
    public String name() {
        return NAME;
    }

    /**
     * Starts {@link DisniFabric}.
     *
     * @throws IllegalStateException if RDMA is unavailable here, naming what is missing (see {@link RdmaSupport})
     */
    @Override
    public Fabric start(ClusterConfig config) {
        return DisniFabric.start(config);
    }
}
