package io.gtran.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.__;
import org.apache.tinkerpop.gremlin.process.traversal.util.TraversalMetrics;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Pushed execution on a 3-node in-JVM cluster: runs of vertex hops go to the owners as chains
 * where traversers carry only object and bulk, and nowhere else; the answers are those of element
 * and batched execution (the messages each mode sent are printed; docs/benchmarks.md has the
 * figures that count).
 */
@Timeout(120)
class GtranPushedChainsTest {
    private static GtranGraph open(String execution) {
        return ClusterQueries.open(execution, new LongAdder(), ClusterQueries.ALL);
    }

    /** 60 people and things spread over the members, 240 seeded random edges, user ids "v0".. */
    private static void load(GtranGraph graph) {
        Random random = new Random(7);
        GraphTraversalSource g = graph.traversal();
        Vertex[] vs = new Vertex[60];
        for (int i = 0; i < vs.length; i++) {
            vs[i] = g.addV(i % 3 == 0 ? "thing" : "person").property(T.id, "v" + i).property("n", i).next();
        }
        for (int i = 0; i < 240; i++) {
            vs[random.nextInt(60)].addEdge(random.nextBoolean() ? "knows" : "likes", vs[random.nextInt(60)]);
        }
        graph.tx().commit();
    }

    private static Map<String, Function<GraphTraversalSource, Object>> queries() {
        Map<String, Function<GraphTraversalSource, Object>> q = new LinkedHashMap<>();
        q.put("k-hop 2 count", g -> g.V("v1").out().out().count().next());
        q.put("k-hop 3 count", g -> g.V("v1").out().out().out().count().next());
        q.put("k-hop 3 dedup count", g -> g.V("v1", "v2").both().both().both().dedup().count().next());
        q.put("hasLabel between hops", g -> g.V().out("knows").hasLabel("person").in("likes").groupCount().by("n").next());
        q.put("ids after hops", g -> sorted(g.V("v4").out().in().id().toList()));
        q.put("values after hops", g -> sorted(g.V().hasLabel("thing").both().out("likes").values("n").toList()));
        q.put("hops in a where", g -> g.V().where(__.out().out().hasLabel("thing")).count().next());
        return q;
    }

    private static List<Object> sorted(List<Object> values) {
        List<Object> copy = new ArrayList<>(values);
        copy.sort((a, b) -> String.valueOf(a).compareTo(String.valueOf(b)));
        return copy;
    }

    private static Map<String, Object[]> run(String execution) {
        return ClusterQueries.run(execution, ClusterQueries.ALL, GtranPushedChainsTest::load, queries());
    }

    @Test
    void pushedChainsGiveTheAnswersOfTheOtherModes() {
        Map<String, Object[]> element = run("element");
        Map<String, Object[]> batched = run("batched");
        Map<String, Object[]> pushed = run("pushed");
        for (String q : element.keySet()) {
            System.out.println(q + ": messages element " + element.get(q)[1] + ", batched " + batched.get(q)[1] + ", pushed "
                    + pushed.get(q)[1]);
            assertEquals(element.get(q)[0], batched.get(q)[0], q + " batched");
            assertEquals(element.get(q)[0], pushed.get(q)[0], q + " pushed");
        }
    }

    private static String explain(GraphTraversalSource g, Function<GraphTraversalSource, ?> traversal) {
        return ((org.apache.tinkerpop.gremlin.process.traversal.Traversal<?, ?>) traversal.apply(g)).explain().toString();
    }

    @Test
    void chainsArePushedOnlyWhereTraversersCarryNothingButObjectAndBulk() {
        try (GtranGraph graph = open("pushed")) {
            GraphTraversalSource g = graph.traversal();
            assertTrue(explain(g, s -> s.V().out().out().count()).contains("pushed"));
            assertTrue(explain(g, s -> s.V().out().hasLabel("person").in("knows").values("n")).contains("pushed"));
            assertFalse(explain(g, s -> s.V().out().count()).contains("pushed"), "a single hop stays batched");
            assertFalse(explain(g, s -> s.V().out().out().path()).contains("pushed"), "a path");
            assertFalse(explain(g, s -> s.V().as("a").out().out().select("a")).contains("pushed"), "a step label");
            assertFalse(explain(g, s -> s.V().out().out().limit(3)).contains("pushed"), "a limit");
            assertFalse(explain(g, s -> s.withSack(1).V().out().out().sack()).contains("pushed"), "a sack");
            assertFalse(explain(g, s -> s.withBulk(false).V().out().out().count()).contains("pushed"), "traversers without bulk");
            assertFalse(explain(g, s -> s.V().out().out().property("x", 1)).contains("pushed"), "a write");
            assertTrue(explain(g, s -> s.V().repeat(__.out()).times(2)).contains("pushed"), "a repeat TinkerPop unrolls");
            assertFalse(explain(g, s -> s.V().repeat(__.out()).until(__.hasLabel("thing"))).contains("pushed"),
                    "a repeat's hops are a child traversal");
            assertFalse(explain(g, s -> s.V().out().outE().has("w", 1).inV()).contains("pushed"), "edges between the hops");
            graph.tx().rollback();
        }
        try (GtranGraph graph = open("batched")) {
            assertFalse(explain(graph.traversal(), s -> s.V().out().out().count()).contains("pushed"), "batched execution");
        }
    }

    @Test
    void profileShowsTheNodesAChainRanOnAndItsMessages() {
        try (GtranGraph graph = open("pushed")) {
            load(graph);
            TraversalMetrics metrics = graph.traversal().V("v1", "v2", "v3").out().out().out().count().profile().next();
            boolean annotated = metrics.getMetrics().stream().anyMatch(m -> m.getName().contains("pushed")
                    && "[0, 1, 2]".equals(m.getAnnotation("nodes")) && m.getCount("messages") != null && m.getCount("messages") > 0
                    && m.getCount("runs") == 1);
            assertTrue(annotated, "the chain's nodes and messages: " + metrics);
            graph.tx().rollback();
        }
    }
}
