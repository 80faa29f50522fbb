package io.gtran.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversal;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Direction;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.util.TransactionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Thread binding, visibility, conflicts, isolation anomalies and user-supplied ids of GtranGraph. */
class GtranTransactionsTest {
    private final TestGraphs opened = new TestGraphs();

    @AfterEach
    void cleanUp() {
        opened.close();
    }

    private GtranGraph open(String isolation) {
        return opened.open(isolation);
    }

    private static Set<Object> names(Graph graph) {
        return graph.traversal().V().values("name").toSet();
    }

    private static void assertConflict(Throwable t) {
        assertInstanceOf(TransactionException.class, t, () -> "expected a TransactionException, got " + t);
        assertNotNull(assertInstanceOf(TransactionAbortedException.class, t).conflict(), () -> "should name the conflict: " + t);
        assertTrue(t.getMessage().contains("conflict="), () -> "message should name the conflict: " + t.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"SERIALIZABLE", "SNAPSHOT"})
    @Timeout(60)
    void threadsSeeOnlyTheirOwnUncommittedWrites(String isolation) throws Exception {
        GtranGraph graph = open(isolation);
        Worker a = opened.worker();
        Worker b = opened.worker();
        a.run(() -> graph.addVertex("name", "a"));
        b.run(() -> graph.addVertex("name", "b"));
        assertEquals(Set.of("a"), a.run(() -> names(graph)));
        assertEquals(Set.of("b"), b.run(() -> names(graph)));
        assertEquals(Set.of(), names(graph), "the test thread has its own, empty view");
        assertTrue(a.run(() -> graph.tx().isOpen()));
        assertFalse(graph.tx().isOpen() && !names(graph).isEmpty());
        a.run(() -> { graph.tx().commit(); return null; });
        b.run(() -> { graph.tx().rollback(); return null; });
        graph.tx().rollback();
        assertEquals(Set.of("a"), names(graph));
        assertEquals(Set.of("a"), b.run(() -> names(graph)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"SERIALIZABLE", "SNAPSHOT"})
    @Timeout(60)
    void commitIsVisibleToLaterTransactionsOnly(String isolation) throws Exception {
        GtranGraph graph = open(isolation);
        Worker writer = opened.worker();
        Worker reader = opened.worker();
        assertEquals(0L, (long) reader.run(() -> graph.traversal().V().count().next())); // reader's snapshot begins
        writer.run(() -> {
            graph.addVertex("name", "x");
            graph.tx().commit();
            return null;
        });
        assertEquals(0L, (long) reader.run(() -> graph.traversal().V().count().next()), "begun before the commit");
        reader.run(() -> { graph.tx().commit(); return null; });
        assertEquals(Set.of("x"), reader.run(() -> names(graph)), "begun after the commit");
    }

    @Test
    @Timeout(60)
    void rollbackDiscardsAddsUpdatesAndRemovals() throws Exception {
        GtranGraph graph = open("SERIALIZABLE");
        Vertex keep = graph.addVertex("name", "keep", "n", 1);
        Vertex gone = graph.addVertex("name", "gone");
        keep.addEdge("e", gone, "w", 1);
        graph.tx().commit();
        graph.addVertex("name", "new");
        keep.property("n", 2);
        keep.property("extra", "y");
        gone.remove();
        assertEquals(Set.of("keep", "new"), names(graph));
        graph.tx().rollback();
        assertFalse(graph.tx().isOpen());
        Worker other = opened.worker();
        for (Callable<List<Object>> view : List.<Callable<List<Object>>>of(
                () -> List.of(names(graph), graph.traversal().V().has("name", "keep").values("n").toList(),
                        graph.traversal().V().has("name", "keep").properties("extra").count().next(),
                        graph.traversal().E().values("w").toList()))) {
            List<Object> expected = List.of(Set.of("keep", "gone"), List.of(1), 0L, List.of(1));
            assertEquals(expected, view.call());
            assertEquals(expected, other.run(view));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"SERIALIZABLE", "SNAPSHOT"})
    @Timeout(60)
    void writeWriteConflictHasOneWinnerAndTheLoserCanRetry(String isolation) throws Exception {
        GtranGraph graph = open(isolation);
        Object id = graph.addVertex("x", 0).id();
        graph.tx().commit();
        Random random = new Random(42);
        for (int round = 0; round < 20; round++) {
            Worker a = opened.worker();
            Worker b = opened.worker();
            boolean aFirst = random.nextBoolean();
            Worker first = aFirst ? a : b;
            Worker second = aFirst ? b : a;
            int v1 = random.nextInt(1000) + 1;
            int v2 = v1 + 1000;
            // both read, then both write, then both commit: exactly one must win
            for (Worker w : List.of(a, b)) {
                w.run(() -> graph.vertices(id).next().value("x"));
            }
            List<Object> outcomes = new ArrayList<>();
            for (Object[] step : new Object[][] {{first, v1}, {second, v2}}) {
                Worker w = (Worker) step[0];
                int value = (int) step[1];
                outcomes.add(w.run(() -> {
                    try {
                        graph.vertices(id).next().property("x", value);
                        return "wrote";
                    } catch (TransactionException e) {
                        return new Object[] {e, graph.tx().isOpen()};
                    }
                }));
            }
            List<Object> commits = new ArrayList<>();
            for (Worker w : List.of(first, second)) {
                commits.add(w.run(() -> {
                    if (!graph.tx().isOpen()) {
                        return "no-txn";
                    }
                    try {
                        graph.tx().commit();
                        return "committed";
                    } catch (TransactionException e) {
                        return new Object[] {e, graph.tx().isOpen()};
                    }
                }));
            }
            int committed = 0;
            Worker loser = null;
            int loserValue = 0;
            for (int i = 0; i < 2; i++) {
                if (outcomes.get(i) instanceof Object[] f) {
                    assertConflict((Throwable) f[0]);
                    assertEquals(true, f[1], "a transaction aborted by its write awaits rollback");
                    Object[] c = (Object[]) commits.get(i);
                    assertInstanceOf(TransactionAbortedException.class, c[0], "its commit is refused");
                    assertTrue(((Throwable) c[0]).getMessage().endsWith("roll back before using it again"), ((Throwable) c[0]).getMessage());
                    assertEquals(true, c[1], "a refused commit leaves it awaiting rollback");
                } else if (commits.get(i) instanceof Object[] f) {
                    assertConflict((Throwable) f[0]);
                    assertEquals(false, f[1], "a transaction aborted at commit is over");
                } else {
                    assertEquals("committed", commits.get(i));
                    committed++;
                    continue;
                }
                loser = i == 0 ? first : second;
                loserValue = i == 0 ? v1 : v2;
            }
            assertEquals(1, committed, "round " + round + ": exactly one of the two writers commits: " + outcomes + " " + commits);
            int retry = loserValue + 5000;
            loser.run(() -> {
                graph.tx().rollback();
                graph.vertices(id).next().property("x", retry);
                graph.tx().commit();
                return null;
            });
            assertEquals(retry, (int) graph.vertices(id).next().value("x"));
            graph.tx().rollback();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"SERIALIZABLE", "SNAPSHOT"})
    @Timeout(60)
    void writeSkewIsPreventedOnlyAtSerializable(String isolation) throws Exception {
        GtranGraph graph = open(isolation);
        Object a = graph.addVertex("on", true).id();
        Object b = graph.addVertex("on", true).id();
        graph.tx().commit();
        Worker t1 = opened.worker();
        Worker t2 = opened.worker();
        Callable<Boolean> readBoth = () -> (boolean) graph.vertices(a).next().value("on") && (boolean) graph.vertices(b).next().value("on");
        assertTrue(t1.run(readBoth));
        assertTrue(t2.run(readBoth));
        t1.run(() -> graph.vertices(a).next().property("on", false));
        t2.run(() -> graph.vertices(b).next().property("on", false));
        Callable<Object> commit = () -> {
            try {
                graph.tx().commit();
                return "committed";
            } catch (TransactionException e) {
                assertConflict(e); // runs in a Future: surfaces through get()
                return graph.tx().isOpen() ? "aborted-but-open" : "aborted";
            }
        };
        List<Object> results = List.of(t1.run(commit), t2.run(commit));
        long committed = results.stream().filter("committed"::equals).count();
        if (isolation.equals("SERIALIZABLE")) {
            assertEquals(1, committed, "write skew must abort one of the two: " + results);
            assertTrue(results.contains("aborted"), results::toString);
            assertEquals(1L, graph.traversal().V().has("on", true).count().next());
        } else {
            assertEquals(2, committed, "SI allows write skew: " + results);
            assertEquals(0L, graph.traversal().V().has("on", true).count().next());
        }
    }

    /**
     * At SR, finding a user-supplied id absent is a read: two transactions that each find the
     * other's id absent and then create their own id cannot both commit. This must hold on a
     * fresh graph, before any id of the kind was ever bound, as well as after; for string and
     * numeric ids, a numeric id looked up in its string form, vertices and edges.
     */
    @ParameterizedTest(name = "{0} {1} ids, bound before: {2}")
    @org.junit.jupiter.params.provider.CsvSource({
        "vertex, string, false", "vertex, string, true",
        "vertex, number, false", "vertex, number, true",
        "vertex, numberAsString, false", "vertex, numberAsString, true",
        "edge, string, false", "edge, string, true",
        "edge, number, false", "edge, numberAsString, false"})
    @Timeout(60)
    void lookUpsOfAbsentIdsAreValidatedEvenBeforeAnyIdIsBound(String kind, String idForm, boolean boundBefore) throws Exception {
        GtranGraph graph = open("SERIALIZABLE");
        boolean edges = kind.equals("edge");
        Vertex hub = graph.addVertex("name", "hub");
        if (boundBefore) {
            if (edges) {
                hub.addEdge("e", hub, T.id, "earlier");
            } else {
                graph.addVertex(T.id, "earlier");
            }
        }
        graph.tx().commit();
        Object first = idForm.equals("string") ? "a" : (Object) 5L;
        Object second = idForm.equals("string") ? "b" : (Object) 6L;
        Object firstAsLookedUp = idForm.equals("numberAsString") ? "5" : first;
        Object secondAsLookedUp = idForm.equals("numberAsString") ? "6" : second;
        Worker t1 = opened.worker();
        Worker t2 = opened.worker();
        Callable<Boolean> t1Reads = () -> edges ? graph.traversal().E(firstAsLookedUp).hasNext() : graph.traversal().V(firstAsLookedUp).hasNext();
        Callable<Boolean> t2Reads = () -> edges ? graph.traversal().E(secondAsLookedUp).hasNext() : graph.traversal().V(secondAsLookedUp).hasNext();
        assertFalse(t1.run(t1Reads));
        assertFalse(t2.run(t2Reads));
        Object hubId = hub.id();
        t1.run(() -> edges ? graph.vertices(hubId).next().addEdge("e", graph.vertices(hubId).next(), T.id, second)
                : graph.addVertex(T.id, second));
        t2.run(() -> edges ? graph.vertices(hubId).next().addEdge("e", graph.vertices(hubId).next(), T.id, first)
                : graph.addVertex(T.id, first));
        Callable<Object> commit = () -> {
            try {
                graph.tx().commit();
                return "committed";
            } catch (TransactionException e) {
                assertConflict(e);
                return "aborted";
            }
        };
        List<Object> results = List.of(t1.run(commit), t2.run(commit));
        assertEquals(List.of("committed", "aborted"), results, "one of the two must abort");
        long created = edges ? graph.traversal().E(first, second).count().next() : graph.traversal().V(first, second).count().next();
        assertEquals(1L, created, "only the first committer's element exists");
        graph.tx().rollback();
    }

    @Test
    @Timeout(60)
    void iteratorsStopOnceTheirTransactionEnds() throws Exception {
        GtranGraph graph = open("SERIALIZABLE");
        Vertex hub = graph.addVertex("name", "hub");
        for (int i = 0; i < 4; i++) {
            hub.addEdge("e", graph.addVertex("name", "n" + i, "k", 1));
        }
        graph.tx().commit();
        GraphTraversalSource g = graph.traversal();
        Iterator<Vertex> all = graph.vertices();
        Iterator<Edge> edges = graph.vertices(hub.id()).next().edges(Direction.OUT);
        GraphTraversal<Vertex, Vertex> scan = g.V();
        GraphTraversal<Vertex, Vertex> filtered = g.V().has("k", 1);
        assertNotNull(all.next());
        assertNotNull(edges.next());
        assertNotNull(scan.next());
        assertNotNull(filtered.next());
        graph.tx().commit();
        assertFalse(all.hasNext(), "graph.vertices() after commit");
        assertFalse(edges.hasNext(), "vertex.edges() after commit");
        assertFalse(scan.hasNext(), "g.V() after commit");
        assertFalse(filtered.hasNext(), "g.V().has() after commit");
        Iterator<Vertex> afterRollback = graph.vertices();
        afterRollback.next();
        graph.tx().rollback();
        assertFalse(afterRollback.hasNext(), "graph.vertices() after rollback");
    }

    @Test
    @Timeout(60)
    void removedElementsRefusePropertyAccess() throws Exception {
        GtranGraph graph = open("SERIALIZABLE");
        Vertex v = graph.addVertex("name", "v");
        Vertex w = graph.addVertex("name", "w");
        Edge e = v.addEdge("e", w, "weight", 1);
        Edge f = w.addEdge("f", w, "weight", 2);
        graph.tx().commit();
        e.remove();
        assertThrows(IllegalStateException.class, () -> e.property("weight"));
        assertThrows(IllegalStateException.class, () -> e.value("weight"));
        assertThrows(IllegalStateException.class, () -> e.property("weight", 3));
        assertThrows(IllegalStateException.class, e::properties);
        v.remove();
        assertThrows(IllegalStateException.class, () -> v.property("name"));
        assertThrows(IllegalStateException.class, () -> v.value("name"));
        assertThrows(IllegalStateException.class, () -> v.property("name", "again"));
        assertThrows(IllegalStateException.class, v::properties);
        assertThrows(IllegalStateException.class, () -> v.addEdge("e", w));
        graph.tx().commit();
        // removed by another thread's committed transaction: the old object refuses in a new one
        Worker other = opened.worker();
        other.run(() -> { graph.vertices(w.id()).next().remove(); graph.tx().commit(); return null; });
        assertThrows(IllegalStateException.class, () -> w.property("name"));
        assertThrows(IllegalStateException.class, () -> f.property("weight"), "edges go with their vertex");
        assertEquals(0L, graph.traversal().V().count().next());
        assertEquals(0L, graph.traversal().E().count().next());
    }

    static Object idOfKind(String kind, Random random) {
        switch (kind) {
            case "String": return "id-" + random.nextInt(1_000_000);
            case "Long": return (long) random.nextInt(1_000_000_000) + 1;
            default: return new UUID(random.nextLong(), random.nextLong());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"String", "Long", "UUID"})
    @Timeout(120)
    void concurrentCreationOfTheSameIdLeavesOneVertex(String kind) throws Exception {
        GtranGraph graph = open("SERIALIZABLE");
        Random random = new Random(7 + kind.hashCode());
        ExecutorService pool = opened.executor(Executors.newFixedThreadPool(2));
        int rounds = 25;
        Set<Object> ids = new HashSet<>();
        for (int round = 0; round < rounds; round++) {
            Object id = idOfKind(kind, random);
            if (!ids.add(id)) {
                continue;
            }
            CyclicBarrier created = new CyclicBarrier(2);
            List<Future<String>> results = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                int who = t;
                results.add(pool.submit(() -> {
                    String outcome = null;
                    boolean abortedWhileRunning = false;
                    try {
                        graph.addVertex(T.id, id, "who", who);
                    } catch (TransactionException e) {
                        outcome = e.getClass().getSimpleName();
                        abortedWhileRunning = true;
                    } catch (IllegalArgumentException e) {
                        outcome = e.getClass().getSimpleName();
                    }
                    created.await(10, TimeUnit.SECONDS);
                    if (abortedWhileRunning) {
                        // aborted while running: it awaits rollback, and its commit is refused
                        try {
                            graph.tx().commit();
                            return "committed after an abort";
                        } catch (TransactionAbortedException refused) {
                            graph.tx().rollback();
                        }
                    }
                    if (outcome == null) {
                        try {
                            graph.tx().commit();
                            return "committed";
                        } catch (TransactionException e) {
                            outcome = "TransactionException" + (graph.tx().isOpen() ? "+open" : "");
                        }
                    }
                    if (graph.tx().isOpen()) {
                        graph.tx().rollback();
                    }
                    return outcome;
                }));
            }
            List<String> outcomes = new ArrayList<>();
            for (Future<String> r : results) {
                outcomes.add(r.get(20, TimeUnit.SECONDS));
            }
            assertEquals(1, outcomes.stream().filter("committed"::equals).count(), "round " + round + ": " + outcomes);
            assertFalse(outcomes.stream().anyMatch(o -> o.endsWith("+open")),
                    "a loser aborted at commit by a concurrent creation of id " + id + " must not keep an open transaction: " + outcomes);
            assertEquals(1L, graph.traversal().V(id).count().next(), "round " + round);
            graph.tx().rollback();
        }
        assertEquals(ids.size(), graph.traversal().V().count().next(), "one vertex per id, no orphans");
        assertEquals(ids, graph.traversal().V().id().toSet());
    }

    @ParameterizedTest
    @ValueSource(strings = {"String", "Long", "UUID"})
    @Timeout(60)
    void anIdIsFreeAgainAfterRollbackOrCommittedRemoval(String kind) throws Exception {
        GtranGraph graph = open("SERIALIZABLE");
        Object id = idOfKind(kind, new Random(11));
        graph.addVertex(T.id, id, "gen", 0);
        graph.tx().rollback();
        assertFalse(graph.vertices(id).hasNext());
        graph.addVertex(T.id, id, "gen", 1);
        graph.tx().commit();
        assertEquals(List.of(1), graph.traversal().V(id).values("gen").toList());
        assertThrows(IllegalArgumentException.class, () -> graph.addVertex(T.id, id), "taken while it lives");
        graph.tx().rollback();
        graph.vertices(id).next().remove();
        graph.tx().commit();
        assertFalse(graph.vertices(id).hasNext());
        graph.addVertex(T.id, id, "gen", 2);
        graph.tx().commit();
        assertEquals(List.of(2), graph.traversal().V(id).values("gen").toList());
        // removal and re-creation in one transaction, then a rolled back re-creation
        graph.vertices(id).next().remove();
        graph.addVertex(T.id, id, "gen", 3);
        graph.tx().commit();
        assertEquals(List.of(3), opened.worker().run(() -> graph.traversal().V(id).values("gen").toList()));
        graph.vertices(id).next().remove();
        graph.tx().commit();
        graph.addVertex(T.id, id, "gen", 4);
        graph.tx().rollback();
        assertFalse(graph.vertices(id).hasNext());
        graph.addVertex(T.id, id, "gen", 5);
        graph.tx().commit();
        assertEquals(List.of(5), graph.traversal().V(id).values("gen").toList());
        assertEquals(1L, graph.traversal().V().count().next());
    }

    @ParameterizedTest
    @ValueSource(strings = {"SERIALIZABLE", "SNAPSHOT"})
    @Timeout(60)
    void aSnapshotKeepsFindingAVertexByIdAfterItsIdIsReused(String isolation) throws Exception {
        GtranGraph graph = open(isolation);
        graph.addVertex(T.id, "x", "gen", "old");
        graph.tx().commit();
        Worker reader = opened.worker();
        assertEquals(List.of("old"), reader.run(() -> graph.traversal().V("x").values("gen").toList()));
        opened.worker().run(() -> {
            graph.vertices("x").next().remove();
            graph.addVertex(T.id, "x", "gen", "new");
            graph.tx().commit();
            return null;
        });
        assertEquals(List.of("old"), reader.run(() -> graph.traversal().V().values("gen").toList()), "scan in the reader's snapshot");
        assertEquals(List.of("old"), reader.run(() -> graph.traversal().V("x").values("gen").toList()),
                "look-up by id in the reader's snapshot must agree with its scan");
    }
}
