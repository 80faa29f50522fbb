package io.gtran.txn.membership;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GroupConfigTest {
    @Test
    void eachMembersGroupPortIsItsFabricPortPlusTheOffset() {
        GroupConfig config = GroupConfig.from(Map.of(GroupConfig.PORT_OFFSET, "50", GroupConfig.DIR, "/var/gtran/group"));
        Map<Integer, InetSocketAddress> addresses = config.addresses(List.of(new InetSocketAddress("127.0.0.2", 7400),
                new InetSocketAddress("127.0.0.3", 7401)));
        assertEquals(7450, addresses.get(0).getPort());
        assertEquals("127.0.0.3", addresses.get(1).getHostString());
        assertEquals(7451, addresses.get(1).getPort());
        assertEquals(Path.of("/var/gtran/group/n1-7451"), config.dirOf(1, addresses.get(1)));
        assertEquals(GroupConfig.DEFAULT_PORT_OFFSET, GroupConfig.from(Map.of()).portOffset());
    }

    @Test
    void aBadOffsetIsRefusedNamingTheKeyAndTheValue() {
        for (String bad : List.of("x", "0", "70000", "-3")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> GroupConfig.from(Map.of(GroupConfig.PORT_OFFSET, bad)));
            assertTrue(e.getMessage().contains(GroupConfig.PORT_OFFSET + "=" + bad), e.getMessage());
        }
        GroupConfig config = GroupConfig.from(Map.of(GroupConfig.PORT_OFFSET, "1000"));
        IllegalArgumentException high = assertThrows(IllegalArgumentException.class,
                () -> config.addresses(List.of(new InetSocketAddress("127.0.0.2", 65000))));
        assertTrue(high.getMessage().contains("node 0") && high.getMessage().contains("65535"), high.getMessage());
    }

    @Test
    void theGroupKeysAreKnownAndAnUnknownClusterKeyIsStillRefused() {
        Membership.from(Map.of(GroupConfig.PORT_OFFSET, "10", GroupConfig.DIR, "/tmp/x", Membership.NODES, "0,1"), 0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Membership.from(Map.of("gtran.cluster.group-prot-offset", "10"), 0));
        assertTrue(e.getMessage().contains("gtran.cluster.group-prot-offset"), e.getMessage());
    }
}
