package io.gtran.lbv.gtran;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.lbv.LbvQuery;
import io.gtran.lbv.QueryMix;
import io.gtran.lbv.Workload;
import io.gtran.lbv.gtran.CostModel.Bound;
import io.gtran.lbv.gtran.CostModel.Cluster;
import io.gtran.lbv.gtran.CostModel.Link;
import io.gtran.lbv.gtran.CostModel.Projection;
import io.gtran.lbv.gtran.CostModel.QueryCost;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The cost model's arithmetic, on made-up inputs whose projection can be worked out by hand. */
class CostModelTest {
    private static final double EPS = 1e-9;

    /** Every query type: 100 µs CPU, 10 messages of 40 bytes, 2 round trips (on 3 nodes). */
    private static Map<LbvQuery, QueryCost> uniform(double cpu, double messages, double roundTrips) {
        Map<LbvQuery, QueryCost> costs = new EnumMap<>(LbvQuery.class);
        for (LbvQuery q : LbvQuery.values()) {
            costs.put(q, new QueryCost(q, cpu, messages, messages * 40, roundTrips));
        }
        return costs;
    }

    @Test
    void weightsSplitTheReadShareOverReadsAndTheRestOverWrites() {
        for (Workload w : Workload.values()) {
            Map<LbvQuery, Double> weights = CostModel.weights(w);
            assertEquals(1.0, weights.values().stream().mapToDouble(Double::doubleValue).sum(), EPS, w.name());
            assertEquals(w.readShare() / QueryMix.READS.size(), weights.get(LbvQuery.Q14), EPS);
            assertEquals((1 - w.readShare()) / QueryMix.WRITES.size(), weights.get(LbvQuery.Q16), EPS);
        }
        assertEquals(0.0, CostModel.weights(Workload.RO).get(LbvQuery.Q2), EPS);
    }

    @Test
    void messagesScaleByRemoteShareOrByMembersForFanOut() {
        // point query: (N-1)/N over 2/3
        assertEquals((7 / 8.0) / (2 / 3.0), CostModel.messageScale(LbvQuery.Q14, 3, 8), EPS);
        assertEquals(1.0, CostModel.messageScale(LbvQuery.Q14, 3, 3), EPS);
        assertEquals(0.0, CostModel.messageScale(LbvQuery.Q14, 3, 1), EPS);
        // index look-up asks every other member: (N-1)/(n-1)
        assertEquals(7 / 2.0, CostModel.messageScale(LbvQuery.Q11, 3, 8), EPS);
        assertEquals(1.0, CostModel.roundTripScale(LbvQuery.Q11, 3, 8), EPS, "members are asked in parallel");
        assertEquals((7 / 8.0) / (2 / 3.0), CostModel.roundTripScale(LbvQuery.Q23, 3, 8), EPS);
        assertThrows(IllegalArgumentException.class, () -> CostModel.messageScale(LbvQuery.Q14, 1, 8));
    }

    @Test
    void cpuBoundByHand() {
        // RO on 3 nodes (no scaling): D = 100 + 10 * 5 = 150 µs; 3 x 16 cores / 150 µs = 320,000/s.
        // Latency: R = 150 + 2 x 25 = 200 µs; 3 x 20 clients / 200 µs = 300,000/s... so make clients plenty.
        Projection p = CostModel.project(uniform(100, 10, 2), 3, new Cluster(3, 16, 1.0, 1000, 40),
                new Link("tcp", 25, 5), Workload.RO, "SR", 0.0);
        assertEquals(150, p.cpuUs(), EPS);
        assertEquals(200, p.responseUs(), EPS);
        assertEquals(320_000, p.cpuBound(), 1e-6);
        assertEquals(3 * 1000 * 1e6 / 200, p.latencyBound(), 1e-6);
        assertEquals(Bound.CPU, p.bound());
        assertEquals(320_000, p.committed(), 1e-6);
    }

    @Test
    void latencyBoundWhenFewClientsWaitOnSlowLinks() {
        // 1 client per node, 1 ms round trips: R = 150 + 2,000 µs; 3 / 2.15 ms = 1,395/s, far under the CPU's 320,000.
        Projection p = CostModel.project(uniform(100, 10, 2), 3, new Cluster(3, 16, 1.0, 1, 40),
                new Link("tcp", 1000, 5), Workload.RO, "SR", 0.1);
        assertEquals(Bound.LATENCY, p.bound());
        assertEquals(3 * 1e6 / 2150, p.attempts(), 1e-6);
        assertEquals(0.9 * 3 * 1e6 / 2150, p.committed(), 1e-6);
    }

    @Test
    void bandwidthBoundWhenMessagesAreHuge() {
        Map<LbvQuery, QueryCost> costs = new EnumMap<>(LbvQuery.class);
        for (LbvQuery q : LbvQuery.values()) {
            costs.put(q, new QueryCost(q, 1, 1, 1e9, 0)); // a gigabyte per query over 0.001 Gbps
        }
        Projection p = CostModel.project(costs, 3, new Cluster(3, 16, 1.0, 20, 0.001), new Link("rdma", 3, 1), Workload.MIX, "SI", 0);
        assertEquals(Bound.BANDWIDTH, p.bound());
        assertEquals(3 * 0.001e9 / 8 / 1e9, p.attempts(), 1e-15);
    }

    @Test
    void moreNodesMoreThroughputWhileMessagesPerQueryLevelOff() {
        Map<LbvQuery, QueryCost> costs = uniform(100, 10, 2);
        double last = 0;
        double lastMessages = 0;
        for (int n : List.of(3, 4, 8, 10, 16)) {
            Projection p = CostModel.project(costs, 3, new Cluster(n, 16, 1.0, 20, 40), new Link("tcp", 25, 5), Workload.MIX, "SR", 0.08);
            assertTrue(p.committed() > last, "throughput grows with nodes: n=" + n);
            assertTrue(p.messages() > lastMessages, "messages grow with the remote share and fan-out: n=" + n);
            last = p.committed();
            lastMessages = p.messages();
        }
    }

    @Test
    void cheaperLinkNeverProjectsLess() {
        Map<LbvQuery, QueryCost> costs = uniform(100, 10, 2);
        for (Workload w : Workload.values()) {
            Cluster c = new Cluster(8, 16, 1.0, 20, 40);
            Projection tcp = CostModel.project(costs, 3, c, new Link("tcp", 25, 8), w, "SR", 0);
            Projection rdma = CostModel.project(costs, 3, c, new Link("rdma", 3, 2), w, "SR", 0);
            assertTrue(rdma.committed() >= tcp.committed(), w.name());
        }
    }

    @Test
    void badInputsAreNamed() {
        Map<LbvQuery, QueryCost> costs = uniform(100, 10, 2);
        Cluster c = new Cluster(8, 16, 1.0, 20, 40);
        Link l = new Link("tcp", 25, 5);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CostModel.project(costs, 3, c, l, Workload.MIX, "SR", 1.0));
        assertTrue(e.getMessage().contains("abortRate=1.0"), e.getMessage());
        costs.remove(LbvQuery.Q16);
        e = assertThrows(IllegalArgumentException.class, () -> CostModel.project(costs, 3, c, l, Workload.MIX, "SR", 0));
        assertTrue(e.getMessage().contains("query=Q16"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Cluster(0, 16, 1, 20, 40));
        assertThrows(IllegalArgumentException.class, () -> new QueryCost(LbvQuery.Q2, -1, 0, 0, 0));
    }

    @Test
    void optionsParseAndNameBadValues() {
        CostModelMain.Options o = CostModelMain.Options.parse("--nodes", "4,8", "--link", "tcp=30", "--abort-rate", "0.1");
        assertEquals(List.of(4, 8), o.nodes());
        assertEquals(Map.of("tcp", 30.0), o.links());
        assertEquals(0.1, o.abortRate(), EPS);
        CostModelMain.Options d = CostModelMain.Options.parse();
        assertEquals(List.of(4, 8, 10), d.nodes());
        assertEquals(25.0, d.links().get("tcp"), EPS);
        assertEquals(3.0, d.links().get("rdma"), EPS);
        assertMessage("takes tcp=RTT_US and/or rdma=RTT_US", "--link", "ib=2");
        assertMessage("option --cores must be in", "--cores", "0");
        assertMessage("unknown option: --bogus", "--bogus", "1");
        assertMessage("option --check-nodes is 0", "--check-nodes", "3");
    }

    @Test
    void jsonWritesNestedValuesAndInfinityAsNull() {
        String json = CostModelMain.JsonText.write(Map.of("a", List.of(1, 2.5, Double.POSITIVE_INFINITY, "x\"y")));
        assertEquals("{\"a\":[1,2.50000,null,\"x\\\"y\"]}", json);
    }

    private static void assertMessage(String part, String... args) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CostModelMain.Options.parse(args));
        assertTrue(e.getMessage().contains(part), e.getMessage() + " lacks " + part);
    }
}
