package io.gtran.rdma.netty;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.gtran.rdma.ClusterConfig;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/**
 * The harness of the tests in which raw sockets play peers (or hostile clients) of a
 * {@link NettyFabric}, where the real transport cannot be made to misbehave on cue
 * ({@link NettyPeerLossTest}, {@link NettyBackPressureTest}). What a test opens is closed after it,
 * last first. Netty's leak detector runs at PARANOID and every test ends by collecting garbage and
 * failing on any LEAK report, since these tests drive the error paths (closed connections, requests
 * kept unanswered) where a buffer is easily left unreleased.
 */
@Timeout(value = 60, unit = SECONDS)
abstract class RawPeerHarness {
    static final long WAIT_SECONDS = 30;

    static {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    }

    final List<AutoCloseable> toClose = new ArrayList<>();
    /** What a test's peer listener was told, as "node: reason". */
    final List<String> losses = new CopyOnWriteArrayList<>();
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

    /** Starts node {@code node} of a cluster at {@code addresses} with {@code limits}; closed after the test. */
    NettyFabric start(int node, List<InetSocketAddress> addresses, UnaryOperator<ClusterConfig.Builder> limits) {
        NettyFabric fabric = NettyFabric.start(limits.apply(ClusterConfig.builder(node).nodes(addresses)).build());
        toClose.add(fabric);
        return fabric;
    }

    /**
     * Opens a raw connection to {@code target} (receive buffer {@code receiveBuffer} bytes), says
     * HELLO as node {@code node} with incarnation {@code incarnation} to node 0, and reads the
     * HELLO_ACK. Closed after the test.
     */
    Socket helloAs(InetSocketAddress target, int node, long incarnation, int receiveBuffer) throws IOException {
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
    static long awaitStable(LongSupplier value) throws InterruptedException {
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

    static void assertMessageHas(Throwable t, String... parts) {
        for (String part : parts) {
            assertTrue(t.getMessage() != null && t.getMessage().contains(part), "message lacks \"" + part + "\": " + t);
        }
    }

    static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + SECONDS.toNanos(WAIT_SECONDS);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting: " + what);
            Thread.sleep(5);
        }
    }
}
