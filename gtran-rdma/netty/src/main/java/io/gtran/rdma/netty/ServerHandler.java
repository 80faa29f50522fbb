package io.gtran.rdma.netty;

import io.gtran.rdma.spi.RegionMemory;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import java.io.IOException;
import java.util.ArrayDeque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server end of one connection a peer opened to this node. Everything runs on the
 * connection's I/O thread: the HELLO handshake, region look-ups, one-sided operations (applied
 * straight to the region memory by {@link RegionService}) and message delivery into the mailbox
 * queue; replies are written as frames are handled and flushed once per read. While the peer
 * leaves replies unread past the channel's write buffer high-water mark, its further requests are
 * kept unanswered and reading stops, until it takes them.
 *
 * <p>Malformed or out-of-turn input closes this connection with a WARN line naming the remote
 * address and the reason; other connections are not affected.
 */
final class ServerHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(ServerHandler.class);
    private static final int REQUEST_TYPES = FrameDescriptor.bit(FrameDescriptor.LOOKUP)
            | FrameDescriptor.bit(FrameDescriptor.OPS) | FrameDescriptor.bit(FrameDescriptor.SEND)
            | FrameDescriptor.bit(FrameDescriptor.PING) | FrameDescriptor.bit(FrameDescriptor.GOODBYE);

    private final NettyFabric fabric;
    private final FrameDecoder decoder;
    private int peer = -1;
    private long peerIncarnation;
    private String closeReason = "connection closed";
    /** Requests read while the peer was not taking its replies, answered once it does; see {@link #resume}. */
    private final ArrayDeque<Frame> deferred = new ArrayDeque<>();
    private boolean resuming;
    /** Kept requests answered so far, and the count and write backlog at the last liveness check while not reading. */
    private long answeredWhileStopped;
    private long answeredAtCheck;
    private long backlogAtCheck;

    ServerHandler(NettyFabric fabric, FrameDecoder decoder) {
        this.fabric = fabric;
        this.decoder = decoder;
    }

    /** A decoder for the server end: HELLO first. */
    static FrameDecoder newDecoder() {
        return new FrameDecoder(FrameDescriptor.bit(FrameDescriptor.HELLO), "before HELLO");
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (!fabric.inboundOpened(ctx.channel())) {
            ctx.close(); // the fabric closed meanwhile
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Frame frame = (Frame) msg;
        if (!deferred.isEmpty() || !ctx.channel().isWritable()) {
            // The peer is not taking its replies: keep its requests, unanswered, until it does, and
            // read no more. What is kept is bounded by what one read brought in; answering it all now
            // would not be (each 41-byte OPS frame may ask for a 16 MiB reply).
            deferred.add(frame);
            stopReading(ctx);
            return;
        }
        handle(ctx, frame);
    }

    /** Handles one frame and releases it. */
    private void handle(ChannelHandlerContext ctx, Frame frame) {
        try {
            if (fabric.isClosed()) {
                ctx.close();
                return;
            }
            switch (frame.type()) {
                case FrameDescriptor.HELLO -> hello(ctx, FrameCodec.readHello(frame.body()));
                case FrameDescriptor.LOOKUP -> lookup(ctx, frame);
                case FrameDescriptor.OPS -> ops(ctx, frame);
                case FrameDescriptor.SEND -> send(ctx, frame);
                case FrameDescriptor.PING -> ctx.write(FrameCodec.empty(ctx.alloc(), FrameDescriptor.PONG, frame.requestId()));
                case FrameDescriptor.GOODBYE -> {
                    closeReason = "node is closed";
                    ctx.close();
                }
                default -> throw new ProtocolException("unexpected frame type: type=" + FrameDescriptor.typeName(frame.type()));
            }
        } finally {
            frame.release();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
        if (!ctx.channel().isWritable()) {
            // The peer is not taking its replies: stop reading its requests until it does, so that
            // a peer that only writes cannot make this node buffer replies without bound.
            stopReading(ctx);
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            resume(ctx);
        }
        ctx.fireChannelWritabilityChanged();
    }

    /**
     * Answers the kept requests, in order, while the channel stays writable; reads again once none
     * is left. Flushing here may make the channel writable again at once, which calls this again:
     * that call returns, and the loop here goes on.
     */
    private void resume(ChannelHandlerContext ctx) {
        if (resuming) {
            return;
        }
        resuming = true;
        try {
            while (!deferred.isEmpty() && ctx.channel().isActive()) {
                if (!ctx.channel().isWritable()) {
                    ctx.flush();
                    if (!ctx.channel().isWritable()) {
                        return; // the next writability change comes back here
                    }
                }
                handle(ctx, deferred.poll());
                answeredWhileStopped++;
            }
            ctx.flush();
        } finally {
            resuming = false;
        }
        if (deferred.isEmpty() && ctx.channel().isWritable()) {
            ctx.channel().config().setAutoRead(true);
        }
    }

    /** Stops reading; notes how far the peer is from taking its replies, for {@link #takingReplies}. */
    private void stopReading(ChannelHandlerContext ctx) {
        ctx.channel().config().setAutoRead(false);
        backlogAtCheck = ctx.channel().bytesBeforeWritable();
        answeredAtCheck = answeredWhileStopped;
    }

    /**
     * While this node has stopped reading, whether the peer took some of its replies since the last
     * check (or since reading stopped): then it is alive, only slow, and its silence is ours.
     */
    private boolean takingReplies(ChannelHandlerContext ctx) {
        long backlog = ctx.channel().bytesBeforeWritable();
        boolean taking = answeredWhileStopped != answeredAtCheck || backlog < backlogAtCheck;
        backlogAtCheck = backlog;
        answeredAtCheck = answeredWhileStopped;
        return taking;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof IdleStateEvent idle && idle.state() == IdleState.READER_IDLE) {
            if (!ctx.channel().config().isAutoRead()) {
                // Nothing was read because this node stopped reading, not because the peer fell
                // silent: it is lost only if it also stopped taking its replies.
                if (takingReplies(ctx)) {
                    ctx.fireUserEventTriggered(event);
                    return;
                }
            }
            closeReason = "no frame within peerLostAfter=" + fabric.config().peerLostAfter().toMillis() + "ms";
            LOG.info("node={}: closing connection from {} (node={}): {}", fabric.localNode(), ctx.channel().remoteAddress(),
                    peer, closeReason);
            ctx.close();
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        while (!deferred.isEmpty()) {
            deferred.poll().release();
        }
        fabric.inboundClosed(ctx.channel(), peer, peerIncarnation, closeReason);
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Throwable root = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        if (root instanceof ProtocolException) {
            closeReason = "protocol error";
            LOG.warn("node={}: closing connection from {} (node={}): {}", fabric.localNode(), ctx.channel().remoteAddress(),
                    peer < 0 ? "unknown" : peer, root.getMessage());
        } else if (root instanceof IOException) {
            closeReason = "connection lost (" + root.getMessage() + ")";
            LOG.debug("node={}: connection from {} failed", fabric.localNode(), ctx.channel().remoteAddress(), root);
        } else {
            closeReason = "connection failed (" + root + ")";
            LOG.warn("node={}: closing connection from {} after an unexpected failure", fabric.localNode(),
                    ctx.channel().remoteAddress(), root);
        }
        ctx.close();
    }

    private void hello(ChannelHandlerContext ctx, FrameCodec.Hello hello) {
        int nodes = fabric.config().nodes().size();
        if (hello.target() != fabric.localNode()) {
            throw new ProtocolException("HELLO meant for another node: target=" + hello.target() + ", this node="
                    + fabric.localNode());
        }
        if (hello.node() < 0 || hello.node() >= nodes || hello.node() == fabric.localNode()) {
            throw new ProtocolException("HELLO from a node outside the cluster: node=" + hello.node() + ", nodes=" + nodes);
        }
        if (hello.incarnation() == 0) {
            throw new ProtocolException("HELLO without an incarnation: node=" + hello.node());
        }
        peer = hello.node();
        peerIncarnation = hello.incarnation();
        decoder.accept(REQUEST_TYPES, "after HELLO");
        ctx.writeAndFlush(FrameCodec.helloAck(ctx.alloc(), fabric.localNode(), fabric.incarnation()));
        fabric.inboundHello(ctx.channel(), peer, hello.incarnation());
    }

    private void lookup(ChannelHandlerContext ctx, Frame frame) {
        String name = FrameCodec.readLookup(frame.body());
        NettyFabric.RegionEntry entry = fabric.region(name);
        ctx.write(entry == null ? FrameCodec.lookupReply(ctx.alloc(), frame.requestId(), false, 0, 0)
                : FrameCodec.lookupReply(ctx.alloc(), frame.requestId(), true, entry.id(), entry.memory().size()));
    }

    private void ops(ChannelHandlerContext ctx, Frame frame) {
        RegionMemory[] regions = fabric.regionsById();
        ByteBuf body = frame.body();
        int replyLength = RegionService.check(body, regions);
        ByteBuf reply = ctx.alloc().buffer(FrameDescriptor.LENGTH + replyLength);
        FrameDescriptor.writeHeader(reply, FrameDescriptor.OPS_REPLY, frame.requestId(), replyLength);
        RegionService.apply(body, regions, reply);
        fabric.opsFrameServed();
        ctx.write(reply);
    }

    private void send(ChannelHandlerContext ctx, Frame frame) {
        ByteBuf body = frame.body();
        FrameCodec.Send send = FrameCodec.readSend(body);
        byte[] payload = new byte[send.payloadLength()];
        body.getBytes(send.payloadIndex(), payload);
        String refusal = fabric.deliver(peer, send.from(), send.to(), payload);
        ctx.write(FrameCodec.sendReply(ctx.alloc(), frame.requestId(), refusal));
    }
}
