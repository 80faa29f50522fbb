package io.gtran.rdma.netty;

import io.netty.buffer.ByteBuf;

/**
 * A request on its way to a peer, waiting for its reply: the encoded frame (owned by the request
 * until it is written), the peer incarnation it is meant for, and the future(s) to complete. A
 * {@link ClientConnection} gives it a request id and a deadline, writes it, and completes or
 * fails it exactly once.
 */
abstract class Request {
    private final long incarnation;
    private ByteBuf frame;
    private long id;
    private long deadlineNanos;

    /**
     * @param incarnation the incarnation of the peer this request makes sense for (its region ids
     *     come from there), or 0 for any
     * @param frame the encoded frame, request id still 0
     */
    Request(long incarnation, ByteBuf frame) {
        this.incarnation = incarnation;
        this.frame = frame;
    }

    /** The peer incarnation this request is meant for, or 0 for any. */
    final long incarnation() {
        return incarnation;
    }

    final long id() {
        return id;
    }

    final long deadlineNanos() {
        return deadlineNanos;
    }

    /** Gives the request its id (written into the frame) and deadline; before it is written. */
    final void assign(long requestId, long deadline) {
        this.id = requestId;
        this.deadlineNanos = deadline;
        frame.setLong(frame.readerIndex() + FrameDescriptor.REQUEST_ID_OFFSET, requestId);
    }

    /** Hands the frame over to be written; the request no longer owns it. */
    final ByteBuf takeFrame() {
        ByteBuf taken = frame;
        frame = null;
        return taken;
    }

    /** Releases the frame if it was never written. */
    final void releaseFrame() {
        if (frame != null) {
            frame.release();
            frame = null;
        }
    }

    /** The frame type of the reply. */
    abstract byte replyType();

    /**
     * Completes the request from its reply, on the connection's I/O thread.
     *
     * @param serverIncarnation the incarnation of the peer that answered
     * @throws ProtocolException if the reply is malformed
     */
    abstract void complete(Frame reply, long serverIncarnation);

    /**
     * Fails the request's future(s) with the transport's exception for them, whose message is
     * {@code reason}, what the request was for ({@code node=}, region or mailbox) and the peer's address.
     */
    abstract void fail(String reason, String address);

    /** Whether every future of the request is complete (a timed-out request need not be written). */
    abstract boolean isDone();
}
