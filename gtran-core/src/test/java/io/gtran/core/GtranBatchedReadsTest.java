package io.gtran.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.apache.tinkerpop.gremlin.process.traversal.P;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.__;
import org.apache.tinkerpop.gremlin.process.traversal.util.TraversalMetrics;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Labels and properties of other nodes' elements read ahead in batches ({@code Transaction.readMany})
 * on a 3-node in-JVM cluster: the same answers as element-at-a-time execution, fewer requests, and
 * a transaction's own writes seen over what it read ahead.
 */
@Timeout(120)
class GtranBatchedReadsTest {
    /** Spokes around the hub, spread over the members. */
    private static final int SPOKES = 30;

    private static GtranGraph open(String execution) {
        return ClusterQueries.open(execution, new LongAdder(), ClusterQueries.REQUESTS);
    }

    /** A hub with spokes on every member, spokes linked in a ring, every element with properties. */
    private static void load(GtranGraph graph) {
        GraphTraversalSource g = graph.traversal();
        Vertex hub = g.addV("hub").property(T.id, "hub").property("name", "hub").next();
        Vertex[] spokes = new Vertex[SPOKES];
        for (int i = 0; i < SPOKES; i++) {
            spokes[i] = g.addV(i % 2 == 0 ? "a" : "b").property(T.id, "s" + i).property("age", i)
                    .property("name", "n" + i).property("kind", "k" + i % 3).next();
            hub.addEdge(i % 2 == 0 ? "to" : "likes", spokes[i], "weight", i * 0.5);
        }
        for (int i = 0; i < SPOKES; i++) {
            spokes[i].addEdge("next", spokes[(i + 7) % SPOKES], "weight", (double) i);
        }
        graph.tx().commit();
    }

    /** The read-only queries compared, by name. */
    private static Map<String, Function<GraphTraversalSource, Object>> queries() {
        Map<String, Function<GraphTraversalSource, Object>> q = new LinkedHashMap<>();
        q.put("out.values(age)", g -> g.V("hub").out().values("age").toList());
        q.put("both.values(age).count", g -> g.V("hub").both().values("age").count().next());
        q.put("out.has(age,gt).values(name)", g -> g.V("hub").out().has("age", P.gt(10)).values("name").toList());
        q.put("out.hasLabel.count", g -> g.V("hub").out().hasLabel("a").count().next());
        q.put("out.label", g -> g.V("hub").out().label().toList());
        q.put("out.valueMap", g -> g.V("hub").out().valueMap().toList());
        q.put("out.elementMap(name)", g -> g.V("hub").out().elementMap("name").toList());
        q.put("outE.group(label, sum weight)", g -> g.V("hub").outE().group().by(T.label).by(__.values("weight").sum()).next());
        q.put("out.group(kind, bothE...)", g -> g.V("hub").out().group().by("kind")
                .by(__.bothE().group().by(T.label).by(__.values("weight").sum())).next());
        q.put("out.out.order(age).name", g -> g.V("hub").out().out().order().by("age").values("name").toList());
        q.put("V.has(age,gt).values(name)", g -> g.V().has("age", P.gt(10)).values("name").toList());
        q.put("V.hasLabel.valueMap(age)", g -> g.V().hasLabel("b").valueMap("age").toList());
        q.put("E.hasLabel.values(weight)", g -> g.E().hasLabel("next").values("weight").toList());
        return q;
    }

    /** Each query's answer and requests in one execution mode. */
    private static Map<String, Object[]> run(String execution) {
        return ClusterQueries.run(execution, ClusterQueries.REQUESTS, GtranBatchedReadsTest::load, queries());
    }

    @Test
    void readAheadGivesElementModesAnswersWithFewerRequests() {
        Map<String, Object[]> element = run("element");
        Map<String, Object[]> batched = run("batched");
        List<String> shown = new ArrayList<>();
        for (String q : element.keySet()) {
            shown.add(q + ": element " + element.get(q)[1] + ", batched " + batched.get(q)[1] + " requests");
        }
        System.out.println(String.join("\n", shown));
        for (String q : element.keySet()) {
            assertEquals(element.get(q)[0], batched.get(q)[0], q);
            long e = (Long) element.get(q)[1];
            long b = (Long) batched.get(q)[1];
            // 20 of the 30 spokes are on other nodes: read one at a time, each is asked for; read ahead, each node once per batch.
            assertTrue(b * 2 < e, q + ": " + shown);
        }
    }

    @Test
    void aTransactionSeesItsOwnWritesOverWhatItReadAhead() {
        try (GtranGraph graph = open("batched")) {
            load(graph);
            GraphTraversalSource g = graph.traversal();
            List<Object> ages = g.V("hub").out().values("age").toList();
            assertEquals(SPOKES, ages.size());
            for (int i = 0; i < SPOKES; i++) {
                Vertex spoke = graph.vertices("s" + i).next();
                assertEquals(i, (int) spoke.value("age"));
                spoke.property("age", 100 + i);
                assertEquals(100 + i, (int) spoke.value("age"), "s" + i + " after its write");
            }
            g.V("hub").out().values("name").iterate(); // read ahead again, after the writes
            Vertex removed = graph.vertices("s3").next();
            removed.remove();
            assertThrows(IllegalStateException.class, () -> removed.value("name"), "a removed spoke is not read from what was read ahead");
            graph.tx().commit();
            assertEquals(100 + 4, (int) g.V("s4").values("age").next());
            graph.tx().commit();
        }
    }

    @Test
    void profileShowsWhatWasReadAheadAndItsRequests() {
        try (GtranGraph graph = open("batched")) {
            load(graph);
            TraversalMetrics metrics = graph.traversal().V("hub").out().has("age", P.gt(3)).values("name").profile().next();
            boolean annotated = metrics.getMetrics().stream().anyMatch(m -> "[age, name]".equals(m.getAnnotation("readAhead"))
                    && m.getCount("readAheadRequests") != null && m.getCount("readAheadRequests") == 2);
            assertTrue(annotated, "one read-ahead request to each other node: " + metrics);
            graph.tx().rollback();
        }
    }
}
