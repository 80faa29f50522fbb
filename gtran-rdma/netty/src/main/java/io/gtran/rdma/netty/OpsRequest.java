package io.gtran.rdma.netty;

import io.gtran.rdma.RegionAccessException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.List;

/**
 * One OPS frame: region operations for one peer incarnation, applied there in order and answered
 * together by one OPS_REPLY. {@link PeerLink#submitOps} cuts longer runs into frames that fit
 * {@link FrameDescriptor#MAX_BODY_LENGTH}, both ways.
 */
final class OpsRequest extends Request {
    private final List<RegionOp> ops;
    private final int resultsLength;

    /** Encodes {@code ops} now (so write operations copy their bytes before the caller returns). */
    OpsRequest(long incarnation, List<RegionOp> ops, int bodyLength, int resultsLength) {
        super(incarnation, encode(ops, bodyLength));
        this.ops = ops;
        this.resultsLength = resultsLength;
    }

    private static ByteBuf encode(List<RegionOp> ops, int bodyLength) {
        ByteBuf frame = ByteBufAllocator.DEFAULT.buffer(FrameDescriptor.LENGTH + bodyLength);
        FrameDescriptor.writeHeader(frame, FrameDescriptor.OPS, 0, bodyLength);
        frame.writeInt(ops.size());
        for (RegionOp op : ops) {
            op.encode(frame);
        }
        return frame;
    }

    @Override
    byte replyType() {
        return FrameDescriptor.OPS_REPLY;
    }

    @Override
    void complete(Frame reply, long serverIncarnation) {
        ByteBuf body = reply.body();
        FrameCodec.exactLength("OPS_REPLY", body, OpDescriptor.FIRST_OP_OFFSET + resultsLength);
        int count = body.readInt();
        if (count != ops.size()) {
            throw new ProtocolException("OPS_REPLY count differs from the request's: count=" + count + ", expected="
                    + ops.size());
        }
        for (RegionOp op : ops) {
            op.complete(body);
        }
    }

    @Override
    void fail(String reason, String address) {
        for (RegionOp op : ops) {
            op.fail(new RegionAccessException(reason + ": " + op.region.describe() + ", address=" + address));
        }
    }

    @Override
    boolean isDone() {
        for (RegionOp op : ops) {
            if (!op.isDone()) {
                return false;
            }
        }
        return true;
    }
}
