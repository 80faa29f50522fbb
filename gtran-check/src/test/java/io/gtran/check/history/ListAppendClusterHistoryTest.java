package io.gtran.check.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.check.fabric.FaultPlan;
import io.gtran.check.history.Anomaly.Kind;
import io.gtran.txn.ClusterNodes;
import io.gtran.txn.TxnConfig;
import io.gtran.txn.clock.ClockConfig;
import io.gtran.txn.common.Isolation;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The list-append workload over three members of one cluster (8 threads, worker {@code i} on node
 * {@code i % 3}, 10 hot keys with Zipf skew, key {@code k} a vertex on node {@code k % 3}, 1-4
 * micro-ops per transaction, seeded), checked by {@link ListAppendChecker}. Most transactions read
 * or write another node's key, so their operations run there and their commits go through the
 * cross-node protocol:
 * <ul>
 *   <li>SR, in-JVM: 5,000 transactions committed, no anomaly of any kind (the 20,000 of the
 *       acceptance bar run in {@code .ci/run}, through {@code bin/gtran check history --nodes 3},
 *       the same workload on the same three in-JVM members);
 *   <li>SR over Netty on loopback, fewer transactions: no anomaly;
 *   <li>SR in-JVM with every message and region operation between two nodes delayed 0-20 ms and 5%
 *       of the messages dropped (a seeded {@link FaultPlan}): no anomaly among the committed ones;
 *   <li>SI: no anomaly but G2;
 *   <li>SR with read validation switched off: the checker finds G2 or G-single on each of three
 *       seeds, the negative control;
 *   <li>SR with the clock's uncertainty wait switched off, through 0-5 ms delays: the real-time
 *       check finds G-realtime (a transaction missed one acknowledged before it began), the
 *       negative control of that check; the runs above, with the wait, find none.
 * </ul>
 */
class ListAppendClusterHistoryTest {
    private static final int NODES = 3;
    private static final int THREADS = 8;
    private static final int KEYS = 10;
    /** Measured at 8 threads over 3 in-JVM nodes on 2 cores: about 48% committed at SR, 55% at SI. */
    private static final double MIN_COMMITTED_SHARE = 0.25;
    /** Transactions that touched another node's key, among the committed: about 85% (2 of 3 keys are elsewhere). */
    private static final double MIN_SPANNING_SHARE = 0.5;
    private static final long WORKLOAD_TIMEOUT_MS = 150_000;

    private record Run(History history, List<Anomaly> anomalies, long spanning) {
        Set<Kind> kinds() {
            Set<Kind> kinds = EnumSet.noneOf(Kind.class);
            anomalies.forEach(a -> kinds.add(a.kind()));
            return kinds;
        }

        String examples() {
            return anomalies.size() + " anomalies " + kinds() + "; first ones:\n"
                    + anomalies.stream().limit(5).map(Anomaly::describe).collect(Collectors.joining("\n"));
        }

        void assertFairShares() {
            int committed = history.committedCount();
            assertTrue(committed >= MIN_COMMITTED_SHARE * history.txns().size(),
                    "committed " + committed + " of " + history.txns().size() + " attempted");
            assertTrue(spanning >= MIN_SPANNING_SHARE * committed, "only " + spanning + " of " + committed
                    + " committed transactions touched another node");
        }
    }

    /**
     * Runs the workload over {@code NODES} members started by {@code transport} and checks it. The
     * nodes are closed only if the workers finished: a worker stuck inside an engine (a timeout)
     * must not have a store freed under it.
     */
    private static Run run(ClusterNodes.Transport transport, Isolation isolation, int txns, long seed, Object... settings)
            throws Exception {
        ClusterNodes nodes = new ClusterNodes(transport, NODES, settings);
        ListAppendWorkload workload = new ListAppendWorkload(nodes.engines(),
                new ListAppendWorkload.Settings(isolation, THREADS, txns, KEYS, seed));
        ListAppendWorkload.Result result = workload.run(null, 0, WORKLOAD_TIMEOUT_MS);
        try (nodes) {
            History history = result.history();
            long start = System.nanoTime();
            List<Anomaly> anomalies = ListAppendChecker.check(history);
            long spanning = history.txns().stream().filter(t -> t.committed() && workload.spansNodes(t)).count();
            Run run = new Run(history, anomalies, spanning);
            System.out.printf("%s over %d nodes (%s) seed=%d: target=%d committed=%d (across nodes %d) aborted=%d workload=%dms"
                            + " check=%dms anomalies=%d %s%n", isolation, NODES, transport, seed, txns, history.committedCount(),
                    spanning, history.abortedCount(), result.wallMillis(), (System.nanoTime() - start) / 1_000_000,
                    anomalies.size(), run.kinds());
            System.out.println("  " + nodes.leftovers());
            assertEquals(0, result.errors(), () -> "the engine threw something other than a conflict: " + result.firstError());
            assertTrue(history.committedCount() >= txns, "at least --txns committed: " + history.committedCount());
            return run;
        }
    }

    /**
     * 5,000 committed over three nodes at SR, a fair share across nodes, no anomaly at all. (The
     * acceptance bar, 20,000, is {@code .ci/run}'s {@code bin/gtran check history --nodes 3}.)
     */
    @Test
    @Timeout(240)
    void serializableOverThreeNodesHasNoAnomalies() throws Exception {
        Run run = run(ClusterNodes.IN_JVM, Isolation.SERIALIZABLE, 5_000, 1);
        run.assertFairShares();
        assertTrue(run.anomalies().isEmpty(), run::examples);
    }

    /** The same over Netty on loopback (real sockets, one JVM), with fewer transactions. */
    @Test
    @Timeout(180)
    void serializableOverThreeNettyNodesHasNoAnomalies() throws Exception {
        Run run = run(ClusterNodes.NETTY, Isolation.SERIALIZABLE, 3_000, 2);
        run.assertFairShares();
        assertTrue(run.anomalies().isEmpty(), run::examples);
    }

    /**
     * Delays of 0-20 ms on every message and region operation between two nodes, and 5% of the
     * messages dropped (operations and commit messages are sent again until answered): slow, but
     * nothing committed may show an anomaly.
     */
    @Test
    @Timeout(240)
    void serializableThroughDelaysAndDropsHasNoAnomalies() throws Exception {
        try (FaultPlan plan = new FaultPlan(7)) {
            Set<Integer> all = IntStream.range(0, NODES).boxed().collect(Collectors.toSet());
            plan.links(all, all).delay(Duration.ZERO, Duration.ofMillis(20)).dropWithProbability(0.05);
            Run run = run(ClusterNodes.faulty(ClusterNodes.IN_JVM, plan), Isolation.SERIALIZABLE, 500, 3);
            run.assertFairShares();
            assertTrue(run.anomalies().isEmpty(), run::examples);
        }
    }

    /** Snapshot isolation over three nodes: write skew (G2) may appear, nothing else may. */
    @Test
    @Timeout(180)
    void snapshotIsolationOverThreeNodesHasNoAnomalyButG2() throws Exception {
        Run run = run(ClusterNodes.IN_JVM, Isolation.SNAPSHOT, 10_000, 1);
        run.assertFairShares();
        List<Anomaly> forbidden = run.anomalies().stream().filter(a -> a.kind() != Kind.G2).toList();
        assertTrue(forbidden.isEmpty(), () -> new Run(run.history(), forbidden, run.spanning()).examples());
    }

    /**
     * Without the uncertainty wait a begin time on one node can fall below a commit time another
     * node acknowledged before the begin; delays of 0-5 ms on every link (clock samples too) widen
     * the uncertainty. Measured with {@code bin/gtran check history --nodes 3 --txns 2000 --faults
     * delay=0-5ms,seed=S --set gtran.clock.uncertainty-wait=false}: G-realtime in 3 of seeds 1-4 on
     * a quiet machine; on a loaded one (two test JVMs on two cores) none of seeds 1-4 once, so up
     * to eight seeded runs, stopping at the first that shows it.
     */
    @Test
    @Timeout(300)
    void withoutTheUncertaintyWaitTheRealTimeCheckFindsAMissedCommit() throws Exception {
        Set<Integer> all = IntStream.range(0, NODES).boxed().collect(Collectors.toSet());
        StringBuilder tried = new StringBuilder();
        for (long seed = 1; seed <= 8; seed++) {
            try (FaultPlan plan = new FaultPlan(seed)) {
                plan.links(all, all).delay(Duration.ZERO, Duration.ofMillis(5));
                Run run = run(ClusterNodes.faulty(ClusterNodes.IN_JVM, plan), Isolation.SERIALIZABLE, 2_000, seed,
                        ClockConfig.UNCERTAINTY_WAIT, false);
                if (run.kinds().contains(Kind.REALTIME)) {
                    return;
                }
                tried.append("\nseed ").append(seed).append(": ").append(run.examples());
            }
        }
        throw new AssertionError("no G-realtime in eight runs without the uncertainty wait:" + tried);
    }

    /**
     * SR without read validation, on any node: write skew and lost updates commit, across nodes as
     * on one, and the checker must say so. Three seeds, each must show G2 or G-single.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    @Timeout(120)
    void weakenedSerializableOverThreeNodesIsCaught(long seed) throws Exception {
        Run run = run(ClusterNodes.IN_JVM, Isolation.SERIALIZABLE, 5_000, seed, TxnConfig.VALIDATION, false);
        assertTrue(run.kinds().contains(Kind.G2) || run.kinds().contains(Kind.G_SINGLE),
                () -> "no G2 or G-single without validation: " + run.examples());
    }
}
