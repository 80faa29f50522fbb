package io.gtran.rdma.netty;

import io.gtran.rdma.DeliveryException;
import io.netty.buffer.ByteBufAllocator;
import java.util.concurrent.CompletableFuture;

/** A SEND of one message; completes once the message is in the receiving mailbox. */
final class SendRequest extends Request {
    private final int node;
    private final String mailbox;
    final CompletableFuture<Void> future = new CompletableFuture<>();

    /** Encodes (copies) {@code payload} now. */
    SendRequest(int node, String mailbox, byte[] to, byte[] from, byte[] payload) {
        super(0, FrameCodec.send(ByteBufAllocator.DEFAULT, 0, to, from, payload, 0, payload.length));
        this.node = node;
        this.mailbox = mailbox;
    }

    @Override
    byte replyType() {
        return FrameDescriptor.SEND_REPLY;
    }

    @Override
    void complete(Frame reply, long serverIncarnation) {
        String refusal = FrameCodec.readSendReply(reply.body());
        if (refusal == null) {
            future.complete(null);
        } else {
            future.completeExceptionally(new DeliveryException(refusal + ": node=" + node + ", mailbox=" + mailbox));
        }
    }

    @Override
    void fail(String reason, String address) {
        future.completeExceptionally(new DeliveryException(reason + ": node=" + node + ", mailbox=" + mailbox
                + ", address=" + address));
    }

    @Override
    boolean isDone() {
        return future.isDone();
    }
}
