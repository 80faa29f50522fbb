package io.gtran.rdma;

import io.gtran.rdma.spi.FabricProvider;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * Starts the fabric a configuration names ({@link ClusterConfig#transport()}), through the
 * {@link FabricProvider}s on the class path ({@link ServiceLoader}): the transport is a plugin
 * chosen by configuration, and a transport is known when its module is on the class path
 * ({@code netty} in {@code gtran-rdma-netty}, {@code rdma} in {@code gtran-rdma-disni}).
 *
 * <pre>{@code
 * Fabric fabric = Fabrics.start(ClusterConfig.fromProperties(properties));
 * }</pre>
 */
public final class Fabrics {
    /** Which module brings which transport, for the message of an unknown one. */
    static final String MODULES = "netty in gtran-rdma-netty, rdma in gtran-rdma-disni";

    private Fabrics() {
    }

    /**
     * Starts this node's fabric with the transport {@code config} names.
     *
     * @throws IllegalArgumentException if no provider on the class path has that name (the message
     *     names {@link ClusterConfig#TRANSPORT}, the name, and the transports found)
     * @throws IllegalStateException from the provider, if the transport cannot start here
     */
    public static Fabric start(ClusterConfig config) {
        return provider(config.transport()).start(config);
    }

    /**
     * The provider named {@code name}.
     *
     * @throws IllegalArgumentException if there is none, naming the key and value and listing the
     *     transports on the class path
     */
    public static FabricProvider provider(String name) {
        TreeMap<String, FabricProvider> providers = new TreeMap<>();
        for (FabricProvider provider : ServiceLoader.load(FabricProvider.class, Fabrics.class.getClassLoader())) {
            providers.put(provider.name(), provider);
        }
        FabricProvider provider = providers.get(name);
        if (provider == null) {
            throw new IllegalArgumentException("unknown transport: " + ClusterConfig.TRANSPORT + "=" + name + " (known: "
                    + providers.keySet() + "; a transport is known when its module is on the class path: " + MODULES + ")");
        }
        return provider;
    }
}
