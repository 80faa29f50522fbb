package io.gtran.rdma;

import io.gtran.rdma.spi.AbstractFabric;
import io.gtran.rdma.spi.FabricChecks;
import io.gtran.rdma.spi.MemoryRegion;
import io.gtran.rdma.spi.OpBatch;
import io.gtran.rdma.spi.RegionMemory;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node of an {@link InJvmCluster}. Regions are direct buffers ({@link RegionMemory}) that other
 * nodes of the same cluster reach through {@link MemoryRegion} handles, with no copying and no
 * thread hop. A message is copied at send and put straight into the receiving mailbox's queue on
 * the sender's thread, so messages from one sending thread arrive in send order.
 *
 * <p>Closing ({@link AbstractFabric}) sets the closed flag (every later operation, and every handle
 * to this node's regions, fails at once), closes this node's mailboxes (waking their receivers) and
 * tells the peer listeners of every other open node. The closed node stays in the cluster, so others
 * see "closed", not "unknown", until a new fabric joins under the same id.
 */
final class InJvmFabric extends AbstractFabric {
    private static final Logger LOG = LoggerFactory.getLogger(InJvmFabric.class);

    private final InJvmCluster cluster;
    private final ConcurrentHashMap<String, RegionMemory> regions = new ConcurrentHashMap<>();

    InJvmFabric(InJvmCluster cluster, int node) {
        super(node);
        this.cluster = cluster;
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
        return new MemoryRegion(this, this::checkOpen, localNode(), () -> false, memory);
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

    /** Copies the payload and puts it into the receiving mailbox's queue on this thread. */
    @Override
    protected CompletableFuture<Void> send(String from, byte[] fromUtf8, int to, String mailbox, byte[] toUtf8,
                                           byte[] payload) {
        byte[] copy = payload.clone();
        InJvmFabric receiver = cluster.member(to);
        String failure = receiver == null ? "unknown node" : receiver.deliver(localNode(), from, mailbox, copy);
        return failure == null ? CompletableFuture.completedFuture(null) : CompletableFuture.failedFuture(
                new DeliveryException(failure + ": node=" + to + ", mailbox=" + mailbox));
    }

    /** Tells the peer listeners of every other open node of the cluster. */
    @Override
    protected void closeTransport() {
        cluster.peerLost(this, "node closed");
        LOG.debug("node={} closed", localNode());
    }

    @Override
    public String toString() {
        return "InJvmFabric[node=" + localNode() + ", closed=" + isClosed() + ", regions=" + new TreeSet<>(regions.keySet())
                + ", mailboxes=" + mailboxNames() + "]";
    }

    private IllegalStateException duplicate(String name) {
        return new IllegalStateException("region already registered: node=" + localNode() + ", name=" + name);
    }
}
