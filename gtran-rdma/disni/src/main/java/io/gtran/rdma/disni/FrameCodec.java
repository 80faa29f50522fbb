package io.gtran.rdma.disni;

import static io.gtran.rdma.disni.FrameDescriptor.*;

import io.gtran.rdma.Fabric;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Encodes and decodes control frames ({@link FrameDescriptor}), and splits mailbox messages into
 * frame-sized chunks. Pure Java: no device needed. Decoding checks every length against the frame
 * and throws {@link IllegalArgumentException} {@code "corrupt frame: ..."} naming the bad field.
 */
final class FrameCodec {
    private FrameCodec() {
    }

    /**
     * Writes {@code frame} at the start of {@code dst} (absolute puts; position and order untouched).
     *
     * @return the frame's length in bytes
     * @throws IllegalArgumentException if it does not fit in {@code dst} or {@link FrameDescriptor#FRAME_BYTES}
     */
    static int encode(Frame frame, ByteBuffer dst) {
        ByteBuffer out = dst.duplicate().order(ORDER);
        int limit = Math.min(out.capacity(), FRAME_BYTES);
        out.putShort(MAGIC_OFFSET, MAGIC).put(VERSION_OFFSET, VERSION).putInt(NODE_OFFSET, frame.node())
                .putLong(REQUEST_ID_OFFSET, frame.requestId());
        if (frame instanceof Frame.Hello hello) {
            out.put(TYPE_OFFSET, hello.ack() ? HELLO_ACK : HELLO);
            out.putLong(HELLO_INCARNATION_OFFSET, hello.incarnation()).putInt(HELLO_NODES_OFFSET, hello.nodes())
                    .put(HELLO_ORDER_OFFSET, orderCode(hello.order()));
            return HELLO_LENGTH;
        } else if (frame instanceof Frame.RegionLookup lookup) {
            byte[] name = lookup.name().getBytes(StandardCharsets.UTF_8);
            if (name.length > MAX_REGION_NAME_BYTES) {
                throw new IllegalArgumentException("region name too long for a lookup frame: bytes=" + name.length
                        + ", max=" + MAX_REGION_NAME_BYTES);
            }
            checkFits(LOOKUP_NAME_OFFSET + name.length, limit, "region name");
            out.put(TYPE_OFFSET, REGION_LOOKUP).putShort(LOOKUP_NAME_LENGTH_OFFSET, (short) name.length)
                    .put(LOOKUP_NAME_OFFSET, name);
            return LOOKUP_NAME_OFFSET + name.length;
        } else if (frame instanceof Frame.RegionInfo info) {
            out.put(TYPE_OFFSET, REGION_INFO).put(INFO_FOUND_OFFSET, (byte) (info.found() ? 1 : 0))
                    .put(INFO_ORDER_OFFSET, orderCode(info.order())).putShort(INFO_ORDER_OFFSET + 1, (short) 0)
                    .putInt(INFO_RKEY_OFFSET, info.rkey()).putLong(INFO_ADDRESS_OFFSET, info.address())
                    .putLong(INFO_SIZE_OFFSET, info.size());
            return INFO_LENGTH;
        } else if (frame instanceof Frame.MessageChunk chunk) {
            int at = MESSAGE_DATA_OFFSET;
            out.put(TYPE_OFFSET, MESSAGE).putInt(MESSAGE_TOTAL_OFFSET, chunk.total())
                    .putInt(MESSAGE_CHUNK_OFFSET_OFFSET, chunk.chunkOffset());
            if (chunk.chunkOffset() == 0) {
                at = putName(out, at, chunk.from(), limit);
                at = putName(out, at, chunk.to(), limit);
            }
            checkFits(at + chunk.data().length, limit, "message chunk");
            out.put(at, chunk.data());
            return at + chunk.data().length;
        } else if (frame instanceof Frame.MessageResult result) {
            byte[] reason = result.reason().getBytes(StandardCharsets.UTF_8);
            int length = Math.min(reason.length, MAX_REASON_BYTES);
            out.put(TYPE_OFFSET, MESSAGE_RESULT).put(RESULT_DELIVERED_OFFSET, (byte) (result.delivered() ? 1 : 0))
                    .put(RESULT_DELIVERED_OFFSET + 1, (byte) 0).putShort(RESULT_REASON_LENGTH_OFFSET, (short) length)
                    .put(RESULT_REASON_OFFSET, reason, 0, length);
            return RESULT_REASON_OFFSET + length;
        } else {
            out.put(TYPE_OFFSET, ((Frame.Signal) frame).type());
            return HEADER_LENGTH;
        }
    }

    /**
     * Reads the frame of {@code length} bytes at the start of {@code src}.
     *
     * @throws IllegalArgumentException {@code "corrupt frame: ..."} if it is malformed
     */
    static Frame decode(ByteBuffer src, int length) {
        ByteBuffer in = src.duplicate().order(ORDER);
        if (length < HEADER_LENGTH || length > in.capacity()) {
            throw corrupt("length out of range: length=" + length + ", header=" + HEADER_LENGTH);
        }
        if (in.getShort(MAGIC_OFFSET) != MAGIC) {
            throw corrupt("bad magic: magic=0x" + Integer.toHexString(in.getShort(MAGIC_OFFSET) & 0xffff));
        }
        if (in.get(VERSION_OFFSET) != VERSION) {
            throw corrupt("unsupported version: version=" + in.get(VERSION_OFFSET) + ", supported=" + VERSION);
        }
        byte type = in.get(TYPE_OFFSET);
        int node = in.getInt(NODE_OFFSET);
        long requestId = in.getLong(REQUEST_ID_OFFSET);
        switch (type) {
            case HELLO, HELLO_ACK -> {
                need(length, HELLO_LENGTH, "hello");
                return new Frame.Hello(node, requestId, type == HELLO_ACK, in.getLong(HELLO_INCARNATION_OFFSET),
                        in.getInt(HELLO_NODES_OFFSET), order(in.get(HELLO_ORDER_OFFSET)));
            }
            case REGION_LOOKUP -> {
                need(length, LOOKUP_NAME_OFFSET, "region lookup");
                int nameLength = Short.toUnsignedInt(in.getShort(LOOKUP_NAME_LENGTH_OFFSET));
                need(length, LOOKUP_NAME_OFFSET + nameLength, "region name");
                return new Frame.RegionLookup(node, requestId, string(in, LOOKUP_NAME_OFFSET, nameLength));
            }
            case REGION_INFO -> {
                need(length, INFO_LENGTH, "region info");
                return new Frame.RegionInfo(node, requestId, in.get(INFO_FOUND_OFFSET) != 0,
                        order(in.get(INFO_ORDER_OFFSET)), in.getInt(INFO_RKEY_OFFSET), in.getLong(INFO_ADDRESS_OFFSET),
                        in.getLong(INFO_SIZE_OFFSET));
            }
            case MESSAGE -> {
                return decodeChunk(in, length, node, requestId);
            }
            case MESSAGE_RESULT -> {
                need(length, RESULT_REASON_OFFSET, "message result");
                int reasonLength = Short.toUnsignedInt(in.getShort(RESULT_REASON_LENGTH_OFFSET));
                need(length, RESULT_REASON_OFFSET + reasonLength, "message result reason");
                return new Frame.MessageResult(node, requestId, in.get(RESULT_DELIVERED_OFFSET) != 0,
                        string(in, RESULT_REASON_OFFSET, reasonLength));
            }
            case PING, PONG, GOODBYE -> {
                return new Frame.Signal(node, requestId, type);
            }
            default -> throw corrupt("unknown type: type=" + type);
        }
    }

    /**
     * Splits a mailbox message into the chunks that carry it, in order; an empty payload is one
     * chunk with no data.
     */
    static List<Frame.MessageChunk> chunks(int node, long requestId, String from, String to, byte[] payload) {
        int names = 2 + from.getBytes(StandardCharsets.UTF_8).length + to.getBytes(StandardCharsets.UTF_8).length;
        List<Frame.MessageChunk> chunks = new ArrayList<>();
        int offset = 0;
        do {
            int room = FRAME_BYTES - MESSAGE_DATA_OFFSET - (offset == 0 ? names : 0);
            int end = Math.min(payload.length, offset + room);
            chunks.add(new Frame.MessageChunk(node, requestId, payload.length, offset, offset == 0 ? from : null,
                    offset == 0 ? to : null, Arrays.copyOfRange(payload, offset, end)));
            offset = end;
        } while (offset < payload.length);
        return chunks;
    }

    private static Frame.MessageChunk decodeChunk(ByteBuffer in, int length, int node, long requestId) {
        need(length, MESSAGE_DATA_OFFSET, "message chunk");
        int total = in.getInt(MESSAGE_TOTAL_OFFSET);
        int chunkOffset = in.getInt(MESSAGE_CHUNK_OFFSET_OFFSET);
        if (total < 0 || total > Fabric.MAX_TRANSFER_BYTES || chunkOffset < 0 || chunkOffset > total) {
            throw corrupt("message bounds out of range: total=" + total + ", chunkOffset=" + chunkOffset);
        }
        int at = MESSAGE_DATA_OFFSET;
        String from = null;
        String to = null;
        if (chunkOffset == 0) {
            need(length, at + 1, "sending mailbox");
            int fromLength = Byte.toUnsignedInt(in.get(at));
            need(length, at + 1 + fromLength + 1, "sending mailbox");
            from = string(in, at + 1, fromLength);
            at += 1 + fromLength;
            int toLength = Byte.toUnsignedInt(in.get(at));
            need(length, at + 1 + toLength, "receiving mailbox");
            to = string(in, at + 1, toLength);
            at += 1 + toLength;
            if (from.isEmpty() || to.isEmpty()) {
                throw corrupt("empty mailbox name: from=" + from + ", to=" + to);
            }
        }
        byte[] data = new byte[length - at];
        if (chunkOffset + data.length > total) {
            throw corrupt("chunk runs past the message: total=" + total + ", chunkOffset=" + chunkOffset + ", bytes="
                    + data.length);
        }
        in.get(at, data);
        return new Frame.MessageChunk(node, requestId, total, chunkOffset, from, to, data);
    }

    private static int putName(ByteBuffer out, int at, String name, int limit) {
        byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
        if (utf8.length == 0 || utf8.length > Fabric.MAX_MAILBOX_NAME_BYTES) {
            throw new IllegalArgumentException("mailbox name must be 1.." + Fabric.MAX_MAILBOX_NAME_BYTES
                    + " UTF-8 bytes: mailbox=" + name + ", bytes=" + utf8.length);
        }
        checkFits(at + 1 + utf8.length, limit, "mailbox name");
        out.put(at, (byte) utf8.length).put(at + 1, utf8);
        return at + 1 + utf8.length;
    }

    private static String string(ByteBuffer in, int offset, int length) {
        byte[] bytes = new byte[length];
        in.get(offset, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static void checkFits(int end, int limit, String what) {
        if (end > limit) {
            throw new IllegalArgumentException(what + " does not fit in a frame: bytes=" + end + ", max=" + limit);
        }
    }

    private static void need(int length, int end, String what) {
        if (length < end) {
            throw corrupt(what + " truncated: length=" + length + ", needed=" + end);
        }
    }

    private static IllegalArgumentException corrupt(String detail) {
        return new IllegalArgumentException("corrupt frame: " + detail);
    }
}
