package io.gtran.server;

import static org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource.traversal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.exception.ResponseException;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.util.ser.Serializers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Index management from a driver: the gtran.index.* services and indexed() reach the client with each serializer. */
@Timeout(120)
class GtranRemoteIndexTest {
    private static TestNode node;

    @BeforeAll
    static void startNode() {
        node = TestNode.start();
    }

    @AfterAll
    static void stopNode() {
        node.close();
    }

    private static Map<String, String> index(String kind, String key, String type) {
        return Map.of("kind", kind, "key", key, "type", type);
    }

    private static Throwable rootOf(Throwable e) {
        Throwable t = e;
        while (!(t instanceof ResponseException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    @ParameterizedTest
    @EnumSource(value = Serializers.class, names = {"GRAPHBINARY_V1", "GRAPHSON_V3"})
    void createListAndDropThroughCall(Serializers serializer) throws Exception {
        Cluster cluster = node.cluster(serializer);
        GraphTraversalSource g = traversal().with(DriverRemoteConnection.using(cluster, "g"));
        try {
            String key = "name_" + serializer.name().toLowerCase();
            assertTrue(g.call("--list").toList().containsAll(List.of("gtran.index.create", "gtran.index.list", "gtran.index.drop")));
            assertEquals(List.of(index("vertex", key, "hash")),
                    g.call("gtran.index.create", Map.of("key", key, "type", "hash", "kind", "vertex")).toList());
            assertEquals(List.of(index("edge", key, "ordered")),
                    g.call("gtran.index.create", Map.of("key", key, "type", "ordered", "kind", "edge")).toList());
            List<Object> listed = g.call("gtran.index.list").toList();
            assertTrue(listed.contains(index("vertex", key, "hash")) && listed.contains(index("edge", key, "ordered")), listed.toString());

            g.addV("person").property(key, "marko").iterate();
            assertEquals(1L, g.V().has(key, "marko").count().next());

            Client client = cluster.connect();
            Object indexed = client.submit("graph.indexes().indexed(Vertex.class)").all().get().get(0).getObject();
            assertEquals("hash", ((Map<?, ?>) indexed).get(key), "indexed() reaches the driver: " + indexed);
            assertEquals("hash", client.submit("graph.indexes().indexed(Vertex.class).get('" + key + "')").one().getString());

            assertEquals(List.of(index("vertex", key, "hash")), g.call("gtran.index.drop", Map.of("key", key)).toList());
            assertEquals(List.of(index("edge", key, "ordered")), g.call("gtran.index.drop", Map.of("key", key, "kind", "edge")).toList());
            listed = g.call("gtran.index.list").toList();
            assertTrue(!listed.contains(index("vertex", key, "hash")) && !listed.contains(index("edge", key, "ordered")), listed.toString());

            Throwable absent = rootOf(assertThrows(Exception.class, () -> g.call("gtran.index.drop", Map.of("key", key)).toList()));
            assertTrue(absent.getMessage().contains("no vertex index to drop: key=" + key), absent.getMessage());
            Throwable badType = rootOf(assertThrows(Exception.class,
                    () -> g.call("gtran.index.create", Map.of("key", key, "type", "btree")).toList()));
            assertTrue(badType.getMessage().contains("type=btree"), badType.getMessage());
            Throwable missing = rootOf(assertThrows(Exception.class, () -> g.call("gtran.index.create", Map.of("type", "hash")).toList()));
            assertTrue(missing.getMessage().contains("parameter key is required"), missing.getMessage());
        } finally {
            g.close();
            cluster.close();
        }
    }
}
