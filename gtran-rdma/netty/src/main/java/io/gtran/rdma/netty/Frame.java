package io.gtran.rdma.netty;

import io.netty.buffer.ByteBuf;

/**
 * One decoded frame: its type, request id and body (a retained slice of what was read, which
 * whoever handles the frame releases). The header's other fields were checked by
 * {@link FrameDecoder} and carry nothing further.
 */
record Frame(byte type, long requestId, ByteBuf body) {
    /** Releases the body. */
    void release() {
        body.release();
    }

    @Override
    public String toString() {
        return "Frame[type=" + FrameDescriptor.typeName(type) + ", requestId=" + requestId + ", bodyLength="
                + body.readableBytes() + "]";
    }
}
