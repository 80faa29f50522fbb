package io.gtran.core.index;

import static io.gtran.core.GtranClusterGraphTest.open;
import static io.gtran.core.GtranClusterGraphTest.raced;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.core.GtranGraph;
import io.gtran.core.TransactionAbortedException;
import java.util.List;
import org.apache.tinkerpop.gremlin.process.traversal.P;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Property indexes on a graph over a 3-node in-JVM cluster (vertices spread over the members):
 * each member indexes its own elements, look-ups ask every member, and their reads are validated
 * where the entries live (docs/cluster-transactions.md, "Property indexes across nodes").
 */
@Timeout(60)
class GtranClusterIndexTest {
    private static List<Object> names(GraphTraversalSource g, P<?> predicate, String key) {
        List<Object> names = g.V().has(key, predicate).values("name").order().toList();
        g.tx().commit();
        return names;
    }

    @Test
    void anIndexCreatedOverExistingDataFindsElementsOfEveryMember() {
        try (GtranGraph graph = open("SR")) {
            GraphTraversalSource g = graph.traversal();
            for (int i = 0; i < 9; i++) { // spread: three on each member
                g.addV("person").property("name", "p" + i).property("age", 20 + i).iterate();
            }
            g.V().has("name", "p0").addE("knows").to(g.V().has("name", "p4").next()).property("since", 2001).iterate();
            graph.tx().commit();
            graph.indexes().create(Vertex.class, "name", Indexes.Type.HASH);
            graph.indexes().create(Vertex.class, "age", Indexes.Type.ORDERED);
            graph.indexes().create(Edge.class, "since", Indexes.Type.HASH);
            assertEquals(3, graph.indexes().index(Vertex.class, "name").entryCount(), "this member holds its own three only");
            assertTrue(g.V().has("name", "p7").explain().toString().contains("index=name(hash)"));
            graph.tx().rollback();
            assertEquals(List.of("p7"), names(g, P.eq("p7"), "name"));
            assertEquals(List.of("p1", "p5", "p8"), names(g, P.within("p1", "p5", "p8"), "name"));
            assertEquals(List.of("p6", "p7", "p8"), names(g, P.gte(26), "age"));
            assertEquals(List.of("p0", "p1"), names(g, P.lt(22.0), "age"));
            assertEquals(1L, g.E().has("since", 2001L).count().next(), "a long finds the int, as Gremlin's eq does");
            graph.tx().commit();
        }
    }

    @Test
    void creatingAnIndexReadsOtherMembersValuesInBatches() {
        try (GtranGraph graph = open("SR")) {
            GraphTraversalSource g = graph.traversal();
            for (int i = 0; i < 300; i++) { // spread: 200 on the other members
                g.addV("person").property("age", i % 7).iterate();
            }
            graph.tx().commit();
            long before = graph.stats().get("remote.calls");
            graph.indexes().create(Vertex.class, "age", Indexes.Type.HASH);
            long calls = graph.stats().get("remote.calls") - before;
            assertTrue(calls < 30, "define, scan, read ahead, fill and ready: a few requests per member, not one per element: " + calls);
            assertEquals(43, g.V().has("age", 3).toList().size());
            graph.tx().commit();
        }
    }

    @Test
    void writesOnEveryMemberKeepTheIndexTrue() {
        try (GtranGraph graph = open("SR")) {
            GraphTraversalSource g = graph.traversal();
            graph.indexes().create(Vertex.class, "name", Indexes.Type.HASH);
            Object[] ids = new Object[6];
            for (int i = 0; i < 6; i++) {
                ids[i] = g.addV("person").property("name", "same").next().id();
            }
            graph.tx().commit();
            assertEquals(6, g.V().has("name", "same").toList().size());
            graph.tx().commit();
            g.V(ids[1]).property("name", "other").iterate(); // on the second member
            g.V(ids[2]).drop().iterate();                     // on the third
            assertEquals(4, g.V().has("name", "same").toList().size(), "the transaction sees its own writes");
            graph.tx().commit();
            assertEquals(4, g.V().has("name", "same").toList().size());
            assertEquals(1, g.V().has("name", "other").toList().size());
            graph.tx().commit();
            assertTrue(graph.indexes().drop(Vertex.class, "name"));
            assertTrue(g.V().has("name", "same").explain().toString().contains("scan"));
            assertEquals(4, g.V().has("name", "same").toList().size(), "scans once dropped");
            graph.tx().commit();
            assertTrue(graph.indexes().indexed(Vertex.class).isEmpty());
        }
    }

    /**
     * The look-up finds no candidate; another transaction gives a vertex on some member the looked-up
     * value, and commits first. Only the index key read at that member shows the phantom: the
     * look-up read no vertex's property.
     */
    @Test
    void aLookUpAbortsAtSrWhenAnotherMemberGainsTheValue() throws Exception {
        for (String isolation : new String[] {"SR", "SI"}) {
            try (GtranGraph graph = open(isolation)) {
                GraphTraversalSource g = graph.traversal();
                Object[] ids = new Object[3];
                for (int i = 0; i < 3; i++) {
                    ids[i] = g.addV("person").property("name", "n" + i).property("age", i).next().id(); // one per member
                }
                graph.tx().commit();
                graph.indexes().create(Vertex.class, "name", Indexes.Type.HASH);
                graph.indexes().create(Vertex.class, "age", Indexes.Type.ORDERED);
                for (int round = 0; round < 3; round++) {
                    Object id = ids[round];
                    String ghost = "ghost" + round;
                    Throwable equality = raced(graph, s -> s.V().has("name", ghost).toList(),
                            s -> s.V(id).property("name", ghost).iterate());
                    Throwable range = raced(graph, s -> s.V().has("age", P.gt(100)).toList(),
                            s -> s.V(id).property("age", 200 + 1).iterate());
                    if (isolation.equals("SR")) {
                        assertTrue(equality instanceof TransactionAbortedException, "SR, member " + round + ": " + equality);
                        assertTrue(range instanceof TransactionAbortedException, "SR range, member " + round + ": " + range);
                    } else {
                        assertNull(equality, "SI validates no reads");
                        assertNull(range, "SI validates no reads");
                    }
                }
            }
        }
    }

    @Test
    void anIndexOfTheOtherTypeAndValuesThatCannotTravelAreRefusedOrScanned() {
        try (GtranGraph graph = open("SR")) {
            GraphTraversalSource g = graph.traversal();
            graph.indexes().create(Vertex.class, "when", Indexes.Type.HASH);
            IllegalArgumentException other = assertThrows(IllegalArgumentException.class,
                    () -> graph.indexes().create(Vertex.class, "when", Indexes.Type.ORDERED));
            assertTrue(other.getMessage().contains("another type"), other.getMessage());
            java.util.Date date = new java.util.Date(0);
            for (int i = 0; i < 3; i++) {
                g.addV("event").property("when", date).iterate();
            }
            graph.tx().commit();
            assertTrue(g.V().has("when", date).explain().toString().contains("scan"), "a Date cannot be sent to a member");
            assertEquals(3, g.V().has("when", date).toList().size());
            graph.tx().commit();
        }
    }
}
