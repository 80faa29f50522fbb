package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.storage.EdgeCursor;
import io.gtran.storage.EdgeDirection;
import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import io.gtran.txn.protocol.Chain;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Pushed chains (docs/cluster-transactions.md, "Pushed chains"), written once and run over each
 * transport: traversers pass from owner to owner and give what hop-by-hop reads from the
 * coordinator give; the parts a chain opens are validated at commit and aborted with the
 * transaction, including those the coordinator never heard of.
 */
@Timeout(90)
abstract class PushedChainsContract extends ClusterContract {
    private static final Isolation SR = Isolation.SERIALIZABLE;
    private static final String[] VERTEX_LABELS = {"person", "thing"};
    private static final String[] EDGE_LABELS = {"knows", "likes"};

    /** A seeded random graph of 36 vertices, 12 per node, and 90 edges, most between nodes; its vertex ids. */
    private long[] graph(long seed) {
        Random random = new Random(seed);
        Transaction t = c.begin(0, SR);
        long[] vertices = new long[36];
        for (int i = 0; i < vertices.length; i++) {
            vertices[i] = t.addVertex(i % 3, label(0, VERTEX_LABELS[random.nextInt(2)]));
        }
        for (int i = 0; i < 90; i++) {
            t.addEdge(vertices[random.nextInt(36)], vertices[random.nextInt(36)], label(0, EDGE_LABELS[random.nextInt(2)]));
        }
        t.commit();
        return vertices;
    }

    /** What {@code chain} gives from {@code start}, read a vertex at a time from the coordinator: vertex → bulk. */
    private Map<Long, Long> hopByHop(Transaction t, int at, List<Object[]> stages, long[] start, long[] bulks) {
        Map<Long, Long> current = new TreeMap<>();
        for (int i = 0; i < start.length; i++) {
            current.merge(start[i], bulks[i], Long::sum);
        }
        for (Object[] stage : stages) {
            Map<Long, Long> next = new TreeMap<>();
            String[] labels = (String[]) stage[1];
            if (stage[0] == null) {
                current.forEach((v, b) -> {
                    for (String name : labels) {
                        if (t.vertexLabel(v) == label(at, name)) {
                            next.merge(v, b, Long::sum);
                        }
                    }
                });
            } else {
                EdgeDirection direction = (EdgeDirection) stage[0];
                current.forEach((v, b) -> {
                    int[] ids = labels.length == 0 ? new int[] {EdgeCursor.ANY_LABEL} : new int[labels.length];
                    for (int i = 0; i < labels.length; i++) {
                        ids[i] = label(at, labels[i]);
                    }
                    for (int id : ids) {
                        long[] pairs = t.adjacent(v, direction, id);
                        for (int p = 1; p < pairs.length; p += 2) {
                            next.merge(pairs[p], b, Long::sum);
                        }
                    }
                });
            }
            current = next;
        }
        return current;
    }

    /** Vertices on {@code owners} in turn, each with an out-edge to the next, committed from node 0. */
    private long[] path(int... owners) {
        Transaction t = c.begin(0, SR);
        long[] vertices = new long[owners.length];
        for (int i = 0; i < owners.length; i++) {
            vertices[i] = t.addVertex(owners[i], label(0, "v"));
            if (i > 0) {
                t.addEdge(vertices[i - 1], vertices[i], label(0, "e"));
            }
        }
        t.commit();
        return vertices;
    }

    private static Chain chainOf(List<Object[]> stages) {
        Chain chain = Chain.empty();
        for (Object[] stage : stages) {
            chain = stage[0] == null ? chain.hasLabel((String[]) stage[1]) : chain.hop((EdgeDirection) stage[0], (String[]) stage[1]);
        }
        return chain;
    }

    private static Object[] hop(EdgeDirection direction, String... labels) {
        return new Object[] {direction, labels};
    }

    private static Object[] hasLabel(String... labels) {
        return new Object[] {null, labels};
    }

    private static Map<Long, Long> asMap(Chain.Outcome outcome) {
        Map<Long, Long> map = new TreeMap<>();
        for (int i = 0; i < outcome.vertices().length; i++) {
            map.merge(outcome.vertices()[i], outcome.bulks()[i], Long::sum);
        }
        assertEquals(map.size(), outcome.vertices().length, "each result vertex once");
        return map;
    }

    @Test
    void aChainFromEveryCoordinatorGivesWhatHopByHopReadsGive() throws Exception {
        start();
        long seed = new Random().nextLong();
        long[] vertices = graph(seed);
        long[] bulks = new long[vertices.length];
        java.util.Arrays.fill(bulks, 1);
        bulks[5] = 3;
        List<List<Object[]>> chains = List.of(
                List.of(hop(EdgeDirection.OUT), hop(EdgeDirection.OUT)),
                List.of(hop(EdgeDirection.IN, "knows"), hasLabel("person"), hop(EdgeDirection.BOTH)),
                List.of(hop(EdgeDirection.BOTH, "knows", "likes"), hop(EdgeDirection.OUT, "likes"), hop(EdgeDirection.IN)),
                List.of(hasLabel("thing", "person"), hop(EdgeDirection.OUT), hop(EdgeDirection.OUT), hasLabel("thing")),
                List.of(hop(EdgeDirection.OUT), hop(EdgeDirection.OUT, "nothing-by-this-name")));
        for (int at = 0; at < 3; at++) {
            for (List<Object[]> stages : chains) {
                Transaction t = c.begin(at, SR);
                Chain chain = chainOf(stages);
                Chain.Outcome outcome = t.runChain(chain, vertices, bulks);
                Map<Long, Long> expected = hopByHop(t, at, stages, vertices, bulks);
                assertEquals(expected, asMap(outcome), chain + " from node " + at + ", graph seed=" + seed);
                assertArrayEquals(new long[0], outcome.unseen(), chain + " seed=" + seed);
                assertEquals(3, outcome.nodes().length, chain + " ran on every node, seed=" + seed);
                t.commit();
            }
        }
        assertTrue(c.awaitQuiet(5_000).isEmpty() || c.quiet(), c.leftovers());
    }

    @Test
    void aChainSendsEachTraverserOnFromWhereItIsWithoutGoingBackToTheCoordinator() {
        start();
        // a on node 1 -> b on node 2 -> d on node 1: from node 0, two hops cost a forward to 1, one
        // from 1 to 2 that carries node 1's report, and the result from 2 (three messages)
        long[] path = path(1, 2, 1);
        long a = path[0];
        long d = path[2];
        Transaction r = c.begin(0, SR);
        Chain.Outcome outcome = r.runChain(Chain.empty().hop(EdgeDirection.OUT).hop(EdgeDirection.OUT), new long[] {a}, new long[] {2});
        assertArrayEquals(new long[] {d}, outcome.vertices());
        assertArrayEquals(new long[] {2}, outcome.bulks());
        assertEquals(3, outcome.messages(), "forward 0→1, forward 1→2 carrying node 1's report, result 2→0");
        assertArrayEquals(new int[] {0, 1, 2}, outcome.nodes());
        r.commit();
    }

    @Test
    void aPieceTheCoordinatorRunsCostsNoMessageAndForwardsAreCountedAsRemoteCalls() {
        start();
        long[] path = path(1, 0, 2); // node 1's forward to node 0 carries its report; node 0's piece reports in place
        long callsBefore = c.engine(1).stats().get("remote.calls");
        Transaction r = c.begin(0, SR);
        Chain.Outcome outcome = r.runChain(Chain.empty().hop(EdgeDirection.OUT).hop(EdgeDirection.OUT), new long[] {path[0]},
                new long[] {1});
        assertArrayEquals(new long[] {path[2]}, outcome.vertices());
        assertEquals(2, outcome.messages(), "forward 0→1, forward 1→0; the result stays on node 0");
        assertEquals(callsBefore + 1, c.engine(1).stats().get("remote.calls"), "node 1 sent one forward");
        r.commit();
    }

    @Test
    void aForwardThatIsNeverAnsweredAbortsNamingTheNodeThatDidNotAnswer() throws Exception {
        io.gtran.check.fabric.FaultPlan plan = new io.gtran.check.fabric.FaultPlan(new Random().nextLong());
        c = new ClusterNodes(ClusterNodes.faulty(transport(), plan), 3, TxnConfig.REMOTE_TIMEOUT_MS, 300);
        long a = path(1, 2, 2)[0];
        plan.links(1, 2).dropWithProbability(1.0); // node 1's forward to node 2 is lost, every time
        Transaction r = c.begin(0, SR);
        TransactionConflictException aborted = assertThrows(TransactionConflictException.class,
                () -> r.runChain(Chain.empty().hop(EdgeDirection.OUT).hop(EdgeDirection.OUT), new long[] {a}, new long[] {1}),
                "seed=" + plan.seed());
        assertEquals(ConflictKind.PARTICIPANT_UNREACHABLE, aborted.kind(), aborted.getMessage());
        assertTrue(aborted.getMessage().contains("node 2 did not answer"), "node 1 reports its forward's failure: "
                + aborted.getMessage() + " seed=" + plan.seed());
        plan.heal();
        assertTrue(c.awaitQuiet(10_000).isEmpty() || c.quiet(), c.leftovers() + " seed=" + plan.seed());
    }

    @Test
    void aStartVertexTheTransactionDoesNotSeeIsReportedBack() {
        start();
        long gone = path(2)[0];
        Transaction remove = c.begin(1, SR);
        remove.removeVertex(gone);
        remove.commit();
        Transaction r = c.begin(0, SR);
        Chain.Outcome outcome = r.runChain(Chain.empty().hop(EdgeDirection.OUT).hop(EdgeDirection.OUT), new long[] {gone}, new long[] {1});
        assertArrayEquals(new long[] {gone}, outcome.unseen());
        assertArrayEquals(new long[0], outcome.vertices());
        r.commit();
    }

    @Test
    void atSerializableAReadAChainMadeOnAThirdNodeIsValidatedThere() {
        start();
        for (Isolation isolation : Isolation.values()) {
            long[] ab = path(1, 2);
            long a = ab[0];
            long b = ab[1];
            long flag = path(0)[0];
            Transaction reader = c.begin(0, isolation);
            Chain.Outcome outcome = reader.runChain(Chain.empty().hop(EdgeDirection.OUT).hop(EdgeDirection.OUT), new long[] {a},
                    new long[] {1});
            assertEquals(0, outcome.vertices().length, "b has no out-edge yet");
            reader.setVertexProperty(flag, key(0, "seen"), 1L);
            Transaction writer = c.begin(2, SR); // gives b, read only at node 2 by node 1's forward, an out-edge
            writer.addEdge(b, flag, label(2, "e"));
            writer.commit();
            if (isolation == SR) {
                TransactionConflictException aborted = assertThrows(TransactionConflictException.class, reader::commit);
                assertEquals(ConflictKind.PARTICIPANT_VOTED_NO, aborted.kind(), aborted.getMessage());
            } else {
                reader.commit(); // snapshot isolation does not validate reads
            }
        }
    }

    @Test
    void aChainWhoseResultsNeverComeAbortsAndEveryPartItMadeIsUndone() throws Exception {
        io.gtran.check.fabric.FaultPlan plan = new io.gtran.check.fabric.FaultPlan(new Random().nextLong());
        c = new ClusterNodes(ClusterNodes.faulty(transport(), plan), 3, TxnConfig.REMOTE_TIMEOUT_MS, 1000);
        long a = path(1, 2, 2)[0];
        plan.links(2, 0).dropWithProbability(1.0); // node 2's report, and anything else to node 0, is lost
        Transaction r = c.begin(0, SR);
        TransactionConflictException aborted = assertThrows(TransactionConflictException.class,
                () -> r.runChain(Chain.empty().hop(EdgeDirection.OUT).hop(EdgeDirection.OUT), new long[] {a}, new long[] {1}),
                "seed=" + plan.seed());
        assertEquals(ConflictKind.PARTICIPANT_UNREACHABLE, aborted.kind(), aborted.getMessage());
        plan.heal();
        // node 2's part was made by node 1's forward, and its report never reached node 0: only an
        // abort sent to every member undoes it
        assertTrue(c.awaitQuiet(10_000).isEmpty() || c.quiet(), c.leftovers() + " seed=" + plan.seed());
    }

    @Test
    void chainsGiveTheSameResultsOverLinksThatDropMessages() throws Exception {
        long seed = new Random().nextLong();
        io.gtran.check.fabric.FaultPlan plan = new io.gtran.check.fabric.FaultPlan(seed);
        c = new ClusterNodes(ClusterNodes.faulty(transport(), plan), 3);
        long[] vertices = graph(seed);
        long[] bulks = new long[vertices.length];
        java.util.Arrays.fill(bulks, 1);
        List<Object[]> stages = List.of(hop(EdgeDirection.OUT), hop(EdgeDirection.BOTH), hop(EdgeDirection.IN, "knows"));
        Transaction t = c.begin(1, SR);
        Map<Long, Long> expected = hopByHop(t, 1, stages, vertices, bulks);
        t.commit();
        plan.links(java.util.Set.of(0, 1, 2), java.util.Set.of(0, 1, 2)).dropWithProbability(0.2);
        for (int at = 0; at < 3; at++) {
            Transaction r = c.begin(at, SR);
            assertEquals(expected, asMap(r.runChain(chainOf(stages), vertices, bulks)), "from node " + at + ", seed=" + seed);
            r.commit();
        }
        plan.heal();
        assertTrue(c.awaitQuiet(10_000).isEmpty() || c.quiet(), c.leftovers() + " seed=" + seed);
    }
}
