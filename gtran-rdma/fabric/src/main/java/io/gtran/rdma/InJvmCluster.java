package io.gtran.rdma;

import io.gtran.rdma.spi.FabricChecks;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A cluster whose nodes all live in this JVM: the registry through which their fabrics find each
 * other's regions and deliver each other's messages. For tests and embedded multi-node use.
 *
 * <pre>{@code
 * try (InJvmCluster cluster = new InJvmCluster()) {
 *     Fabric n0 = cluster.join(0);
 *     Fabric n1 = cluster.join(1);
 *     Region counter = n0.register("counter", 8);
 *     n1.connect(0, "counter").fetchAdd(0, 1);
 *     Mailbox inbox = n0.openMailbox("worker-0");
 *     n1.openMailbox("worker-1").send(0, "worker-0", new byte[] {42});
 *     Message message = inbox.receive(1, TimeUnit.SECONDS);
 * }
 * }</pre>
 *
 * <p>A node that closed stays known (others see it as closed, a dead peer) until a new fabric
 * joins under its id, which models a restart: the new node has no regions or handlers, and
 * handles to the old node's regions keep failing.
 */
public final class InJvmCluster implements AutoCloseable {
    private final ConcurrentHashMap<Integer, InJvmFabric> members = new ConcurrentHashMap<>();
    private boolean closed; // guarded by this

    /** Creates an empty cluster. */
    public InJvmCluster() {
    }

    /**
     * Creates the fabric of node {@code node} and adds it to this cluster.
     *
     * @throws IllegalArgumentException if {@code node} is outside {@code 0..}{@link Fabric#MAX_NODE}
     * @throws IllegalStateException if an open fabric already has this id, or the cluster is closed
     */
    public synchronized Fabric join(int node) {
        FabricChecks.checkNodeId(node);
        if (closed) {
            throw new IllegalStateException("cluster is closed: node=" + node);
        }
        InJvmFabric current = members.get(node);
        if (current != null && !current.isClosed()) {
            throw new IllegalStateException("node already joined: node=" + node);
        }
        InJvmFabric fabric = new InJvmFabric(this, node);
        members.put(node, fabric);
        return fabric;
    }

    /** Closes every member's fabric; idempotent. Afterwards {@link #join} throws. */
    @Override
    public void close() {
        List<InJvmFabric> open;
        synchronized (this) {
            closed = true;
            open = new ArrayList<>(members.values());
        }
        open.forEach(InJvmFabric::close);
    }

    @Override
    public String toString() {
        return "InJvmCluster" + new TreeMap<>(members).values();
    }

    /** Tells every other open member's peer listeners that {@code lost} is gone. */
    void peerLost(InJvmFabric lost, String reason) {
        for (InJvmFabric member : members.values()) {
            if (member != lost && !member.isClosed()) {
                member.tellPeerLost(lost.localNode(), reason);
            }
        }
    }

    /** The latest fabric that joined as {@code node}, open or closed, or null if none ever did. */
    InJvmFabric member(int node) {
        return members.get(node);
    }
}
