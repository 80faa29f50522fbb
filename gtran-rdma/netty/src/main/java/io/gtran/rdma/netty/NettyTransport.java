package io.gtran.rdma.netty;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The I/O threads of one node and the socket flavour they drive: native epoll where
 * {@link Epoll#isAvailable()}, else NIO. One event loop group serves the listening socket, the
 * accepted connections and the node's own outgoing connections.
 */
final class NettyTransport {
    private final boolean epoll;
    private final EventLoopGroup group;

    private NettyTransport(boolean epoll, EventLoopGroup group) {
        this.epoll = epoll;
        this.group = group;
    }

    /** Starts the I/O threads of node {@code node}: daemon threads named {@code gtran-fabric-N-io-...}. */
    static NettyTransport start(int node) {
        int threads = Math.max(2, Math.min(4, Runtime.getRuntime().availableProcessors()));
        DefaultThreadFactory threadFactory = new DefaultThreadFactory("gtran-fabric-" + node + "-io", true);
        boolean epoll = Epoll.isAvailable();
        EventLoopGroup group = epoll ? new EpollEventLoopGroup(threads, threadFactory)
                : new NioEventLoopGroup(threads, threadFactory);
        return new NettyTransport(epoll, group);
    }

    /** {@code "epoll"} or {@code "nio"}. */
    String name() {
        return epoll ? "epoll" : "nio";
    }

    /** Why epoll is not used, or null if it is. */
    static String epollUnavailability() {
        Throwable cause = Epoll.unavailabilityCause();
        return cause == null ? null : cause.toString();
    }

    ServerBootstrap serverBootstrap() {
        Class<? extends ServerChannel> type = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        return new ServerBootstrap().group(group).channel(type)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true);
    }

    Bootstrap clientBootstrap(Duration connectTimeout) {
        Class<? extends Channel> type = epoll ? EpollSocketChannel.class : NioSocketChannel.class;
        return new Bootstrap().group(group).channel(type)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, connectTimeout.toMillis()));
    }

    /** Whether the calling thread is one of these I/O threads (which must never block on a reply). */
    boolean inEventLoop() {
        for (EventExecutor executor : group) {
            if (executor.inEventLoop()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Stops the I/O threads, waiting up to {@code timeout} for them unless called on one of them
     * (which cannot wait for itself).
     */
    void shutdown(Duration timeout) {
        var terminated = group.shutdownGracefully(0, timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (!inEventLoop()) {
            terminated.awaitUninterruptibly(timeout.toMillis());
        }
    }
}
