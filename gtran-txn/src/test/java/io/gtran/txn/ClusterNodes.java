package io.gtran.txn;

import io.gtran.check.fabric.FaultPlan;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.InJvmCluster;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.clock.ClockConfig;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.membership.Membership;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * N members of one cluster ({@code gtran.cluster.nodes} = 0..n-1) over a chosen transport, for
 * tests written once and run over each: {@link #IN_JVM} or {@link #NETTY} (loopback TCP), either
 * of them through a {@link FaultPlan} ({@link #faulty}). Public for the tests of other packages and
 * modules (gtran-check's history tests, through gtran-txn's test-jar).
 */
public final class ClusterNodes implements AutoCloseable {
    /** Starts the fabrics of nodes 0..n-1. */
    public interface Transport {
        Fabric[] start(int n);
    }

    /** {@code transport}'s fabrics, each wrapped by {@code plan} ({@link FaultPlan#wrap}): the plan's rules apply between them. */
    public static Transport faulty(Transport transport, FaultPlan plan) {
        return new Transport() {
            @Override
            public Fabric[] start(int n) {
                Fabric[] fabrics = transport.start(n);
                for (int i = 0; i < n; i++) {
                    fabrics[i] = plan.wrap(fabrics[i]);
                }
                return fabrics;
            }

            @Override
            public String toString() {
                return transport + " through fault plan seed=" + plan.seed();
            }
        };
    }

    public static final Transport IN_JVM = new Transport() {
        @Override
        public Fabric[] start(int n) {
            InJvmCluster cluster = new InJvmCluster();
            Fabric[] fabrics = new Fabric[n];
            for (int i = 0; i < n; i++) {
                fabrics[i] = cluster.join(i);
            }
            return fabrics;
        }

        @Override
        public String toString() {
            return "in-jvm";
        }
    };

    public static final Transport NETTY = new Transport() {
        @Override
        public Fabric[] start(int n) {
            return NettyNodes.start(n);
        }

        @Override
        public String toString() {
            return "netty";
        }
    };

    /**
     * Netty on loopback, a peer lost only after {@code peerLostAfter} without a frame: for tests
     * in which no node is meant to be lost, on a machine that may stall a JVM for over a second.
     */
    static Transport netty(Duration peerLostAfter) {
        return new Transport() {
            @Override
            public Fabric[] start(int n) {
                return NettyNodes.start(n, peerLostAfter);
            }

            @Override
            public String toString() {
                return "netty";
            }
        };
    }

    final GtranNode[] nodes;

    /** Starts {@code n} nodes over {@code transport}; {@code extra} are more settings, key, value, ... */
    public ClusterNodes(Transport transport, int n, Object... extra) {
        this(transport, n, UnaryOperator.identity(), extra);
    }

    /**
     * As {@link #ClusterNodes(Transport, int, Object...)}, each node opened over {@code wrap} of its
     * fabric (a decorator that counts or injects faults), which the node then owns.
     */
    ClusterNodes(Transport transport, int n, UnaryOperator<Fabric> wrap, Object... extra) {
        Fabric[] fabrics = transport.start(n);
        nodes = new GtranNode[n];
        StringBuilder members = new StringBuilder();
        for (int i = 0; i < n; i++) {
            members.append(i == 0 ? "" : ",").append(i);
        }
        for (int i = 0; i < n; i++) {
            nodes[i] = GtranNode.open(wrap.apply(fabrics[i]), settings(i, members.toString(), extra));
        }
    }

    /**
     * A member's settings in these tests: small pools, {@code members} as gtran.cluster.nodes, a
     * short clock sync interval, then {@code extra} (key, value, ...).
     */
    static Map<String, Object> settings(int node, String members, Object... extra) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(StoreConfig.NODE_ID, node);
        settings.put(StoreConfig.CHUNK_BYTES, 1 << 16);
        settings.put(StoreConfig.EDGE_ROW_CHUNK_BYTES, 1 << 16);
        settings.put(Membership.NODES, members);
        settings.put(ClockConfig.SYNC_INTERVAL_MS, 5);
        for (int k = 0; k < extra.length; k += 2) {
            settings.put((String) extra[k], extra[k + 1]);
        }
        return settings;
    }

    /**
     * Waits up to {@code millis} until none of {@code nodes} that {@code counted} accepts holds a
     * status-table entry or a participant context; returns what they still hold ("" if nothing).
     */
    static String awaitNothingHeld(GtranNode[] nodes, java.util.function.Predicate<GtranNode> counted, long millis)
            throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        while (true) {
            StringBuilder held = new StringBuilder();
            for (GtranNode node : nodes) {
                if (!counted.test(node)) {
                    continue;
                }
                Map<String, Long> stats = node.engine().stats();
                if (stats.get("running") != 0 || stats.get("participants") != 0) {
                    held.append(" node ").append(node.id()).append(": running=").append(stats.get("running"))
                            .append(" participants=").append(stats.get("participants"));
                }
            }
            if (held.length() == 0 || System.nanoTime() > deadline) {
                return held.toString();
            }
            Thread.sleep(20);
        }
    }

    public TransactionEngine engine(int node) {
        return nodes[node].engine();
    }

    public Transaction begin(int node, Isolation isolation) {
        return nodes[node].engine().begin(isolation);
    }

    /** Every open node's status-table entries in use and participant contexts held. */
    public String leftovers() {
        List<String> parts = new ArrayList<>();
        for (GtranNode node : nodes) {
            if (!node.isClosed()) {
                Map<String, Long> stats = node.engine().stats();
                parts.add("node " + node.id() + ": running=" + stats.get("running") + " participants=" + stats.get("participants"));
            }
        }
        return String.join("; ", parts);
    }

    /** Whether no open node holds a status-table entry or a participant context. */
    boolean quiet() {
        for (GtranNode node : nodes) {
            if (!node.isClosed()) {
                Map<String, Long> stats = node.engine().stats();
                if (stats.get("running") != 0 || stats.get("participants") != 0) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Waits up to {@code millis} for {@link #quiet}; returns {@link #leftovers} as they are then. */
    String awaitQuiet(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        while (!quiet() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        return leftovers();
    }

    /** The engines of nodes 0..n-1, in order. */
    public List<TransactionEngine> engines() {
        List<TransactionEngine> engines = new ArrayList<>();
        for (GtranNode node : nodes) {
            engines.add(node.engine());
        }
        return engines;
    }

    @Override
    public void close() {
        for (GtranNode node : nodes) {
            if (node != null) {
                node.close();
            }
        }
    }
}
