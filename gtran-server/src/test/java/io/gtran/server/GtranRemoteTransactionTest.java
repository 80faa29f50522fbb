package io.gtran.server;

import static org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource.traversal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.exception.ResponseException;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Transaction;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Transactions of remote users through the Java driver: sessionless requests and g.tx(). */
class GtranRemoteTransactionTest {
    private static TestNode node;
    private Cluster cluster;
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
    void connect() throws Exception {
        cluster = node.cluster();
        g = traversal().with(DriverRemoteConnection.using(cluster, "g"));
        g.V().drop().iterate();
    }

    @AfterEach
    void disconnect() throws Exception {
        g.close();
        cluster.close();
    }

    @Test
    @Timeout(60)
    void aSessionlessRequestCommitsOnSuccessAndRollsBackOnError() {
        g.addV("person").property("name", "ok").iterate();
        assertEquals(1L, g.V().count().next(), "committed when the request succeeded");
        Exception e = assertThrows(Exception.class, () -> g.addV("person").property("name", "doomed").fail("boom").iterate());
        assertNotNull(responseException(e), "the failure reaches the client: " + e);
        assertEquals(List.of("ok"), g.V().values("name").toList(), "the failed request's vertex was rolled back");
    }

    @Test
    @Timeout(60)
    void aRemoteTransactionCommits() {
        Transaction tx = g.tx();
        GraphTraversalSource gtx = tx.begin();
        gtx.addV("person").property("name", "a").iterate();
        assertEquals(1L, gtx.V().count().next(), "the transaction sees its own write");
        assertEquals(0L, g.V().count().next(), "others do not see it before commit");
        tx.commit();
        assertEquals(1L, g.V().count().next());
    }

    @Test
    @Timeout(60)
    void aRemoteTransactionRollsBack() {
        Transaction tx = g.tx();
        GraphTraversalSource gtx = tx.begin();
        gtx.addV("person").property("name", "a").iterate();
        tx.rollback();
        assertEquals(0L, g.V().count().next());
    }

    @Test
    @Timeout(60)
    void closingARemoteTransactionCommitsByDefaultOrRollsBackIfAsked() throws Exception {
        Transaction tx = g.tx();
        GraphTraversalSource gtx = tx.begin();
        gtx.addV("person").property("name", "kept").iterate();
        tx.close(); // the driver's documented default on close: commit
        assertEquals(List.of("kept"), g.V().values("name").toList());

        Transaction dropped = g.tx();
        dropped.onClose(Transaction.CLOSE_BEHAVIOR.ROLLBACK);
        GraphTraversalSource gdropped = dropped.begin();
        gdropped.addV("person").property("name", "dropped").iterate();
        dropped.close();
        assertEquals(List.of("kept"), g.V().values("name").toList());
    }

    @Test
    @Timeout(60)
    void aClientThatDisconnectsMidTransactionLeavesNothingBehind() throws Exception {
        Cluster other = node.cluster();
        GraphTraversalSource go = traversal().with(DriverRemoteConnection.using(other, "g"));
        Transaction tx = go.tx();
        GraphTraversalSource gtx = tx.begin();
        gtx.addV("person").property("name", "orphan").iterate();
        other.close(); // the connection goes away without commit or rollback
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (g.V().count().next() != 0 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(0L, g.V().count().next(), "the session's transaction was rolled back");
        g.addV("person").property("name", "after").iterate();
        assertEquals(List.of("after"), g.V().values("name").toList(), "the node keeps serving");
    }

    @Test
    @Timeout(60)
    void twoSessionsWritingTheSameValueEndInOneSuccessAndOneRetryableError() {
        Object id = g.addV("account").property("balance", 100).id().next();

        Transaction first = g.tx();
        GraphTraversalSource one = first.begin();
        Transaction second = g.tx();
        GraphTraversalSource two = second.begin();
        assertEquals(100, one.V(id).values("balance").next());
        assertEquals(100, two.V(id).values("balance").next());

        one.V(id).property("balance", 150).iterate();
        Exception e = assertThrows(Exception.class, () -> {
            two.V(id).property("balance", 50).iterate();
            second.commit();
        });
        ResponseException response = responseException(e);
        assertNotNull(response, "a server response error: " + e);
        assertEquals(ResponseStatusCode.SERVER_ERROR_TEMPORARY, response.getResponseStatusCode(), response.getMessage());
        assertTrue(response.getMessage().contains("conflict"), "the message names the conflict: " + response.getMessage());
        try {
            second.rollback();
        } catch (RuntimeException alreadyGone) {
            // the server ended that transaction when it aborted; nothing left to roll back
        }
        first.commit();
        assertEquals(150, g.V(id).values("balance").next(), "exactly one of the two writes took effect");
    }

    @Test
    @Timeout(60)
    void aRetriedTransactionSucceedsAfterTheConflict() {
        Object id = g.addV("account").property("balance", 100).id().next();
        Transaction first = g.tx();
        GraphTraversalSource one = first.begin();
        one.V(id).property("balance", 150).iterate();
        Transaction second = g.tx();
        GraphTraversalSource two = second.begin();
        assertThrows(Exception.class, () -> two.V(id).property("balance", 50).iterate());
        first.commit();
        Transaction retry = g.tx();
        GraphTraversalSource again = retry.begin();
        again.V(id).property("balance", 200).iterate();
        retry.commit();
        assertEquals(Map.of("balance", List.of(200)), g.V(id).valueMap("balance").next());
    }

    static ResponseException responseException(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ResponseException r) {
                return r;
            }
        }
        return null;
    }
}
