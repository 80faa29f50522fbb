package io.gtran.rdma;

/**
 * A networked transport that {@link Fabrics#start} can pick by name. Implementations are listed in
 * {@code META-INF/services/io.gtran.rdma.FabricProvider}, so that nothing outside the transport's
 * own package imports its library (Netty, DiSNI).
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
