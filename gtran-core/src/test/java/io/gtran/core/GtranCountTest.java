package io.gtran.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.core.process.traversal.step.GtranCountStep;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.tinkerpop.gremlin.process.traversal.P;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.__;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.util.TransactionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code count()} right after {@code V()}/{@code E()} (with one {@code hasLabel} at most) is read
 * from the element counters ({@link GtranCountStrategy}); every answer must equal what the
 * ordinary steps give in the same transaction, which the tests get by listing the elements.
 */
class GtranCountTest {
    private final TestGraphs opened = new TestGraphs();

    @AfterEach
    void cleanUp() {
        opened.close();
    }

    private static List<Function<GraphTraversalSource, Traversal<?, Long>>> counted() {
        return List.of(
                g -> g.V().count(),
                g -> g.E().count(),
                g -> g.V().hasLabel("person").count(),
                g -> g.V().hasLabel("person", "post", "person").count(),
                g -> g.E().hasLabel("knows").count(),
                g -> g.E().hasLabel("knows", "likes").count(),
                g -> g.E().hasLabel("no-such-label").count(),
                g -> g.V().hasLabel(P.within("post")).count());
    }

    /** The elements the same traversal counts, listed one by one (no counters involved). */
    private static long listed(GraphTraversalSource g, int which) {
        switch (which) {
            case 0: return g.V().toList().size();
            case 1: return g.E().toList().size();
            case 2: return g.V().hasLabel("person").toList().size();
            case 3: return g.V().hasLabel("person", "post", "person").toList().size();
            case 4: return g.E().hasLabel("knows").toList().size();
            case 5: return g.E().hasLabel("knows", "likes").toList().size();
            case 6: return g.E().hasLabel("no-such-label").toList().size();
            default: return g.V().hasLabel(P.within("post")).toList().size();
        }
    }

    private static void assertCountsAgree(GraphTraversalSource g, String when) {
        List<Function<GraphTraversalSource, Traversal<?, Long>>> counted = counted();
        for (int i = 0; i < counted.size(); i++) {
            Traversal.Admin<?, Long> traversal = counted.get(i).apply(g).asAdmin();
            traversal.applyStrategies();
            assertTrue(traversal.getStartStep() instanceof GtranCountStep, () -> "not counted from the counters: " + traversal);
            assertEquals(listed(g, i), traversal.next(), when + ": " + traversal);
        }
    }

    private static void addSome(GraphTraversalSource g, Random random, int n) {
        List<Vertex> vertices = g.V().toList();
        for (int i = 0; i < n; i++) {
            switch (random.nextInt(6)) {
                case 0:
                case 1:
                    vertices.add(g.addV(random.nextBoolean() ? "person" : "post").next());
                    break;
                case 2:
                case 3:
                    if (!vertices.isEmpty()) {
                        Vertex a = vertices.get(random.nextInt(vertices.size()));
                        Vertex b = vertices.get(random.nextInt(vertices.size()));
                        g.addE(random.nextBoolean() ? "knows" : "likes").from(a).to(b).iterate();
                    }
                    break;
                case 4:
                    g.E().limit(1).drop().iterate();
                    break;
                default:
                    if (vertices.size() > 3) {
                        Vertex gone = vertices.remove(random.nextInt(vertices.size()));
                        g.V(gone.id()).drop().iterate();
                    }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"SR", "SI"})
    void countsEqualTheOrdinaryStepsThroughCommitsRollbacksAndOwnWrites(String isolation) {
        GtranGraph graph = opened.open(isolation);
        GraphTraversalSource g = graph.traversal();
        assertCountsAgree(g, "empty graph");
        g.tx().commit();
        Random random = new Random(7);
        for (int round = 0; round < 20; round++) {
            addSome(g, random, 30);
            assertCountsAgree(g, "round " + round + ", own uncommitted writes");
            if (round % 3 == 2) {
                g.tx().rollback();
                assertCountsAgree(g, "round " + round + ", after rollback");
            } else {
                g.tx().commit();
                assertCountsAgree(g, "round " + round + ", after commit");
            }
            g.tx().commit();
        }
        assertTrue(g.V().count().next() > 0);
    }

    @Test
    void anotherThreadsUncommittedWritesAreNotCountedAndItsCommitIsOnlyInLaterSnapshots() throws Exception {
        GtranGraph graph = opened.open("SI");
        GraphTraversalSource g = graph.traversal();
        g.addV("person").as("a").addE("knows").to("a").iterate();
        g.tx().commit();
        assertEquals(1L, g.E().hasLabel("knows").count().next()); // this thread's snapshot starts here
        ExecutorService other = opened.thread();
        other.submit(() -> {
            graph.traversal().addV("person").as("b").addE("knows").to("b").iterate();
            assertEquals(2L, graph.traversal().E().hasLabel("knows").count().next(), "its own write");
            return null;
        }).get(30, TimeUnit.SECONDS);
        assertEquals(1L, g.E().hasLabel("knows").count().next(), "uncommitted elsewhere");
        other.submit(() -> {
            graph.tx().commit();
            return null;
        }).get(30, TimeUnit.SECONDS);
        assertEquals(1L, g.E().hasLabel("knows").count().next(), "committed after this snapshot began");
        assertEquals(1L, g.V().count().next());
        g.tx().commit();
        assertEquals(2L, g.E().hasLabel("knows").count().next());
        assertEquals(2L, g.V().count().next());
    }

    @Test
    void aCountIsAReadOfTheLabelSoAConcurrentInsertAbortsItsTransactionAtSr() throws Exception {
        GtranGraph graph = opened.open("SR");
        GraphTraversalSource g = graph.traversal();
        g.addV("person").iterate();
        g.tx().commit();
        long before = g.V().hasLabel("person").count().next();
        ExecutorService other = opened.thread();
        other.submit(() -> {
            graph.traversal().addV("person").iterate();
            graph.tx().commit();
            return null;
        }).get(30, TimeUnit.SECONDS);
        g.addV("summary").property("persons", before).iterate(); // a write that depends on the count
        assertThrows(TransactionException.class, () -> g.tx().commit(), "write skew on the count");
        assertEquals(2L, g.V().hasLabel("person").count().next());
        assertEquals(0L, g.V().hasLabel("summary").count().next());
    }

    @Test
    void onlyPlainCountsAreRewrittenAndTheRestStayCorrect() {
        GtranGraph graph = opened.open("SR");
        GraphTraversalSource g = graph.traversal();
        Vertex a = g.addV("person").property("name", "a").next();
        Vertex b = g.addV("person").property("name", "b").next();
        g.addE("knows").from(a).to(b).iterate();
        g.tx().commit();
        List<Traversal.Admin<?, Long>> notCounted = List.of(
                g.V(a.id()).count().asAdmin(),
                g.V().has("name", "a").count().asAdmin(),
                g.V().hasLabel("person").has("name", "b").count().asAdmin(),
                g.V().as("x").count().asAdmin(),
                g.V().out().count().asAdmin(),
                g.V().hasLabel("person").hasLabel("person").count().asAdmin(),
                g.V().count().is(0).count().asAdmin(),
                g.V().local(__.out().count()).count().asAdmin());
        List<Long> expected = List.of(1L, 1L, 1L, 2L, 1L, 2L, 0L, 2L);
        for (int i = 0; i < notCounted.size(); i++) {
            Traversal.Admin<?, Long> t = notCounted.get(i);
            t.applyStrategies();
            assertFalse(t.getStartStep() instanceof GtranCountStep, "rewritten though it filters or labels: " + t);
            assertEquals(expected.get(i), t.next(), t.toString());
        }
        String explained = g.V().hasLabel("person").count().explain().prettyPrint();
        assertTrue(explained.contains("GtranCountStep(vertex,[person],counters)"), explained);
        assertEquals(List.of(2L), g.V().hasLabel("person").count().as("n").select("n").toList());
    }
}
