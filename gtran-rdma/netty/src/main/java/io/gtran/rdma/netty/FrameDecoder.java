package io.gtran.rdma.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Cuts the byte stream of one connection into {@link Frame}s. The header is checked as soon as
 * its {@value FrameDescriptor#LENGTH} bytes are in (magic, version, a type this end accepts now,
 * no flags, a body length within {@link FrameDescriptor#maxBodyLength} for the type), so that no
 * more than an accepted frame's body is ever buffered; a bad header throws a
 * {@link ProtocolException} and everything after it is discarded.
 *
 * <p>Which types are accepted changes with the connection's state ({@link #accept}): before the
 * handshake only {@code HELLO} (server end) or {@code HELLO_ACK}/{@code GOODBYE} (client end).
 * A connection that ends in the middle of a frame is reported as truncated.
 */
final class FrameDecoder extends ByteToMessageDecoder {
    private int acceptedTypes;
    private String acceptedWhen;
    private boolean failed;

    /**
     * @param acceptedTypes the frame types accepted at first, as {@link FrameDescriptor#bit} set
     * @param acceptedWhen words for the state, in messages ({@code "before HELLO"})
     */
    FrameDecoder(int acceptedTypes, String acceptedWhen) {
        accept(acceptedTypes, acceptedWhen);
    }

    /** Accepts {@code types} ({@link FrameDescriptor#bit} set) from now on; call on the channel's event loop. */
    void accept(int types, String when) {
        this.acceptedTypes = types;
        this.acceptedWhen = when;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (in.readableBytes() < FrameDescriptor.LENGTH) {
            return;
        }
        int at = in.readerIndex();
        int bodyLength;
        try {
            bodyLength = checkHeader(in, at);
        } catch (ProtocolException e) {
            failed = true;
            in.skipBytes(in.readableBytes());
            throw e;
        }
        if (in.readableBytes() < FrameDescriptor.LENGTH + bodyLength) {
            return; // the header was fine: wait for the body
        }
        out.add(new Frame(FrameDescriptor.type(in, at), FrameDescriptor.requestId(in, at),
                in.retainedSlice(at + FrameDescriptor.LENGTH, bodyLength)));
        in.skipBytes(FrameDescriptor.LENGTH + bodyLength);
    }

    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        decode(ctx, in, out);
        if (in.isReadable() && !failed) {
            int buffered = in.readableBytes();
            in.skipBytes(buffered);
            failed = true;
            throw new ProtocolException("connection ended inside a frame (truncated): buffered=" + buffered + " bytes");
        }
    }

    /** Checks the header at {@code at}; returns the body length. */
    private int checkHeader(ByteBuf in, int at) {
        int magic = FrameDescriptor.magic(in, at);
        if (magic != FrameDescriptor.MAGIC) {
            throw new ProtocolException("bad magic: magic=0x" + Integer.toHexString(magic) + ", expected=0x"
                    + Integer.toHexString(FrameDescriptor.MAGIC));
        }
        byte version = FrameDescriptor.version(in, at);
        if (version != FrameDescriptor.VERSION) {
            throw new ProtocolException("unsupported protocol version: version=" + version + ", supported="
                    + FrameDescriptor.VERSION);
        }
        byte type = FrameDescriptor.type(in, at);
        if (!FrameDescriptor.isKnownType(type)) {
            throw new ProtocolException("unknown frame type: type=" + type);
        }
        if ((acceptedTypes & FrameDescriptor.bit(type)) == 0) {
            throw new ProtocolException("unexpected frame type " + acceptedWhen + ": type=" + FrameDescriptor.typeName(type));
        }
        short flags = FrameDescriptor.flags(in, at);
        if (flags != 0) {
            throw new ProtocolException("unknown flags: type=" + FrameDescriptor.typeName(type) + ", flags=0x"
                    + Integer.toHexString(flags & 0xFFFF));
        }
        int bodyLength = FrameDescriptor.bodyLength(in, at);
        int max = FrameDescriptor.maxBodyLength(type);
        if (bodyLength < 0 || bodyLength > max) {
            throw new ProtocolException("frame body length out of range: type=" + FrameDescriptor.typeName(type)
                    + ", bodyLength=" + bodyLength + ", max=" + max);
        }
        return bodyLength;
    }
}
