package io.gtran.rdma;

import io.gtran.rdma.spi.FabricChecks;
import io.gtran.rdma.spi.MailboxQueue;
import io.gtran.rdma.spi.MemoryRegion;
import io.gtran.rdma.spi.OpBatch;
import io.gtran.rdma.spi.RegionMemory;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node of an {@link InJvmCluster}. Regions are direct buffers ({@link RegionMemory}) that other
 * nodes of the same cluster reach through {@link MemoryRegion} handles, with no copying and no
 * thread hop. A message is copied at send and put straight into the receiving mailbox's queue on
 * the sender's thread, so messages from one sending thread arrive in send order.
 *
 * <p>Closing sets the closed flag (every later operation, and every handle to this node's
 * regions, fails at once), closes this node's mailboxes (waking their receivers) and tells the
 * peer listeners of every other open node. The closed node stays in the cluster, so others see
 * "closed", not "unknown", until a new fabric joins under the same id.
 */
final class InJvmFabric implements Fabric {
    private static final Logger LOG = LoggerFactory.getLogger(InJvmFabric.class);

    private final InJvmCluster cluster;
    private final int node;
    private final ConcurrentHashMap<String, RegionMemory> regions = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, InJvmMailbox> mailboxes = new ConcurrentHashMap<>();
    private final List<PeerListener> peerListeners = new CopyOnWriteArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    InJvmFabric(InJvmCluster cluster, int node) {
        this.cluster = cluster;
        this.node = node;
    }

    @Override
    public int localNode() {
        return node;
    }

    @Override
    public Region register(String name, long bytes) {
        checkOpen();
        FabricChecks.checkRegistration(name, bytes);
        if (bytes > RegionMemory.MAX_BYTES) {
            throw new IllegalArgumentException("region too large for the in-JVM fabric: name=" + name + ", bytes=" + bytes
                    + ", max=" + RegionMemory.MAX_BYTES);
        }
        if (regions.containsKey(name)) {
            throw duplicate(name);
        }
        RegionMemory memory = new RegionMemory(name, bytes);
        if (regions.putIfAbsent(name, memory) != null) {
            throw duplicate(name);
        }
        return new MemoryRegion(this, this::checkOpen, node, () -> false, memory);
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
        RegionMemory memory = owner.regions.get(name);
        if (memory == null) {
            throw new UnknownRegionException("unknown region: node=" + node + ", name=" + name);
        }
        return new MemoryRegion(this, this::checkOpen, node, owner::isClosed, memory);
    }

    @Override
    public Batch batch() {
        checkOpen();
        return new OpBatch(region -> region instanceof MemoryRegion handle && handle.holder() == this, this::checkOpen);
    }

    @Override
    public Mailbox openMailbox(String name, int capacity) {
        checkOpen();
        FabricChecks.checkMailboxName(name);
        FabricChecks.checkCapacity(name, capacity);
        InJvmMailbox mailbox = new InJvmMailbox(name, capacity);
        if (mailboxes.putIfAbsent(name, mailbox) != null) {
            throw new IllegalStateException("mailbox already open: node=" + node + ", mailbox=" + name);
        }
        if (closed.get()) { // closed while we opened: close() may have missed it
            mailbox.queue.close(closedMessage());
            checkOpen();
        }
        return mailbox;
    }

    @Override
    public void onPeerLost(PeerListener listener) {
        checkOpen();
        peerListeners.add(Objects.requireNonNull(listener, "listener"));
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (InJvmMailbox mailbox : mailboxes.values()) {
            mailbox.queue.close(closedMessage());
        }
        cluster.peerLost(this, "node closed");
        LOG.debug("node={} closed", node);
    }

    /** Whether {@link #close()} has been called. */
    boolean isClosed() {
        return closed.get();
    }

    /** Throws {@code IllegalStateException("fabric is closed: node=N")} once closed. */
    void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException(closedMessage());
        }
    }

    /** Tells this node's listeners that {@code peer} is lost; a listener that throws is logged. */
    void tellPeerLost(int peer, String reason) {
        for (PeerListener listener : peerListeners) {
            try {
                listener.peerLost(peer, reason);
            } catch (RuntimeException e) {
                LOG.warn("node={}: peer listener failed on the loss of node={}", node, peer, e);
            }
        }
    }

    @Override
    public String toString() {
        return "InJvmFabric[node=" + node + ", closed=" + closed.get() + ", regions=" + new TreeSet<>(regions.keySet())
                + ", mailboxes=" + new TreeSet<>(mailboxes.keySet()) + "]";
    }

    private String closedMessage() {
        return "fabric is closed: node=" + node;
    }

    private IllegalStateException duplicate(String name) {
        return new IllegalStateException("region already registered: node=" + node + ", name=" + name);
    }

    /** A mailbox of this node; sending puts the message into the receiver's queue directly. */
    private final class InJvmMailbox implements Mailbox {
        final MailboxQueue queue;

        InJvmMailbox(String name, int capacity) {
            this.queue = new MailboxQueue(name, capacity);
        }

        @Override
        public int node() {
            return node;
        }

        @Override
        public String name() {
            return queue.name();
        }

        @Override
        public CompletableFuture<Void> send(int to, String mailbox, byte[] payload) {
            checkOpen();
            checkMailboxOpen();
            FabricChecks.checkMailboxName(mailbox);
            FabricChecks.checkPayload(payload);
            Message message = new Message(node, queue.name(), payload.clone());
            InJvmFabric receiver = cluster.member(to);
            String failure;
            if (receiver == null) {
                failure = "unknown node";
            } else if (receiver.isClosed()) {
                failure = "node is closed";
            } else {
                InJvmMailbox target = receiver.mailboxes.get(mailbox);
                failure = target == null ? "no such mailbox" : target.queue.deliver(message);
            }
            return failure == null ? CompletableFuture.completedFuture(null) : CompletableFuture.failedFuture(
                    new DeliveryException(failure + ": node=" + to + ", mailbox=" + mailbox));
        }

        @Override
        public Message receive(long timeout, TimeUnit unit) throws InterruptedException {
            return queue.receive(timeout, unit);
        }

        @Override
        public Message poll() {
            return queue.poll();
        }

        @Override
        public void close() {
            if (!queue.isClosed()) {
                queue.close("mailbox is closed: node=" + node + ", mailbox=" + queue.name());
                mailboxes.remove(queue.name(), this);
            }
        }

        @Override
        public String toString() {
            return "InJvmMailbox[node=" + node + ", mailbox=" + queue.name() + ", waiting=" + queue.size() + "]";
        }

        private void checkMailboxOpen() {
            if (queue.isClosed()) {
                throw new IllegalStateException("mailbox is closed: node=" + node + ", mailbox=" + queue.name());
            }
        }
    }
}
