package io.gtran.rdma.netty;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.RegionAccessException;
import io.gtran.rdma.spi.RegionMemory;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The wire format: every frame type encoded by {@link FrameCodec} (or {@link OpsRequest}) comes out
 * of {@link FrameDecoder} with its fields intact; headers are checked before any body is buffered;
 * OPS bodies are checked whole by {@link RegionService} before anything is applied.
 */
class FrameCodecTest {
    private static final long SEED = 0x636f_6465_63L;
    private static final int ALL_TYPES = ~0;
    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;

    private final EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(ALL_TYPES, "in this test"));

    @AfterEach
    void finish() {
        channel.finishAndReleaseAll();
    }

    @Test
    void headerLayoutIsTwentyBytesWithChainedOffsets() {
        assertEquals(0, FrameDescriptor.MAGIC_OFFSET);
        assertEquals(4, FrameDescriptor.VERSION_OFFSET);
        assertEquals(5, FrameDescriptor.TYPE_OFFSET);
        assertEquals(6, FrameDescriptor.FLAGS_OFFSET);
        assertEquals(8, FrameDescriptor.REQUEST_ID_OFFSET);
        assertEquals(16, FrameDescriptor.BODY_LENGTH_OFFSET);
        assertEquals(20, FrameDescriptor.LENGTH);
        assertEquals(13, OpDescriptor.HEADER_LENGTH);
        assertEquals(16, BodyDescriptor.HELLO_LENGTH);
        assertEquals(12, BodyDescriptor.HELLO_ACK_LENGTH);
        assertEquals(13, BodyDescriptor.LOOKUP_REPLY_LENGTH);
        assertEquals(Fabric.MAX_TRANSFER_BYTES + (64 << 10), FrameDescriptor.MAX_BODY_LENGTH);
    }

    @Test
    void helloAndHelloAckRoundTrip() {
        withFrame(FrameCodec.hello(ALLOC, 7, 0x1234_5678_9abcL, 1023), FrameDescriptor.HELLO, 0,
                body -> assertEquals(new FrameCodec.Hello(7, 0x1234_5678_9abcL, 1023), FrameCodec.readHello(body)));
        withFrame(FrameCodec.helloAck(ALLOC, 3, -5), FrameDescriptor.HELLO_ACK, 0,
                body -> assertEquals(new FrameCodec.HelloAck(3, -5), FrameCodec.readHelloAck(body)));
    }

    @Test
    void lookupAndItsRepliesRoundTrip() {
        withFrame(FrameCodec.lookup(ALLOC, 42, "räume".getBytes(UTF_8)), FrameDescriptor.LOOKUP, 42,
                body -> assertEquals("räume", FrameCodec.readLookup(body)));
        withFrame(FrameCodec.lookupReply(ALLOC, 43, true, 9, 4096), FrameDescriptor.LOOKUP_REPLY, 43,
                body -> assertEquals(new FrameCodec.LookupReply(true, 9, 4096), FrameCodec.readLookupReply(body)));
        withFrame(FrameCodec.lookupReply(ALLOC, 44, false, 9, 4096), FrameDescriptor.LOOKUP_REPLY, 44,
                body -> assertFalse(FrameCodec.readLookupReply(body).found()));
    }

    @Test
    void sendAndItsRepliesRoundTrip() {
        byte[] payload = new byte[1000];
        new Random(SEED).nextBytes(payload);
        withFrame(FrameCodec.send(ALLOC, Long.MAX_VALUE, "inbox".getBytes(UTF_8), "outbox-ü".getBytes(UTF_8), payload, 10, 900),
                FrameDescriptor.SEND, Long.MAX_VALUE, body -> {
                    FrameCodec.Send send = FrameCodec.readSend(body);
                    assertEquals("inbox", send.to());
                    assertEquals("outbox-ü", send.from());
                    byte[] carried = new byte[send.payloadLength()];
                    body.getBytes(send.payloadIndex(), carried);
                    assertArrayEquals(java.util.Arrays.copyOfRange(payload, 10, 910), carried);
                });
        withFrame(FrameCodec.send(ALLOC, 1, "a".getBytes(UTF_8), "b".getBytes(UTF_8), new byte[0], 0, 0), FrameDescriptor.SEND,
                1, body -> assertEquals(0, FrameCodec.readSend(body).payloadLength()));
        withFrame(FrameCodec.sendReply(ALLOC, 5, null), FrameDescriptor.SEND_REPLY, 5,
                body -> assertNull(FrameCodec.readSendReply(body)));
        withFrame(FrameCodec.sendReply(ALLOC, 6, "mailbox is full: capacity=2"), FrameDescriptor.SEND_REPLY, 6,
                body -> assertEquals("mailbox is full: capacity=2", FrameCodec.readSendReply(body)));
        withFrame(FrameCodec.sendReply(ALLOC, 7, "x".repeat(5000)), FrameDescriptor.SEND_REPLY, 7,
                body -> assertEquals(BodyDescriptor.MAX_REASON_BYTES, FrameCodec.readSendReply(body).length(),
                        "a long reason is cut to the limit"));
    }

    @Test
    void emptyFramesRoundTrip() {
        for (byte type : new byte[] {FrameDescriptor.PING, FrameDescriptor.PONG, FrameDescriptor.GOODBYE}) {
            withFrame(FrameCodec.empty(ALLOC, type, 77), type, 77, body -> assertEquals(0, body.readableBytes()));
        }
    }

    @Test
    void opsFrameIsCheckedAppliedAndAnsweredInOrder() throws Exception {
        RegionMemory memory = new RegionMemory("r", 64);
        RegionMemory[] regions = {new RegionMemory("other", 8), memory};
        RemoteRegion region = new RemoteRegion(null, 1, "r", 64, 1, 99);
        byte[] bytes = {1, 2, 3, 4, 5};
        List<RegionOp> ops = List.of(RegionOp.writeLong(region, 8, 41), RegionOp.fetchAdd(region, 8, 1),
                RegionOp.compareAndSwap(region, 8, 42, 50), RegionOp.compareAndSwap(region, 8, 42, 60),
                RegionOp.readLong(region, 8), RegionOp.write(region, 17, bytes, 1, 3), RegionOp.read(region, 16, 5));
        int bodyLength = OpDescriptor.FIRST_OP_OFFSET + ops.stream().mapToInt(RegionOp::encodedLength).sum();
        int results = ops.stream().mapToInt(RegionOp::resultLength).sum();
        OpsRequest request = new OpsRequest(99, ops, bodyLength, results);
        request.assign(31, 0);
        Frame frame = decode(request.takeFrame());
        try {
            assertEquals(FrameDescriptor.OPS, frame.type());
            assertEquals(31, frame.requestId());
            int replyLength = RegionService.check(frame.body(), regions);
            assertEquals(OpDescriptor.FIRST_OP_OFFSET + results, replyLength);
            ByteBuf reply = Unpooled.buffer(replyLength);
            RegionService.apply(frame.body(), regions, reply);
            request.complete(new Frame(FrameDescriptor.OPS_REPLY, 31, reply), 99);
            reply.release();
        } finally {
            frame.release();
        }
        assertNull(ops.get(0).future().get());
        assertEquals(41L, ops.get(1).<Long>future().get());
        assertTrue(ops.get(2).<Boolean>future().get());
        assertFalse(ops.get(3).<Boolean>future().get());
        assertEquals(50L, ops.get(4).<Long>future().get());
        assertArrayEquals(new byte[] {0, 2, 3, 4, 0}, ops.get(6).<byte[]>future().get());
        assertEquals(50, memory.getLongVolatile(8));
    }

    @Test
    void aFailedOpsRequestFailsEveryOperationNamingItsRegionAndAddress() {
        RemoteRegion region = new RemoteRegion(null, 4, "status", 64, 0, 1);
        List<RegionOp> ops = List.of(RegionOp.readLong(region, 0), RegionOp.read(region, 0, 8));
        OpsRequest request = new OpsRequest(1, ops, OpDescriptor.FIRST_OP_OFFSET + 13 + 17, 16);
        request.releaseFrame();
        request.fail("node unreachable", "10.0.0.4:7100");
        for (RegionOp op : ops) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> op.future().get());
            RegionAccessException failure = assertInstanceOf(RegionAccessException.class, e.getCause());
            assertEquals("node unreachable: node=4, region=status, address=10.0.0.4:7100", failure.getMessage());
        }
    }

    @Test
    void headersAreRefusedBeforeTheirBodyIsBuffered() {
        assertRefused(header(0x4754_524F, FrameDescriptor.VERSION, FrameDescriptor.OPS, 0, 10), "bad magic");
        assertRefused(header(FrameDescriptor.MAGIC, (byte) 2, FrameDescriptor.OPS, 0, 10), "unsupported protocol version",
                "version=2");
        assertRefused(header(FrameDescriptor.MAGIC, FrameDescriptor.VERSION, (byte) 12, 0, 10), "unknown frame type",
                "type=12");
        assertRefused(header(FrameDescriptor.MAGIC, FrameDescriptor.VERSION, (byte) 0, 0, 10), "unknown frame type");
        assertRefused(header(FrameDescriptor.MAGIC, FrameDescriptor.VERSION, FrameDescriptor.OPS, 0x8000, 10), "flags=0x8000");
        assertRefused(header(FrameDescriptor.MAGIC, FrameDescriptor.VERSION, FrameDescriptor.OPS, 0,
                FrameDescriptor.MAX_BODY_LENGTH + 1), "bodyLength=" + (FrameDescriptor.MAX_BODY_LENGTH + 1),
                "max=" + FrameDescriptor.MAX_BODY_LENGTH);
        assertRefused(header(FrameDescriptor.MAGIC, FrameDescriptor.VERSION, FrameDescriptor.OPS, 0, -1), "bodyLength=-1");
        assertRefused(header(FrameDescriptor.MAGIC, FrameDescriptor.VERSION, FrameDescriptor.HELLO, 0, 17), "type=HELLO",
                "max=16");
        assertRefused(header(FrameDescriptor.MAGIC, FrameDescriptor.VERSION, FrameDescriptor.PING, 0, 1), "type=PING", "max=0");
        assertRefused(header(FrameDescriptor.MAGIC, FrameDescriptor.VERSION, FrameDescriptor.SEND, 0,
                FrameDescriptor.maxBodyLength(FrameDescriptor.SEND) + 1), "type=SEND");
    }

    @Test
    void framesOutOfTurnAreRefusedAndEverythingAfterARefusalIsDropped() {
        EmbeddedChannel server = new EmbeddedChannel(ServerHandler.newDecoder());
        DecoderException refused = assertThrows(DecoderException.class,
                () -> server.writeInbound(FrameCodec.empty(ALLOC, FrameDescriptor.PING, 1)));
        assertTrue(refused.getCause().getMessage().contains("unexpected frame type before HELLO: type=PING"),
                refused.getCause().getMessage());
        assertFalse(server.writeInbound(FrameCodec.hello(ALLOC, 1, 1, 0)), "nothing is decoded after a refusal");
        server.finishAndReleaseAll();
    }

    @Test
    void aStreamEndingInsideAFrameIsReportedTruncated() {
        ByteBuf frame = FrameCodec.lookup(ALLOC, 1, "region".getBytes(UTF_8));
        assertFalse(channel.writeInbound(frame.retainedSlice(0, frame.readableBytes() - 3)));
        frame.release();
        DecoderException truncated = assertThrows(DecoderException.class, channel::finish);
        assertTrue(truncated.getCause().getMessage().contains("truncated"), truncated.getCause().getMessage());
    }

    @Test
    void bodiesThatDoNotParseAreRefused() {
        ByteBuf lookup = Unpooled.buffer().writeShort(10).writeBytes(new byte[4]);
        assertThrows(ProtocolException.class, () -> FrameCodec.readLookup(lookup));
        assertThrows(ProtocolException.class, () -> FrameCodec.readHello(Unpooled.buffer().writeInt(1)));
        assertThrows(ProtocolException.class, () -> FrameCodec.readSend(Unpooled.buffer().writeByte(0).writeByte(1)));
        assertThrows(ProtocolException.class, () -> FrameCodec.readSend(Unpooled.buffer().writeByte(5).writeByte(1)));
        assertThrows(ProtocolException.class, () -> FrameCodec.readSend(Unpooled.buffer().writeByte(1).writeByte('a')
                .writeByte(3).writeByte('b')));
        assertThrows(ProtocolException.class, () -> FrameCodec.readSendReply(Unpooled.buffer().writeByte(7).writeShort(0)));
        assertThrows(ProtocolException.class, () -> FrameCodec.readLookupReply(Unpooled.buffer().writeByte(0).writeInt(1)
                .writeLong(12)));
    }

    @Test
    void opsBodiesAreCheckedWholeBeforeAnythingIsApplied() {
        RegionMemory memory = new RegionMemory("r", 64);
        RegionMemory[] regions = {memory};
        assertOpsRefused(regions, ops(1, op(OpDescriptor.WRITE_LONG, 0, 8).writeLong(1)).writeInt(0), "trailing=4");
        assertOpsRefused(regions, ops(2, op(OpDescriptor.WRITE_LONG, 0, 8).writeLong(1).writeBytes(new byte[5])),
                "ends inside operation 1");
        assertOpsRefused(regions, ops(1, op(OpDescriptor.WRITE_LONG, 0, 4).writeLong(1)), "misaligned", "offset=4");
        assertOpsRefused(regions, ops(1, op(OpDescriptor.READ_LONG, 0, 64)), "offset=64", "size=64");
        assertOpsRefused(regions, ops(1, op(OpDescriptor.READ_LONG, 1, 0)), "unknown region id", "regionId=1");
        assertOpsRefused(regions, ops(1, op((byte) 9, 0, 0)), "unknown operation code", "code=9");
        assertOpsRefused(regions, ops(1, op(OpDescriptor.READ, 0, 60).writeInt(8)), "offset=60", "length=8");
        assertOpsRefused(regions, ops(1, op(OpDescriptor.READ, 0, 0).writeInt(-1)), "length=-1");
        assertOpsRefused(regions, ops(1, op(OpDescriptor.WRITE, 0, 0).writeInt(8).writeInt(0)), "ends inside the bytes");
        assertOpsRefused(regions, ops(1, op(OpDescriptor.CAS, 0, 0).writeLong(0)), "ends inside the arguments");
        assertOpsRefused(regions, ops(0, Unpooled.buffer()), "count=0");
        assertOpsRefused(regions, ops(Integer.MAX_VALUE, op(OpDescriptor.READ_LONG, 0, 0)), "count=" + Integer.MAX_VALUE);
        // a valid write followed by a bad operation: nothing is applied
        assertOpsRefused(regions, ops(2, op(OpDescriptor.WRITE_LONG, 0, 8).writeLong(1).writeBytes(op(OpDescriptor.READ_LONG,
                0, 3))), "offset=3");
        assertEquals(0, memory.getLongVolatile(8), "a refused frame changed nothing");
    }

    // ---- helpers ----------------------------------------------------------------------------

    private Frame decode(ByteBuf encoded) {
        assertTrue(channel.writeInbound(encoded), "a whole frame is decoded");
        Frame frame = channel.readInbound();
        assertNull(channel.readInbound(), "exactly one frame");
        return frame;
    }

    private void withFrame(ByteBuf encoded, byte type, long requestId, Consumer<ByteBuf> body) {
        Frame frame = decode(encoded);
        try {
            assertEquals(type, frame.type());
            assertEquals(requestId, frame.requestId());
            body.accept(frame.body());
        } finally {
            frame.release();
        }
    }

    private static ByteBuf header(int magic, byte version, byte type, int flags, int bodyLength) {
        return Unpooled.buffer().writeInt(magic).writeByte(version).writeByte(type).writeShort(flags).writeLong(1)
                .writeInt(bodyLength);
    }

    /** Feeds {@code header} alone (no body) to a fresh decoder, which must refuse it at once. */
    private static void assertRefused(ByteBuf header, String... parts) {
        EmbeddedChannel fresh = new EmbeddedChannel(new FrameDecoder(ALL_TYPES, "in this test"));
        DecoderException e = assertThrows(DecoderException.class, () -> fresh.writeInbound(header));
        ProtocolException cause = assertInstanceOf(ProtocolException.class, e.getCause());
        for (String part : parts) {
            assertTrue(cause.getMessage().contains(part), "\"" + part + "\" not in: " + cause.getMessage());
        }
        fresh.finishAndReleaseAll();
    }

    private static ByteBuf ops(int count, ByteBuf ops) {
        ByteBuf body = Unpooled.buffer().writeInt(count).writeBytes(ops);
        ops.release();
        return body;
    }

    private static ByteBuf op(byte code, int regionId, long offset) {
        return Unpooled.buffer().writeByte(code).writeInt(regionId).writeLong(offset);
    }

    private static void assertOpsRefused(RegionMemory[] regions, ByteBuf body, String... parts) {
        ProtocolException e = assertThrows(ProtocolException.class, () -> RegionService.check(body, regions));
        for (String part : parts) {
            assertTrue(e.getMessage().contains(part), "\"" + part + "\" not in: " + e.getMessage());
        }
        body.release();
    }
}
