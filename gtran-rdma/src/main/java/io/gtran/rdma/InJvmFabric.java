package io.gtran.rdma;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node of an {@link InJvmCluster}. Regions are direct buffers ({@link InJvmMemory}) that other
 * nodes of the same cluster reach through {@link InJvmRegion} handles, with no copying and no
 * thread hop. Messages are copied at send and handled on this node's single delivery thread
 * ({@code gtran-fabric-node-N}, a daemon), which is what orders them.
 *
 * <p>Closing sets the closed flag (every later operation, and every handle to this node's
 * regions, fails at once), shuts the delivery thread down and waits up to
 * {@link #CLOSE_WAIT_SECONDS} for the handler that is running to return, then interrupts it;
 * messages still queued fail with a {@link DeliveryException}. Called from one of this node's own
 * handlers, close does not wait. The closed node stays in the cluster, so others see "closed", not "unknown", until a
 * new fabric joins under the same id.
 */
final class InJvmFabric implements Fabric {
    /** How long {@link #close()} waits for a running handler before interrupting it. */
    static final long CLOSE_WAIT_SECONDS = 10;

    private static final Logger LOG = LoggerFactory.getLogger(InJvmFabric.class);

    private final InJvmCluster cluster;
    private final int node;
    private final ConcurrentHashMap<String, InJvmMemory> regions = new ConcurrentHashMap<>();
    private final AtomicReferenceArray<MessageHandler> handlers = new AtomicReferenceArray<>(MAX_CHANNEL + 1);
    private final AtomicBoolean closed = new AtomicBoolean();
    private final ExecutorService delivery;
    private volatile Thread deliveryThread;

    InJvmFabric(InJvmCluster cluster, int node) {
        this.cluster = cluster;
        this.node = node;
        this.delivery = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "gtran-fabric-node-" + node);
            thread.setDaemon(true);
            deliveryThread = thread;
            return thread;
        });
    }

    @Override
    public int localNode() {
        return node;
    }

    @Override
    public Region register(String name, long bytes) {
        checkOpen();
        FabricChecks.checkRegistration(name, bytes);
        if (bytes > InJvmMemory.MAX_BYTES) {
            throw new IllegalArgumentException("region too large for the in-JVM fabric: name=" + name + ", bytes=" + bytes
                    + ", max=" + InJvmMemory.MAX_BYTES);
        }
        if (regions.containsKey(name)) {
            throw duplicate(name);
        }
        InJvmMemory memory = new InJvmMemory(this, name, bytes);
        if (regions.putIfAbsent(name, memory) != null) {
            throw duplicate(name);
        }
        return new InJvmRegion(this, memory);
    }

    @Override
    public Region connect(int node, String name) {
        checkOpen();
        Objects.requireNonNull(name, "name");
        InJvmFabric owner = cluster.member(node);
        if (owner == null) {
            throw new UnknownRegionException("unknown node: node=" + node + ", name=" + name);
        }
        if (owner.isClosed()) {
            throw new RegionAccessException("node is closed: node=" + node + ", region=" + name);
        }
        InJvmMemory memory = owner.regions.get(name);
        if (memory == null) {
            throw new UnknownRegionException("unknown region: node=" + node + ", name=" + name);
        }
        return new InJvmRegion(this, memory);
    }

    @Override
    public CompletableFuture<Void> send(int node, int channel, byte[] payload) {
        checkOpen();
        FabricChecks.checkChannel(channel);
        byte[] copy = Objects.requireNonNull(payload, "payload").clone();
        CompletableFuture<Void> acked = new CompletableFuture<>();
        InJvmFabric receiver = cluster.member(node);
        if (receiver == null) {
            acked.completeExceptionally(new DeliveryException("unknown node: node=" + node + ", channel=" + channel));
        } else {
            receiver.enqueue(this.node, channel, copy, acked);
        }
        return acked;
    }

    @Override
    public void onMessage(int channel, MessageHandler handler) {
        checkOpen();
        FabricChecks.checkChannel(channel);
        Objects.requireNonNull(handler, "handler");
        if (!handlers.compareAndSet(channel, null, handler)) {
            throw new IllegalStateException("message handler already installed: node=" + node + ", channel=" + channel);
        }
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        delivery.shutdown();
        if (Thread.currentThread() == deliveryThread) {
            return; // closed by our own handler: waiting for it would wait for ourselves
        }
        try {
            if (!delivery.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
                LOG.warn("node={}: a message handler did not return within {}s of close; interrupting it", node,
                        CLOSE_WAIT_SECONDS);
                for (Runnable never : delivery.shutdownNow()) {
                    Delivery queued = (Delivery) never;
                    queued.acked.completeExceptionally(closedBeforeDelivery(queued.channel));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOG.debug("node={} closed", node);
    }

    /** Whether {@link #close()} has been called. */
    boolean isClosed() {
        return closed.get();
    }

    /** Throws {@code IllegalStateException("fabric is closed: node=N")} once closed. */
    void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("fabric is closed: node=" + node);
        }
    }

    @Override
    public String toString() {
        List<Integer> channels = new ArrayList<>();
        for (int channel = 0; channel <= MAX_CHANNEL; channel++) {
            if (handlers.get(channel) != null) {
                channels.add(channel);
            }
        }
        return "InJvmFabric[node=" + node + ", closed=" + closed.get() + ", regions=" + new TreeSet<>(regions.keySet())
                + ", channels=" + channels + "]";
    }

    private void enqueue(int fromNode, int channel, byte[] payload, CompletableFuture<Void> acked) {
        try {
            delivery.execute(new Delivery(fromNode, channel, payload, acked));
        } catch (RejectedExecutionException e) {
            acked.completeExceptionally(closedBeforeDelivery(channel)); // shut down after the caller looked us up
        }
    }

    /** One message on its way to a handler of this node; runs on the delivery thread, one at a time. */
    private final class Delivery implements Runnable {
        final int fromNode;
        final int channel;
        final byte[] payload;
        final CompletableFuture<Void> acked;

        Delivery(int fromNode, int channel, byte[] payload, CompletableFuture<Void> acked) {
            this.fromNode = fromNode;
            this.channel = channel;
            this.payload = payload;
            this.acked = acked;
        }

        @Override
        public void run() {
            if (closed.get()) {
                acked.completeExceptionally(closedBeforeDelivery(channel));
                return;
            }
            MessageHandler handler = handlers.get(channel);
            if (handler == null) {
                acked.completeExceptionally(new DeliveryException("no message handler: node=" + node + ", channel="
                        + channel + ", fromNode=" + fromNode));
                return;
            }
            try {
                handler.onMessage(fromNode, payload);
            } catch (Throwable t) { // anything the handler throws belongs to the sender; this thread keeps delivering
                LOG.debug("node={}: handler for channel={} failed on a message from node={}", node, channel, fromNode, t);
                acked.completeExceptionally(new DeliveryException("message handler failed: node=" + node + ", channel="
                        + channel + ", fromNode=" + fromNode + ": " + t, t));
                return;
            }
            acked.complete(null);
        }
    }

    private DeliveryException closedBeforeDelivery(int channel) {
        return new DeliveryException("node is closed: node=" + node + ", channel=" + channel);
    }

    private IllegalStateException duplicate(String name) {
        return new IllegalStateException("region already registered: node=" + node + ", name=" + name);
    }
}
