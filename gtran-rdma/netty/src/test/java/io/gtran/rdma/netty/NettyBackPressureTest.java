package io.gtran.rdma.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.LoopbackPorts;
import io.gtran.rdma.Region;
import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Back-pressure towards peers that read their replies slowly or not at all: a {@link NettyFabric}
 * must neither buffer a reply for every request such a peer sent nor take its own not-reading for
 * the peer's silence. Each test shows a defect found in review and failed before its fix.
 */
class NettyBackPressureTest extends RawPeerHarness {
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
        List<InetSocketAddress> addresses = LoopbackPorts.free(2);
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
        List<InetSocketAddress> addresses = LoopbackPorts.free(2);
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
}
