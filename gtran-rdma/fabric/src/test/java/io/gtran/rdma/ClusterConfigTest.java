package io.gtran.rdma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** {@link ClusterConfig} reads what it is given and refuses what would start a broken cluster, saying what. */
class ClusterConfigTest {
    private static final List<InetSocketAddress> TWO = List.of(new InetSocketAddress("127.0.0.1", 7100),
            new InetSocketAddress("127.0.0.1", 7101));

    @Test
    void builderKeepsWhatItIsGivenAndHasDefaults() {
        ClusterConfig config = ClusterConfig.builder(1).nodes(TWO).operationTimeout(Duration.ofSeconds(3)).build();
        assertEquals(1, config.localNode());
        assertEquals("netty", config.transport());
        assertEquals(TWO.get(1), config.localAddress());
        assertEquals(Duration.ofSeconds(3), config.operationTimeout());
        assertEquals(Duration.ofSeconds(5), config.connectTimeout());
        assertEquals(Duration.ofSeconds(1), config.heartbeatInterval());
        assertEquals(Duration.ofSeconds(5), config.peerLostAfter());
    }

    @Test
    void propertiesGiveTheSameConfiguration() {
        Properties properties = new Properties();
        properties.setProperty(ClusterConfig.NODE, "0");
        properties.setProperty(ClusterConfig.TRANSPORT, "rdma");
        properties.setProperty(ClusterConfig.NODES, " 127.0.0.1:7100 , 127.0.0.1:7101");
        properties.setProperty(ClusterConfig.OPERATION_TIMEOUT_MS, "2500");
        properties.setProperty(ClusterConfig.PEER_LOST_AFTER_MS, "4000");
        properties.setProperty("gtran.storage.something", "ignored: not a fabric key");
        ClusterConfig config = ClusterConfig.fromProperties(properties);
        assertEquals(0, config.localNode());
        assertEquals("rdma", config.transport());
        assertEquals(TWO, config.nodes());
        assertEquals(Duration.ofMillis(2500), config.operationTimeout());
        assertEquals(Duration.ofMillis(4000), config.peerLostAfter());
    }

    @Test
    void badConfigurationsAreRefusedNamingWhatIsWrong() {
        assertMessage(() -> ClusterConfig.builder(2).nodes(TWO).build(), "localNode=2", "nodes=2");
        assertMessage(() -> ClusterConfig.builder(-1).nodes(TWO).build(), "localNode=-1");
        assertMessage(() -> ClusterConfig.builder(0).build(), "nodes=0");
        assertMessage(() -> ClusterConfig.builder(0).nodes(TWO).transport(" ").build(), "transport");
        assertMessage(() -> ClusterConfig.builder(0).nodes(List.of(TWO.get(0), TWO.get(0))).build(), "node=1",
                "share an address");
        assertMessage(() -> ClusterConfig.builder(0).nodes(TWO).operationTimeout(Duration.ZERO).build(),
                "operationTimeout=PT0S");
        assertMessage(() -> ClusterConfig.builder(0).nodes(TWO).connectTimeout(Duration.ofMillis(-1)).build(),
                "connectTimeout");
        assertMessage(() -> ClusterConfig.builder(0).nodes(TWO).heartbeatInterval(Duration.ofSeconds(5))
                .peerLostAfter(Duration.ofSeconds(5)).build(), "peerLostAfter=PT5S", "heartbeatInterval=PT5S");
    }

    @Test
    void badPropertiesAreRefusedNamingTheKey() {
        assertMessage(() -> ClusterConfig.fromProperties(props("gtran.fabric.nodes", "127.0.0.1:1")), "missing setting",
                ClusterConfig.NODE);
        assertMessage(() -> ClusterConfig.fromProperties(props("gtran.fabric.node", "0")), ClusterConfig.NODES);
        assertMessage(() -> ClusterConfig.fromProperties(props("gtran.fabric.node", "zero", "gtran.fabric.nodes",
                "127.0.0.1:1")), "gtran.fabric.node=zero");
        assertMessage(() -> ClusterConfig.fromProperties(props("gtran.fabric.node", "0", "gtran.fabric.nodes",
                "127.0.0.1")), "host:port", "entry=127.0.0.1");
        assertMessage(() -> ClusterConfig.fromProperties(props("gtran.fabric.node", "0", "gtran.fabric.nodes",
                "127.0.0.1:http")), "entry=127.0.0.1:http");
        assertMessage(() -> ClusterConfig.fromProperties(props("gtran.fabric.node", "0", "gtran.fabric.nodes",
                "127.0.0.1:70000")), "port out of range");
        assertMessage(() -> ClusterConfig.fromProperties(props("gtran.fabric.node", "0", "gtran.fabric.nodes",
                "127.0.0.1:1", "gtran.fabric.operation-timeout", "5")), "unknown setting: gtran.fabric.operation-timeout");
        assertMessage(() -> ClusterConfig.fromProperties(props("gtran.fabric.node", "0", "gtran.fabric.nodes",
                "127.0.0.1:1", ClusterConfig.OPERATION_TIMEOUT_MS, "0")), "operationTimeout");
    }

    private static Properties props(String... keysAndValues) {
        Properties properties = new Properties();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            properties.setProperty(keysAndValues[i], keysAndValues[i + 1]);
        }
        return properties;
    }

    private static void assertMessage(org.junit.jupiter.api.function.Executable executable, String... parts) {
        FabricContractTest.assertMessageHas(assertThrows(IllegalArgumentException.class, executable), parts);
    }

    @Test
    void anUnknownTransportIsRefusedListingTheKnownOnes() {
        ClusterConfig config = ClusterConfig.builder(0).nodes(TWO).transport("carrier-pigeon").build();
        assertMessage(() -> Fabrics.start(config), "unknown transport", "gtran.fabric.transport=carrier-pigeon", "known:");
    }

    /** This module holds no networked transport: the default, netty, is known only with gtran-rdma-netty. */
    @Test
    void aTransportWhoseModuleIsAbsentIsRefusedNamingTheKeyTheValueAndTheTransportsFound() {
        ClusterConfig config = ClusterConfig.builder(0).nodes(TWO).build();
        assertMessage(() -> Fabrics.start(config), "unknown transport", "gtran.fabric.transport=netty", "known: []",
                "netty in gtran-rdma-netty");
    }
}
