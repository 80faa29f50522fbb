package io.gtran.txn;

import io.gtran.check.fabric.FaultPlan;
import io.gtran.rdma.InJvmCluster;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.agent.TimeSource;
import io.gtran.txn.clock.ClockConfig;
import io.gtran.txn.membership.ClusterWatermark;
import io.gtran.txn.membership.Membership;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Several {@link GtranNode}s in one {@link InJvmCluster}, members of one cluster
 * ({@code gtran.cluster.nodes}), each with its own {@link TimeSource}. {@link #check} runs a test
 * body and, when it fails, adds the seed and every node's state (members, clock, published and
 * last watermark, GC counts) to the failure. {@link #close} closes every node, then the cluster.
 */
final class TestCluster implements AutoCloseable {
    private static final long MS = 1_000_000;

    final long seed;
    final String members;
    private final InJvmCluster cluster = new InJvmCluster();
    private final Map<String, Object> extra;
    private final FaultPlan plan;
    private final Map<Integer, GtranNode> nodes = new TreeMap<>();

    /**
     * @param members  {@code gtran.cluster.nodes} of every node
     * @param extra    more settings for every node, key, value, ...
     * @param plan     null, or the plan whose {@link FaultPlan#wrap} every node's fabric goes through
     */
    TestCluster(long seed, String members, FaultPlan plan, Object... extra) {
        this.seed = seed;
        this.members = members;
        this.plan = plan;
        this.extra = new HashMap<>();
        for (int i = 0; i < extra.length; i += 2) {
            this.extra.put((String) extra[i], extra[i + 1]);
        }
    }

    /** Small pools, the members, a short clock sync interval, then {@code extra}. */
    Map<String, Object> settings(int node) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(StoreConfig.NODE_ID, node);
        settings.put(StoreConfig.CHUNK_BYTES, 1 << 16);
        settings.put(StoreConfig.EDGE_ROW_CHUNK_BYTES, 1 << 16);
        settings.put(Membership.NODES, members);
        settings.put(ClockConfig.SYNC_INTERVAL_MS, 5);
        settings.putAll(extra);
        return settings;
    }

    /** Starts node {@code node} reading the JVM's own time. */
    GtranNode join(int node) {
        return join(node, TimeSource.SYSTEM);
    }

    GtranNode join(int node, TimeSource time) {
        GtranNode started = plan == null
                ? GtranNode.join(cluster, settings(node), time)
                : GtranNode.open(plan.wrap(cluster.join(node)), settings(node), time);
        nodes.put(node, started);
        return started;
    }

    GtranNode node(int node) {
        return nodes.get(node);
    }

    /** One GC pass on {@code node}: it publishes its oldest begin time and reads every other member's. */
    void pass(int node) throws InterruptedException {
        nodes.get(node).engine().gc().runOnce();
    }

    /** Two rounds of passes on every open node: each publishes, then each reads what all published. */
    void passAll() throws InterruptedException {
        for (int round = 0; round < 2; round++) {
            for (GtranNode node : nodes.values()) {
                if (!node.isClosed()) {
                    node.engine().gc().runOnce();
                }
            }
        }
    }

    interface Body {
        void run() throws Exception;
    }

    /** Runs {@code body}; a failure is rethrown with the seed and every node's state. */
    void check(Body body) throws Exception {
        try {
            body.run();
        } catch (AssertionError | Exception e) {
            throw new AssertionError(e.getMessage() + "\nseed=" + seed + "\n" + describe(), e);
        }
    }

    String describe() {
        StringBuilder s = new StringBuilder();
        for (GtranNode node : nodes.values()) {
            s.append("  node ").append(node.id());
            if (node.isClosed()) {
                s.append(" closed\n");
                continue;
            }
            TransactionEngine engine = node.engine();
            ClusterWatermark cw = engine.clusterWatermark();
            s.append(": ").append(node.members()).append(' ').append(engine.clock())
                    .append(" published=").append(cw.published())
                    .append(" lastWatermark=").append(engine.lastWatermark());
            for (int other : node.members().others()) {
                s.append(" read[").append(other).append("]=").append(cw.lastRead(other)).append(cw.isLost(other) ? "(lost)" : "");
            }
            Map<String, Long> gc = engine.gc().stats();
            s.append(" running=").append(engine.stats().get("running"))
                    .append(" rct=").append(engine.stats().get("rct.entries"))
                    .append(" freed=").append(gc.get("versions.freed"))
                    .append(" waiting=").append(gc.get("waiting.OBSOLETE_VERSIONS")).append('\n');
        }
        return s.toString();
    }

    /** The JVM's clock seen through an offset and a drift (parts of one: 500e-6 is 500 ppm). */
    static TimeSource skewed(long offsetNanos, double drift) {
        long start = System.nanoTime();
        long wallStart = System.currentTimeMillis() * 1000;
        return new TimeSource() {
            @Override
            public long nanos() {
                return start + offsetNanos + (long) ((System.nanoTime() - start) * (1 + drift));
            }

            @Override
            public long wallMicros() {
                return wallStart + (nanos() - start) / 1000;
            }

            @Override
            public void pause(long nanos) {
                TimeSource.SYSTEM.pause(nanos);
            }
        };
    }

    /** Waits, polling every 10 ms of real time, until {@code condition} holds; fails naming {@code what} after {@code millis}. */
    static void await(java.util.function.BooleanSupplier condition, long millis, String what) throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                org.junit.jupiter.api.Assertions.fail("not within " + millis + " ms: " + what);
            }
            Thread.sleep(10);
        }
    }

    static long ms(long millis) {
        return millis * MS;
    }

    @Override
    public void close() {
        for (GtranNode node : nodes.values()) {
            node.close();
        }
        cluster.close();
    }
}
