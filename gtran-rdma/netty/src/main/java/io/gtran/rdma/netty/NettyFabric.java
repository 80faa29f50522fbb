package io.gtran.rdma.netty;

import io.gtran.rdma.Batch;
import io.gtran.rdma.ClusterConfig;
import io.gtran.rdma.DeliveryException;
import io.gtran.rdma.PeerListener;
import io.gtran.rdma.Region;
import io.gtran.rdma.RegionAccessException;
import io.gtran.rdma.UnknownRegionException;
import io.gtran.rdma.spi.AbstractFabric;
import io.gtran.rdma.spi.FabricChecks;
import io.gtran.rdma.spi.MemoryRegion;
import io.gtran.rdma.spi.RegionMemory;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.timeout.IdleStateHandler;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node of a cluster whose nodes talk TCP through Netty: the paper's transport for machines
 * without RDMA (G-Tran §4.1, §5). Start it with {@link #start(ClusterConfig)}.
 *
 * <ul>
 *   <li>Regions live in this node's {@link RegionMemory}. A peer's one-sided operations arrive as
 *       OPS frames and are applied by the I/O thread that reads them, straight to the memory, in
 *       the order they came; this node's application threads never take part. Handles to this
 *       node's own regions go to the memory directly, with no socket.
 *   <li>This node reaches each peer over one connection of its own ({@link PeerLink},
 *       {@link ClientConnection}), opened on first use and again after a loss, within the connect
 *       timeout. It begins with a HELLO carrying this node's id and incarnation (a random number
 *       drawn at every start), answered with the peer's; a handle to a region of a peer that has
 *       since restarted fails with {@code "node restarted"}.
 *   <li>Every request fails after the operation timeout; a connection that breaks or hears
 *       nothing (not even a heartbeat reply) for peer-lost-after fails everything waiting on it at
 *       once, and tells the {@link PeerListener}s if it was the last connection with that peer.
 *   <li>Malformed input closes the connection it came on, with a WARN line, and nothing else.
 * </ul>
 *
 * <p>The wire format is in {@link FrameDescriptor}, {@link BodyDescriptor} and {@link OpDescriptor}.
 */
final class NettyFabric extends AbstractFabric {
    private static final Logger LOG = LoggerFactory.getLogger(NettyFabric.class);
    /** How long {@link #close} waits for connections and I/O threads to stop. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    private final ClusterConfig config;
    private final long incarnation;
    private final NettyTransport transport;
    private final PeerLink[] peers;
    private final ConcurrentHashMap<String, RegionEntry> regions = new ConcurrentHashMap<>();
    private volatile RegionMemory[] regionsById = new RegionMemory[0];
    private final Set<Channel> inbound = ConcurrentHashMap.newKeySet();
    private final CountDownLatch closeDone = new CountDownLatch(1);
    private final LongAdder opsFramesServed = new LongAdder();
    private volatile Channel server;

    /** A registered region and the id peers address it by. */
    record RegionEntry(int id, RegionMemory memory) {
    }

    private NettyFabric(ClusterConfig config, NettyTransport transport) {
        super(config.localNode());
        this.config = config;
        int node = config.localNode();
        this.transport = transport;
        long drawn;
        do {
            drawn = ThreadLocalRandom.current().nextLong() ^ System.nanoTime();
        } while (drawn == 0);
        this.incarnation = drawn;
        this.peers = new PeerLink[config.nodes().size()];
        for (int peer = 0; peer < peers.length; peer++) {
            if (peer != node) {
                peers[peer] = new PeerLink(this, peer, config.nodes().get(peer));
            }
        }
    }

    /**
     * Starts node {@code config.localNode()}: its I/O threads (native epoll where available, else
     * NIO) and its listening socket on {@code config.localAddress()}.
     *
     * @throws IllegalStateException if the address cannot be listened on (taken, not local); the
     *     message names {@code node=} and {@code address=}, the cause is the socket's exception
     */
    static NettyFabric start(ClusterConfig config) {
        Objects.requireNonNull(config, "config");
        NettyTransport transport = NettyTransport.start(config.localNode());
        NettyFabric fabric = new NettyFabric(config, transport);
        try {
            fabric.listen();
        } catch (RuntimeException e) {
            transport.shutdown(CLOSE_WAIT);
            throw e;
        }
        return fabric;
    }

    private void listen() {
        long lostAfter = config.peerLostAfter().toMillis();
        ChannelFuture bound = transport.serverBootstrap().childHandler(new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                FrameDecoder decoder = ServerHandler.newDecoder();
                ch.pipeline().addLast(new IdleStateHandler(lostAfter, 0, 0, TimeUnit.MILLISECONDS), decoder,
                        new ServerHandler(NettyFabric.this, decoder));
            }
        }).bind(config.localAddress()).awaitUninterruptibly();
        String address = config.localAddress().getHostString() + ":" + config.localAddress().getPort();
        if (!bound.isSuccess()) {
            Throwable cause = bound.cause();
            throw new IllegalStateException("cannot listen: node=" + localNode() + ", address=" + address + " ("
                    + cause.getMessage() + ")", cause);
        }
        server = bound.channel();
        String noEpoll = NettyTransport.epollUnavailability();
        LOG.info("node={} listening on {} (transport={}{}, incarnation={})", localNode(), address, transport.name(),
                noEpoll == null ? "" : ", epoll unavailable: " + noEpoll, Long.toHexString(incarnation));
    }

    /** The configuration this node started from. */
    ClusterConfig config() {
        return config;
    }

    /** {@code "epoll"} or {@code "nio"}: the socket implementation in use. */
    String transportName() {
        return transport.name();
    }

    @Override
    public Region register(String name, long bytes) {
        checkOpen();
        FabricChecks.checkRegistration(name, bytes);
        if (bytes > RegionMemory.MAX_BYTES) {
            throw new IllegalArgumentException("region too large for the netty fabric: name=" + name + ", bytes=" + bytes
                    + ", max=" + RegionMemory.MAX_BYTES);
        }
        int nameBytes = name.getBytes(StandardCharsets.UTF_8).length;
        if (nameBytes > BodyDescriptor.MAX_REGION_NAME_BYTES) {
            throw new IllegalArgumentException("region name too long for the netty fabric: bytes=" + nameBytes + ", max="
                    + BodyDescriptor.MAX_REGION_NAME_BYTES);
        }
        synchronized (regions) {
            if (regions.containsKey(name)) {
                throw new IllegalStateException("region already registered: node=" + localNode() + ", name=" + name);
            }
            RegionMemory memory = new RegionMemory(name, bytes);
            RegionMemory[] byId = Arrays.copyOf(regionsById, regionsById.length + 1);
            byId[byId.length - 1] = memory;
            regionsById = byId; // published before the name, so a look-up never returns an id peers cannot use
            regions.put(name, new RegionEntry(byId.length - 1, memory));
            return localHandle(memory);
        }
    }

    @Override
    public Region connect(int node, String name) {
        checkOpen();
        Objects.requireNonNull(name, "name");
        if (node == localNode()) {
            RegionEntry entry = regions.get(name);
            if (entry == null) {
                throw new UnknownRegionException("unknown region: node=" + node + ", name=" + name);
            }
            return localHandle(entry.memory());
        }
        if (node < 0 || node >= peers.length) {
            throw new UnknownRegionException("unknown node: node=" + node + ", name=" + name);
        }
        if (name.getBytes(StandardCharsets.UTF_8).length > BodyDescriptor.MAX_REGION_NAME_BYTES) {
            throw new UnknownRegionException("unknown region: node=" + node + ", name=" + name.substring(0, 32) + "...");
        }
        String what = "node=" + node + ", region=" + name;
        checkMayBlock(what);
        LookupRequest lookup = new LookupRequest(this, node, name);
        peers[node].submit(lookup);
        return await(lookup.future, what);
    }

    /** A handle to one of this node's regions: straight to memory, no socket. */
    private Region localHandle(RegionMemory memory) {
        return new MemoryRegion(this, this::checkOpen, localNode(), () -> false, memory);
    }

    @Override
    public Batch batch() {
        checkOpen();
        return new NettyBatch(this);
    }

    /**
     * Stops listening, says GOODBYE on every connection and closes it (failing what waits on this
     * node's own connections), then stops the I/O threads. Peers see this node as dead as soon as
     * their connections close.
     */
    @Override
    protected void closeTransport() {
        try {
            closeOnce();
        } finally {
            closeDone.countDown();
        }
    }

    /**
     * A second, concurrent {@link #close()} returns when the first is done (a JVM shutdown hook and
     * another thread may both close), except on an I/O thread, which cannot wait for its own group.
     */
    @Override
    protected void awaitClose() {
        if (!transport.inEventLoop()) {
            try {
                closeDone.await(2 * CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void closeOnce() {
        boolean mayWait = !transport.inEventLoop(); // an I/O thread must not wait for its own group
        List<ChannelFuture> closing = new ArrayList<>();
        Channel listening = server;
        if (listening != null) {
            closing.add(listening.close());
        }
        for (Channel channel : inbound) {
            channel.writeAndFlush(FrameCodec.empty(channel.alloc(), FrameDescriptor.GOODBYE, 0));
            closing.add(channel.close());
        }
        for (PeerLink peer : peers) {
            if (peer != null) {
                peer.close(localCloseReason());
            }
        }
        if (mayWait) {
            long deadline = System.nanoTime() + CLOSE_WAIT.toNanos();
            for (ChannelFuture future : closing) {
                future.awaitUninterruptibly(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            }
        }
        transport.shutdown(CLOSE_WAIT);
        LOG.info("node={} closed", localNode());
    }

    @Override
    public String toString() {
        StringBuilder peerState = new StringBuilder();
        for (PeerLink peer : peers) {
            if (peer != null) {
                peerState.append(peerState.length() == 0 ? "" : "; ").append(peer);
            }
        }
        return "NettyFabric[node=" + localNode() + ", address=" + config.localAddress().getHostString() + ":"
                + config.localAddress().getPort() + ", transport=" + transport.name() + ", incarnation="
                + Long.toHexString(incarnation) + ", closed=" + isClosed() + ", regions=" + new TreeSet<>(regions.keySet())
                + ", mailboxes=" + mailboxNames() + ", inbound=" + inbound.size() + ", peers=["
                + peerState + "]]";
    }

    // ---- for the rest of the package ---------------------------------------------------------

    long incarnation() {
        return incarnation;
    }

    NettyTransport transport() {
        return transport;
    }

    /** Why a request of this node failed when this node's fabric closed under it. */
    String localCloseReason() {
        return "fabric closed on node=" + localNode();
    }

    /** Refuses to wait for a reply on one of this node's I/O threads, which would wait for itself. */
    void checkMayBlock(Object what) {
        if (transport.inEventLoop()) {
            throw new IllegalStateException("a synchronous remote operation on a fabric I/O thread would block it: " + what
                    + " (use the asynchronous form)");
        }
    }

    /** The link to peer {@code peer}, a valid remote node id. */
    PeerLink peer(int peer) {
        return peers[peer];
    }

    /** The regions by id, for the I/O threads; a snapshot, never changed in place. */
    RegionMemory[] regionsById() {
        return regionsById;
    }

    /** Counts one OPS frame applied for a peer. */
    void opsFrameServed() {
        opsFramesServed.increment();
    }

    /** How many OPS frames this node has applied for peers (a batch to this node is one, unless it passed the frame limit). */
    long opsFramesServed() {
        return opsFramesServed.sum();
    }

    /** The region registered as {@code name}, or null. */
    RegionEntry region(String name) {
        return regions.get(name);
    }

    /**
     * Waits for a remote operation's result. A failure comes out as the exception the transport
     * put in the future (a {@link RegionAccessException}, not an {@link ExecutionException}). The
     * future always completes (time-outs, connection loss and close fail it); the wait is bounded
     * anyway. An interrupt does not cut the wait short; the thread's interrupt flag is kept.
     */
    <T> T await(CompletableFuture<T> future, Object what) {
        long limit = config.connectTimeout().plus(config.operationTimeout()).plus(CLOSE_WAIT).toNanos();
        long deadline = System.nanoTime() + limit;
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    cause.addSuppressed(new Throwable("waited for by thread " + Thread.currentThread().getName()));
                    if (cause instanceof RuntimeException runtime) {
                        throw runtime;
                    }
                    if (cause instanceof Error error) {
                        throw error;
                    }
                    throw new IllegalStateException(cause);
                } catch (TimeoutException e) {
                    throw new RegionAccessException("no result within " + TimeUnit.NANOSECONDS.toMillis(limit) + "ms: "
                            + what);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * To this node: into the mailbox at once. To a peer: a SEND frame over this node's connection to
     * it, whose reply completes the future once the message is in the receiving mailbox.
     */
    @Override
    protected CompletableFuture<Void> send(String from, byte[] fromUtf8, int to, String mailbox, byte[] toUtf8,
                                           byte[] payload) {
        if (to == localNode()) {
            String refusal = deliver(to, from, mailbox, payload.clone());
            return refusal == null ? CompletableFuture.completedFuture(null)
                    : CompletableFuture.failedFuture(new DeliveryException(refusal + ": node=" + to + ", mailbox=" + mailbox));
        }
        if (to < 0 || to >= peers.length) {
            return CompletableFuture.failedFuture(new DeliveryException("unknown node: node=" + to + ", mailbox=" + mailbox));
        }
        SendRequest request = new SendRequest(to, mailbox, toUtf8, fromUtf8, payload);
        peers[to].submit(request);
        return request.future;
    }

    /** An accepted connection became active; false if this node is closed and it must go. */
    boolean inboundOpened(Channel channel) {
        inbound.add(channel);
        if (isClosed()) {
            inbound.remove(channel);
            return false;
        }
        return true;
    }

    /** Peer {@code peer} said HELLO on {@code channel}, a connection to this node. */
    void inboundHello(Channel channel, int peer, long peerIncarnation) {
        peers[peer].contact(channel, peerIncarnation);
    }

    /**
     * An accepted connection closed; {@code peer} is who it came from, as incarnation
     * {@code peerIncarnation}, or -1 if it never said HELLO.
     */
    void inboundClosed(Channel channel, int peer, long peerIncarnation, String reason) {
        inbound.remove(channel);
        if (peer >= 0) {
            peers[peer].lost(channel, reason, peerIncarnation);
        }
    }
}
