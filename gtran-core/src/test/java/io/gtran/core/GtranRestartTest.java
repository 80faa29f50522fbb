package io.gtran.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A graph with a data directory, closed and opened again on it (docs/durability.md): what was
 * committed is there with the same ids, labels, properties, user ids, counts and indexes; what
 * was rolled back is not; new elements never take an old id.
 */
class GtranRestartTest {
    @TempDir
    Path dir;

    private GtranGraph open(String... more) {
        List<String> settings = new ArrayList<>(List.of("gtran.storage.directory", dir.toString()));
        settings.addAll(Arrays.asList(more));
        return GtranGraph.open(TestGraphs.config(settings.toArray(new String[0])));
    }

    @Test
    @Timeout(60)
    void aGraphOpenedAgainOnItsDirectoryHasEveryCommittedChangeAndNoRolledBackOne() {
        openAgain(false);
    }

    @Test
    @Timeout(60)
    void aGraphRestoredFromASnapshotAndTheLogAfterItHasEveryCommittedChange() {
        openAgain(true);
    }

    /** With {@code snapshot}, one is taken after the first commit: the later ones come from the log after it. */
    private void openAgain(boolean snapshot) {
        Map<String, String> before;
        Object removedVertex;
        Object removedEdge;
        try (GtranGraph graph = open()) {
            GraphTraversalSource g = graph.traversal();
            Vertex a = graph.addVertex(T.label, "person", "name", "ann", "age", 41, "height", 1.62, "tall", false);
            Vertex b = graph.addVertex(T.label, "person", T.id, "bob", "name", "bob", "bytes", new byte[] {1, 2, 3});
            Vertex c = graph.addVertex(T.label, "city", "name", "oslo", "tags", List.of("cold", "north"), "pop", 700_000L);
            a.addEdge("knows", b, "since", 2001);
            b.addEdge("lives", c, T.id, "b-lives");
            Edge gone = a.addEdge("lives", c);
            Vertex temp = graph.addVertex("temp");
            a.property(VertexProperty.Cardinality.list, "nick", "a1");
            a.property(VertexProperty.Cardinality.list, "nick", "a2");
            graph.tx().commit();
            if (snapshot) {
                assertTrue((Long) graph.snapshot().get("snapshot_index") > 0);
            }
            removedVertex = temp.id();
            removedEdge = gone.id();
            g.V(temp.id()).drop().iterate();
            g.E(gone.id()).drop().iterate();
            g.V(a.id()).property("age", 42).iterate();
            g.V(b.id()).properties("bytes").drop().iterate();
            graph.tx().commit();
            graph.addVertex(T.label, "ghost", "name", "rolled back");
            g.V(a.id()).property("age", 99).iterate();
            graph.tx().rollback();
            before = dump(graph);
        }
        try (GtranGraph graph = open()) {
            GraphTraversalSource g = graph.traversal();
            assertEquals(before, dump(graph));
            assertEquals(3L, g.V().count().next());
            assertEquals(2L, g.V().hasLabel("person").count().next());
            assertEquals(0L, g.V().hasLabel("ghost").count().next());
            assertEquals(2L, g.E().count().next());
            assertFalse(g.V(removedVertex).hasNext());
            assertFalse(g.E(removedEdge).hasNext());
            assertEquals("bob", g.V("bob").values("name").next());
            assertEquals("b-lives", g.E("b-lives").id().next());
            assertEquals(List.of("ann"), g.V().has("age", 42).values("name").toList());
            assertEquals(List.of("oslo"), g.V().hasLabel("city").values("name").toList(), "a label look-up finds restored vertices");
            assertEquals(List.of("ann"), g.E().hasLabel("knows").outV().values("name").toList(), "and restored edges");
            Set<Object> old = new HashSet<>(g.V().id().toList());
            old.add(removedVertex);
            for (int i = 0; i < 50; i++) {
                assertFalse(old.contains(graph.addVertex("new").id()), "a new vertex takes an id the graph had before");
            }
            Vertex ann = g.V().has("name", "ann").next();
            Object nick = ann.property(VertexProperty.Cardinality.list, "nick", "a3").id();
            assertEquals(3L, g.V(ann.id()).properties("nick").count().next());
            assertEquals(3, new HashSet<>(g.V(ann.id()).properties("nick").id().toList()).size(), "vertex-property ids repeat: " + nick);
            graph.tx().commit();
        }
        try (GtranGraph graph = open()) {
            assertEquals(53L, graph.traversal().V().count().next(), "the commits after a restart survive the next one");
        }
    }

    @Test
    @Timeout(60)
    void anIndexDeclaredInTheConfigurationIsFilledFromTheRestoredGraph() {
        try (GtranGraph graph = open()) {
            for (int i = 0; i < 20; i++) {
                graph.addVertex(T.label, "item", "sku", "s" + i);
            }
            graph.tx().commit();
        }
        try (GtranGraph graph = open(GtranGraph.VERTEX_HASH_INDEX, "sku")) {
            assertEquals(1L, graph.traversal().V().has("sku", "s7").count().next());
            assertEquals(List.of("s7"), graph.traversal().V().has("sku", "s7").values("sku").toList());
        }
    }

    @Test
    @Timeout(60)
    void anIndexMadeAtRunTimeIsThereAfterARestartAndOneDroppedIsNot() {
        try (GtranGraph graph = open()) {
            for (int i = 0; i < 20; i++) {
                graph.addVertex(T.label, "item", "sku", "s" + i, "lot", i % 3);
            }
            graph.tx().commit();
            graph.indexes().create(Vertex.class, "sku", io.gtran.core.index.Indexes.Type.HASH);
            graph.indexes().create(Vertex.class, "lot", io.gtran.core.index.Indexes.Type.ORDERED);
            graph.indexes().create(Vertex.class, "gone", io.gtran.core.index.Indexes.Type.HASH);
            graph.snapshot(); // sku, lot and gone from the snapshot; the drops from the log after it
            graph.indexes().drop(Vertex.class, "lot");
            graph.indexes().drop(Vertex.class, "gone");
        }
        try (GtranGraph graph = open()) {
            assertEquals(Map.of("sku", "hash"), graph.indexes().indexed(Vertex.class));
            assertEquals(List.of("s7"), graph.traversal().V().has("sku", "s7").values("sku").toList());
        }
    }

    @Test
    @Timeout(60)
    void aDirectoryOfAnotherNodeIsRefused() {
        try (GtranGraph graph = open()) {
            graph.addVertex("v");
            graph.tx().commit();
        }
        RuntimeException refused = assertThrows(RuntimeException.class, () -> open("gtran.storage.node-id", "3"));
        assertTrue(String.valueOf(rootMessage(refused)).contains(dir.toString()), rootMessage(refused));
        try (GtranGraph graph = open()) {
            assertEquals(1L, graph.traversal().V().count().next(), "the refused open left the directory alone");
        }
    }

    @Test
    @Timeout(60)
    void withDurabilityNoneNothingIsKept() {
        try (GtranGraph graph = open("gtran.durability", "none")) {
            graph.addVertex("v");
            graph.tx().commit();
        }
        try (GtranGraph graph = open()) {
            assertEquals(0L, graph.traversal().V().count().next());
        }
    }

    @Test
    @Timeout(60)
    void anAsyncGraphClosedCleanlyKeepsEveryCommit() {
        try (GtranGraph graph = open("gtran.durability", "async")) {
            for (int i = 0; i < 200; i++) {
                graph.addVertex(T.label, "v", "i", i);
                graph.tx().commit();
            }
        }
        try (GtranGraph graph = open()) {
            assertEquals(200L, graph.traversal().V().count().next());
        }
    }

    @Test
    void aBadDurabilityIsRefusedNamingTheKey() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> open("gtran.durability", "fast"));
        assertTrue(e.getMessage().contains("gtran.durability"), e.getMessage());
    }

    /** Every vertex and edge with its label, properties (vertex properties with their ids) and ends, by id. */
    static Map<String, String> dump(GtranGraph graph) {
        Map<String, String> out = new TreeMap<>();
        GraphTraversalSource g = graph.traversal();
        g.V().forEachRemaining(v -> {
            List<String> props = new ArrayList<>();
            v.properties().forEachRemaining(p -> props.add(p.key() + "#" + p.id() + "=" + show(p.value())));
            props.sort(null);
            out.put("v" + v.id(), v.label() + props);
        });
        g.E().forEachRemaining(e -> {
            List<String> props = new ArrayList<>();
            e.properties().forEachRemaining(p -> props.add(p.key() + "=" + show(p.value())));
            props.sort(null);
            out.put("e" + e.id(), e.label() + " " + e.outVertex().id() + "->" + e.inVertex().id() + props);
        });
        graph.tx().rollback();
        return out;
    }

    private static String show(Object value) {
        return value instanceof byte[] bytes ? Arrays.toString(bytes) : value + ":" + value.getClass().getSimpleName();
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return e.getMessage() + " / " + root.getMessage();
    }
}
