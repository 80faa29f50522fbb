package io.gtran.rdma.disni;

import static io.gtran.rdma.disni.FrameDescriptor.FRAME_BYTES;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.Fabric;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The control-frame codec, message chunking and reassembly ({@link FrameDescriptor}'s layouts). */
class FrameCodecTest {
    private static final long SEED = 0x6672_616d_6573L;

    @Test
    void everyFrameTypeSurvivesARoundTrip() {
        List<Frame> frames = List.of(
                new Frame.Hello(3, 1, false, 0x1122_3344_5566_7788L, 7, ByteOrder.LITTLE_ENDIAN),
                new Frame.Hello(1023, Long.MAX_VALUE, true, -1, 1024, ByteOrder.BIG_ENDIAN),
                new Frame.RegionLookup(0, 2, "status-table"),
                new Frame.RegionLookup(0, 3, "ünïcødé/" + "x".repeat(FrameDescriptor.MAX_REGION_NAME_BYTES - 14)),
                new Frame.RegionInfo(1, 4, true, ByteOrder.LITTLE_ENDIAN, 0xdead_beef, 0x7f00_1234_5678L, 1L << 30),
                new Frame.RegionInfo(1, 5, false, ByteOrder.BIG_ENDIAN, 0, 0, 0),
                new Frame.MessageChunk(2, 6, 3, 0, "from", "to", new byte[] {1, 2, 3}),
                new Frame.MessageChunk(2, 7, 100_000, 4000, null, null, new byte[] {9}),
                new Frame.MessageResult(0, 8, true, ""),
                new Frame.MessageResult(0, 9, false, "mailbox is full: capacity=2"),
                new Frame.Signal(5, 10, FrameDescriptor.PING),
                new Frame.Signal(5, 10, FrameDescriptor.PONG),
                new Frame.Signal(5, 11, FrameDescriptor.GOODBYE));
        ByteBuffer buffer = ByteBuffer.allocateDirect(FRAME_BYTES);
        for (Frame frame : frames) {
            int length = FrameCodec.encode(frame, buffer);
            assertTrue(length <= FRAME_BYTES, frame + " length=" + length);
            assertEquals(frame, FrameCodec.decode(buffer, length), "round trip");
            assertEquals(0, buffer.position(), "encode leaves the position alone");
        }
    }

    @Test
    void theHeaderAndARegionInfoSitWhereTheDiagramSays() {
        ByteBuffer buffer = ByteBuffer.allocate(FRAME_BYTES);
        int length = FrameCodec.encode(new Frame.RegionInfo(0x0102_0304, 0x1112_1314_1516_1718L, true,
                ByteOrder.LITTLE_ENDIAN, 0x2122_2324, 0x3132_3334_3536_3738L, 0x4142_4344_4546_4748L), buffer);
        assertEquals(40, length);
        byte[] bytes = new byte[length];
        buffer.get(0, bytes);
        assertArrayEquals(new byte[] {
            0x47, 0x54, 1, FrameDescriptor.REGION_INFO, 1, 2, 3, 4, // magic "GT", version, type, node (big-endian)
            0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, // request id
            1, FrameDescriptor.ORDER_LITTLE_ENDIAN, 0, 0, 0x21, 0x22, 0x23, 0x24, // found, order, pad, rkey
            0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, // address
            0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48}, bytes); // size
    }

    @Test
    void chunksOfAnyMessageSizeFitAFrameAndReassembleInOrder() {
        Random random = new Random(SEED);
        int firstRoom = FRAME_BYTES - FrameDescriptor.MESSAGE_DATA_OFFSET - 2 - "sender".length() - "inbox".length();
        int[] sizes = {0, 1, firstRoom - 1, firstRoom, firstRoom + 1, 3 * FRAME_BYTES, Fabric.MAX_TRANSFER_BYTES};
        ByteBuffer buffer = ByteBuffer.allocateDirect(FRAME_BYTES);
        for (int size : sizes) {
            byte[] payload = new byte[size];
            random.nextBytes(payload);
            List<Frame.MessageChunk> chunks = FrameCodec.chunks(4, 77, "sender", "inbox", payload);
            assertEquals(size <= firstRoom ? 1 : 1 + (size - firstRoom + FRAME_BYTES - FrameDescriptor.MESSAGE_DATA_OFFSET - 1)
                    / (FRAME_BYTES - FrameDescriptor.MESSAGE_DATA_OFFSET), chunks.size(), "chunks for size=" + size);
            MessageAssembly assembly = new MessageAssembly();
            MessageAssembly.Assembled whole = null;
            for (int i = 0; i < chunks.size(); i++) {
                int length = FrameCodec.encode(chunks.get(i), buffer);
                assertTrue(length <= FRAME_BYTES);
                whole = assembly.accept((Frame.MessageChunk) FrameCodec.decode(buffer, length));
                assertEquals(i == chunks.size() - 1, whole != null, "complete only after the last chunk, size=" + size);
            }
            assertEquals("sender", whole.from());
            assertEquals("inbox", whole.to());
            assertEquals(77, whole.requestId());
            assertArrayEquals(payload, whole.payload(), "size=" + size);
            assertEquals(0, assembly.pending());
        }
    }

    @Test
    void interleavedMessagesReassembleByRequestId() {
        byte[] a = new byte[3 * FRAME_BYTES];
        byte[] b = new byte[2 * FRAME_BYTES];
        new Random(SEED).nextBytes(a);
        new Random(SEED + 1).nextBytes(b);
        List<Frame.MessageChunk> first = FrameCodec.chunks(1, 1, "x", "y", a);
        List<Frame.MessageChunk> second = FrameCodec.chunks(1, 2, "z", "y", b);
        List<Frame.MessageChunk> interleaved = new ArrayList<>();
        for (int i = 0; i < Math.max(first.size(), second.size()); i++) {
            if (i < first.size()) {
                interleaved.add(first.get(i));
            }
            if (i < second.size()) {
                interleaved.add(second.get(i));
            }
        }
        MessageAssembly assembly = new MessageAssembly();
        List<MessageAssembly.Assembled> done = new ArrayList<>();
        for (Frame.MessageChunk chunk : interleaved) {
            MessageAssembly.Assembled whole = assembly.accept(chunk);
            if (whole != null) {
                done.add(whole);
            }
        }
        assertEquals(2, done.size());
        assertArrayEquals(b, done.get(0).payload(), "the shorter message completes first");
        assertArrayEquals(a, done.get(1).payload());
    }

    @Test
    void longestMailboxNamesStillLeaveRoomForData() {
        String name = "n".repeat(Fabric.MAX_MAILBOX_NAME_BYTES);
        List<Frame.MessageChunk> chunks = FrameCodec.chunks(0, 1, name, name, new byte[FRAME_BYTES]);
        ByteBuffer buffer = ByteBuffer.allocate(FRAME_BYTES);
        for (Frame.MessageChunk chunk : chunks) {
            assertEquals(chunk, FrameCodec.decode(buffer, FrameCodec.encode(chunk, buffer)));
        }
        assertTrue(chunks.get(0).data().length > 0);
    }

    @Test
    void malformedFramesAreRejectedNamingTheField() {
        ByteBuffer buffer = ByteBuffer.allocate(FRAME_BYTES);
        int length = FrameCodec.encode(new Frame.RegionLookup(0, 1, "table"), buffer);
        assertCorrupt(buffer, 10, "length out of range", "length=10", "header=16");
        assertCorrupt(buffer, length - 1, "region name truncated");
        buffer.put(FrameDescriptor.TYPE_OFFSET, (byte) 99);
        assertCorrupt(buffer, length, "unknown type", "type=99");
        buffer.put(FrameDescriptor.VERSION_OFFSET, (byte) 2);
        assertCorrupt(buffer, length, "unsupported version", "version=2");
        buffer.putShort(FrameDescriptor.MAGIC_OFFSET, (short) 0x1234);
        assertCorrupt(buffer, length, "bad magic", "magic=0x1234");
        length = FrameCodec.encode(new Frame.MessageChunk(0, 1, 2, 0, "a", "b", new byte[] {1, 2}), buffer);
        buffer.putInt(FrameDescriptor.MESSAGE_TOTAL_OFFSET, 1);
        assertCorrupt(buffer, length, "chunk runs past the message", "total=1");
        buffer.putInt(FrameDescriptor.MESSAGE_TOTAL_OFFSET, Fabric.MAX_TRANSFER_BYTES + 1);
        assertCorrupt(buffer, length, "message bounds out of range");
        length = FrameCodec.encode(new Frame.Hello(0, 1, false, 0, 3, ByteOrder.BIG_ENDIAN), buffer);
        buffer.put(FrameDescriptor.HELLO_ORDER_OFFSET, (byte) 7);
        assertCorrupt(buffer, length, "unknown byte order", "order=7");
    }

    @Test
    void chunksThatDoNotContinueTheirMessageAreRejected() {
        List<Frame.MessageChunk> chunks = FrameCodec.chunks(0, 5, "a", "b", new byte[3 * FRAME_BYTES]);
        MessageAssembly assembly = new MessageAssembly();
        assertNull(assembly.accept(chunks.get(0)));
        IllegalArgumentException skipped = assertThrows(IllegalArgumentException.class, () -> assembly.accept(chunks.get(2)));
        assertTrue(skipped.getMessage().contains("chunk out of order"), skipped.getMessage());
        IllegalArgumentException orphan = assertThrows(IllegalArgumentException.class,
                () -> new MessageAssembly().accept(chunks.get(1)));
        assertTrue(orphan.getMessage().contains("chunk of an unknown message"), orphan.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Frame.MessageChunk(0, 1, 1, 0, null, null, new byte[1]),
                "a first chunk names its mailboxes");
    }

    @Test
    void framesThatCannotFitAreRefusedWhenEncoded() {
        ByteBuffer buffer = ByteBuffer.allocate(FRAME_BYTES);
        assertThrows(IllegalArgumentException.class, () -> FrameCodec.encode(
                new Frame.RegionLookup(0, 1, "x".repeat(FrameDescriptor.MAX_REGION_NAME_BYTES + 1)), buffer));
        assertThrows(IllegalArgumentException.class, () -> FrameCodec.encode(
                new Frame.MessageChunk(0, 1, FRAME_BYTES, 0, "a", "b", new byte[FRAME_BYTES]), buffer));
        String longReason = "r".repeat(5000);
        int length = FrameCodec.encode(new Frame.MessageResult(0, 1, false, longReason), buffer);
        assertEquals(longReason.substring(0, FrameDescriptor.MAX_REASON_BYTES),
                ((Frame.MessageResult) FrameCodec.decode(buffer, length)).reason(), "long reasons are cut");
    }

    private static void assertCorrupt(ByteBuffer buffer, int length, String... parts) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FrameCodec.decode(buffer, length));
        assertTrue(e.getMessage().startsWith("corrupt frame: "), e.getMessage());
        for (String part : parts) {
            assertTrue(e.getMessage().contains(part), "\"" + part + "\" missing from: " + e.getMessage());
        }
    }
}
