package io.gtran.core.suites;

import io.gtran.core.GtranGraph;
import io.gtran.rdma.InJvmCluster;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.GtranNode;
import io.gtran.txn.clock.ClockConfig;
import io.gtran.txn.membership.Membership;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.commons.configuration2.Configuration;
import org.apache.tinkerpop.gremlin.structure.Graph;

/**
 * Opens a gtran graph on one node of a cluster of {@value #NODES_KEY} members in this JVM (over
 * the in-JVM fabric), for the suites: {@code gremlin.graph} names this class, so every graph a
 * test opens from a graph's configuration is a cluster graph too. The coordinating node turns
 * with each graph opened, and closing the graph closes the whole cluster.
 */
public final class InJvmClusterGraph {
    /** Members in the cluster (default 3). */
    public static final String NODES_KEY = "cluster.nodes";
    /**
     * A directory under which each member keeps its data ({@code node-<id>}); the members then
     * open at once, as a restarted cluster's do (each may wait for the others to settle what its
     * log left in doubt).
     */
    public static final String DATA_KEY = "cluster.data";
    /** The member the graph runs on (default: the next in turn). */
    public static final String COORDINATOR_KEY = "cluster.coordinator";
    private static final AtomicInteger NEXT_COORDINATOR = new AtomicInteger();

    private InJvmClusterGraph() {
    }

    public static GtranGraph open(Configuration configuration) {
        return open(configuration, fabric -> fabric);
    }

    /** As {@link #open(Configuration)}, each member's fabric wrapped by {@code decorate} (a message counter, a fault). */
    public static GtranGraph open(Configuration configuration, java.util.function.UnaryOperator<io.gtran.rdma.Fabric> decorate) {
        int n = configuration.getInt(NODES_KEY, 3);
        int coordinator = configuration.containsKey(COORDINATOR_KEY) ? configuration.getInt(COORDINATOR_KEY)
                : Math.floorMod(NEXT_COORDINATOR.getAndIncrement(), n);
        InJvmCluster fabric = new InJvmCluster();
        StringBuilder members = new StringBuilder();
        for (int i = 0; i < n; i++) {
            members.append(i == 0 ? "" : ",").append(i);
        }
        List<GtranNode> nodes = new ArrayList<>();
        String data = configuration.getString(DATA_KEY, null);
        List<java.util.concurrent.Future<GtranNode>> opening = new ArrayList<>();
        // Only members with data open at once; the suites open thousands of in-memory clusters, one member after the other.
        java.util.concurrent.ExecutorService threads = data == null ? null : java.util.concurrent.Executors.newFixedThreadPool(n);
        try {
            for (int i = 0; i < n; i++) {
                Map<String, Object> settings = new HashMap<>();
                settings.put(StoreConfig.NODE_ID, i);
                settings.put(StoreConfig.CHUNK_BYTES, 1 << 16);
                settings.put(StoreConfig.EDGE_ROW_CHUNK_BYTES, 1 << 16);
                settings.put(StoreConfig.EXTERNAL_IDS_MAX, configuration.getInt(StoreConfig.EXTERNAL_IDS_MAX, 20_000));
                settings.put(Membership.NODES, members.toString());
                settings.put(ClockConfig.SYNC_INTERVAL_MS, 5);
                configuration.getKeys("gtran.txn").forEachRemaining(key -> settings.put(key, configuration.getProperty(key)));
                configuration.getKeys("gtran.durability").forEachRemaining(key -> settings.put(key, configuration.getProperty(key)));
                io.gtran.rdma.Fabric member = decorate.apply(fabric.join(i));
                if (threads == null) {
                    nodes.add(GtranNode.open(member, settings));
                } else {
                    settings.put("gtran.storage.directory", java.nio.file.Path.of(data, "node-" + i).toString());
                    opening.add(threads.submit(() -> GtranNode.open(member, settings)));
                }
            }
            for (java.util.concurrent.Future<GtranNode> node : opening) {
                nodes.add(await(node));
            }
            BaseConfiguration graphConfiguration = new BaseConfiguration();
            configuration.getKeys().forEachRemaining(key -> {
                if (!key.startsWith("gtran.txn.") && !key.startsWith("gtran.durability")
                        && !key.equals(StoreConfig.EXTERNAL_IDS_MAX)) { // the nodes' settings, given to them above
                    graphConfiguration.setProperty(key, configuration.getProperty(key));
                }
            });
            graphConfiguration.setProperty(Graph.GRAPH, InJvmClusterGraph.class.getName());
            GtranGraph graph = GtranGraph.open(nodes.get(coordinator), graphConfiguration);
            if (data == null) {
                for (GtranNode node : nodes) {
                    graph.closeWith(node);
                }
            } else {
                graph.closeWith(() -> closeAtOnce(nodes)); // each log's close takes a second (Ratis' log worker)
            }
            return graph;
        } catch (RuntimeException e) {
            if (threads == null) {
                nodes.forEach(GtranNode::close);
            }
            for (java.util.concurrent.Future<GtranNode> node : opening) {
                try {
                    node.get().close();
                } catch (InterruptedException | java.util.concurrent.ExecutionException ignored) {
                    // that one did not open
                }
            }
            throw e;
        } finally {
            if (threads != null) {
                threads.shutdown();
            }
        }
    }

    /** Closes the members on threads of their own, and returns once all are closed. */
    private static void closeAtOnce(List<GtranNode> nodes) throws InterruptedException {
        List<Thread> closing = new ArrayList<>();
        for (GtranNode node : nodes) {
            Thread t = new Thread(node::close, "close-node-" + node.id());
            t.start();
            closing.add(t);
        }
        for (Thread t : closing) {
            t.join();
        }
    }

    private static GtranNode await(java.util.concurrent.Future<GtranNode> node) {
        try {
            return node.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while a member opened", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
    }
}
