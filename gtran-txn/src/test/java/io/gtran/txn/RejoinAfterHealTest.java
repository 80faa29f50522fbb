package io.gtran.txn;

import static io.gtran.txn.TestCluster.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.check.fabric.FaultPlan;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.InJvmCluster;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.membership.ClusterWatermark;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A member counted as lost comes back once the partition heals, if it is the same process
 * (docs/cluster-transactions.md, "Rejoining after a partition heals"). Three nodes, node 1 cut
 * from nodes 0 and 2 (FaultPlan: both sides told at once) long enough for the majority to act on
 * the loss, then healed. Each test prints the nodes' state when it fails.
 */
@Timeout(120)
class RejoinAfterHealTest {
    private static final long SEED = 11;
    private static final int LEASE_MS = 200;
    /** Long enough for the majority to act on the loss (a lease and a fifth after the report) and forget decided parts. */
    private static final long CUT_MS = 1_500;
    /** "Within a few leases" of the heal. */
    private static final long REJOIN_BOUND_MS = 10L * LEASE_MS;

    static Stream<ClusterNodes.Transport> transports() {
        return Stream.of(ClusterNodes.IN_JVM, ClusterNodes.netty(Duration.ofSeconds(10)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void afterAHealEveryMemberIsBackAndCommitsSpanAllThree(ClusterNodes.Transport transport) throws Exception {
        try (FaultPlan plan = new FaultPlan(SEED)) {
            Fabric[] started = transport.start(3);
            GtranNode[] nodes = new GtranNode[3];
            for (int i = 0; i < 3; i++) {
                nodes[i] = GtranNode.open(plan.wrap(started[i]), settings(i));
            }
            try {
                long[] v = threeVertices(nodes[0]);
                awaitAll(nodes, Set.of(0, 1, 2));
                plan.partition(Set.of(0, 2), Set.of(1));
                Thread.sleep(CUT_MS); // real time: the cut outlasts the loss, the lease and the decided-keep bound
                assertFalse(nodes[0].engine().membersInContact().contains(1), state(nodes));
                plan.heal();
                long healed = System.nanoTime();
                awaitAll(nodes, Set.of(0, 1, 2));
                long took = (System.nanoTime() - healed) / 1_000_000;
                assertTrue(took <= REJOIN_BOUND_MS, "rejoined after " + took + " ms" + state(nodes));
                // The watermark reads the rejoined member again: its word moves on from the value held.
                ClusterWatermark watermark = nodes[0].engine().clusterWatermark();
                long held = watermark.lastRead(1);
                await(() -> {
                    nodes[0].engine().watermark();
                    return watermark.lastRead(1) > held;
                }, REJOIN_BOUND_MS, "node 0 reads node 1's watermark word again" + state(nodes));
                int property = nodes[0].store().propertyKeys().intern("value");
                for (int coordinator = 0; coordinator < 3; coordinator++) {
                    nodes[coordinator].store().propertyKeys().intern("value");
                    Transaction t = nodes[coordinator].engine().begin(Isolation.SERIALIZABLE);
                    for (long vertex : v) {
                        t.setVertexProperty(vertex, property, (long) coordinator + 1);
                    }
                    t.commit();
                }
                for (GtranNode node : nodes) {
                    Transaction read = node.engine().begin(Isolation.SERIALIZABLE);
                    for (long vertex : v) {
                        assertEquals(3L, read.vertexProperty(vertex, property), "node " + node.id() + state(nodes));
                    }
                    read.commit();
                }
            } catch (AssertionError | RuntimeException e) {
                System.err.println("seed=" + SEED + state(nodes));
                throw e;
            } finally {
                closeAll(plan, nodes);
            }
        }
    }

    /**
     * A cut healed before the majority acts on the loss (a lease and a fifth after the report): the
     * member rejoins first, and the loss, acted on later, must not count it lost again, or commits
     * with it would abort from then on.
     */
    @Test
    void aLossHealedBeforeItIsActedOnIsNotActedOnAfterTheRejoin() throws Exception {
        try (FaultPlan plan = new FaultPlan(SEED)) {
            InJvmCluster cluster = new InJvmCluster();
            GtranNode[] nodes = new GtranNode[3];
            for (int i = 0; i < 3; i++) {
                nodes[i] = GtranNode.open(plan.wrap(cluster.join(i)), settings(i));
            }
            try {
                long[] v = threeVertices(nodes[0]);
                awaitAll(nodes, Set.of(0, 1, 2));
                plan.partition(Set.of(0, 2), Set.of(1));
                Thread.sleep(LEASE_MS / 2); // real time: a cut shorter than the time the loss is acted on
                plan.heal();
                awaitAll(nodes, Set.of(0, 1, 2));
                Thread.sleep(3L * LEASE_MS); // past the time the loss would be acted on
                int property = nodes[0].store().propertyKeys().intern("value");
                for (int coordinator = 0; coordinator < 3; coordinator++) {
                    nodes[coordinator].store().propertyKeys().intern("value");
                    Transaction t = nodes[coordinator].engine().begin(Isolation.SERIALIZABLE);
                    for (long vertex : v) {
                        t.setVertexProperty(vertex, property, (long) coordinator + 1);
                    }
                    t.commit();
                }
            } catch (AssertionError | RuntimeException e) {
                System.err.println("seed=" + SEED + state(nodes));
                throw e;
            } finally {
                closeAll(plan, nodes);
            }
        }
    }

    /**
     * T, coordinated by node 1, writes a on node 0; node 1 is cut off; node 0 acts on the loss and
     * aborts its part of T (T never sent VALIDATE). After the heal, T writes b on node 0 and
     * commits. Were the decided part gone and the fence missing, node 0 would start a fresh part
     * for T, vote YES and T would commit with b and without a: half of a transaction. The kept
     * part (node 1 cannot reuse T's slot while T runs) and the fence each refuse it.
     */
    @Test
    void aTransactionAbortedByTheMajorityIsNotRevived() throws Exception {
        try (FaultPlan plan = new FaultPlan(SEED)) {
            InJvmCluster cluster = new InJvmCluster();
            GtranNode[] nodes = new GtranNode[3];
            for (int i = 0; i < 3; i++) {
                nodes[i] = GtranNode.open(plan.wrap(cluster.join(i)), settings(i));
            }
            try {
                int label = nodes[0].store().labels().intern("item");
                int property = nodes[0].store().propertyKeys().intern("value");
                Transaction setup = nodes[0].engine().begin(Isolation.SERIALIZABLE);
                long a = setup.addVertex(0, label);
                long b = setup.addVertex(0, label);
                setup.setVertexProperty(a, property, 0L);
                setup.setVertexProperty(b, property, 0L);
                setup.commit();
                awaitAll(nodes, Set.of(0, 1, 2));

                for (int i : new int[] {1, 2}) {
                    assertEquals(property, nodes[i].store().propertyKeys().intern("value"));
                }
                Transaction t = nodes[1].engine().begin(Isolation.SERIALIZABLE);
                t.setVertexProperty(a, property, 1L);
                plan.partition(Set.of(0, 2), Set.of(1));
                Thread.sleep(CUT_MS); // real time: the cut outlasts the loss, the lease and the decided-keep bound
                plan.heal();
                awaitAll(nodes, Set.of(0, 1, 2));

                String outcome;
                try {
                    t.setVertexProperty(b, property, 1L);
                    t.commit();
                    outcome = "committed";
                } catch (RuntimeException refused) {
                    outcome = "aborted: " + refused.getMessage();
                    if (t.isActive()) {
                        t.rollback();
                    }
                }
                Transaction read = nodes[2].engine().begin(Isolation.SERIALIZABLE);
                Object readA = read.vertexProperty(a, property);
                Object readB = read.vertexProperty(b, property);
                read.commit();
                assertEquals(0L, readA, "the majority aborted T's write of a" + state(nodes));
                assertEquals(0L, readB, "T " + outcome + " after the majority aborted it: b=" + readB + " a=" + readA
                        + state(nodes));
                assertTrue(outcome.startsWith("aborted"), outcome);
            } catch (AssertionError | RuntimeException e) {
                System.err.println("seed=" + SEED + state(nodes));
                throw e;
            } finally {
                closeAll(plan, nodes);
            }
        }
    }

    /** Node 1 closes and starts again under its id with an empty store: it is kept out, on both sides. */
    @Test
    void aMemberRestartedWithAFreshStoreStaysOut() throws Exception {
        try (FaultPlan plan = new FaultPlan(SEED)) {
            InJvmCluster cluster = new InJvmCluster();
            GtranNode[] nodes = new GtranNode[3];
            for (int i = 0; i < 3; i++) {
                nodes[i] = GtranNode.open(plan.wrap(cluster.join(i)), settings(i));
            }
            try {
                awaitAll(nodes, Set.of(0, 1, 2));
                nodes[1].close();
                nodes[1] = GtranNode.open(plan.wrap(cluster.join(1)), settings(1));
                Thread.sleep(REJOIN_BOUND_MS * 2); // real time: a wrong re-admission would have come by now
                for (int i : new int[] {0, 2}) {
                    assertEquals(Set.of(2 - i), nodes[i].engine().membersInContact(), "node " + i + state(nodes));
                }
                assertEquals(Set.of(), nodes[1].engine().membersInContact(), "the restarted node" + state(nodes));
            } catch (AssertionError | RuntimeException e) {
                System.err.println("seed=" + SEED + state(nodes));
                throw e;
            } finally {
                closeAll(plan, nodes);
            }
        }
    }

    /**
     * Cut off with a minority, node 1 keeps following node 0 (it takes over only while it sees a
     * majority live, docs/cluster-transactions.md, "Time"); after the rejoin there is one master,
     * node 0, and node 1's timestamps never go backwards.
     */
    @Test
    void afterRejoinThereIsOneClockMasterAndTimestampsKeepIncreasing() throws Exception {
        try (FaultPlan plan = new FaultPlan(SEED)) {
            InJvmCluster cluster = new InJvmCluster();
            GtranNode[] nodes = new GtranNode[3];
            for (int i = 0; i < 3; i++) {
                nodes[i] = GtranNode.open(plan.wrap(cluster.join(i)), settings(i));
            }
            try {
                awaitAll(nodes, Set.of(0, 1, 2));
                List<Long> times = new ArrayList<>();
                times.addAll(commitsOn(nodes[1], 20));
                plan.partition(Set.of(0, 2), Set.of(1));
                Thread.sleep(CUT_MS); // real time: the cut outlasts the loss
                assertEquals(0, nodes[1].syncedClock().masterNode(), "node 1, alone, follows node 0" + state(nodes));
                assertFalse(nodes[1].syncedClock().isMaster(), "node 1, alone, is not master" + state(nodes));
                assertEquals(0, nodes[2].syncedClock().masterNode(), "node 2 follows node 0" + state(nodes));
                plan.heal();
                awaitAll(nodes, Set.of(0, 1, 2));
                times.addAll(commitsOn(nodes[1], 20));
                for (GtranNode node : nodes) {
                    assertEquals(0, node.clockState().master(), "node " + node.id() + "'s master" + state(nodes));
                    assertEquals(0, node.syncedClock().masterNode(), "node " + node.id() + " follows" + state(nodes));
                    assertEquals(node.id() == 0, node.syncedClock().isMaster(), "node " + node.id() + " is master"
                            + state(nodes));
                }
                Thread.sleep(5 * LEASE_MS); // real time: leases expire and clock samples come in after the rejoin
                times.addAll(commitsOn(nodes[1], 20));
                for (int i = 1; i < times.size(); i++) {
                    assertTrue(times.get(i) > times.get(i - 1), "timestamp " + i + " went backwards: " + times);
                }
            } catch (AssertionError | RuntimeException e) {
                System.err.println("seed=" + SEED + state(nodes));
                throw e;
            } finally {
                closeAll(plan, nodes);
            }
        }
    }

    /** Begin and commit times of {@code n} local transactions on {@code node}, in the order taken. */
    private static List<Long> commitsOn(GtranNode node, int n) {
        List<Long> times = new ArrayList<>();
        int label = node.store().labels().intern("tick");
        for (int i = 0; i < n; i++) {
            Transaction t = node.engine().begin(Isolation.SERIALIZABLE);
            times.add(t.beginTime());
            t.addVertex(node.id(), label);
            t.commit();
            Transaction after = node.engine().begin(Isolation.SERIALIZABLE);
            times.add(after.beginTime());
            after.rollback();
        }
        return times;
    }

    private static long[] threeVertices(GtranNode coordinator) {
        int label = coordinator.store().labels().intern("item");
        int property = coordinator.store().propertyKeys().intern("value");
        Transaction setup = coordinator.engine().begin(Isolation.SERIALIZABLE);
        long[] v = new long[3];
        for (int i = 0; i < 3; i++) {
            v[i] = setup.addVertex(i, label);
            setup.setVertexProperty(v[i], property, 0L);
        }
        setup.commit();
        return v;
    }

    /** Waits until every node in {@code which} is in contact with every other. */
    private static void awaitAll(GtranNode[] nodes, Set<Integer> which) throws InterruptedException {
        await(() -> {
            for (int i : which) {
                Set<Integer> others = new TreeSet<>(which);
                others.remove(i);
                if (!nodes[i].engine().membersInContact().containsAll(others)) {
                    return false;
                }
            }
            return true;
        }, 20_000, "every member in contact with every other" + state(nodes));
    }

    private static String state(GtranNode[] nodes) {
        StringBuilder s = new StringBuilder();
        for (GtranNode node : nodes) {
            if (node == null || node.isClosed()) {
                continue;
            }
            s.append("\n  node ").append(node.id()).append(": contact=").append(node.engine().membersInContact())
                    .append(" clock=").append(node.syncedClock()).append(" stats=").append(node.engine().stats())
                    .append(" owed=").append(node.engine().clusterParts().messenger().owedRounds());
        }
        return s.toString();
    }

    private static void closeAll(FaultPlan plan, GtranNode[] nodes) {
        plan.heal();
        for (GtranNode node : nodes) {
            if (node != null) {
                node.close();
            }
        }
    }

    private static Map<String, Object> settings(int node) {
        return ClusterNodes.settings(node, "0,1,2", TxnConfig.REMOTE_TIMEOUT_MS, 1000, TxnConfig.DEPENDENCY_WAIT_MS, 2000,
                TxnConfig.LEASE_MS, LEASE_MS, TxnConfig.DECIDED_KEEP_MS, 100);
    }
}
