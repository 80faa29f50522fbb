package io.gtran.rdma.netty;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.LoopbackPorts;
import io.gtran.rdma.Region;
import io.gtran.rdma.RegionAccessException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/**
 * When a peer of a {@link NettyFabric} counts as lost, and what fails then: a restart (the new
 * incarnation says HELLO while connections of the old one linger) and a break of one of several
 * connections with the same peer. Each test shows a defect found in review and failed before its
 * fix.
 */
class NettyPeerLossTest extends RawPeerHarness {
    /**
     * Peer 1 restarts while a connection of its old incarnation is still open here (a crashed host
     * sends no FIN/RST; the connection lingers until peerLostAfter). The new incarnation's HELLO
     * tells the listeners "node restarted": that is the old incarnation's loss. When the old
     * incarnation's connection finally closes, that must not be told again as a second loss, least
     * of all while the new incarnation is alive and connected.
     */
    @Test
    void theOldIncarnationsConnectionClosingAfterARestartIsNotASecondLoss() throws Exception {
        NettyTestCluster cluster = NettyTestCluster.start(2, 1, NettyTestCluster.TEST_LIMITS);
        toClose.add(cluster);
        NettyFabric n0 = cluster.node(0);
        n0.onPeerLost((node, reason) -> losses.add(node + ": " + reason));
        Socket old = helloAs(cluster.address(0), 1, 0x01D, 4096);
        // the HELLO_ACK goes out before the contact is noted: wait, so the two HELLOs are seen in order
        awaitTrue(() -> n0.toString().contains("node=1 in contact"), "node 0 in contact with the old incarnation");
        Socket fresh = helloAs(cluster.address(0), 1, 0x2E3, 4096);
        awaitTrue(() -> !losses.isEmpty(), "node 0 hears that node 1 restarted");
        assertEquals(List.of("1: node restarted"), losses);

        old.close();
        awaitTrue(() -> n0.toString().contains("inbound=1,"), "node 0 saw the old incarnation's connection close");
        Thread.sleep(300); // time for a duplicate to show up
        assertEquals(List.of("1: node restarted"), losses, "the old incarnation was told lost once; the new one is alive");

        fresh.close();
        awaitTrue(() -> losses.size() == 2, "the new incarnation's connection closing is a loss");
        assertTrue(losses.get(1).startsWith("1: "), losses.toString());
    }

    /**
     * This node's own connection to peer 1 still goes to the old incarnation (silent but not yet
     * given up on) when the new incarnation says HELLO. The restart is known at that moment, so what
     * waits on the old incarnation must fail then with "node restarted", not sit until the
     * operation timeout (30 s here) on a connection nobody will answer.
     */
    @Test
    void whatWaitsOnARestartedPeersOldIncarnationFailsWhenTheRestartIsKnown() throws Exception {
        List<InetSocketAddress> addresses = LoopbackPorts.free(2);
        FakePeer oldIncarnation = new FakePeer(1, addresses.get(1), true);
        toClose.add(oldIncarnation);
        NettyFabric n0 = start(0, addresses, builder -> builder.operationTimeout(Duration.ofSeconds(30))
                .heartbeatInterval(Duration.ofMillis(100)).peerLostAfter(Duration.ofSeconds(30)));
        n0.onPeerLost((node, reason) -> losses.add(node + ": " + reason));
        Region region = n0.connect(1, "r");
        CompletableFuture<Long> waiting = region.readLongAsync(0); // the fake never answers OPS

        helloAs(addresses.get(0), 1, 0x2E3, 4096);
        awaitTrue(() -> !losses.isEmpty(), "node 0 hears that node 1 restarted");
        ExecutionException failed = assertThrows(ExecutionException.class, () -> waiting.get(5, SECONDS),
                "the read waiting on the old incarnation fails at once");
        RegionAccessException cause = assertInstanceOf(RegionAccessException.class, failed.getCause());
        assertMessageHas(cause, "node restarted", "node=1", "region=r");
        Thread.sleep(300); // real time: a second report would come from another thread, if at all
        assertEquals(List.of("1: node restarted"), losses, "told once");
    }

    /**
     * Node 0 is in contact with node 1 over two connections (its own, and one node 1 opened). The
     * one node 1 opened breaks while node 0's own keeps working: whatever node 0 makes of that, when
     * node 1 then really goes away, a loss must be told. PeerLink kept one "in contact" flag for all
     * connections: the first break cleared it, the surviving connection never set it again (it had
     * done its handshake already), so node 1's real loss later was told to nobody.
     */
    @Test
    void aPeersLossIsToldAfterAnEarlierBreakOfOneOfItsConnections() throws Exception {
        List<InetSocketAddress> addresses = LoopbackPorts.free(2);
        FakePeer peer = new FakePeer(1, addresses.get(1), true);
        toClose.add(peer);
        NettyFabric n0 = start(0, addresses, builder -> builder.heartbeatInterval(Duration.ofMillis(100))
                .peerLostAfter(Duration.ofSeconds(30)));
        n0.onPeerLost((node, reason) -> losses.add(node + ": " + reason));
        assertEquals(FakePeer.REGION_BYTES, n0.connect(1, "r").size()); // node 0's own connection
        Socket inbound = helloAs(addresses.get(0), 1, 0xFA4EL, 4096); // node 1's, same incarnation as the fake's
        inbound.close();
        awaitTrue(() -> n0.toString().contains("inbound=0,"), "node 0 saw node 1's connection close");
        Thread.sleep(200); // real time: a wrong loss report after the close would come by now
        assertEquals(FakePeer.REGION_BYTES, n0.connect(1, "s").size(), "node 1 still answers: node 0 is in contact");
        int before = losses.size();

        peer.close(); // node 1 goes away
        awaitTrue(() -> losses.size() == before + 1, "node 0 hears that node 1 is gone (before: " + losses + ")");
        Thread.sleep(200); // real time: a second report would come from another thread, if at all
        assertEquals(before + 1, losses.size(), "told once: " + losses);
    }
}
