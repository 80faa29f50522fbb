package io.gtran.rdma.netty;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.gtran.rdma.ClusterConfig;
import io.gtran.rdma.Region;
import io.gtran.rdma.RegionAccessException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/**
 * Defects found in review of the Netty transport, each shown by a test that failed before its fix.
 * Raw sockets play peers (or hostile clients) where the real transport cannot be made to misbehave
 * on cue. Netty's leak detector runs at PARANOID and every test ends by collecting garbage and
 * failing on any LEAK report, since these tests drive the error paths (closed connections,
 * requests kept unanswered) where a buffer is easily left unreleased.
 */
@Timeout(value = 60, unit = SECONDS)
class NettyReviewFindingsTest {
    private static final long WAIT_SECONDS = 30;

    static {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    }

    private final List<AutoCloseable> toClose = new ArrayList<>();
    private final List<String> losses = new CopyOnWriteArrayList<>();
    private final ListAppender<ILoggingEvent> leakReports = new ListAppender<>();
    private final Logger leakLog = (Logger) LoggerFactory.getLogger(ResourceLeakDetector.class);

    @BeforeEach
    void watchForLeaks() {
        leakReports.start();
        leakLog.addAppender(leakReports);
    }

    @AfterEach
    void closeAllAndCheckForLeaks() throws Exception {
        try {
            for (int i = toClose.size() - 1; i >= 0; i--) {
                toClose.get(i).close();
            }
            for (int round = 0; round < 5; round++) { // leaks are reported when a lost buffer is collected
                System.gc();
                Thread.sleep(50);
                ByteBuf probe = ByteBufAllocator.DEFAULT.directBuffer(8); // a tracked allocation polls for reports
                probe.release();
            }
            List<String> leaks;
            synchronized (leakReports) {
                leaks = leakReports.list.stream().map(ILoggingEvent::getFormattedMessage).filter(m -> m.contains("LEAK"))
                        .toList();
            }
            assertTrue(leaks.isEmpty(), "ByteBuf leaks: " + leaks);
        } finally {
            leakLog.detachAppender(leakReports);
        }
    }

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
        List<InetSocketAddress> addresses = NettyTestCluster.freeAddresses(2);
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
        Thread.sleep(300);
        assertEquals(List.of("1: node restarted"), losses, "told once");
    }

    /**
     * A peer that sends requests and never reads its replies must not make this node buffer a reply
     * for every request it sent: ServerHandler's back-pressure only looked at writability once per
     * read, so every request that came in one read (up to ~1 MiB of input, tens of thousands of
     * 41-byte OPS frames each asking for 16 MiB) was answered into memory at once. Here 128 reads of
     * 1 MiB arrive together; only a few replies may be made before the node stops, and once the
     * peer reads, every reply must come, in order.
     */
    @Test
    void aPeerThatDoesNotReadItsRepliesCannotMakeTheNodeBufferAReplyForEveryRequest() throws Exception {
        List<InetSocketAddress> addresses = NettyTestCluster.freeAddresses(2);
        NettyFabric n0 = start(0, addresses, builder -> NettyTestCluster.TEST_LIMITS.apply(builder)
                .peerLostAfter(Duration.ofSeconds(30))); // reading 128 MiB back may take a while on a loaded machine
        int length = 1 << 20;
        Region big = n0.register("big", length);
        big.writeLong(0, 0x5EED);
        int requests = 128;
        Socket socket = helloAs(addresses.get(0), 1, 0x01D, 4096);
        ByteBuffer frames = ByteBuffer.allocate(requests * (FrameDescriptor.LENGTH + 21));
        for (int id = 1; id <= requests; id++) {
            frames.putInt(FrameDescriptor.MAGIC).put(FrameDescriptor.VERSION).put(FrameDescriptor.OPS).putShort((short) 0)
                    .putLong(id).putInt(21);
            frames.putInt(1).put(OpDescriptor.READ).putInt(0).putLong(0).putInt(length);
        }
        OutputStream out = socket.getOutputStream();
        out.write(frames.array());
        out.flush();

        long served = awaitStable(n0::opsFramesServed);
        assertTrue(served >= 1, "the node answered at all");
        assertTrue(served <= 32, "the node made " + served + " replies of 1 MiB for a peer that reads none of them");

        DataInputStream in = new DataInputStream(socket.getInputStream());
        byte[] header = new byte[FrameDescriptor.LENGTH];
        byte[] body = new byte[4 + length];
        for (int id = 1; id <= requests; id++) {
            in.readFully(header);
            ByteBuffer fields = ByteBuffer.wrap(header);
            assertEquals(FrameDescriptor.OPS_REPLY, fields.get(FrameDescriptor.TYPE_OFFSET));
            assertEquals(id, fields.getLong(FrameDescriptor.REQUEST_ID_OFFSET), "replies in request order");
            assertEquals(body.length, fields.getInt(FrameDescriptor.BODY_LENGTH_OFFSET));
            in.readFully(body);
        }
        assertEquals(requests, n0.opsFramesServed(), "every request was answered once the peer read");
        assertEquals(0x5EED, big.readLong(0));
    }

    /**
     * An honest peer that asked for more reply bytes than it can take within peerLostAfter (bulk
     * reads over a slow link) and keeps sending heartbeats like any client. The node stops reading
     * while the replies back up; it must not then take its own not-reading for the peer's silence,
     * close the connection after peerLostAfter and report the peer lost while it is taking its
     * replies.
     */
    @Test
    void aPeerSlowlyTakingLargeRepliesIsNotLostWhileTheNodeHasStoppedReadingIt() throws Exception {
        List<InetSocketAddress> addresses = NettyTestCluster.freeAddresses(2);
        NettyFabric n0 = start(0, addresses, builder -> builder.heartbeatInterval(Duration.ofMillis(100))
                .peerLostAfter(Duration.ofSeconds(1)));
        n0.onPeerLost((node, reason) -> losses.add(node + ": " + reason));
        int length = 1 << 20;
        n0.register("big", length);
        int requests = 16;
        Socket socket = helloAs(addresses.get(0), 1, 0x01D, 4096);
        OutputStream out = socket.getOutputStream();
        for (int id = 1; id <= requests; id++) {
            out.write(ByteBuffer.allocate(FrameDescriptor.LENGTH + 21).putInt(FrameDescriptor.MAGIC)
                    .put(FrameDescriptor.VERSION).put(FrameDescriptor.OPS).putShort((short) 0).putLong(id).putInt(21)
                    .putInt(1).put(OpDescriptor.READ).putInt(0).putLong(0).putInt(length).array());
        }
        out.flush();
        DataInputStream in = new DataInputStream(socket.getInputStream());
        byte[] header = new byte[FrameDescriptor.LENGTH];
        byte[] body = new byte[4 + length];
        int replies = 0;
        while (replies < requests) {
            Thread.sleep(150); // a slow link: ~2.4 s for all replies, more than peerLostAfter
            out.write(ByteBuffer.allocate(FrameDescriptor.LENGTH).putInt(FrameDescriptor.MAGIC).put(FrameDescriptor.VERSION)
                    .put(FrameDescriptor.PING).putShort((short) 0).putLong(0).putInt(0).array()); // a heartbeat
            out.flush();
            in.readFully(header); // EOFException if the node gave up on this connection
            ByteBuffer fields = ByteBuffer.wrap(header);
            if (fields.get(FrameDescriptor.TYPE_OFFSET) == FrameDescriptor.PONG) {
                continue;
            }
            replies++;
            assertEquals(FrameDescriptor.OPS_REPLY, fields.get(FrameDescriptor.TYPE_OFFSET));
            assertEquals(replies, fields.getLong(FrameDescriptor.REQUEST_ID_OFFSET));
            in.readFully(body);
        }
        assertTrue(losses.isEmpty(), "a peer taking its replies is not lost: " + losses);

        // but a peer that takes none of its replies is still given up on after peerLostAfter
        Socket deaf = helloAs(addresses.get(0), 1, 0x01D, 4096);
        for (int id = 1; id <= requests; id++) {
            deaf.getOutputStream().write(ByteBuffer.allocate(FrameDescriptor.LENGTH + 21).putInt(FrameDescriptor.MAGIC)
                    .put(FrameDescriptor.VERSION).put(FrameDescriptor.OPS).putShort((short) 0).putLong(id).putInt(21)
                    .putInt(1).put(OpDescriptor.READ).putInt(0).putLong(0).putInt(length).array());
        }
        deaf.getOutputStream().flush();
        socket.close();
        awaitTrue(() -> n0.toString().contains("inbound=0,"), "node 0 closed the connection of a peer taking no replies");
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
        List<InetSocketAddress> addresses = NettyTestCluster.freeAddresses(2);
        FakePeer peer = new FakePeer(1, addresses.get(1), true);
        toClose.add(peer);
        NettyFabric n0 = start(0, addresses, builder -> builder.heartbeatInterval(Duration.ofMillis(100))
                .peerLostAfter(Duration.ofSeconds(30)));
        n0.onPeerLost((node, reason) -> losses.add(node + ": " + reason));
        assertEquals(FakePeer.REGION_BYTES, n0.connect(1, "r").size()); // node 0's own connection
        Socket inbound = helloAs(addresses.get(0), 1, 0xFA4EL, 4096); // node 1's, same incarnation as the fake's
        inbound.close();
        awaitTrue(() -> n0.toString().contains("inbound=0,"), "node 0 saw node 1's connection close");
        Thread.sleep(200);
        assertEquals(FakePeer.REGION_BYTES, n0.connect(1, "s").size(), "node 1 still answers: node 0 is in contact");
        int before = losses.size();

        peer.close(); // node 1 goes away
        awaitTrue(() -> losses.size() == before + 1, "node 0 hears that node 1 is gone (before: " + losses + ")");
        Thread.sleep(200);
        assertEquals(before + 1, losses.size(), "told once: " + losses);
    }

    // ---- helpers ----------------------------------------------------------------------------

    private NettyFabric start(int node, List<InetSocketAddress> addresses,
                              java.util.function.UnaryOperator<ClusterConfig.Builder> limits) {
        NettyFabric fabric = NettyFabric.start(limits.apply(ClusterConfig.builder(node).nodes(addresses)).build());
        toClose.add(fabric);
        return fabric;
    }

    /**
     * Opens a raw connection to {@code target} (receive buffer {@code receiveBuffer} bytes), says
     * HELLO as node {@code node} with incarnation {@code incarnation} to node 0, and reads the
     * HELLO_ACK. Closed after the test.
     */
    private Socket helloAs(InetSocketAddress target, int node, long incarnation, int receiveBuffer) throws IOException {
        Socket socket = new Socket();
        toClose.add(socket);
        socket.setReceiveBufferSize(receiveBuffer);
        socket.connect(target, 10_000);
        socket.setSoTimeout(10_000);
        ByteBuffer hello = ByteBuffer.allocate(FrameDescriptor.LENGTH + BodyDescriptor.HELLO_LENGTH);
        hello.putInt(FrameDescriptor.MAGIC).put(FrameDescriptor.VERSION).put(FrameDescriptor.HELLO).putShort((short) 0)
                .putLong(0).putInt(BodyDescriptor.HELLO_LENGTH);
        hello.putInt(node).putLong(incarnation).putInt(0);
        socket.getOutputStream().write(hello.array());
        socket.getOutputStream().flush();
        byte[] ack = new byte[FrameDescriptor.LENGTH + BodyDescriptor.HELLO_ACK_LENGTH];
        new DataInputStream(socket.getInputStream()).readFully(ack);
        assertEquals(FrameDescriptor.HELLO_ACK, ack[FrameDescriptor.TYPE_OFFSET]);
        return socket;
    }

    /** Waits until {@code value} has not changed for 500 ms; returns it. */
    private static long awaitStable(LongSupplier value) throws InterruptedException {
        long deadline = System.nanoTime() + SECONDS.toNanos(WAIT_SECONDS);
        long last = value.getAsLong();
        long since = System.nanoTime();
        while (System.nanoTime() - since < 500_000_000L) {
            assertTrue(System.nanoTime() < deadline, "never settled: " + value.getAsLong());
            Thread.sleep(10);
            long now = value.getAsLong();
            if (now != last) {
                last = now;
                since = System.nanoTime();
            }
        }
        return last;
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
