package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.txn.ClusterNodes.Transport;
import io.gtran.txn.HermitageTest.Outcome;
import io.gtran.txn.HermitageTest.Result;
import io.gtran.txn.HermitageTest.Scenario;
import io.gtran.txn.Interleaving.Placement;
import io.gtran.txn.common.Isolation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link HermitageTest}'s anomaly matrix across three nodes: Hermitage's rows live on node 2 and
 * each transaction is begun on another member's engine (T1 on node 0, T2 on node 1, T3 on node 2
 * or on node 0), so every read and write of a row runs at node 2 under a participant context, and
 * every commit that wrote asks node 2 to vote. The scenarios, the verdict and HermitageTest's
 * configurations are {@link HermitageTest}'s, unchanged; the expectation too: SERIALIZABLE
 * prevents every anomaly, SNAPSHOT lets exactly the G2-item and G2 families occur. Written once,
 * run over the in-JVM fabric and over Netty on loopback ({@link ClusterNodes}).
 *
 * <p>After each case, besides the final state a fresh transaction on every node sees (the
 * committed writes, nothing of an aborted transaction), no node may keep a status-table entry or
 * a participant context: the decisions and acknowledgements finish off the client's path, so
 * this is polled for up to {@value #LEFTOVERS_WAIT_MS} ms. Where the commits do not race, each
 * transaction must also meet the fate it meets on one node: an abort for the wrong reason (a
 * timeout, the wrong one of two writers) prevents an anomaly as well as the right one does, so
 * the verdict alone would not show it.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ClusterHermitageTest {
    private static final int NODES = 3;
    /** Rows on node 2; T1 on node 0, T2 on node 1, T3 on the rows' node (its row reads are local). */
    private static final Placement T3_ON_ROWS_NODE = new Placement(2, 0, 1, 2);
    /** Rows on node 2; T1 and T3 both begun on node 0, T2 on node 1. */
    private static final Placement T3_WITH_T1 = new Placement(2, 0, 1, 0);
    private static final long LEFTOVERS_WAIT_MS = 5_000;
    private static final Map<String, Object> GC_OFF = Map.of(TxnConfig.GC, false);
    /** How often a cell whose commits race is run in the racing configurations. */
    private static final int RACE_REPEATS = 25;
    /**
     * The transports. No node is lost on purpose here, but a case runs hundreds of clusters, and
     * on a loaded machine the JVM can stall past Netty's usual 1 s loss detection (seen: a node
     * lost mid-case, its transaction aborted PARTICIPANT_UNREACHABLE); so Netty's is 10 s here.
     */
    private static final List<Transport> TRANSPORTS = List.of(ClusterNodes.IN_JVM, ClusterNodes.netty(Duration.ofSeconds(10)));

    static Stream<Arguments> matrices() {
        List<Arguments> all = new ArrayList<>();
        for (Transport transport : TRANSPORTS) {
            // HermitageTest's configurations, with T3 on the rows' node ...
            HermitageTest.configurations().forEach(c -> all.add(Arguments.of(transport, T3_ON_ROWS_NODE, c.get()[0], c.get()[1])));
            // ... and T3 begun where T1 is.
            all.add(Arguments.of(transport, T3_WITH_T1, Named.of("gc=false", GC_OFF), false));
        }
        return all.stream();
    }

    /**
     * The whole matrix (every case at both levels) over one transport, placement and
     * configuration equals the single-node one; every case leaves exactly the committed writes,
     * seen alike from every node, and nothing behind on any node; without racing commits, every
     * transaction commits or aborts as on one node. In the racing configurations Hermitage's
     * closing "commit T1; commit T2" (G1c, G2-item, G2) runs on two threads at once, so the two
     * coordinators' VALIDATEs meet at node 2, {@value #RACE_REPEATS} times per cell.
     */
    @ParameterizedTest(name = "{0}, {1}, {2}")
    @MethodSource("matrices")
    void matrix(Transport transport, Placement placement, Map<String, Object> settings, boolean racing) throws InterruptedException {
        Map<String, String> expected = new LinkedHashMap<>();
        Map<String, String> actual = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        StringBuilder details = new StringBuilder();
        for (Scenario s : HermitageTest.SCENARIOS) {
            for (Isolation level : Isolation.values()) {
                String cell = s.name() + " @ " + level;
                Set<Outcome> seen = EnumSet.noneOf(Outcome.class);
                int runs = 1;
                for (int i = 0; i < runs; i++) {
                    Run run = run(transport, placement, s, level, settings, racing);
                    runs = run.result.raced() ? RACE_REPEATS : 1;
                    seen.add(run.result.outcome());
                    if (!run.result.expectedFinal().equals(run.result.actualFinal())) {
                        problems.add(cell + ": final state expected " + run.result.expectedFinal() + " but saw " + run.result.actualFinal());
                    }
                    if (run.leftovers != null) {
                        problems.add(cell + ": left behind " + run.leftovers);
                    }
                    if (!racing) {
                        String alone = fatesOnOneNode(s, level, settings);
                        if (!alone.equals(run.fates)) {
                            problems.add(cell + ": " + run.fates + ", where on one node " + alone + "\n  " + run.result.details());
                        }
                    }
                    if (run.result.outcome() != s.expected(level)) {
                        details.append("\n").append(s.name()).append(" @ ").append(run.result.details())
                                .append("\n  verdict: ").append(run.result.outcome());
                    }
                }
                expected.put(cell, s.expected(level).toString());
                actual.put(cell, seen.stream().map(Outcome::toString).collect(Collectors.joining(" and ")));
            }
        }
        assertTrue(problems.isEmpty(), () -> String.join("\n", problems));
        assertEquals(HermitageTest.render(expected), HermitageTest.render(actual), () -> "cells that differ:" + details);
    }

    static Stream<Arguments> writeSkewCases() {
        List<Arguments> all = new ArrayList<>();
        for (Transport transport : TRANSPORTS) {
            HermitageTest.writeSkewCases().forEach(name -> all.add(Arguments.of(transport, name)));
        }
        return all.stream();
    }

    /**
     * The verdicts across nodes are not vacuous: without read validation at SR, the write-skew
     * cases occur across nodes too (so the cross-node reads do see the snapshot they should, and
     * it is node 2's validation that prevents them).
     */
    @ParameterizedTest(name = "{0}, {1} @ SERIALIZABLE, validation=false: occurs")
    @MethodSource("writeSkewCases")
    void writeSkewOccursAtSerializableWithoutValidation(Transport transport, String name) throws InterruptedException {
        Scenario scenario = HermitageTest.scenario(name);
        Run run = run(transport, T3_ON_ROWS_NODE, scenario, Isolation.SERIALIZABLE,
                Map.of(TxnConfig.GC, false, TxnConfig.VALIDATION, false), false);
        assertEquals(run.result.expectedFinal(), run.result.actualFinal(), () -> "final state after " + name + " @ " + run.result.details());
        assertNull(run.leftovers, () -> "left behind after " + name);
        assertEquals(Outcome.OCCURRED, run.result.outcome(), () -> name + " @ " + run.result.details());
    }

    // ---------------------------------------------------------------- running a case

    /**
     * A case's result, each transaction's fate, and what its nodes still held {@value
     * #LEFTOVERS_WAIT_MS} ms after it (null: nothing).
     */
    private record Run(Result result, String fates, String leftovers) {
    }

    private static Run run(Transport transport, Placement placement, Scenario s, Isolation level, Map<String, Object> settings,
            boolean racing) throws InterruptedException {
        Object[] extra = settings.entrySet().stream().flatMap(e -> Stream.of(e.getKey(), e.getValue())).toArray();
        try (ClusterNodes cluster = new ClusterNodes(transport, NODES, extra)) {
            TransactionEngine[] engines = new TransactionEngine[NODES];
            for (int i = 0; i < NODES; i++) {
                engines[i] = cluster.engine(i);
            }
            Result result;
            String fates;
            try (Interleaving h = new Interleaving(engines, placement, level, racing)) {
                result = HermitageTest.verdict(s, h);
                fates = h.fates();
            }
            return new Run(result, fates, awaitNothingLeft(cluster));
        }
    }

    /**
     * Each transaction's fate when the same interleaving runs on one node, as {@link HermitageTest}
     * runs it. The steps come one after another, so which transaction commits and which aborts is
     * decided by the same rules wherever the rows live: across nodes it must be the same.
     */
    private static String fatesOnOneNode(Scenario s, Isolation level, Map<String, Object> settings) throws InterruptedException {
        try (TxnFixture node = new TxnFixture(settings); Interleaving h = new Interleaving(node, level, false)) {
            HermitageTest.verdict(s, h);
            return h.fates();
        }
    }

    /**
     * Waits until no node has a status-table entry in use or a participant context; returns null,
     * or what was left once {@value #LEFTOVERS_WAIT_MS} ms passed.
     */
    private static String awaitNothingLeft(ClusterNodes cluster) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LEFTOVERS_WAIT_MS);
        while (true) {
            boolean clean = true;
            for (GtranNode node : cluster.nodes) {
                Map<String, Long> stats = node.engine().stats();
                clean &= stats.get("running") == 0 && stats.get("participants") == 0;
            }
            if (clean) {
                return null;
            }
            if (System.nanoTime() - deadline > 0) {
                return cluster.leftovers();
            }
            Thread.sleep(5);
        }
    }
}
