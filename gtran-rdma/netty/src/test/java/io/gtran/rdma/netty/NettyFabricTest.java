package io.gtran.rdma.netty;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.Batch;
import io.gtran.rdma.ClusterConfig;
import io.gtran.rdma.DeliveryException;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.Fabrics;
import io.gtran.rdma.LoopbackPorts;
import io.gtran.rdma.Mailbox;
import io.gtran.rdma.Region;
import io.gtran.rdma.RegionAccessException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What only the TCP transport has: listening and connecting, time-outs and silent peers, restarts
 * (incarnations), batches as one frame per node. The guard against blocking an I/O thread is in
 * the contract ({@code FabricContractTest.aSynchronousOperationInADependentStageIsRefusedOrServedAsPromised}).
 */
@Timeout(value = 60, unit = SECONDS)
class NettyFabricTest {
    private static final long SEED = 0x6e65_7474_79L;
    private static final long WAIT_SECONDS = 30;

    private final List<AutoCloseable> toClose = new ArrayList<>();
    private final List<String> losses = new CopyOnWriteArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    @Test
    void theNettyTransportIsFoundByName() {
        NettyTestCluster cluster = cluster(1);
        ClusterConfig config = ClusterConfig.builder(0).nodes(LoopbackPorts.free(1)).build();
        Fabric fabric = closing(Fabrics.start(config));
        assertInstanceOf(NettyFabric.class, fabric);
        assertEquals(0, fabric.localNode());
        assertTrue(cluster.node(0).transportName().matches("epoll|nio"));
    }

    /** This module's test class path has no gtran-rdma-disni: its transport is unknown, and the message says where it is. */
    @Test
    void onlyTheTransportsWhoseModulesAreOnTheClassPathAreKnown() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Fabrics.provider("rdma"));
        assertMessageHas(e, "unknown transport", "gtran.fabric.transport=rdma", "known: [netty]", "rdma in gtran-rdma-disni");
    }

    @Test
    void startingOnATakenAddressFailsNamingItAndLeavesNoThreads() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            InetSocketAddress address = new InetSocketAddress("127.0.0.1", taken.getLocalPort());
            ClusterConfig config = ClusterConfig.builder(0).nodes(List.of(address)).build();
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> NettyFabric.start(config));
            assertMessageHas(e, "cannot listen", "node=0", "address=127.0.0.1:" + taken.getLocalPort());
        }
        awaitTrue(() -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(thread -> thread.getName().startsWith("gtran-fabric-0-io")), "the I/O threads stopped");
    }

    @Test
    void anUnreachableNodeIsNamedWithItsAddressAndIsNotReportedLost() throws Exception {
        NettyTestCluster cluster = NettyTestCluster.start(2, 1, NettyTestCluster.TEST_LIMITS);
        toClose.add(cluster);
        NettyFabric n0 = cluster.node(0);
        n0.onPeerLost((node, reason) -> losses.add(node + ": " + reason));
        String address = "address=127.0.0.1:" + cluster.address(1).getPort();
        assertMessageHas(assertThrows(RegionAccessException.class, () -> n0.connect(1, "r")),
                "node unreachable", "node=1", "region=r", address);
        Mailbox outbox = n0.openMailbox("outbox");
        // Many times: a refused connect may close the connection before the request reaches it, and
        // after its retries the request must still name the reason (it once said "connection closed").
        for (int i = 0; i < 300; i++) {
            assertMessageHas(failure(DeliveryException.class, outbox.send(1, "inbox", new byte[1])),
                    "node unreachable", "node=1", "mailbox=inbox", address);
            assertMessageHas(assertThrows(RegionAccessException.class, () -> n0.connect(1, "r")), "node unreachable");
        }
        Thread.sleep(100); // real time: a wrong loss report would come from the event loop, if at all
        assertTrue(losses.isEmpty(), "a node never reached is not lost: " + losses);
    }

    @Test
    void anOperationWithoutAReplyFailsAfterTheOperationTimeout() throws Exception {
        List<InetSocketAddress> addresses = LoopbackPorts.free(2);
        toClose.add(new FakePeer(1, addresses.get(1), true));
        NettyFabric n0 = start(0, addresses, builder -> builder.operationTimeout(Duration.ofMillis(300))
                .heartbeatInterval(Duration.ofMillis(50)).peerLostAfter(Duration.ofSeconds(30)));
        n0.onPeerLost((node, reason) -> losses.add(node + ": " + reason));
        Region region = n0.connect(1, "quiet");
        assertEquals(FakePeer.REGION_BYTES, region.size());
        long started = System.nanoTime();
        RegionAccessException timedOut = assertThrows(RegionAccessException.class, () -> region.readLong(0));
        long tookMillis = (System.nanoTime() - started) / 1_000_000;
        assertMessageHas(timedOut, "operationTimeout=300ms", "node=1", "region=quiet", "address=");
        assertTrue(tookMillis >= 290 && tookMillis < 5_000, "failed after " + tookMillis + "ms");
        assertMessageHas(failure(RegionAccessException.class, region.fetchAddAsync(0, 1)),
                "operationTimeout=300ms");
        assertMessageHas(failure(DeliveryException.class, n0.openMailbox("m").send(1, "x", new byte[1])),
                "operationTimeout=300ms", "node=1", "mailbox=x");
        assertTrue(losses.isEmpty(), "a peer answering heartbeats is not lost: " + losses);
    }

    @Test
    void aPeerThatFallsSilentIsLostAndWhatWaitsOnItFailsAtOnce() throws Exception {
        List<InetSocketAddress> addresses = LoopbackPorts.free(2);
        toClose.add(new FakePeer(1, addresses.get(1), false));
        NettyFabric n0 = start(0, addresses, builder -> builder.operationTimeout(Duration.ofSeconds(30))
                .heartbeatInterval(Duration.ofMillis(100)).peerLostAfter(Duration.ofMillis(600)));
        n0.onPeerLost((node, reason) -> losses.add(node + ": " + reason));
        Region region = n0.connect(1, "silent");
        long started = System.nanoTime();
        CompletableFuture<Long> waiting = region.readLongAsync(0);
        RegionAccessException lost = failure(RegionAccessException.class, waiting);
        long tookMillis = (System.nanoTime() - started) / 1_000_000;
        assertMessageHas(lost, "peerLostAfter=600ms", "node=1", "region=silent");
        assertTrue(tookMillis < 10_000, "failed after " + tookMillis + "ms, long before the operation timeout");
        awaitTrue(() -> !losses.isEmpty(), "the listener hears of the loss");
        Thread.sleep(100); // real time: a second report would come from another thread, if at all
        assertEquals(List.of("1: no frame within peerLostAfter=600ms"), losses);
    }

    @Test
    void closingFailsWhatIsOutstandingAtOnce() throws Exception {
        List<InetSocketAddress> addresses = LoopbackPorts.free(2);
        toClose.add(new FakePeer(1, addresses.get(1), true));
        NettyFabric n0 = start(0, addresses, builder -> builder.operationTimeout(Duration.ofSeconds(30)));
        Region region = n0.connect(1, "quiet");
        CompletableFuture<Long> read = region.readLongAsync(0);
        CompletableFuture<Void> sent = n0.openMailbox("m").send(1, "x", new byte[1]);
        long started = System.nanoTime();
        n0.close();
        assertMessageHas(failure(RegionAccessException.class, read), "fabric closed on node=0", "node=1", "region=quiet");
        assertMessageHas(failure(DeliveryException.class, sent), "fabric closed on node=0", "node=1", "mailbox=x");
        long tookMillis = (System.nanoTime() - started) / 1_000_000;
        assertTrue(tookMillis < 10_000, "failed " + tookMillis + "ms after close, long before the operation timeout");
    }

    @Test
    void aHandleToARestartedNodeFailsAndANewLookUpReachesTheNewNode() throws Exception {
        NettyTestCluster cluster = cluster(2);
        NettyFabric n0 = cluster.node(0);
        n0.onPeerLost((node, reason) -> losses.add(node + ": " + reason));
        cluster.node(1).register("r", 8).writeLong(0, 5);
        Region old = n0.connect(1, "r");
        assertEquals(5, old.readLong(0));
        ClusterConfig config1 = cluster.node(1).config();
        cluster.node(1).close();
        awaitTrue(() -> !losses.isEmpty(), "node 0 hears that node 1 closed");
        NettyFabric restarted = closing(NettyFabric.start(config1));
        restarted.register("r", 8);
        assertMessageHas(assertThrows(RegionAccessException.class, () -> old.readLong(0)),
                "node restarted", "node=1", "region=r");
        assertThrows(RegionAccessException.class, () -> old.writeLong(0, 1), "and stays dead");
        Region fresh = n0.connect(1, "r");
        assertEquals(0, fresh.readLong(0), "the new node's region");
        fresh.writeLong(0, 7);
        assertEquals(7, restarted.connect(1, "r").readLong(0));
        assertEquals(List.of("1: node is closed"), losses, "the close was told once, the restart is contact again");
    }

    @Test
    void aBatchGoesToEachNodeAsOneFrameAndIsCutOnlyAtTheFrameLimit() throws Exception {
        NettyTestCluster cluster = cluster(3);
        NettyFabric n0 = cluster.node(0);
        Region local = n0.register("wide", 1024);
        cluster.node(1).register("wide", 1024);
        cluster.node(2).register("wide", 3L * (8 << 20));
        Region on1 = n0.connect(1, "wide");
        Region on2 = n0.connect(2, "wide");
        long before1 = cluster.node(1).opsFramesServed();
        long before2 = cluster.node(2).opsFramesServed();
        Batch batch = n0.batch();
        List<CompletableFuture<Long>> adds = new ArrayList<>();
        for (int word = 0; word < 100; word++) {
            adds.add(batch.fetchAdd(on1, word * 8L, 1));
            adds.add(batch.fetchAdd(on2, word * 8L, 2));
            adds.add(batch.fetchAdd(local, word * 8L, 3));
        }
        batch.flush().get(WAIT_SECONDS, SECONDS);
        for (CompletableFuture<Long> add : adds) {
            assertEquals(0, add.get());
        }
        assertEquals(before1 + 1, cluster.node(1).opsFramesServed(), "one frame to node 1");
        assertEquals(before2 + 1, cluster.node(2).opsFramesServed(), "one frame to node 2");
        assertEquals(3, local.readLong(99 * 8), "local operations applied at flush");

        byte[][] chunks = new byte[3][8 << 20];
        Random random = new Random(SEED);
        for (int i = 0; i < 3; i++) {
            random.nextBytes(chunks[i]);
            batch.write(on2, (long) i * (8 << 20), chunks[i], 0, chunks[i].length);
        }
        CompletableFuture<byte[]> last = batch.read(on2, 2L * (8 << 20), 8 << 20);
        batch.flush().get(WAIT_SECONDS, SECONDS);
        assertEquals(before2 + 3, cluster.node(2).opsFramesServed(),
                "24 MiB of writes and an 8 MiB read pass the 16 MiB frame limit: two frames");
        assertArrayEquals(chunks[2], last.get());
        assertArrayEquals(chunks[0], on2.readAsync(0, 8 << 20).get(WAIT_SECONDS, SECONDS));
    }

    @Test
    void ownRegionsAreReachedWithoutASocketAndToStringShowsTheState() {
        NettyTestCluster cluster = cluster(2);
        NettyFabric n0 = cluster.node(0);
        Region own = n0.register("own", 16);
        n0.openMailbox("m");
        Region again = n0.connect(0, "own");
        again.writeLong(8, 9);
        assertEquals(9, own.fetchAdd(8, 1));
        assertEquals(10, again.readLongAsync(8).join());
        String state = n0.toString();
        assertMessageHas(new AssertionError(state), "node=0", "transport=", "closed=false",
                "regions=[own]", "mailboxes=[m]", "inbound=0", "node=1 not in contact, connection=none");
        assertFalse(cluster.node(1).toString().contains("inbound=1"), "no connection was made: " + cluster.node(1));
    }

    // ---- helpers ----------------------------------------------------------------------------

    private NettyTestCluster cluster(int nodes) {
        NettyTestCluster cluster = NettyTestCluster.start(nodes);
        toClose.add(cluster);
        return cluster;
    }

    private NettyFabric start(int node, List<InetSocketAddress> addresses, UnaryOperator<ClusterConfig.Builder> limits) {
        return closing(NettyFabric.start(limits.apply(ClusterConfig.builder(node).nodes(addresses)).build()));
    }

    private <T extends Fabric> T closing(T fabric) {
        toClose.add(fabric);
        return fabric;
    }

    private static <T extends Throwable> T failure(Class<T> type, CompletableFuture<?> future) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> future.get(WAIT_SECONDS, SECONDS));
        return assertInstanceOf(type, e.getCause());
    }

    private static void assertMessageHas(Throwable t, String... parts) {
        for (String part : parts) {
            assertTrue(t.getMessage() != null && t.getMessage().contains(part), "message lacks \"" + part + "\": " + t);
        }
    }

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + SECONDS.toNanos(WAIT_SECONDS);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting: " + what);
            Thread.sleep(5);
        }
    }
}
