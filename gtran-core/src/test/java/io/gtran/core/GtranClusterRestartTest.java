package io.gtran.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.core.suites.InJvmClusterGraph;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster of three members in this JVM, each with a data directory, closed and opened again on
 * them (docs/durability.md, "Nodes of a cluster"): every committed change is there, from every
 * member's view, with the same ids; edges between members have their mirrors back; user ids of
 * vertices and edges still name one element each and are still refused to a second one; new
 * elements take no old id.
 */
@Timeout(120)
class GtranClusterRestartTest {
    @TempDir
    Path dir;

    /** Records that start a snapshot on every member: 0, none (the log alone restores). */
    private long snapshotRecords;

    private GtranGraph open(int coordinator) {
        BaseConfiguration c = new BaseConfiguration();
        c.setProperty(InJvmClusterGraph.COORDINATOR_KEY, coordinator);
        c.setProperty(InJvmClusterGraph.DATA_KEY, dir.toString());
        c.setProperty("gtran.durability.snapshot-records", snapshotRecords);
        return InJvmClusterGraph.open(c);
    }

    /** Every element with its label, properties and (edges) endpoints, by id, as one transaction sees them. */
    private static Map<String, String> dump(GtranGraph graph) {
        Map<String, String> out = new TreeMap<>();
        GraphTraversalSource g = graph.traversal();
        g.V().forEachRemaining(v -> out.put("v" + v.id(), v.label() + " " + new TreeMap<>(g.V(v.id()).valueMap().next())
                + " in=" + g.V(v.id()).inE().count().next() + " out=" + g.V(v.id()).outE().count().next()));
        g.E().forEachRemaining(e -> out.put("e" + e.id(), e.label() + " " + e.outVertex().id() + "->" + e.inVertex().id()
                + " " + new TreeMap<>(g.E(e.id()).valueMap().next())));
        graph.tx().rollback();
        return out;
    }

    @Test
    void everyCommitOfARestartedClusterIsThereFromEveryMember() throws InterruptedException {
        restartAndCompare();
    }

    /**
     * With a snapshot after every few records on each member, taken while the load runs: edges
     * between members (their mirrors), user-id claims and decisions come back from snapshots.
     */
    @Test
    void everyCommitIsThereWhenTheMembersRestartFromSnapshots() throws InterruptedException {
        snapshotRecords = 4;
        restartAndCompare();
        for (int node = 0; node < 3; node++) {
            try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(dir.resolve("node-" + node).resolve("snapshots"))) {
                assertTrue(files.anyMatch(f -> f.toString().endsWith(".gts")), "member " + node + " took a snapshot");
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    private void restartAndCompare() throws InterruptedException {
        Map<String, String> before;
        Object gone;
        try (GtranGraph graph = open(0)) {
            GraphTraversalSource g = graph.traversal();
            Vertex ann = graph.addVertex(T.label, "person", T.id, "ann", "name", "ann", "age", 41);
            Vertex bob = graph.addVertex(T.label, "person", T.id, "bob", "name", "bob");
            Vertex oslo = graph.addVertex(T.label, "city", "name", "oslo");
            Vertex temp = graph.addVertex(T.label, "temp");
            ann.addEdge("knows", bob, T.id, "ann-bob", "since", 2001);
            bob.addEdge("lives", oslo, "years", 3);
            oslo.addEdge("has", ann);
            graph.tx().commit();
            for (int i = 0; i < 30; i++) { // one transaction each: with snapshots, several are taken meanwhile
                Vertex v = graph.addVertex(T.label, "item", T.id, "item-" + i, "n", i); // user ids: spread over the members
                v.addEdge("near", g.V(i % 2 == 0 ? "ann" : "bob").next());
                graph.tx().commit();
                if (snapshotRecords > 0) {
                    Thread.sleep(20);
                }
            }
            gone = temp.id();
            g.V(gone).drop().iterate();
            g.V("ann").property("age", 42).iterate();
            g.E("ann-bob").property("since", 2002).iterate();
            graph.tx().commit();
            graph.addVertex(T.label, "ghost");
            graph.tx().rollback();
            before = dump(graph);
            assertTrue(before.size() > 60, before.size() + " elements");
        }
        for (int coordinator = 0; coordinator < 3; coordinator++) {
            try (GtranGraph graph = open(coordinator)) {
                assertEquals(before, dump(graph), "seen from member " + coordinator);
            }
        }
        try (GtranGraph graph = open(1)) {
            GraphTraversalSource g = graph.traversal();
            assertFalse(g.V(gone).hasNext());
            assertEquals(List.of("bob"), g.V("ann").out("knows").values("name").toList());
            assertEquals(List.of("ann"), g.V().hasLabel("city").out("has").values("name").toList(), "an edge between members");
            assertThrows(RuntimeException.class, () -> {
                graph.addVertex(T.id, "ann");
                graph.tx().commit();
            }, "a user id still names one vertex");
            graph.tx().rollback();
            assertThrows(RuntimeException.class, () -> {
                g.V("bob").next().addEdge("knows", g.V("ann").next(), T.id, "ann-bob");
                graph.tx().commit();
            }, "an edge's user id still names one edge");
            graph.tx().rollback();
            Set<Object> old = new HashSet<>(g.V().id().toList());
            old.add(gone);
            for (int i = 0; i < 20; i++) {
                Vertex v = graph.addVertex("new");
                assertFalse(old.contains(v.id()), "a new vertex takes an old id: " + v.id());
                v.addEdge("near", g.V("ann").next());
            }
            graph.tx().commit();
        }
        try (GtranGraph graph = open(2)) {
            assertEquals(20L, graph.traversal().V().hasLabel("new").count().next(), "the commits after a restart survive the next");
            assertEquals(35L, graph.traversal().V("ann").inE("near").count().next(), "15 items and 20 new vertices");
            graph.tx().rollback();
        }
    }
}
