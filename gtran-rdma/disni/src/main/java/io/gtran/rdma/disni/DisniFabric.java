package io.gtran.rdma.disni;

import com.ibm.disni.RdmaActiveEndpointGroup;
import com.ibm.disni.RdmaServerEndpoint;
import com.ibm.disni.verbs.IbvMr;
import io.gtran.rdma.Batch;
import io.gtran.rdma.ClusterConfig;
import io.gtran.rdma.DeliveryException;
import io.gtran.rdma.Region;
import io.gtran.rdma.RegionAccessException;
import io.gtran.rdma.UnknownRegionException;
import io.gtran.rdma.spi.AbstractFabric;
import io.gtran.rdma.spi.FabricChecks;
import io.gtran.rdma.spi.RegionMemory;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node of a cluster over RDMA verbs, through IBM DiSNI 2.0. Start it with {@link #start}; it
 * refuses to start, naming what is missing, where there is no RDMA device or no {@code libdisni}
 * ({@link RdmaSupport}). Not yet run on RDMA hardware: see {@code deploy/rdma.md}.
 *
 * <p><b>Connections.</b> Every node listens (RDMA CM) on its configured address. A node dials a peer
 * the first time it needs it and keeps that reliable-connected queue pair for its own requests; the
 * peer accepts it and answers on it. So a pair of nodes that both talk holds two queue pairs, one
 * dialled by each, and no dial race exists. The first frame on a new connection is HELLO / HELLO_ACK,
 * which checks that the address belongs to the expected node of a same-sized cluster. All queue
 * pairs share one completion queue per device, polled by DiSNI's CQ thread.
 *
 * <p><b>Regions.</b> Each region's {@link RegionMemory} buffer is registered with the protection
 * domain for local write and remote read, write and atomic access (the queue pairs allow remote
 * READ and atomics because DiSNI's native connect/accept ask for the device's maximum
 * {@code responder_resources}, which makes the connection manager grant both). {@link #connect} looks up a
 * remote region's (address, rkey, size, byte order) with REGION_LOOKUP / REGION_INFO; operations are
 * then one-sided work requests ({@link DisniRegion}, {@link RegionOp}) into registered bounce
 * buffers ({@link BouncePool}).
 *
 * <p><b>Atomics and this node's own regions.</b> Unless a device reports {@code IBV_ATOMIC_GLOB},
 * RDMA atomics are atomic only against other atomics of the same HCA, not against the CPU: every
 * operation on this node's own regions also goes through the NIC, over a loopback connection to
 * itself. DiSNI 2.0 cannot query {@code atomic_cap}; {@link AtomicCapability#query} reads it from
 * {@code ibv_devinfo -v}, and long writes are plain RDMA WRITEs only where every device reports
 * {@code IBV_ATOMIC_GLOB}, compare-and-swap loops elsewhere or when in doubt. At start a probe
 * checks on the loopback connection that fetch-and-add, compare-and-swap, read and long write work
 * and return values in host byte order (some HCAs reply big-endian on little-endian hosts; that is
 * detected and undone).
 *
 * <p><b>Mailboxes</b> travel as SEND/RECV frames into pre-posted receive buffers of
 * {@link FrameDescriptor#FRAME_BYTES}; a larger message is split into chunks sent back to back on the
 * same queue pair and reassembled by the receiver, which answers with MESSAGE_RESULT once the
 * message is in the mailbox (or why not). Receive buffers are reposted as soon as a frame is copied
 * out, and connections ask for infinite RNR retries, so a burst waits in the NIC rather than failing.
 *
 * <p><b>Lost peers.</b> A peer is lost when a connection to it ends: an RDMA CM DISCONNECTED event, a
 * failed completion (queue pair in error), a GOODBYE (the peer closed), or
 * {@link ClusterConfig#peerLostAfter} of silence (idle outgoing connections are pinged every
 * {@link ClusterConfig#heartbeatInterval}). Its requests in flight fail, handles bound to the
 * connection stay dead, and listeners are told once per loss.
 *
 * <p><b>Own threads.</b> DiSNI's CQ and CM threads and this fabric's frame thread (dependent stages,
 * peer listeners) refuse synchronous remote operations ({@link FabricThreads}).
 */
final class DisniFabric extends AbstractFabric {
    private static final Logger LOG = LoggerFactory.getLogger(DisniFabric.class);

    /** How long DiSNI's CM and CQ threads block per poll, so how fast they notice a close. */
    static final int POLL_TIMEOUT_MS = 200;
    /** Access flags of region memory. */
    static final int REGION_ACCESS = IbvMr.IBV_ACCESS_LOCAL_WRITE | IbvMr.IBV_ACCESS_REMOTE_WRITE
            | IbvMr.IBV_ACCESS_REMOTE_READ | IbvMr.IBV_ACCESS_REMOTE_ATOMIC;
    private static final int MAX_CQ_SIZE = 1 << 16;

    private final ClusterConfig config;
    private final long incarnation = new SecureRandom().nextLong();
    private final ConcurrentHashMap<String, LocalRegion> regions = new ConcurrentHashMap<>();
    private final Peers peers;
    private final ExecutorService frames;
    private final ExecutorService closer;
    private final ScheduledThreadPoolExecutor timer;
    private final RdmaActiveEndpointGroup<DisniEndpoint> group;
    private final RdmaServerEndpoint<DisniEndpoint> server;
    private final BouncePool bounces;
    private final Thread acceptor;
    private final AtomicCapability atomics = AtomicCapability.query();
    private volatile boolean atomicRepliesSwapped;
    private LocalRegion probe;

    /** A region of this node and its registration. */
    private record LocalRegion(RegionMemory memory, IbvMr mr) {
    }

    private DisniFabric(ClusterConfig config) throws Exception {
        super(config.localNode());
        this.config = config;
        int node = config.localNode();
        int nodes = config.nodes().size();
        this.peers = new Peers(node, nodes);
        this.frames = Executors.newSingleThreadExecutor(FabricThreads.daemon("gtran-disni-frames-" + node,
                FabricThreads.FRAME));
        this.closer = Executors.newCachedThreadPool(FabricThreads.daemon("gtran-disni-closer-" + node, null));
        this.timer = new ScheduledThreadPoolExecutor(1, FabricThreads.daemon("gtran-disni-timer-" + node, null));
        timer.setRemoveOnCancelPolicy(true);
        // Each pair of nodes may hold two queue pairs (one dialled each way), all on one CQ per device.
        int cqSize = (int) Math.min(MAX_CQ_SIZE, 2L * (nodes + 1) * (Connection.SEND_DEPTH + DisniEndpoint.RECV_DEPTH));
        this.group = new RdmaActiveEndpointGroup<>(POLL_TIMEOUT_MS, false, Connection.SEND_DEPTH, 1, cqSize);
        group.getConnParam().setRetry_count((byte) 7); // transport retries before a dead peer fails a request
        group.getConnParam().setRnr_retry_count((byte) 7); // 7 = retry forever while the receiver reposts buffers
        group.init((id, serverSide) -> new DisniEndpoint(group, id, serverSide, this));
        try {
            this.server = group.createServerEndpoint();
            server.bind(config.localAddress(), 2 * nodes + 8); // bound to a device address: the PD exists from here on
            this.bounces = new BouncePool(BouncePool.registrar(server.getPd()), FrameDescriptor.FRAME_BYTES);
        } catch (Exception e) {
            group.close(); // DiSNI 2.0's CM and CQ threads are not daemons: they must not outlive a failed start
            timer.shutdownNow();
            frames.shutdownNow();
            closer.shutdownNow();
            throw e;
        }
        this.acceptor = FabricThreads.daemon("gtran-disni-accept-" + node, null).newThread(this::acceptLoop);
    }

    /**
     * Starts node {@code config.localNode()}: checks RDMA support, listens on its address, and probes
     * RDMA atomics over a loopback connection.
     *
     * @throws IllegalStateException if RDMA is unavailable here ({@link RdmaSupport#check()}'s
     *     message), or the node cannot listen, register memory or pass the atomics probe (the message
     *     names the node, the address and the cause)
     */
    static DisniFabric start(ClusterConfig config) {
        Objects.requireNonNull(config, "config");
        RdmaSupport.requireAvailable();
        AtomicWorkRequests.requireSupported();
        DisniFabric fabric;
        try {
            fabric = new DisniFabric(config);
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the RDMA fabric: node=" + config.localNode() + ", address="
                    + config.localAddress() + ": " + e, e);
        }
        try {
            fabric.acceptor.start();
            fabric.timer.scheduleWithFixedDelay(fabric::heartbeat, config.heartbeatInterval().toMillis(),
                    config.heartbeatInterval().toMillis(), TimeUnit.MILLISECONDS);
            fabric.probeAtomics();
            return fabric;
        } catch (RuntimeException e) {
            fabric.close();
            throw e;
        }
    }

    @Override
    public Region register(String name, long bytes) {
        checkOpen();
        FabricChecks.checkRegistration(name, bytes);
        if (bytes > RegionMemory.MAX_BYTES) {
            throw new IllegalArgumentException("region too large for the RDMA fabric: name=" + name + ", bytes=" + bytes
                    + ", max=" + RegionMemory.MAX_BYTES);
        }
        int nameBytes = name.getBytes(StandardCharsets.UTF_8).length;
        if (nameBytes > FrameDescriptor.MAX_REGION_NAME_BYTES) {
            throw new IllegalArgumentException("region name too long for the RDMA fabric: bytes=" + nameBytes + ", max="
                    + FrameDescriptor.MAX_REGION_NAME_BYTES);
        }
        if (regions.containsKey(name)) {
            throw duplicate(name);
        }
        LocalRegion region = registerMemory(name, bytes);
        if (regions.putIfAbsent(name, region) != null) {
            deregister(region);
            throw duplicate(name);
        }
        return localHandle(region);
    }

    @Override
    public Region connect(int node, String name) {
        checkOpen();
        Objects.requireNonNull(name, "name");
        if (node < 0 || node >= config.nodes().size()) {
            throw new UnknownRegionException("unknown node: node=" + node + ", name=" + name);
        }
        if (node == localNode()) {
            LocalRegion region = regions.get(name);
            if (region == null) {
                throw new UnknownRegionException("unknown region: node=" + node + ", name=" + name);
            }
            return localHandle(region);
        }
        if (name.getBytes(StandardCharsets.UTF_8).length > FrameDescriptor.MAX_REGION_NAME_BYTES) {
            throw new UnknownRegionException("unknown region (name longer than any region may have): node=" + node
                    + ", name=" + name.substring(0, 32) + "...");
        }
        FabricThreads.checkMayBlock("node=" + node + ", region=" + name);
        Connection connection = reach(node, "region=" + name);
        Frame reply;
        try {
            reply = await(connection.request(new Frame.RegionLookup(localNode(), connection.nextRequestId(), name)));
        } catch (RegionAccessException e) {
            throw new RegionAccessException("region lookup failed (" + e.getMessage() + "): node=" + node + ", region="
                    + name);
        }
        if (!(reply instanceof Frame.RegionInfo info)) {
            throw new RegionAccessException("unexpected answer to a region lookup (" + reply + "): node=" + node
                    + ", region=" + name);
        }
        if (!info.found()) {
            throw new UnknownRegionException("unknown region: node=" + node + ", name=" + name);
        }
        return new DisniRegion(this, connection, node, name, info.size(), info.address(), info.rkey(), info.order());
    }

    @Override
    public Batch batch() {
        checkOpen();
        return new DisniBatch(this);
    }

    /**
     * Delivers a copy of {@code payload} to mailbox {@code mailbox} of node {@code to}: straight into
     * the queue on this node, else as SEND/RECV chunks over this node's connection to {@code to}. A
     * message to another node counts as delivered only when the receiver's MESSAGE_RESULT says it is
     * in the mailbox; a lost connection, no answer within the operation time-out, a missing or full
     * mailbox fail the future with a {@link DeliveryException} naming {@code node=} and
     * {@code mailbox=}.
     */
    @Override
    protected CompletableFuture<Void> send(String from, byte[] fromUtf8, int to, String mailbox, byte[] toUtf8,
                                           byte[] payload) {
        byte[] copy = payload.clone();
        String where = ": node=" + to + ", mailbox=" + mailbox;
        if (to < 0 || to >= config.nodes().size()) {
            return CompletableFuture.failedFuture(new DeliveryException("unknown node" + where));
        }
        if (to == localNode()) {
            String failure = deliver(to, from, mailbox, copy);
            return failure == null ? CompletableFuture.completedFuture(null)
                    : CompletableFuture.failedFuture(new DeliveryException(failure + where));
        }
        Connection connection;
        try {
            connection = reach(to, "mailbox=" + mailbox);
        } catch (RegionAccessException e) {
            return CompletableFuture.failedFuture(new DeliveryException("node is unreachable" + where + " ("
                    + e.getMessage() + ")"));
        }
        CompletableFuture<Void> delivered = new CompletableFuture<>();
        connection.sendMessage(from, mailbox, copy).whenComplete((reply, failure) -> {
            if (failure != null) {
                String what = Connection.NODE_CLOSED.equals(connection.lostBecause()) ? "node is closed" : "node is unreachable";
                delivered.completeExceptionally(new DeliveryException(what + where + " (" + failure.getMessage() + ")",
                        failure));
            } else if (reply instanceof Frame.MessageResult result && result.delivered()) {
                delivered.complete(null);
            } else {
                String reason = reply instanceof Frame.MessageResult result ? result.reason() : "unexpected answer " + reply;
                delivered.completeExceptionally(new DeliveryException(reason + where));
            }
        });
        return delivered;
    }

    /**
     * Says GOODBYE on every connection, fails what is in flight, disconnects (peers see
     * DISCONNECTED), then frees queue pairs, registrations and threads. From one of DiSNI's own
     * threads (a dependent stage or listener that closes the node) the freeing part runs on a new
     * thread, since DiSNI joins those threads.
     */
    @Override
    protected void closeTransport() {
        int node = localNode();
        List<CompletableFuture<Void>> goodbyes = new ArrayList<>();
        for (Connection connection : peers.all()) {
            goodbyes.add(connection.sendNow(new Frame.Signal(node, connection.nextRequestId(), FrameDescriptor.GOODBYE)));
        }
        if (DisniEndpoint.onTransportThread()) {
            FabricThreads.daemon("gtran-disni-close-" + node, null).newThread(this::tearDown).start();
        } else {
            try {
                CompletableFuture.allOf(goodbyes.toArray(CompletableFuture[]::new)).get(100, TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                // best effort: peers see the disconnect anyway
            }
            tearDown();
        }
        LOG.debug("node={} closed", localNode());
    }

    @Override
    public String toString() {
        return "DisniFabric[node=" + localNode() + ", address=" + config.localAddress() + ", closed=" + isClosed()
                + ", regions=" + new TreeSet<>(regions.keySet()) + ", mailboxes=" + mailboxNames()
                + ", connections=" + peers + ", bounces={" + bounces.describe() + "}]";
    }

    // ---- for the package ----------------------------------------------------------------------

    long operationTimeoutMillis() {
        return config.operationTimeout().toMillis();
    }

    BouncePool bounces() {
        return bounces;
    }

    /** The thread accepting connections (DiSNI's accept blocks it). */
    Thread acceptor() {
        return acceptor;
    }

    /** The loopback connection, through which this node reaches its own regions. */
    Connection loopback() {
        return reach(localNode(), "loopback");
    }

    /** Whether a long write is a plain 8-byte RDMA WRITE (global atomics) rather than a compare-and-swap loop. */
    boolean plainLongWrites() {
        return atomics.plainWritesAreAtomic();
    }

    /** The value an atomic returned, in host order. */
    long atomicReply(long raw) {
        return atomicRepliesSwapped ? Long.reverseBytes(raw) : raw;
    }

    /** Runs {@code task} after {@code millis}; null once the fabric is closing. */
    Future<?> schedule(Runnable task, long millis) {
        try {
            return timer.schedule(task, millis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            return null;
        }
    }

    /** Runs {@code task} on the frame thread (in submission order); dropped once the fabric is closing. */
    void onFrameThread(Runnable task) {
        try {
            frames.execute(task);
        } catch (RejectedExecutionException e) {
            LOG.debug("node={} closing: dropped a frame task", localNode());
        }
    }

    /** Where continuations that post again run: the frame thread, or the caller once the fabric is closing. */
    Executor continuations() {
        return task -> {
            try {
                frames.execute(task);
            } catch (RejectedExecutionException e) {
                task.run(); // the fabric is closing: posting fails fast, nothing blocks
            }
        };
    }

    /** Answers a HELLO on an accepted connection; on the frame thread. */
    Frame helloReceived(Connection connection, Frame.Hello hello) {
        if (hello.node() < 0 || hello.node() >= config.nodes().size() || hello.nodes() != config.nodes().size()) {
            LOG.warn("node={}: HELLO from node={} of a {}-node cluster does not match this {}-node cluster", localNode(),
                    hello.node(), hello.nodes(), config.nodes().size());
        } else {
            peers.contact(hello.node());
        }
        return new Frame.Hello(localNode(), hello.requestId(), true, incarnation, config.nodes().size(), ByteOrder.nativeOrder());
    }

    /** Answers a REGION_LOOKUP; on the frame thread. */
    Frame lookUp(Frame.RegionLookup lookup) {
        LocalRegion region = regions.get(lookup.name());
        return region == null
                ? new Frame.RegionInfo(localNode(), lookup.requestId(), false, ByteOrder.nativeOrder(), 0, 0, 0)
                : new Frame.RegionInfo(localNode(), lookup.requestId(), true, ByteOrder.nativeOrder(), region.mr().getRkey(),
                        region.mr().getAddr(), region.memory().size());
    }

    /** A connection ended: forget it, close its endpoint off DiSNI's threads, tell listeners of a lost peer once. */
    void connectionLost(Connection connection, String reason) {
        boolean peerLost = peers.remove(connection);
        if (isClosed()) {
            return; // tearDown closes the endpoint; a closing node tells no one
        }
        try {
            closer.execute(connection::close);
        } catch (RejectedExecutionException e) {
            // closing: tearDown closes it
        }
        if (peerLost) {
            onFrameThread(() -> tellPeerLost(connection.peer(), reason));
        }
    }

    /**
     * Waits for an operation's future and rethrows its failure as it was ({@link RegionAccessException},
     * {@link IllegalStateException}, ...), not wrapped.
     */
    static <T> T await(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new RegionAccessException(String.valueOf(cause));
        }
    }

    // ---- internals ----------------------------------------------------------------------------

    /** This node's connection to {@code peer}, dialling it if there is none alive. */
    Connection reach(int peer, String what) {
        checkOpen();
        return peers.reach(peer, id -> dial(id, what));
    }

    private Connection dial(int peer, String what) {
        java.net.InetSocketAddress address = config.nodes().get(peer);
        if (FabricThreads.role() != null) { // it would wait for events this very thread delivers or answers
            throw new RegionAccessException("not connected yet, and a fabric " + FabricThreads.role() + " thread"
                    + " cannot connect (do not dial from a dependent stage or listener): node=" + peer + ", " + what);
        }
        DisniEndpoint endpoint;
        try {
            endpoint = group.createEndpoint();
        } catch (IOException | RuntimeException e) {
            throw new RegionAccessException("cannot create an RDMA endpoint (" + e.getMessage() + "): node=" + peer + ", "
                    + what);
        }
        Connection connection = endpoint.connection;
        connection.peer(peer, 0);
        peers.add(connection);
        try {
            endpoint.dial(address, (int) config.connectTimeout().toMillis(), timer);
        } catch (IOException e) {
            connection.lost("cannot connect to " + address + ": " + e.getMessage());
            throw new RegionAccessException("node is unreachable (" + address + ": " + e.getMessage() + "): node=" + peer
                    + ", " + what);
        }
        Frame.Hello hello = new Frame.Hello(localNode(), connection.nextRequestId(), false, incarnation, config.nodes().size(),
                ByteOrder.nativeOrder());
        Frame answer;
        try {
            answer = await(connection.request(hello));
        } catch (RegionAccessException e) {
            connection.lost("no HELLO_ACK: " + e.getMessage());
            throw new RegionAccessException("node is unreachable (" + e.getMessage() + "): node=" + peer + ", " + what);
        }
        if (!(answer instanceof Frame.Hello ack) || ack.node() != peer || ack.nodes() != config.nodes().size()) {
            connection.lost("misconfigured peer");
            throw new RegionAccessException("address " + address + " answered as " + answer + ", expected node " + peer
                    + " of a " + config.nodes().size() + "-node cluster: node=" + peer + ", " + what);
        }
        connection.peer(peer, ack.incarnation());
        peers.contact(peer);
        return connection;
    }

    private void acceptLoop() {
        while (!isClosed()) {
            try {
                DisniEndpoint endpoint = server.accept();
                endpoint.stopWaiting();
                if (isClosed()) {
                    endpoint.connection.lost(closedMessage());
                    endpoint.shutdown();
                    break;
                }
                endpoint.connection.heard();
                peers.add(endpoint.connection);
            } catch (IOException | RuntimeException e) {
                if (!isClosed()) {
                    LOG.warn("node={}: accepting a connection failed", localNode(), e);
                }
            }
        }
    }

    private void heartbeat() {
        long interval = config.heartbeatInterval().toNanos();
        long lostAfter = config.peerLostAfter().toNanos();
        for (Connection connection : peers.all()) {
            connection.heartbeat(interval, lostAfter);
        }
    }

    /** Checks RDMA atomics on the loopback connection; see {@link AtomicsProbe}. */
    private void probeAtomics() {
        LOG.info("node={}: atomic_cap={}, long writes are {}", localNode(), atomics, plainLongWrites() ? "RDMA WRITEs"
                : "compare-and-swap loops");
        probe = registerMemory("gtran.disni.probe", Long.BYTES);
        AtomicsProbe.run(localHandle(probe), probe.memory(), () -> {
            atomicRepliesSwapped = true;
            LOG.warn("node={}: the NIC returns atomic results byte-swapped; swapping them back", localNode());
        });
    }

    private LocalRegion registerMemory(String name, long bytes) {
        RegionMemory memory = new RegionMemory(name, bytes);
        try {
            return new LocalRegion(memory, server.getPd().regMr(memory.buffer(), REGION_ACCESS).execute().free().getMr());
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("cannot register region memory with the NIC (locked-memory limit? see"
                    + " `ulimit -l`): node=" + localNode() + ", name=" + name + ", bytes=" + bytes + ": " + e.getMessage(), e);
        }
    }

    private DisniRegion localHandle(LocalRegion region) {
        return new DisniRegion(this, null, localNode(), region.memory().name(), region.memory().size(), region.mr().getAddr(),
                region.mr().getRkey(), ByteOrder.nativeOrder());
    }

    private void deregister(LocalRegion region) {
        try {
            region.mr().deregMr().execute().free();
        } catch (IOException | RuntimeException e) {
            LOG.warn("node={}: deregistering region {} failed", localNode(), region.memory().name(), e);
        }
    }

    /** Frees everything after {@link #close} marked the fabric closed. */
    private void tearDown() {
        synchronized (server) {
            server.notifyAll(); // wakes the acceptor out of DiSNI's accept()
        }
        timer.shutdownNow();
        List<Connection> all = peers.all();
        for (Connection connection : all) {
            connection.lost(closedMessage());
        }
        for (Connection connection : all) {
            connection.close();
        }
        closer.shutdown(); // connections lost earlier may still be closing there
        try {
            if (!closer.awaitTermination(5, TimeUnit.SECONDS)) {
                LOG.warn("node={}: endpoints still closing after 5 s", localNode());
            }
            server.close();
            group.close();
        } catch (IOException | RuntimeException e) {
            LOG.warn("node={}: closing the RDMA endpoint group failed", localNode(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        regions.values().forEach(this::deregister);
        if (probe != null) {
            deregister(probe);
        }
        bounces.close();
        frames.shutdown();
    }

    private IllegalStateException duplicate(String name) {
        return new IllegalStateException("region already registered: node=" + localNode() + ", name=" + name);
    }
}
