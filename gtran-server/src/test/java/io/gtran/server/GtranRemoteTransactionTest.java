package io.gtran.server;

import static org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource.traversal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.exception.ResponseException;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Transaction;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;
import org.apache.tinkerpop.gremlin.util.ser.Serializers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

/**
 * Transactions of remote users through the Java driver: sessionless requests and g.tx(), and
 * clients that vanish mid-transaction (their driver closes the session, their TCP connection is
 * cut, their process is killed): within {@link #VANISHED_BOUND_MILLIS} another client writes what
 * such a client had written, without a 596, and sees none of its writes (docs/server.md); and
 * sessions whose transaction a conflict aborted: every later request is refused with a 596 until
 * the client rolls back, so nothing of the unit of work lands.
 */
class GtranRemoteTransactionTest {
    /** The documented bound on how long a vanished client's locks outlive it. */
    static final long VANISHED_BOUND_MILLIS = 2_000;
    /** The name of the vertex the vanishing clients write on. */
    private static final String ACCOUNT = "shared";
    /** How the first 596 of a transaction aborted mid-way ends, and how every later one does. */
    private static final String WHILE_RUNNING = "roll back, then retry the whole transaction";
    private static final String AWAITING = "roll back before using it again";

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
    void aDriverClosingItsSessionWithoutCommitReleasesItsLocksAndKeepsNoWrite() throws Exception {
        addAccount(g);
        Cluster vanishing = node.cluster();
        VanishingClient.writeWithoutCommit(traversal().with(DriverRemoteConnection.using(vanishing, "g")), ACCOUNT);
        assertLocked(g);
        vanishing.close(); // the session's connection goes, with neither commit nor rollback
        assertNothingLeftBehind(g, System.nanoTime(), VANISHED_BOUND_MILLIS, "driver closed its session");
    }

    @Test
    @Timeout(60)
    void aConnectionCutMidTransactionReleasesItsLocksAndKeepsNoWrite() throws Exception {
        addAccount(g);
        try (CuttableProxy proxy = new CuttableProxy(node.port)) {
            Cluster vanishing = Cluster.build("127.0.0.1").port(proxy.port()).serializer(Serializers.GRAPHBINARY_V1).create();
            try {
                VanishingClient.writeWithoutCommit(traversal().with(DriverRemoteConnection.using(vanishing, "g")), ACCOUNT);
                assertLocked(g);
                assertTrue(proxy.connections() > 0, "the client went through the proxy");
                proxy.cut();
                assertNothingLeftBehind(g, System.nanoTime(), VANISHED_BOUND_MILLIS, "TCP connection reset");
            } finally {
                vanishing.close();
            }
        }
    }

    @Test
    @Timeout(120)
    void aClientProcessKilledMidTransactionReleasesItsLocksAndKeepsNoWrite() throws Exception {
        addAccount(g);
        Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process client = new ProcessBuilder(java.toString(), "-cp", classpath, VanishingClient.class.getName(),
                Integer.toString(node.port), ACCOUNT).redirectErrorStream(true).start();
        ExecutorService reader = Executors.newSingleThreadExecutor();
        try {
            Future<List<String>> wrote = reader.submit(() -> readUntilWrote(client));
            List<String> output = wrote.get(60, TimeUnit.SECONDS);
            assertEquals(VanishingClient.WROTE, output.get(output.size() - 1), "the client process wrote: " + output);
            assertLocked(g);
            client.destroyForcibly(); // SIGKILL: the process gets no chance to close anything
            assertTrue(client.waitFor(30, TimeUnit.SECONDS), "the client process died");
            assertNothingLeftBehind(g, System.nanoTime(), VANISHED_BOUND_MILLIS, "client process killed (SIGKILL)");
        } finally {
            client.destroyForcibly();
            reader.shutdownNow();
        }
    }

    @Test
    @Timeout(60)
    void aClientCutOffSilentlyIsDroppedAfterTheIdleTimeoutAndItsLocksGo() throws Exception {
        long idleMillis = 3_000;
        try (TestNode idle = TestNode.start("keepAliveInterval: 1000", "idleConnectionTimeout: " + idleMillis);
             CuttableProxy proxy = new CuttableProxy(idle.port)) {
            Cluster survivor = idle.cluster();
            Cluster vanishing = Cluster.build("127.0.0.1").port(proxy.port()).serializer(Serializers.GRAPHBINARY_V1).create();
            try {
                GraphTraversalSource gs = traversal().with(DriverRemoteConnection.using(survivor, "g"));
                addAccount(gs);
                VanishingClient.writeWithoutCommit(traversal().with(DriverRemoteConnection.using(vanishing, "g")), ACCOUNT);
                Thread.sleep(idleMillis + 1_000); // an idle client that answers the server's pings keeps its session
                assertLocked(gs);
                proxy.silence(); // no FIN, no RST: the server hears nothing more from the client
                assertNothingLeftBehind(gs, System.nanoTime(), idleMillis + VANISHED_BOUND_MILLIS, "connection silenced");
            } finally {
                vanishing.close();
                survivor.close();
            }
        }
    }

    /** The client's output up to the line saying it wrote (or to its end, if it died first). */
    private static List<String> readUntilWrote(Process client) throws Exception {
        List<String> lines = new ArrayList<>();
        BufferedReader out = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
        for (String line; (line = out.readLine()) != null; ) {
            lines.add(line);
            if (line.equals(VanishingClient.WROTE)) {
                break;
            }
        }
        return lines;
    }

    /** The vanishing transaction holds its write lock: another writer gets a 596 naming the conflict. */
    private static void assertLocked(GraphTraversalSource g) {
        Exception e = assertThrows(Exception.class, () -> g.V().has("name", ACCOUNT).property("owner", "survivor").iterate());
        ResponseException r = responseException(e);
        assertNotNull(r, "a server response error: " + e);
        assertEquals(ResponseStatusCode.SERVER_ERROR_TEMPORARY, r.getResponseStatusCode(), r.getMessage());
        assertTrue(r.getMessage().contains("WRITE_WRITE"), r.getMessage());
    }

    /**
     * Within {@code boundMillis} of {@code vanishedAt} another client ({@code g}) writes the property
     * the vanished transaction had written, and none of that transaction's writes is to be seen.
     */
    private static void assertNothingLeftBehind(GraphTraversalSource g, long vanishedAt, long boundMillis, String how)
            throws InterruptedException {
        long millis;
        while (true) {
            try {
                g.V().has("name", ACCOUNT).property("owner", "survivor").iterate();
                millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - vanishedAt);
                break;
            } catch (RuntimeException e) {
                ResponseException r = responseException(e);
                if (r == null || r.getResponseStatusCode() != ResponseStatusCode.SERVER_ERROR_TEMPORARY) {
                    throw e;
                }
                if (System.nanoTime() - vanishedAt > TimeUnit.MILLISECONDS.toNanos(boundMillis)) {
                    fail(how + ": the vanished transaction still holds its lock after " + boundMillis + " ms: " + r.getMessage());
                }
                Thread.sleep(10);
            }
        }
        System.out.printf("GtranRemoteTransactionTest: %s: lock gone %d ms after the client vanished%n", how, millis);
        assertEquals(List.of("survivor"), g.V().has("name", ACCOUNT).values("owner").toList());
        assertEquals(0L, g.V().hasLabel(VanishingClient.VANISHED).has("name", ACCOUNT).count().next(),
                "the vanished transaction's new vertex is gone");
    }

    private static void addAccount(GraphTraversalSource g) {
        g.addV("account").property("name", ACCOUNT).property("owner", "nobody").iterate();
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
        second.rollback(); // clears the aborted transaction the session kept
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

    /** The 596 that {@code request} fails with; its message ends with {@code advice}. */
    private static ResponseException assertAborted(Executable request, String advice) {
        Exception e = assertThrows(Exception.class, request);
        ResponseException r = responseException(e);
        assertNotNull(r, "a server response error: " + e);
        assertEquals(ResponseStatusCode.SERVER_ERROR_TEMPORARY, r.getResponseStatusCode(), r.getMessage());
        assertTrue(r.getMessage().startsWith("transaction aborted by a conflict (conflict=WRITE_WRITE "), r.getMessage());
        assertTrue(r.getMessage().endsWith("); " + advice), r.getMessage());
        return r;
    }

    /** Rolls {@code tx} back unless it ended, so that a failed test leaves no lock to the next. */
    private static void release(Transaction tx) {
        if (tx.isOpen()) {
            tx.rollback();
        }
    }

    /** A remote transaction that holds the write lock on the balance of vertex {@code id}. */
    private Transaction lockBalance(Object id) {
        Transaction holder = g.tx();
        holder.begin(GraphTraversalSource.class).V(id).property("balance", 150).iterate();
        return holder;
    }

    @Test
    @Timeout(60)
    void afterAConflictASessionRefusesEveryRequestUntilRolledBackAndNothingOfItLands() {
        Object id = g.addV("account").property("balance", 100).id().next();
        Transaction holder = lockBalance(id);
        Transaction tx = g.tx();
        try {
            GraphTraversalSource gtx = tx.begin();
            gtx.addV("entry").property("name", "first half").iterate();
            assertAborted(() -> gtx.V(id).property("balance", 50).iterate(), WHILE_RUNNING);

            // the client carries on as if nothing had happened: every request is refused, commit too
            assertAborted(() -> gtx.addV("entry").property("name", "second half").iterate(), AWAITING);
            assertAborted(() -> gtx.V().count().next(), AWAITING);
            assertAborted(tx::commit, AWAITING);
            assertAborted(tx::commit, AWAITING);
            holder.commit();
            assertEquals(0L, g.V().hasLabel("entry").count().next(), "nothing of the aborted unit of work landed");
            assertEquals(150, g.V(id).values("balance").next());
        } finally {
            release(holder);
        }
        tx.rollback(); // answered with success: it clears the aborted transaction, and ends the session
        Transaction retry = g.tx(); // the whole unit of work again, at a new begin time
        GraphTraversalSource again = retry.begin();
        again.addV("entry").property("name", "first half").iterate();
        again.V(id).property("balance", 50).iterate();
        again.addV("entry").property("name", "second half").iterate();
        retry.commit();
        assertEquals(List.of("first half", "second half"), g.V().hasLabel("entry").values("name").order().toList());
        assertEquals(50, g.V(id).values("balance").next());
    }

    @Test
    @Timeout(60)
    void aScriptSessionWorksAgainOnceItsAbortedTransactionIsRolledBack() throws Exception {
        Object id = g.addV("account").property("balance", 100).id().next();
        Transaction holder = lockBalance(id);
        Client session = cluster.connect(UUID.randomUUID().toString());
        try {
            session.submit("g.addV('entry').property('name', 'first half').iterate()").all().get(20, TimeUnit.SECONDS);
            // a script meets the conflict: a 596 like a traversal's (not the 597 of a failed script)
            assertAborted(() -> session.submit("g.V(account).property('balance', 50).iterate()", Map.of("account", id)).all().get(20, TimeUnit.SECONDS),
                    WHILE_RUNNING);
            assertAborted(() -> session.submit("g.addV('entry').property('name', 'second half').iterate()").all().get(20, TimeUnit.SECONDS),
                    AWAITING);
            assertAborted(() -> session.submit("g.tx().commit()").all().get(20, TimeUnit.SECONDS), AWAITING);
            holder.rollback();
            session.submit("g.tx().rollback()").all().get(20, TimeUnit.SECONDS);
            session.submit("g.addV('entry').property('name', 'retried').iterate(); g.V(account).property('balance', 50).iterate(); g.tx().commit()",
                    Map.of("account", id)).all().get(20, TimeUnit.SECONDS);
        } finally {
            release(holder);
            session.close();
        }
        assertEquals(List.of("retried"), g.V().hasLabel("entry").values("name").toList());
        assertEquals(50, g.V(id).values("balance").next());
    }

    @Test
    @Timeout(60)
    void sessionlessRequestsThatMeetAConflictLeaveTheServersThreadsClean() {
        Object id = g.addV("account").property("balance", 100).id().next();
        Transaction holder = lockBalance(id);
        int requests = 4 * Runtime.getRuntime().availableProcessors() + 4; // more than gremlinPool, whose threads serve them
        try {
            for (int i = 0; i < requests; i++) {
                int balance = i;
                assertAborted(() -> g.V(id).property("balance", balance).iterate(), WHILE_RUNNING);
            }
        } finally {
            release(holder);
        }
        for (int i = 0; i < requests; i++) {
            g.addV("entry").property("n", i).iterate(); // each its own transaction: no thread kept an aborted one
        }
        assertEquals((long) requests, g.V().hasLabel("entry").count().next());
    }

    /** docs/server.md's retry loop for Java, word for word: re-runs the whole unit of work on a 596. */
    static <T> T inTransaction(GraphTraversalSource g, Function<GraphTraversalSource, T> work) {
        for (int attempt = 1; ; attempt++) {
            Transaction tx = g.tx();
            try {
                T result = work.apply(tx.begin());
                tx.commit();
                return result;
            } catch (RuntimeException e) {
                if (tx.isOpen()) {
                    tx.rollback(); // ends the aborted transaction, and the session
                }
                if (!isConflict(e) || attempt == 5) {
                    throw e;
                }
            }
        }
    }

    static boolean isConflict(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ResponseException r && r.getResponseStatusCode() == ResponseStatusCode.SERVER_ERROR_TEMPORARY) {
                return true;
            }
        }
        return false;
    }

    @Test
    @Timeout(60)
    void theDocumentedRetryLoopRerunsTheWholeUnitOfWorkAfterAConflictMidWay() {
        Object id = g.addV("account").property("balance", 100).id().next();
        Transaction holder = lockBalance(id);
        List<Integer> attempts = new ArrayList<>();
        try {
            inTransaction(g, gtx -> {
                attempts.add(attempts.size() + 1);
                if (attempts.size() == 2) {
                    holder.rollback(); // the other client lets go before the retry
                }
                gtx.addV("entry").property("attempt", attempts.size()).iterate();
                return gtx.V(id).property("balance", 50).iterate(); // the first attempt meets the lock
            });
        } finally {
            release(holder);
        }
        assertEquals(List.of(1, 2), attempts);
        assertEquals(List.of(2), g.V().hasLabel("entry").values("attempt").toList(), "only the retry's writes landed");
        assertEquals(50, g.V(id).values("balance").next());
    }

    @Test
    @Timeout(60)
    void theDocumentedRetryLoopRerunsTheWholeUnitOfWorkAfterAConflictAtCommit() {
        Object id = g.addV("account").property("balance", 100).id().next();
        List<Object> seen = new ArrayList<>();
        inTransaction(g, gtx -> {
            seen.add(gtx.V(id).values("balance").next());
            if (seen.size() == 1) {
                g.V(id).property("balance", 70).iterate(); // another client's write commits after the read
            }
            return gtx.addV("entry").property("seen", seen.get(seen.size() - 1)).iterate(); // SR: the stale read fails the commit
        });
        assertEquals(List.of(100, 70), seen);
        assertEquals(List.of(70), g.V().hasLabel("entry").values("seen").toList(), "only the retry's writes landed");
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
