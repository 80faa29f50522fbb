package io.gtran.rdma.spi;

import io.gtran.rdma.ClusterConfig;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.Fabrics;

/**
 * A networked transport that {@link Fabrics#start} can pick by name. Each transport is a module of
 * its own ({@code gtran-rdma-netty}, {@code gtran-rdma-disni}) that lists its provider in
 * {@code META-INF/services/io.gtran.rdma.spi.FabricProvider}, so that nothing outside that module
 * compiles against its library (Netty, DiSNI): a process has the transports whose modules are on its
 * class path.
 */
public interface FabricProvider {
    /** The name configurations use ({@code gtran.fabric.transport}), e.g. {@code netty}. */
    String name();

    /**
     * Starts this node's fabric: listens on {@code config.localAddress()} and reaches the other
     * nodes on demand.
     *
     * @throws IllegalStateException if the transport cannot run here (the message says what is
     *     missing) or the address cannot be bound (the message names it)
     */
    Fabric start(ClusterConfig config);
}
