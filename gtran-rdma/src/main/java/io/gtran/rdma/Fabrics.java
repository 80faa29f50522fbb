package io.gtran.rdma;

import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * Starts the fabric a configuration names ({@link ClusterConfig#transport()}), through the
 * {@link FabricProvider}s on the class path: the transport is a plugin chosen by configuration.
 *
 * <pre>{@code
 * Fabric fabric = Fabrics.start(ClusterConfig.fromProperties(properties));
 * }</pre>
 */
public final class Fabrics {
    private Fabrics() {
    }

    /**
     * Starts this node's fabric with the transport {@code config} names.
     *
     * @throws IllegalArgumentException if no provider has that name (the message lists those there are)
     * @throws IllegalStateException from the provider, if the transport cannot start here
     */
    public static Fabric start(ClusterConfig config) {
        return provider(config.transport()).start(config);
    }

    /**
     * The provider named {@code name}.
     *
     * @throws IllegalArgumentException if there is none, listing the names there are
     */
    public static FabricProvider provider(String name) {
        TreeMap<String, FabricProvider> providers = new TreeMap<>();
        for (FabricProvider provider : ServiceLoader.load(FabricProvider.class, Fabrics.class.getClassLoader())) {
            providers.put(provider.name(), provider);
        }
        FabricProvider provider = providers.get(name);
        if (provider == null) {
            throw new IllegalArgumentException("unknown transport: " + ClusterConfig.TRANSPORT + "=" + name + " (known: "
                    + providers.keySet() + ")");
        }
        return provider;
    }
}
