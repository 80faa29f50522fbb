package io.gtran.server;

import static org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource.traversal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.exception.ResponseException;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Bad input through the server gets a clear error; the node keeps serving and loses nothing committed. */
class GtranServerBadInputTest {
    private static TestNode node;
    private Cluster cluster;
    private Client client;
    private GraphTraversalSource g;

    @BeforeAll
    static void startNode() {
        node = TestNode.start();
    }

    @AfterAll
    static void stopNode() {
        node.close();
    }

    @BeforeEach
    void connect() {
        cluster = node.cluster();
        client = cluster.connect();
        g = traversal().with(DriverRemoteConnection.using(cluster, "g"));
        g.V().drop().iterate();
        g.addV("person").property(T.id, "keep").property("name", "committed").iterate();
    }

    @AfterEach
    void disconnect() throws Exception {
        g.close();
        client.close();
        cluster.close();
    }

    private void stillServing() {
        assertEquals(List.of("committed"), g.V("keep").values("name").toList(), "committed data is intact and the node answers");
    }

    private static ResponseException failing(Runnable request) {
        Exception e = assertThrows(Exception.class, request::run);
        ResponseException response = GtranRemoteTransactionTest.responseException(e);
        assertNotNull(response, "expected a server response error, got " + e);
        return response;
    }

    @Test
    @Timeout(60)
    void malformedGremlinGetsAnEvaluationError() {
        ResponseException e = failing(() -> client.submit("g.V(").all().join());
        assertEquals(ResponseStatusCode.SERVER_ERROR_EVALUATION, e.getResponseStatusCode(), e.getMessage());
        stillServing();
    }

    @Test
    @Timeout(60)
    void anUnknownStepGetsAnEvaluationErrorNamingIt() {
        ResponseException e = failing(() -> client.submit("g.V().noSuchStep()").all().join());
        assertEquals(ResponseStatusCode.SERVER_ERROR_EVALUATION, e.getResponseStatusCode(), e.getMessage());
        assertTrue(e.getMessage().contains("noSuchStep"), e.getMessage());
        stillServing();
    }

    @Test
    @Timeout(60)
    void idsOfAWrongTypeFindNothingAndCannotBeGiven() {
        assertEquals(0L, g.V(1.5).count().next());
        assertEquals(0L, g.V(List.of("x")).count().next());
        assertEquals(0L, g.E("keep").count().next());
        ResponseException e = failing(() -> g.addV("person").property(T.id, 1.5).iterate());
        assertTrue(e.getMessage().toLowerCase().contains("id"), e.getMessage());
        stillServing();
        assertEquals(1L, g.V().count().next(), "the refused vertex was not created");
    }

    @Test
    @Timeout(120)
    void aSixtyFourMebibyteStringIsRefusedAndTheNodeKeepsServing() {
        String big = "x".repeat(64 << 20);
        assertThrows(Exception.class, () -> g.addV("person").property("big", big).iterate());
        // the request was over the frame limit; the connection may have been closed: reconnect
        Cluster fresh = node.cluster();
        try {
            GraphTraversalSource again = traversal().with(DriverRemoteConnection.using(fresh, "g"));
            assertEquals(List.of("committed"), again.V().values("name").toList());
            assertEquals(0L, again.V().has("big").count().next(), "nothing of the refused request remains");
        } finally {
            fresh.close();
        }
    }

    @Test
    @Timeout(60)
    void aScriptThatThrowsRollsBackItsWrites() {
        ResponseException e = failing(() -> client.submit("g.addV('person').property('name','half').iterate(); throw new IllegalStateException('midway')").all().join());
        assertTrue(e.getMessage().contains("midway"), e.getMessage());
        assertEquals(1L, g.V().count().next(), "the write before the failure was rolled back");
        stillServing();
    }
}
