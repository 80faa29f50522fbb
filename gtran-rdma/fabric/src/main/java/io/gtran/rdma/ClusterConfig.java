package io.gtran.rdma;

import io.gtran.rdma.spi.FabricProvider;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;

/**
 * Where the nodes of a networked cluster listen, which one this process is, and the transport's
 * time limits: what {@code NettyFabric} and {@code DisniFabric} start from. Node {@code i} listens
 * on {@code nodes().get(i)}.
 *
 * <pre>{@code
 * ClusterConfig config = ClusterConfig.builder(1)
 *         .nodes(List.of(new InetSocketAddress("127.0.0.1", 7100), new InetSocketAddress("127.0.0.1", 7101)))
 *         .operationTimeout(Duration.ofSeconds(5))
 *         .build();
 * }</pre>
 *
 * <p>As properties ({@link #fromProperties}): {@code gtran.fabric.node=1},
 * {@code gtran.fabric.nodes=127.0.0.1:7100,127.0.0.1:7101}, and optionally
 * {@code gtran.fabric.transport} ({@value #DEFAULT_TRANSPORT} or {@code rdma}; see {@link Fabrics}),
 * {@code gtran.fabric.connect-timeout-ms}, {@code gtran.fabric.operation-timeout-ms},
 * {@code gtran.fabric.heartbeat-interval-ms}, {@code gtran.fabric.peer-lost-after-ms}.
 *
 * @param transport the name of the {@link FabricProvider} that starts the fabric
 * @param localNode this process's node id, an index into {@code nodes}
 * @param nodes every node's listening address, by node id
 * @param connectTimeout how long establishing a connection to a peer may take
 * @param operationTimeout how long a remote operation may wait for its reply before it fails with a
 *     {@link RegionAccessException} (or a {@link DeliveryException})
 * @param heartbeatInterval how often an idle connection is probed
 * @param peerLostAfter how long a peer may stay silent (no reply, no heartbeat) before it is lost
 */
public record ClusterConfig(String transport, int localNode, List<InetSocketAddress> nodes, Duration connectTimeout,
                            Duration operationTimeout, Duration heartbeatInterval, Duration peerLostAfter) {
    public static final String TRANSPORT = "gtran.fabric.transport";
    public static final String DEFAULT_TRANSPORT = "netty";
    public static final String NODE = "gtran.fabric.node";
    public static final String NODES = "gtran.fabric.nodes";
    public static final String CONNECT_TIMEOUT_MS = "gtran.fabric.connect-timeout-ms";
    public static final String OPERATION_TIMEOUT_MS = "gtran.fabric.operation-timeout-ms";
    public static final String HEARTBEAT_INTERVAL_MS = "gtran.fabric.heartbeat-interval-ms";
    public static final String PEER_LOST_AFTER_MS = "gtran.fabric.peer-lost-after-ms";

    /** Checks every field; the message names the field and its value. */
    public ClusterConfig {
        Objects.requireNonNull(transport, "transport");
        if (transport.isBlank()) {
            throw new IllegalArgumentException("transport name is empty: transport=" + transport);
        }
        Objects.requireNonNull(nodes, "nodes");
        if (nodes.isEmpty() || nodes.size() > Fabric.MAX_NODE + 1) {
            throw new IllegalArgumentException("cluster needs 1.." + (Fabric.MAX_NODE + 1) + " node addresses: nodes="
                    + nodes.size());
        }
        if (localNode < 0 || localNode >= nodes.size()) {
            throw new IllegalArgumentException("local node is not one of the configured nodes: localNode=" + localNode
                    + ", nodes=" + nodes.size());
        }
        Set<InetSocketAddress> seen = new HashSet<>();
        for (int i = 0; i < nodes.size(); i++) {
            InetSocketAddress address = Objects.requireNonNull(nodes.get(i), "nodes[" + i + "]");
            if (!seen.add(address)) {
                throw new IllegalArgumentException("two nodes share an address: node=" + i + ", address=" + address);
            }
        }
        nodes = List.copyOf(nodes);
        positive("connectTimeout", connectTimeout);
        positive("operationTimeout", operationTimeout);
        positive("heartbeatInterval", heartbeatInterval);
        positive("peerLostAfter", peerLostAfter);
        if (peerLostAfter.compareTo(heartbeatInterval) <= 0) {
            throw new IllegalArgumentException("peerLostAfter must be longer than heartbeatInterval: peerLostAfter="
                    + peerLostAfter + ", heartbeatInterval=" + heartbeatInterval);
        }
    }

    /** A builder for node {@code localNode} with the default time limits. */
    public static Builder builder(int localNode) {
        return new Builder(localNode);
    }

    /**
     * Reads a configuration from properties (keys above); unknown {@code gtran.fabric.} keys are
     * refused so a misspelt setting is not silently ignored.
     *
     * @throws IllegalArgumentException naming the key and the bad value
     */
    public static ClusterConfig fromProperties(Properties properties) {
        Set<String> known = Set.of(TRANSPORT, NODE, NODES, CONNECT_TIMEOUT_MS, OPERATION_TIMEOUT_MS, HEARTBEAT_INTERVAL_MS,
                PEER_LOST_AFTER_MS);
        for (String key : properties.stringPropertyNames()) {
            if (key.startsWith("gtran.fabric.") && !known.contains(key)) {
                throw new IllegalArgumentException("unknown setting: " + key + " (known: " + new java.util.TreeSet<>(known)
                        + ")");
            }
        }
        Builder builder = builder(intSetting(properties, NODE));
        builder.transport(properties.getProperty(TRANSPORT, DEFAULT_TRANSPORT).trim());
        String nodes = properties.getProperty(NODES);
        if (nodes == null || nodes.isBlank()) {
            throw new IllegalArgumentException("missing setting: " + NODES + " (host:port,host:port,...)");
        }
        List<InetSocketAddress> addresses = new ArrayList<>();
        for (String entry : nodes.split(",")) {
            addresses.add(parseAddress(NODES, entry.trim()));
        }
        builder.nodes(addresses);
        if (properties.getProperty(CONNECT_TIMEOUT_MS) != null) {
            builder.connectTimeout(Duration.ofMillis(intSetting(properties, CONNECT_TIMEOUT_MS)));
        }
        if (properties.getProperty(OPERATION_TIMEOUT_MS) != null) {
            builder.operationTimeout(Duration.ofMillis(intSetting(properties, OPERATION_TIMEOUT_MS)));
        }
        if (properties.getProperty(HEARTBEAT_INTERVAL_MS) != null) {
            builder.heartbeatInterval(Duration.ofMillis(intSetting(properties, HEARTBEAT_INTERVAL_MS)));
        }
        if (properties.getProperty(PEER_LOST_AFTER_MS) != null) {
            builder.peerLostAfter(Duration.ofMillis(intSetting(properties, PEER_LOST_AFTER_MS)));
        }
        return builder.build();
    }

    /** The address this node listens on. */
    public InetSocketAddress localAddress() {
        return nodes.get(localNode);
    }

    private static void positive(String name, Duration value) {
        Objects.requireNonNull(value, name);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive: " + name + "=" + value);
        }
    }

    private static int intSetting(Properties properties, String key) {
        String value = properties.getProperty(key);
        if (value == null) {
            throw new IllegalArgumentException("missing setting: " + key);
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not an integer: " + key + "=" + value);
        }
    }

    private static InetSocketAddress parseAddress(String key, String entry) {
        int colon = entry.lastIndexOf(':');
        if (colon <= 0 || colon == entry.length() - 1) {
            throw new IllegalArgumentException("address must be host:port: " + key + " entry=" + entry);
        }
        int port;
        try {
            port = Integer.parseInt(entry.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("port is not a number: " + key + " entry=" + entry);
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + key + " entry=" + entry);
        }
        return new InetSocketAddress(entry.substring(0, colon), port);
    }

    /**
     * Builds a {@link ClusterConfig}; defaults: transport {@value #DEFAULT_TRANSPORT}, connect 5 s,
     * operation 10 s, heartbeat 1 s, lost after 5 s.
     */
    public static final class Builder {
        private final int localNode;
        private String transport = DEFAULT_TRANSPORT;
        private List<InetSocketAddress> nodes = List.of();
        private Duration connectTimeout = Duration.ofSeconds(5);
        private Duration operationTimeout = Duration.ofSeconds(10);
        private Duration heartbeatInterval = Duration.ofSeconds(1);
        private Duration peerLostAfter = Duration.ofSeconds(5);

        private Builder(int localNode) {
            this.localNode = localNode;
        }

        public Builder transport(String transport) {
            this.transport = transport;
            return this;
        }

        public Builder nodes(List<InetSocketAddress> nodes) {
            this.nodes = nodes;
            return this;
        }

        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
            return this;
        }

        public Builder operationTimeout(Duration operationTimeout) {
            this.operationTimeout = operationTimeout;
            return this;
        }

        public Builder heartbeatInterval(Duration heartbeatInterval) {
            this.heartbeatInterval = heartbeatInterval;
            return this;
        }

        public Builder peerLostAfter(Duration peerLostAfter) {
            this.peerLostAfter = peerLostAfter;
            return this;
        }

        public ClusterConfig build() {
            return new ClusterConfig(transport, localNode, nodes, connectTimeout, operationTimeout, heartbeatInterval, peerLostAfter);
        }
    }
}
