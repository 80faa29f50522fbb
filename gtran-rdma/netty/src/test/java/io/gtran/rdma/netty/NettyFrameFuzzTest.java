package io.gtran.rdma.netty;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.gtran.rdma.Mailbox;
import io.gtran.rdma.Region;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/**
 * Hostile input against a running node: raw sockets send seeded random bytes and broken frames
 * (bad magic, version, type or flags, a length past the limit, frames before HELLO, a HELLO from
 * outside the cluster, truncated frames, garbage and out-of-range OPS bodies). The node must close
 * each such connection, with a WARN line naming the remote address and the reason, while another
 * node keeps reading, writing and messaging it without a single failure.
 *
 * <p>The cluster has three configured nodes: 0 (the target), 1 (the honest peer) and 2, which is
 * never started; the raw sockets speak as node 2 when they get past HELLO.
 */
@Timeout(value = 120, unit = SECONDS)
class NettyFrameFuzzTest {
    private static final long SEED = 0x66_757a_7aL;
    private static final int RANDOM_CONNECTIONS = 40;
    private static final int EOF_WAIT_MILLIS = 10_000;

    private NettyTestCluster cluster;
    private ExecutorService pool;
    private final ListAppender<ILoggingEvent> warnings = new ListAppender<>();
    private final Logger serverLog = (Logger) LoggerFactory.getLogger(ServerHandler.class);

    @BeforeEach
    void start() {
        warnings.start();
        serverLog.addAppender(warnings);
        cluster = NettyTestCluster.start(3, 2, NettyTestCluster.TEST_LIMITS);
        pool = Executors.newFixedThreadPool(2);
    }

    @AfterEach
    void stop() throws InterruptedException {
        pool.shutdownNow();
        cluster.close();
        serverLog.detachAppender(warnings);
        assertTrue(pool.awaitTermination(30, SECONDS), "test threads did not stop");
    }

    @Test
    void malformedConnectionsAreClosedAndTheNodeKeepsServingOthers() throws Exception {
        NettyFabric target = cluster.node(0);
        NettyFabric honest = cluster.node(1);
        target.register("fuzz-target", 64);
        Mailbox inbox = target.openMailbox("inbox");
        AtomicBoolean stop = new AtomicBoolean();
        Future<Integer> traffic = pool.submit(() -> honestTraffic(honest, stop));
        Future<Integer> received = pool.submit(() -> drain(inbox, stop));

        Random random = new Random(SEED);
        for (int i = 0; i < RANDOM_CONNECTIONS; i++) {
            byte[] garbage = new byte[FrameDescriptor.LENGTH + random.nextInt(300)];
            random.nextBytes(garbage);
            assertClosed("random bytes #" + i, garbage, null, "bad magic");
        }
        assertClosed("wrong magic", header(0x4754_524F, FrameDescriptor.VERSION, FrameDescriptor.HELLO, 0, 16), null,
                "bad magic");
        assertClosed("wrong version", header(FrameDescriptor.MAGIC, (byte) 9, FrameDescriptor.HELLO, 0, 16), null,
                "unsupported protocol version");
        assertClosed("unknown type", header(FrameDescriptor.MAGIC, FrameDescriptor.VERSION, (byte) 99, 0, 0), null,
                "unknown frame type");
        assertClosed("flags", header(FrameDescriptor.MAGIC, FrameDescriptor.VERSION, FrameDescriptor.HELLO, 1, 16), null,
                "unknown flags");
        assertClosed("HELLO longer than a HELLO", header(FrameDescriptor.MAGIC, FrameDescriptor.VERSION,
                FrameDescriptor.HELLO, 0, Integer.MAX_VALUE), null, "bodyLength=" + Integer.MAX_VALUE);
        assertClosed("frame before HELLO", concat(header(FrameDescriptor.MAGIC, FrameDescriptor.VERSION, FrameDescriptor.OPS,
                0, 17), opsBody(0, 0)), null, "before HELLO");
        assertClosed("HELLO for another node", hello(2, 1), null, "HELLO meant for another node");
        assertClosed("HELLO from outside the cluster", hello(7, 0), null, "outside the cluster");
        assertClosed("length past the limit", header(FrameDescriptor.MAGIC, FrameDescriptor.VERSION, FrameDescriptor.OPS, 0,
                FrameDescriptor.MAX_BODY_LENGTH + 1), hello(2, 0), "bodyLength=" + (FrameDescriptor.MAX_BODY_LENGTH + 1));
        assertClosed("reply type from a client", header(FrameDescriptor.MAGIC, FrameDescriptor.VERSION,
                FrameDescriptor.OPS_REPLY, 0, 4), hello(2, 0), "unexpected frame type");
        assertClosed("offset out of range", concat(header(FrameDescriptor.MAGIC, FrameDescriptor.VERSION, FrameDescriptor.OPS,
                0, 17), opsBody(0, 64)), hello(2, 0), "out of bounds");
        assertClosed("unknown region id", concat(header(FrameDescriptor.MAGIC, FrameDescriptor.VERSION, FrameDescriptor.OPS,
                0, 17), opsBody(5, 0)), hello(2, 0), "unknown region id");
        for (int i = 0; i < 10; i++) {
            byte[] body = new byte[4 + random.nextInt(200)];
            random.nextBytes(body);
            ByteBuffer.wrap(body).putInt(0, 1 + random.nextInt(3));
            assertClosed("garbage OPS body #" + i, concat(header(FrameDescriptor.MAGIC, FrameDescriptor.VERSION,
                    FrameDescriptor.OPS, 0, body.length), body), hello(2, 0), "");
        }
        assertClosed("garbage SEND body", concat(header(FrameDescriptor.MAGIC, FrameDescriptor.VERSION, FrameDescriptor.SEND,
                0, 3), new byte[] {9, 'a', 'b'}), hello(2, 0), "bad SEND");
        assertTruncatedIsClosed(Arrays.copyOf(hello(0, 0), FrameDescriptor.LENGTH + 5));
        assertTruncatedIsClosed(Arrays.copyOf(hello(0, 0), 7));

        stop.set(true);
        int rounds = traffic.get(30, SECONDS);
        assertTrue(rounds > 0, "the honest peer got through");
        assertEquals(rounds, (int) received.get(30, SECONDS), "every honest message arrived");
        long deadline = System.nanoTime() + SECONDS.toNanos(10);
        while (!target.toString().contains("inbound=1,")) { // only the honest peer's connection is left
            assertTrue(System.nanoTime() < deadline, "hostile connections left open: " + target);
            Thread.sleep(10);
        }
    }

    /** Node 1 reads, writes and messages node 0 until told to stop; returns the rounds done. */
    private static int honestTraffic(NettyFabric honest, AtomicBoolean stop) throws Exception {
        Region region = honest.connect(0, "fuzz-target");
        Mailbox outbox = honest.openMailbox("outbox");
        byte[] data = new byte[32];
        byte[] back = new byte[32];
        int round = 0;
        while (!stop.get()) {
            round++;
            assertEquals(round - 1, region.fetchAdd(0, 1));
            Arrays.fill(data, (byte) round);
            region.write(16, data, 0, data.length);
            region.read(16, back, 0, back.length);
            assertArrayEquals(data, back);
            outbox.send(0, "inbox", ByteBuffer.allocate(4).putInt(round).array()).get(10, SECONDS);
        }
        return round;
    }

    /** Receives node 1's messages, checking their order; returns how many arrived. */
    private static int drain(Mailbox inbox, AtomicBoolean stop) throws InterruptedException {
        int seen = 0;
        while (true) {
            var message = inbox.receive(200, java.util.concurrent.TimeUnit.MILLISECONDS);
            if (message == null) {
                if (stop.get()) {
                    return seen;
                }
                continue;
            }
            seen++;
            assertEquals(seen, ByteBuffer.wrap(message.payload()).getInt(), "messages in order");
        }
    }

    /**
     * Opens a raw connection to node 0, sends {@code opening} (if any: a valid HELLO, whose
     * HELLO_ACK is read) and then {@code hostile}, and expects node 0 to close the connection and
     * log a WARN naming this connection's address and containing {@code reason}.
     */
    private void assertClosed(String what, byte[] hostile, byte[] opening, String reason) throws Exception {
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            if (opening != null) {
                out.write(opening);
                out.flush();
                byte[] ack = in.readNBytes(FrameDescriptor.LENGTH + BodyDescriptor.HELLO_ACK_LENGTH);
                assertEquals(FrameDescriptor.HELLO_ACK, ack[FrameDescriptor.TYPE_OFFSET], what + ": HELLO_ACK expected");
            }
            out.write(hostile);
            out.flush();
            assertEndOfStream(what, in);
            assertWarned(what, socket.getLocalPort(), reason);
        }
    }

    /** Sends a frame cut short, then ends the stream: the node reports a truncated frame and closes. */
    private void assertTruncatedIsClosed(byte[] partial) throws Exception {
        try (Socket socket = connect()) {
            socket.getOutputStream().write(partial);
            socket.getOutputStream().flush();
            socket.shutdownOutput();
            assertEndOfStream("truncated frame", socket.getInputStream());
            assertWarned("truncated frame", socket.getLocalPort(), "truncated");
        }
    }

    private Socket connect() throws IOException {
        InetSocketAddress address = cluster.address(0);
        Socket socket = new Socket();
        socket.connect(address, EOF_WAIT_MILLIS);
        socket.setSoTimeout(EOF_WAIT_MILLIS);
        return socket;
    }

    private static void assertEndOfStream(String what, InputStream in) {
        try {
            byte[] sink = new byte[4096];
            while (in.read(sink) >= 0) {
                // whatever the node still sent before closing
            }
        } catch (SocketTimeoutException e) {
            fail(what + ": the node did not close the connection within " + EOF_WAIT_MILLIS + "ms");
        } catch (SocketException e) {
            // closed with unread input: a reset, which is a close too
        } catch (IOException e) {
            fail(what + ": " + e);
        }
    }

    /** Waits for the WARN line of a closed hostile connection from local port {@code port}. */
    private void assertWarned(String what, int port, String reason) throws InterruptedException {
        long deadline = System.nanoTime() + SECONDS.toNanos(10);
        while (true) {
            List<ILoggingEvent> events;
            synchronized (warnings) {
                events = new ArrayList<>(warnings.list);
            }
            for (ILoggingEvent event : events) {
                String line = event.getFormattedMessage();
                if (event.getLevel() == Level.WARN && line.contains("127.0.0.1:" + port) && line.contains(reason)) {
                    return;
                }
            }
            assertTrue(System.nanoTime() < deadline, what + ": no WARN naming port " + port + " and \"" + reason
                    + "\" among " + events.stream().map(ILoggingEvent::getFormattedMessage).toList());
            Thread.sleep(5);
        }
    }

    private static byte[] header(int magic, byte version, byte type, int flags, int bodyLength) {
        return ByteBuffer.allocate(FrameDescriptor.LENGTH).putInt(magic).put(version).put(type).putShort((short) flags)
                .putLong(1).putInt(bodyLength).array();
    }

    /** A HELLO from node {@code from} (incarnation 1) to node {@code target}. */
    private static byte[] hello(int from, int target) {
        return concat(header(FrameDescriptor.MAGIC, FrameDescriptor.VERSION, FrameDescriptor.HELLO, 0,
                BodyDescriptor.HELLO_LENGTH), ByteBuffer.allocate(BodyDescriptor.HELLO_LENGTH).putInt(from).putLong(1)
                .putInt(target).array());
    }

    /** An OPS body of one READ_LONG at {@code offset} of region {@code regionId}. */
    private static byte[] opsBody(int regionId, long offset) {
        return ByteBuffer.allocate(17).putInt(1).put(OpDescriptor.READ_LONG).putInt(regionId).putLong(offset).array();
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }
}
