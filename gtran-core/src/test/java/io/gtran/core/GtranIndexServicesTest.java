package io.gtran.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code gtran.index.create/list/drop} through {@code call()}: parameters, results (plain maps and strings) and errors. */
@Timeout(60)
class GtranIndexServicesTest {
    private final GtranGraph graph = GtranGraph.open();
    private final GraphTraversalSource g = graph.traversal();

    @AfterEach
    void close() {
        graph.close();
    }

    private static Map<String, String> index(String kind, String key, String type) {
        return Map.of("kind", kind, "key", key, "type", type);
    }

    private String failure(String service, Map<String, Object> params) {
        Exception e = assertThrows(Exception.class, () -> g.call(service, params).toList());
        graph.tx().rollback();
        return e.getMessage();
    }

    @Test
    void theServicesAreListed() {
        List<Object> services = g.call("--list").toList();
        assertTrue(services.containsAll(List.of("gtran.index.create", "gtran.index.list", "gtran.index.drop")), services.toString());
    }

    @Test
    void createListAndDropVertexAndEdgeIndexes() {
        assertEquals(List.of(), g.call("gtran.index.list").toList());
        assertEquals(List.of(index("vertex", "name", "hash")), g.call("gtran.index.create", Map.of("key", "name")).toList());
        assertEquals(List.of(index("vertex", "age", "ordered")),
                g.call("gtran.index.create", Map.of("key", "age", "type", "ordered", "kind", "vertex")).toList());
        assertEquals(List.of(index("edge", "weight", "ordered")),
                g.call("gtran.index.create", Map.of("key", "weight", "type", "ORDERED", "kind", "edge")).toList());
        assertEquals(List.of(index("vertex", "age", "ordered"), index("vertex", "name", "hash"), index("edge", "weight", "ordered")),
                g.call("gtran.index.list").toList());
        assertEquals(List.of(index("edge", "weight", "ordered")), g.call("gtran.index.list", Map.of("kind", "edge")).toList());
        assertEquals(Map.of("age", "ordered", "name", "hash"), graph.indexes().indexed(Vertex.class));

        // the index is used at once, and filled from what was there
        g.addV("person").property("name", "marko").iterate();
        graph.tx().commit();
        assertTrue(g.V().has("name", "marko").explain().toString().contains("index=name"));
        assertEquals(1L, g.V().has("name", "marko").count().next());
        graph.tx().rollback();

        assertEquals(List.of(index("vertex", "name", "hash")), g.call("gtran.index.drop", Map.of("key", "name")).toList());
        assertEquals(List.of(index("edge", "weight", "ordered")), g.call("gtran.index.drop", Map.of("key", "weight", "kind", "edge")).toList());
        assertEquals(List.of(index("vertex", "age", "ordered")), g.call("gtran.index.list").toList());
        assertEquals(1L, g.V().has("name", "marko").count().next(), "a scan answers once the index is gone");
        graph.tx().rollback();
    }

    @Test
    void creatingAnExistingIndexAgainDoesNothing() {
        g.call("gtran.index.create", Map.of("key", "name")).iterate();
        assertEquals(List.of(index("vertex", "name", "hash")), g.call("gtran.index.create", Map.of("key", "name", "type", "hash")).toList());
        assertEquals(1, g.call("gtran.index.list").toList().size());
    }

    @Test
    void badParametersAreNamed() {
        String type = failure("gtran.index.create", Map.of("key", "name", "type", "btree"));
        assertTrue(type.contains("type=btree") && type.contains("'hash' or 'ordered'"), type);
        String missing = failure("gtran.index.create", Map.of("type", "hash"));
        assertTrue(missing.contains("parameter key is required"), missing);
        String kind = failure("gtran.index.create", Map.of("key", "name", "kind", "vertexProperty"));
        assertTrue(kind.contains("kind=vertexProperty"), kind);
        String label = failure("gtran.index.create", Map.of("key", "name", "label", "person"));
        assertTrue(label.contains("unknown parameter label=person") && label.contains("every label"), label);
        String other = failure("gtran.index.create", Map.of("key", "name", "type", "hash", "ordered", "yes"));
        assertTrue(other.contains("gtran.index.create: unknown parameter ordered=yes"), other);
        g.call("gtran.index.create", Map.of("key", "age", "type", "ordered")).iterate();
        String otherType = failure("gtran.index.create", Map.of("key", "age", "type", "hash"));
        assertTrue(otherType.contains("key=age type=ordered"), otherType);
    }

    @Test
    void droppingAnIndexThatDoesNotExistNamesIt() {
        String absent = failure("gtran.index.drop", Map.of("key", "name"));
        assertTrue(absent.contains("no vertex index to drop: key=name"), absent);
        g.call("gtran.index.create", Map.of("key", "name")).iterate();
        String wrongKind = failure("gtran.index.drop", Map.of("key", "name", "kind", "edge"));
        assertTrue(wrongKind.contains("no edge index to drop: key=name"), wrongKind);
        String missing = failure("gtran.index.drop", Map.of());
        assertTrue(missing.contains("parameter key is required"), missing);
    }

    @Test
    void creatingWithAnOpenTransactionIsRefused() {
        g.addV("person").property("name", "marko").iterate();
        String open = failure("gtran.index.create", Map.of("key", "name"));
        assertTrue(open.contains("commit or roll back"), open);
        assertEquals(List.of(), g.call("gtran.index.list").toList());
    }

    @Test
    void theServicesCanBeTurnedOff() {
        BaseConfiguration configuration = new BaseConfiguration();
        configuration.setProperty(Graph.GRAPH, GtranGraph.class.getName());
        configuration.setProperty(GtranGraph.INDEX_SERVICES, "false");
        try (GtranGraph bare = GtranGraph.open(configuration)) {
            assertEquals(List.of(), bare.traversal().call("--list").toList());
        }
        configuration.setProperty(GtranGraph.INDEX_SERVICES, "maybe");
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> GtranGraph.open(configuration));
        assertTrue(bad.getMessage().contains(GtranGraph.INDEX_SERVICES), bad.getMessage());
    }
}
