package io.gtran.rdma.netty;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's connection to one peer, over which all of its requests to that peer go (so that
 * requests from one thread arrive in the order they were made). Opened lazily by
 * {@link PeerLink}; it connects, says HELLO, and writes the requests that arrived meanwhile once
 * the peer's HELLO_ACK (with its incarnation) is in. Each request waits in {@link #pending}, by id,
 * until its reply arrives, its deadline passes (a sweep fails it after the operation timeout), or
 * the connection closes, which fails every request still waiting at once.
 *
 * <p>Requests are written and flushed from the calling thread; a {@link FlushConsolidationHandler}
 * coalesces the flushes of many threads into fewer system calls. An idle connection sends a PING
 * every heartbeat interval; a connection that hears nothing for peer-lost-after is closed and the
 * peer reported lost.
 */
final class ClientConnection {
    private static final Logger LOG = LoggerFactory.getLogger(ClientConnection.class);
    private static final int REPLY_TYPES = FrameDescriptor.bit(FrameDescriptor.LOOKUP_REPLY)
            | FrameDescriptor.bit(FrameDescriptor.OPS_REPLY) | FrameDescriptor.bit(FrameDescriptor.SEND_REPLY)
            | FrameDescriptor.bit(FrameDescriptor.PONG) | FrameDescriptor.bit(FrameDescriptor.GOODBYE);

    private enum State { CONNECTING, READY, CLOSED }

    private final NettyFabric fabric;
    private final PeerLink peer;
    private volatile Channel channel;
    private final FrameDecoder decoder;
    private final Map<Long, Request> pending = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private final List<Request> backlog = new ArrayList<>(); // guarded by this, while CONNECTING
    private volatile ScheduledFuture<?> sweep;
    private volatile State state = State.CONNECTING;
    private volatile long serverIncarnation;
    private volatile String closedBecause;

    /** A connection to {@code peer}, not yet started. */
    ClientConnection(NettyFabric fabric, PeerLink peer) {
        this.fabric = fabric;
        this.peer = peer;
        this.decoder = new FrameDecoder(FrameDescriptor.bit(FrameDescriptor.HELLO_ACK)
                | FrameDescriptor.bit(FrameDescriptor.GOODBYE), "before HELLO_ACK");
    }

    /** Starts connecting; requests may be submitted from now on. */
    void start() {
        long heartbeat = fabric.config().heartbeatInterval().toMillis();
        long lostAfter = fabric.config().peerLostAfter().toMillis();
        long connectTimeout = fabric.config().connectTimeout().toMillis();
        ChannelFuture connecting;
        try {
            connecting = fabric.transport().clientBootstrap(fabric.config().connectTimeout())
                    .handler(new ChannelInitializer<>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(new IdleStateHandler(lostAfter, heartbeat, 0, TimeUnit.MILLISECONDS),
                                    new FlushConsolidationHandler(256, true), decoder, new Handler());
                        }
                    })
                    .connect(peer.address());
            channel = connecting.channel();
            long tick = Math.max(5, Math.min(100, fabric.config().operationTimeout().toMillis() / 10));
            sweep = channel.eventLoop().scheduleAtFixedRate(this::sweep, tick, tick, TimeUnit.MILLISECONDS);
            channel.eventLoop().schedule(() -> {
                if (state == State.CONNECTING) {
                    close("no HELLO_ACK within connectTimeout=" + connectTimeout + "ms");
                }
            }, connectTimeout, TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) { // the I/O threads are stopping: the fabric is closing
            close("cannot connect (" + describe(e) + ")");
            return;
        }
        connecting.addListener(done -> {
            if (done.isSuccess()) {
                channel.writeAndFlush(FrameCodec.hello(channel.alloc(), fabric.localNode(), fabric.incarnation(),
                        peer.node()));
            } else {
                close("node unreachable (" + describe(done.cause()) + ")");
            }
        });
    }

    /** Whether the handshake is done and the peer answered as another incarnation than {@code peerIncarnation}. */
    boolean answeredAsOtherThan(long peerIncarnation) {
        long answered = serverIncarnation;
        return answered != 0 && answered != peerIncarnation;
    }

    /** Why this connection closed, or null while it is open. */
    String closedBecause() {
        return closedBecause;
    }

    /** Whether this connection is closed (a new one is needed). */
    boolean isClosed() {
        return state == State.CLOSED;
    }

    /**
     * Sends {@code request}, or keeps it until the handshake is done.
     *
     * @return false if this connection is closed and did not take the request
     */
    boolean submit(Request request) {
        long id = ids.incrementAndGet();
        request.assign(id, System.nanoTime() + fabric.config().operationTimeout().toNanos());
        pending.put(id, request);
        State now = state;
        if (now == State.CONNECTING) {
            synchronized (this) {
                now = state;
                if (now == State.CONNECTING) {
                    backlog.add(request);
                    return true;
                }
            }
        }
        if (now == State.CLOSED) {
            pending.remove(id);
            return false;
        }
        write(request);
        return true;
    }

    /** Tells the peer this node is closing (if the handshake is done), then {@link #close}s. */
    void goodbye(String reason) {
        if (state == State.READY) {
            channel.writeAndFlush(FrameCodec.empty(channel.alloc(), FrameDescriptor.GOODBYE, 0));
        }
        close(reason);
    }

    /** Closes the connection and fails every request waiting on it with {@code reason}; idempotent. */
    void close(String reason) {
        boolean wasReady;
        List<Request> unsent;
        synchronized (this) {
            if (state == State.CLOSED) {
                return;
            }
            wasReady = state == State.READY;
            state = State.CLOSED;
            closedBecause = reason;
            unsent = new ArrayList<>(backlog);
            backlog.clear();
        }
        unsent.forEach(Request::releaseFrame);
        failAll(reason);
        if (sweep != null) {
            sweep.cancel(false);
        }
        if (channel != null) {
            channel.close();
        }
        LOG.debug("node={}: connection to node={} closed: {}", fabric.localNode(), peer.node(), reason);
        peer.connectionClosed(this, wasReady, serverIncarnation, reason);
    }

    @Override
    public String toString() {
        return state == State.CLOSED ? "closed (" + closedBecause + ")"
                : state.name().toLowerCase() + " (pending=" + pending.size() + ")";
    }

    private void write(Request request) {
        if (request.isDone()) { // timed out while waiting for the handshake
            pending.remove(request.id());
            request.releaseFrame();
            return;
        }
        long expected = request.incarnation();
        if (expected != 0 && expected != serverIncarnation) {
            pending.remove(request.id());
            request.releaseFrame();
            request.fail("node restarted", address());
            return;
        }
        channel.writeAndFlush(request.takeFrame()); // a failed write closes the channel, which fails the request
    }

    private void failAll(String reason) {
        Iterator<Request> waiting = pending.values().iterator();
        while (waiting.hasNext()) {
            Request request = waiting.next();
            waiting.remove();
            request.fail(reason, address());
        }
    }

    /** Fails the requests whose deadline has passed; runs on the I/O thread every few milliseconds. */
    private void sweep() {
        long now = System.nanoTime();
        for (Request request : pending.values()) {
            if (now - request.deadlineNanos() > 0 && pending.remove(request.id(), request)) {
                request.fail("no reply within operationTimeout=" + fabric.config().operationTimeout().toMillis() + "ms",
                        address());
            }
        }
    }

    private void handshakeDone(FrameCodec.HelloAck ack) {
        if (ack.node() != peer.node() || ack.incarnation() == 0) {
            throw new ProtocolException("HELLO_ACK from the wrong node: node=" + ack.node() + ", expected=" + peer.node()
                    + ", incarnation=" + ack.incarnation());
        }
        serverIncarnation = ack.incarnation();
        decoder.accept(REPLY_TYPES, "after HELLO_ACK");
        synchronized (this) {
            if (state != State.CONNECTING) {
                return;
            }
            while (!backlog.isEmpty()) { // a request failed here may submit another from its callback
                List<Request> waiting = new ArrayList<>(backlog);
                backlog.clear();
                for (Request request : waiting) {
                    write(request); // on the I/O thread: ahead of anything other threads write from now on
                }
            }
            state = State.READY;
        }
        peer.contact(this, ack.incarnation());
        if (state == State.CLOSED) { // closed by another thread since READY: its close may have come before the contact
            peer.connectionClosed(this, true, ack.incarnation(), closedBecause);
        }
    }

    private void onFrame(Frame frame) {
        switch (frame.type()) {
            case FrameDescriptor.HELLO_ACK -> handshakeDone(FrameCodec.readHelloAck(frame.body()));
            case FrameDescriptor.GOODBYE -> close("node is closed");
            case FrameDescriptor.PONG -> { } // heard from the peer: that is all a heartbeat asks
            default -> {
                Request request = pending.remove(frame.requestId());
                if (request == null) {
                    return; // timed out already
                }
                if (request.replyType() != frame.type()) {
                    request.fail("protocol error", address());
                    throw new ProtocolException("reply of the wrong type: type=" + FrameDescriptor.typeName(frame.type())
                            + ", expected=" + FrameDescriptor.typeName(request.replyType()) + ", requestId="
                            + frame.requestId());
                }
                try {
                    request.complete(frame, serverIncarnation);
                } catch (RuntimeException e) {
                    request.fail("protocol error", address());
                    throw e;
                }
            }
        }
    }

    private String address() {
        return peer.addressText();
    }

    private static String describe(Throwable cause) {
        String message = cause.getMessage();
        return message == null ? cause.getClass().getSimpleName() : message;
    }

    /** The connection's last inbound handler: replies, GOODBYE, heartbeats, failures. */
    private final class Handler extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            Frame frame = (Frame) msg;
            try {
                onFrame(frame);
            } finally {
                frame.release();
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
            if (event instanceof IdleStateEvent idle) {
                if (idle.state() == IdleState.READER_IDLE) {
                    close("no frame within peerLostAfter=" + fabric.config().peerLostAfter().toMillis() + "ms");
                } else if (idle.state() == IdleState.WRITER_IDLE && state == State.READY) {
                    ctx.writeAndFlush(FrameCodec.empty(ctx.alloc(), FrameDescriptor.PING, 0));
                }
            }
            ctx.fireUserEventTriggered(event);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            close("connection lost");
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            Throwable root = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
            if (root instanceof ProtocolException) {
                LOG.warn("node={}: closing connection to node={} at {}: {}", fabric.localNode(), peer.node(),
                        ctx.channel().remoteAddress(), root.getMessage());
                close("protocol error (" + root.getMessage() + ")");
            } else if (root instanceof IOException) {
                close("connection lost (" + describe(root) + ")");
            } else {
                LOG.warn("node={}: closing connection to node={} after an unexpected failure", fabric.localNode(),
                        peer.node(), root);
                close("connection failed (" + describe(root) + ")");
            }
        }
    }
}
