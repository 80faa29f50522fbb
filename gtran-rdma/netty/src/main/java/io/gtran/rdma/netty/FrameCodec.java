package io.gtran.rdma.netty;

import static io.gtran.rdma.netty.BodyDescriptor.HELLO_ACK_INCARNATION_OFFSET;
import static io.gtran.rdma.netty.BodyDescriptor.HELLO_ACK_LENGTH;
import static io.gtran.rdma.netty.BodyDescriptor.HELLO_ACK_NODE_OFFSET;
import static io.gtran.rdma.netty.BodyDescriptor.HELLO_INCARNATION_OFFSET;
import static io.gtran.rdma.netty.BodyDescriptor.HELLO_LENGTH;
import static io.gtran.rdma.netty.BodyDescriptor.HELLO_NODE_OFFSET;
import static io.gtran.rdma.netty.BodyDescriptor.HELLO_TARGET_OFFSET;
import static io.gtran.rdma.netty.BodyDescriptor.LOOKUP_NAME_LENGTH_OFFSET;
import static io.gtran.rdma.netty.BodyDescriptor.LOOKUP_NAME_OFFSET;
import static io.gtran.rdma.netty.BodyDescriptor.LOOKUP_REPLY_LENGTH;
import static io.gtran.rdma.netty.BodyDescriptor.LOOKUP_REPLY_REGION_ID_OFFSET;
import static io.gtran.rdma.netty.BodyDescriptor.LOOKUP_REPLY_SIZE_OFFSET;
import static io.gtran.rdma.netty.BodyDescriptor.LOOKUP_REPLY_STATUS_OFFSET;
import static io.gtran.rdma.netty.BodyDescriptor.SEND_REPLY_REASON_LENGTH_OFFSET;
import static io.gtran.rdma.netty.BodyDescriptor.SEND_REPLY_REASON_OFFSET;
import static io.gtran.rdma.netty.BodyDescriptor.SEND_REPLY_STATUS_OFFSET;
import static io.gtran.rdma.netty.BodyDescriptor.SEND_TO_LENGTH_OFFSET;
import static io.gtran.rdma.netty.BodyDescriptor.SEND_TO_OFFSET;
import static java.nio.charset.StandardCharsets.UTF_8;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.Arrays;

/**
 * Encodes whole frames (header and body, ready to write) and parses the bodies of
 * {@link BodyDescriptor}; operation frames are in {@link RegionOp} and {@link RegionService}.
 * Every parser checks that the body has exactly the length its fields announce and throws
 * {@link ProtocolException} otherwise.
 */
final class FrameCodec {
    private FrameCodec() {
    }

    /** A HELLO body. */
    record Hello(int node, long incarnation, int target) {
    }

    /** A HELLO_ACK body. */
    record HelloAck(int node, long incarnation) {
    }

    /** A LOOKUP_REPLY body; {@code regionId} and {@code size} mean something only if found. */
    record LookupReply(boolean found, int regionId, long size) {
    }

    /** A SEND body; the payload is {@code payloadLength} bytes at {@code payloadIndex} of the body buffer. */
    record Send(String to, String from, int payloadIndex, int payloadLength) {
    }

    /** A frame with an empty body: PING, PONG, GOODBYE. */
    static ByteBuf empty(ByteBufAllocator alloc, byte type, long requestId) {
        ByteBuf frame = alloc.buffer(FrameDescriptor.LENGTH);
        FrameDescriptor.writeHeader(frame, type, requestId, 0);
        return frame;
    }

    static ByteBuf hello(ByteBufAllocator alloc, int node, long incarnation, int target) {
        ByteBuf frame = alloc.buffer(FrameDescriptor.LENGTH + HELLO_LENGTH);
        FrameDescriptor.writeHeader(frame, FrameDescriptor.HELLO, 0, HELLO_LENGTH);
        int body = frame.writerIndex();
        frame.setInt(body + HELLO_NODE_OFFSET, node);
        frame.setLong(body + HELLO_INCARNATION_OFFSET, incarnation);
        frame.setInt(body + HELLO_TARGET_OFFSET, target);
        frame.writerIndex(body + HELLO_LENGTH);
        return frame;
    }

    static Hello readHello(ByteBuf body) {
        exactLength("HELLO", body, HELLO_LENGTH);
        int at = body.readerIndex();
        return new Hello(body.getInt(at + HELLO_NODE_OFFSET), body.getLong(at + HELLO_INCARNATION_OFFSET),
                body.getInt(at + HELLO_TARGET_OFFSET));
    }

    static ByteBuf helloAck(ByteBufAllocator alloc, int node, long incarnation) {
        ByteBuf frame = alloc.buffer(FrameDescriptor.LENGTH + HELLO_ACK_LENGTH);
        FrameDescriptor.writeHeader(frame, FrameDescriptor.HELLO_ACK, 0, HELLO_ACK_LENGTH);
        int body = frame.writerIndex();
        frame.setInt(body + HELLO_ACK_NODE_OFFSET, node);
        frame.setLong(body + HELLO_ACK_INCARNATION_OFFSET, incarnation);
        frame.writerIndex(body + HELLO_ACK_LENGTH);
        return frame;
    }

    static HelloAck readHelloAck(ByteBuf body) {
        exactLength("HELLO_ACK", body, HELLO_ACK_LENGTH);
        int at = body.readerIndex();
        return new HelloAck(body.getInt(at + HELLO_ACK_NODE_OFFSET), body.getLong(at + HELLO_ACK_INCARNATION_OFFSET));
    }

    /** A LOOKUP of region {@code name}, at most {@link BodyDescriptor#MAX_REGION_NAME_BYTES} UTF-8 bytes. */
    static ByteBuf lookup(ByteBufAllocator alloc, long requestId, byte[] name) {
        int bodyLength = LOOKUP_NAME_OFFSET + name.length;
        ByteBuf frame = alloc.buffer(FrameDescriptor.LENGTH + bodyLength);
        FrameDescriptor.writeHeader(frame, FrameDescriptor.LOOKUP, requestId, bodyLength);
        frame.writeShort(name.length);
        frame.writeBytes(name);
        return frame;
    }

    static String readLookup(ByteBuf body) {
        atLeast("LOOKUP", body, LOOKUP_NAME_OFFSET);
        int nameLength = body.getUnsignedShort(body.readerIndex() + LOOKUP_NAME_LENGTH_OFFSET);
        exactLength("LOOKUP", body, LOOKUP_NAME_OFFSET + nameLength);
        return body.toString(body.readerIndex() + LOOKUP_NAME_OFFSET, nameLength, UTF_8);
    }

    static ByteBuf lookupReply(ByteBufAllocator alloc, long requestId, boolean found, int regionId, long size) {
        ByteBuf frame = alloc.buffer(FrameDescriptor.LENGTH + LOOKUP_REPLY_LENGTH);
        FrameDescriptor.writeHeader(frame, FrameDescriptor.LOOKUP_REPLY, requestId, LOOKUP_REPLY_LENGTH);
        int body = frame.writerIndex();
        frame.setByte(body + LOOKUP_REPLY_STATUS_OFFSET, found ? BodyDescriptor.LOOKUP_FOUND : BodyDescriptor.LOOKUP_UNKNOWN);
        frame.setInt(body + LOOKUP_REPLY_REGION_ID_OFFSET, found ? regionId : -1);
        frame.setLong(body + LOOKUP_REPLY_SIZE_OFFSET, found ? size : 0);
        frame.writerIndex(body + LOOKUP_REPLY_LENGTH);
        return frame;
    }

    static LookupReply readLookupReply(ByteBuf body) {
        exactLength("LOOKUP_REPLY", body, LOOKUP_REPLY_LENGTH);
        int at = body.readerIndex();
        byte status = body.getByte(at + LOOKUP_REPLY_STATUS_OFFSET);
        if (status == BodyDescriptor.LOOKUP_UNKNOWN) {
            return new LookupReply(false, -1, 0);
        }
        long size = body.getLong(at + LOOKUP_REPLY_SIZE_OFFSET);
        int regionId = body.getInt(at + LOOKUP_REPLY_REGION_ID_OFFSET);
        if (status != BodyDescriptor.LOOKUP_FOUND || regionId < 0 || size <= 0 || (size & 7) != 0) {
            throw new ProtocolException("bad LOOKUP_REPLY: status=" + status + ", regionId=" + regionId + ", size=" + size);
        }
        return new LookupReply(true, regionId, size);
    }

    /** A SEND of {@code payload[offset..offset+length)} from mailbox {@code from} to mailbox {@code to} (UTF-8 names, checked). */
    static ByteBuf send(ByteBufAllocator alloc, long requestId, byte[] to, byte[] from, byte[] payload, int offset,
                        int length) {
        int bodyLength = 2 + to.length + from.length + length;
        ByteBuf frame = alloc.buffer(FrameDescriptor.LENGTH + bodyLength);
        FrameDescriptor.writeHeader(frame, FrameDescriptor.SEND, requestId, bodyLength);
        frame.writeByte(to.length);
        frame.writeBytes(to);
        frame.writeByte(from.length);
        frame.writeBytes(from);
        frame.writeBytes(payload, offset, length);
        return frame;
    }

    static Send readSend(ByteBuf body) {
        int at = body.readerIndex();
        int end = body.writerIndex();
        atLeast("SEND", body, SEND_TO_OFFSET);
        int toLength = body.getUnsignedByte(at + SEND_TO_LENGTH_OFFSET);
        int fromLengthAt = at + SEND_TO_OFFSET + toLength;
        if (toLength == 0 || fromLengthAt >= end) {
            throw new ProtocolException("bad SEND: toLength=" + toLength + ", bodyLength=" + (end - at));
        }
        int fromLength = body.getUnsignedByte(fromLengthAt);
        int payloadAt = fromLengthAt + 1 + fromLength;
        if (fromLength == 0 || payloadAt > end) {
            throw new ProtocolException("bad SEND: fromLength=" + fromLength + ", bodyLength=" + (end - at));
        }
        return new Send(body.toString(at + SEND_TO_OFFSET, toLength, UTF_8), body.toString(fromLengthAt + 1, fromLength, UTF_8),
                payloadAt, end - payloadAt);
    }

    /** A SEND_REPLY: delivered if {@code refusal} is null, else refused for that reason (cut to {@link BodyDescriptor#MAX_REASON_BYTES}). */
    static ByteBuf sendReply(ByteBufAllocator alloc, long requestId, String refusal) {
        byte[] reason = refusal == null ? new byte[0] : refusal.getBytes(UTF_8);
        if (reason.length > BodyDescriptor.MAX_REASON_BYTES) {
            reason = Arrays.copyOf(reason, BodyDescriptor.MAX_REASON_BYTES);
        }
        int bodyLength = SEND_REPLY_REASON_OFFSET + reason.length;
        ByteBuf frame = alloc.buffer(FrameDescriptor.LENGTH + bodyLength);
        FrameDescriptor.writeHeader(frame, FrameDescriptor.SEND_REPLY, requestId, bodyLength);
        frame.writeByte(refusal == null ? BodyDescriptor.SEND_DELIVERED : BodyDescriptor.SEND_REFUSED);
        frame.writeShort(reason.length);
        frame.writeBytes(reason);
        return frame;
    }

    /** The refusal reason of a SEND_REPLY, or null if the message was delivered. */
    static String readSendReply(ByteBuf body) {
        atLeast("SEND_REPLY", body, SEND_REPLY_REASON_OFFSET);
        int at = body.readerIndex();
        byte status = body.getByte(at + SEND_REPLY_STATUS_OFFSET);
        int reasonLength = body.getUnsignedShort(at + SEND_REPLY_REASON_LENGTH_OFFSET);
        exactLength("SEND_REPLY", body, SEND_REPLY_REASON_OFFSET + reasonLength);
        if (status == BodyDescriptor.SEND_DELIVERED && reasonLength == 0) {
            return null;
        }
        if (status != BodyDescriptor.SEND_REFUSED) {
            throw new ProtocolException("bad SEND_REPLY: status=" + status + ", reasonLength=" + reasonLength);
        }
        return body.toString(at + SEND_REPLY_REASON_OFFSET, reasonLength, UTF_8);
    }

    static void exactLength(String what, ByteBuf body, int expected) {
        if (body.readableBytes() != expected) {
            throw new ProtocolException("bad " + what + " body: bodyLength=" + body.readableBytes() + ", expected="
                    + expected);
        }
    }

    private static void atLeast(String what, ByteBuf body, int minimum) {
        if (body.readableBytes() < minimum) {
            throw new ProtocolException("truncated " + what + " body: bodyLength=" + body.readableBytes() + ", minimum="
                    + minimum);
        }
    }
}
