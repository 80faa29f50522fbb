package io.gtran.txn;

import io.gtran.rdma.ClusterConfig;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.Fabrics;
import io.gtran.rdma.InJvmCluster;
import io.gtran.storage.GraphStore;
import io.gtran.storage.StoreConfig;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One gtran node: its fabric (the cluster transport), its {@link GraphStore} and its
 * {@link TransactionEngine}, wired from configuration and closed together. This is where a
 * cluster's nodes come from: several nodes in one JVM on a shared {@link InJvmCluster} (tests,
 * embedded use), or one node per process on a networked fabric.
 *
 * <pre>{@code
 * try (InJvmCluster cluster = new InJvmCluster();
 *      GtranNode n0 = GtranNode.join(cluster, Map.of(StoreConfig.NODE_ID, 0));
 *      GtranNode n1 = GtranNode.join(cluster, Map.of(StoreConfig.NODE_ID, 1))) {
 *     Transaction t = n1.engine().begin(Isolation.SERIALIZABLE);
 *     ...
 * }
 * }</pre>
 *
 * <p>Settings: the node id is {@code gtran.storage.node-id} ({@link StoreConfig#NODE_ID}); every
 * {@code gtran.storage.*} key of {@link StoreConfig} and {@code gtran.txn.*} key of
 * {@link TxnConfig}; for {@link #open(Map)}, optionally the {@code gtran.fabric.*} keys of
 * {@link ClusterConfig}. Other keys are left to the layers above. A bad value fails the open with
 * an {@link IllegalArgumentException} naming the key, before anything is created.
 *
 * <p>The node owns its fabric, store and engine: {@link #close} closes the engine (its GC threads
 * stop), then the store (its memory is freed), then the fabric, then the in-JVM cluster if the node
 * made one of its own. It does not own a cluster it {@link #join joined}.
 *
 * <p>Transactions span one node today: a transaction of this node's engine reads and writes this
 * node's store only, and commit refuses write sets on other nodes. Each node has its own clock.
 */
public final class GtranNode implements AutoCloseable {
    /** The in-JVM cluster this node made for itself, or null. */
    private final InJvmCluster ownCluster;
    private final Fabric fabric;
    private final GraphStore store;
    private final TransactionEngine engine;
    /** What carries this node (a graph), once one {@link #claim claimed} it. */
    private final AtomicReference<String> claimedBy = new AtomicReference<>();
    private volatile boolean closed;

    private GtranNode(InJvmCluster ownCluster, Fabric fabric, GraphStore store, TransactionEngine engine) {
        this.ownCluster = ownCluster;
        this.fabric = fabric;
        this.store = store;
        this.engine = engine;
    }

    /**
     * Opens a node. With {@code gtran.fabric.*} settings it starts the networked fabric they
     * describe ({@link Fabrics#start}; {@code gtran.fabric.node} defaults to the node id and must
     * equal it); without, it makes an in-JVM cluster of its own with this node alone in it, which
     * is what an embedded single-node graph runs on and costs next to nothing.
     *
     * @throws IllegalArgumentException naming a setting that is unknown or has a bad value
     */
    public static GtranNode open(Map<String, ?> settings) {
        StoreConfig storeConfig = StoreConfig.from(settings);
        TxnConfig txnConfig = TxnConfig.from(settings);
        Properties fabricSettings = fabricSettings(settings, storeConfig.nodeId());
        if (fabricSettings != null) {
            ClusterConfig clusterConfig = ClusterConfig.fromProperties(fabricSettings);
            requireSameNode(clusterConfig.localNode(), storeConfig.nodeId());
            return wire(null, Fabrics.start(clusterConfig), storeConfig, txnConfig);
        }
        InJvmCluster cluster = new InJvmCluster();
        Fabric fabric;
        try {
            fabric = cluster.join(storeConfig.nodeId());
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
        return wire(cluster, fabric, storeConfig, txnConfig);
    }

    /**
     * Opens a node that joins {@code cluster} as node {@code gtran.storage.node-id}. The node owns
     * the fabric it joined with, not the cluster: closing the node leaves the cluster to its other
     * members, and closing the cluster closes this node's fabric.
     *
     * @throws IllegalArgumentException naming a bad setting, or if {@code settings} carry {@code gtran.fabric.*} keys
     * @throws IllegalStateException if a node with this id is in the cluster already, or the cluster is closed
     */
    public static GtranNode join(InJvmCluster cluster, Map<String, ?> settings) {
        StoreConfig storeConfig = StoreConfig.from(settings);
        TxnConfig txnConfig = TxnConfig.from(settings);
        refuseFabricSettings(settings, "the in-JVM cluster it joins");
        return wire(null, cluster.join(storeConfig.nodeId()), storeConfig, txnConfig);
    }

    /**
     * Opens a node over a fabric the caller started (for instance with {@link Fabrics#start}). The
     * node owns the fabric from this call on: closing the node, or a failed open, closes it.
     *
     * @throws IllegalArgumentException naming a bad setting, if {@code settings} carry {@code gtran.fabric.*}
     *     keys, or if the fabric's node is not {@code gtran.storage.node-id}
     */
    public static GtranNode open(Fabric fabric, Map<String, ?> settings) {
        StoreConfig storeConfig;
        TxnConfig txnConfig;
        try {
            storeConfig = StoreConfig.from(settings);
            txnConfig = TxnConfig.from(settings);
            refuseFabricSettings(settings, "the fabric it is given");
            requireSameNode(fabric.localNode(), storeConfig.nodeId());
        } catch (RuntimeException e) {
            fabric.close();
            throw e;
        }
        return wire(null, fabric, storeConfig, txnConfig);
    }

    /** Opens store and engine over {@code fabric}; on failure closes what it opened, the fabric and {@code ownCluster}. */
    private static GtranNode wire(InJvmCluster ownCluster, Fabric fabric, StoreConfig storeConfig, TxnConfig txnConfig) {
        GraphStore store = null;
        try {
            store = GraphStore.open(storeConfig);
            TransactionEngine engine = TransactionEngine.open(store, fabric, txnConfig);
            return new GtranNode(ownCluster, fabric, store, engine);
        } catch (RuntimeException e) {
            if (store != null) {
                store.close();
            }
            fabric.close();
            if (ownCluster != null) {
                ownCluster.close();
            }
            throw e;
        }
    }

    /** The {@code gtran.fabric.*} settings as properties, with the node defaulting to {@code nodeId}; null if there are none. */
    private static Properties fabricSettings(Map<String, ?> settings, int nodeId) {
        Properties properties = null;
        for (Map.Entry<String, ?> e : settings.entrySet()) {
            if (e.getKey().startsWith("gtran.fabric.")) {
                if (properties == null) {
                    properties = new Properties();
                }
                properties.setProperty(e.getKey(), String.valueOf(e.getValue()));
            }
        }
        if (properties != null && properties.getProperty(ClusterConfig.NODE) == null) {
            properties.setProperty(ClusterConfig.NODE, Integer.toString(nodeId));
        }
        return properties;
    }

    private static void refuseFabricSettings(Map<String, ?> settings, String fabric) {
        for (Map.Entry<String, ?> e : settings.entrySet()) {
            if (e.getKey().startsWith("gtran.fabric.")) {
                throw new IllegalArgumentException("a fabric setting for a node on " + fabric + ": " + e.getKey() + "="
                        + e.getValue() + "; gtran.fabric.* settings are for GtranNode.open(settings)");
            }
        }
    }

    private static void requireSameNode(int fabricNode, int storeNode) {
        if (fabricNode != storeNode) {
            throw new IllegalArgumentException("the fabric's node is not the node's id: fabric node=" + fabricNode + " "
                    + StoreConfig.NODE_ID + "=" + storeNode);
        }
    }

    /** This node's id ({@code gtran.storage.node-id}): the node field of every id it issues. */
    public int id() {
        return store.nodeId();
    }

    public Fabric fabric() {
        return fabric;
    }

    public GraphStore store() {
        return store;
    }

    public TransactionEngine engine() {
        return engine;
    }

    /**
     * Records that {@code owner} (a graph) now carries this node. A node carries one graph in its
     * life: the graph keeps state of its own over the store (indexes, counters of ids) that it builds
     * as it writes, so a second graph, beside the first or after it, would miss what the first wrote.
     *
     * @throws IllegalStateException if the node is closed, or was claimed before (the message names by whom)
     */
    public void claim(String owner) {
        requireOpen();
        if (!claimedBy.compareAndSet(null, owner)) {
            throw new IllegalStateException("node " + id() + " already carries " + claimedBy.get()
                    + "; a node carries one graph in its life: open another node");
        }
    }

    public boolean isClosed() {
        return closed;
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("node is closed: node=" + id());
        }
    }

    /** Closes the engine, the store, the fabric and the node's own in-JVM cluster, in that order; idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            engine.close();
        } finally {
            try {
                store.close();
            } finally {
                try {
                    fabric.close();
                } finally {
                    if (ownCluster != null) {
                        ownCluster.close();
                    }
                }
            }
        }
    }

    @Override
    public String toString() {
        return "GtranNode[" + id() + (closed ? " closed" : "") + "]";
    }
}
