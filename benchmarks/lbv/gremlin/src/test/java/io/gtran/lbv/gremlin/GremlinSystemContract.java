package io.gtran.lbv.gremlin;

import static io.gtran.lbv.gremlin.TinySocialDataset.EDGES;
import static io.gtran.lbv.gremlin.TinySocialDataset.VERTICES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.lbv.LatencyQuery;
import io.gtran.lbv.LbvQuery;
import io.gtran.lbv.LbvSystem;
import io.gtran.lbv.QueryParams;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * What every Gremlin LBV system must do, checked through the {@link LbvSystem} API alone on
 * {@link TinySocialDataset}: each LBV query does what its template says (verified with the read
 * queries), each latency query gives the count plain Java computes, and concurrent conflicting
 * writes end in retryable aborts that leave no trace. Read tests share one loaded system; write
 * tests share another and compare before and after, each on elements of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class GremlinSystemContract {
    private static final long SEED = 20240607L;

    protected LbvSystem reads;
    protected LbvSystem writes;
    private final List<long[]> progress = new ArrayList<>();
    /** What a query on the write system threw before it was loaded (null: nothing). */
    private RuntimeException beforeLoading;

    /** A new, empty system (not loaded). */
    protected abstract LbvSystem open();

    @BeforeAll
    void loadSystems() {
        reads = open();
        reads.load(new TinySocialDataset(), (v, e) -> progress.add(new long[] {v, e}));
        writes = open();
        try {
            writes.execute(LbvQuery.Q14, vertex(0));
        } catch (RuntimeException e) {
            beforeLoading = e;
        }
        writes.load(new TinySocialDataset(), (v, e) -> { });
    }

    @AfterAll
    void closeSystems() {
        if (reads != null) {
            reads.close();
        }
        if (writes != null) {
            writes.close();
        }
    }

    // ------------------------------------------------------------------ parameters

    protected static QueryParams vertex(long v) {
        return new QueryParams(v, 0, 0, null, null, null, Map.of(), 0, null);
    }

    protected static QueryParams edge(long e) {
        return new QueryParams(0, 0, e, null, null, null, Map.of(), 0, null);
    }

    protected static QueryParams vertexKey(long v, String key, Object value) {
        return new QueryParams(v, 0, 0, null, key, value, Map.of(), 0, null);
    }

    protected static QueryParams edgeKey(long e, String key, Object value) {
        return new QueryParams(0, 0, e, null, key, value, Map.of(), 0, null);
    }

    protected static QueryParams has(String key, Object value) {
        return new QueryParams(0, 0, 0, null, key, value, Map.of(), 0, null);
    }

    protected static QueryParams label(long v, String label) {
        return new QueryParams(v, 0, 0, label, null, null, Map.of(), 0, null);
    }

    protected static QueryParams newEdge(long out, long in, String label, Map<String, Object> properties) {
        return new QueryParams(out, in, 0, label, null, null, properties, 0, null);
    }

    protected static QueryParams newVertex(String label, Map<String, Object> properties, String edgeLabel, Long... targets) {
        return new QueryParams(-1, -1, -1, label, null, null, properties, targets.length, null, List.of(targets), edgeLabel);
    }

    protected static QueryParams lookup(long v) {
        return new QueryParams(0, 0, 0, null, null, null, Map.of(), 0, 1000L + v);
    }

    // ------------------------------------------------------------------ loading, reads

    @Test
    void loadingReportsProgressUpToTheWholeDataset() {
        assertFalse(progress.isEmpty(), "progress was reported");
        long[] last = progress.get(progress.size() - 1);
        assertEquals(VERTICES, last[0], "vertices loaded");
        assertEquals(EDGES.size(), last[1], "edges loaded");
    }

    @Test
    void q11FindsTheVerticesWithAValueOnIndexedAndUnindexedKeys() {
        assertEquals(1, reads.execute(LbvQuery.Q11, has("firstName", "F3")));
        assertEquals(1, reads.execute(LbvQuery.Q11, has("ori_id", 1005L)));
        assertEquals(TinySocialDataset.vertexCount("browserUsed", "Firefox"), reads.execute(LbvQuery.Q11, has("browserUsed", "Firefox")));
        assertEquals(3, reads.execute(LbvQuery.Q11, has("browserUsed", "Firefox")));
        assertEquals(0, reads.execute(LbvQuery.Q11, has("name", "Nowhere")));
    }

    @Test
    void q12FindsTheEdgesWithAValue() {
        assertEquals(1, reads.execute(LbvQuery.Q12, has("creationDate", 5006L)));
        assertEquals(0, reads.execute(LbvQuery.Q12, has("creationDate", 3008L)), "a vertex's value is no edge's");
    }

    @Test
    void q13CountsTheEdgesOfALabel() {
        for (String label : List.of("isLocatedIn", "knows", "hasCreator", "replyOf", "likes")) {
            assertEquals(TinySocialDataset.labelled(label), reads.execute(LbvQuery.Q13, label(0, label)), label);
        }
        assertEquals(0, reads.execute(LbvQuery.Q13, label(0, "nolabel")));
    }

    @Test
    void q14AndQ15ReadAnElementById() {
        for (long v = 0; v < VERTICES; v++) {
            assertEquals(1, reads.execute(LbvQuery.Q14, vertex(v)), "vertex " + v);
        }
        for (long e = 0; e < EDGES.size(); e++) {
            assertEquals(1, reads.execute(LbvQuery.Q15, edge(e)), "edge " + e);
        }
    }

    @Test
    void q22ToQ27TraverseTheAdjacency() {
        for (long v = 0; v < VERTICES; v++) {
            assertEquals(TinySocialDataset.in(v), reads.execute(LbvQuery.Q22, vertex(v)), "in() of " + v);
            assertEquals(TinySocialDataset.out(v), reads.execute(LbvQuery.Q23, vertex(v)), "out() of " + v);
            assertEquals(TinySocialDataset.both(v, "knows"), reads.execute(LbvQuery.Q24, label(v, "knows")), "both(knows) of " + v);
            assertEquals(TinySocialDataset.both(v, "hasCreator"), reads.execute(LbvQuery.Q24, label(v, "hasCreator")), "both(hasCreator) of " + v);
            assertEquals(TinySocialDataset.inLabels(v), reads.execute(LbvQuery.Q25, vertex(v)), "inE labels of " + v);
            assertEquals(TinySocialDataset.outLabels(v), reads.execute(LbvQuery.Q26, vertex(v)), "outE labels of " + v);
            assertEquals(TinySocialDataset.bothLabels(v), reads.execute(LbvQuery.Q27, vertex(v)), "bothE labels of " + v);
        }
        assertEquals(4, reads.execute(LbvQuery.Q24, label(2, "knows")), "person 2 knows 3 and 4, and is known by 6 and 7");
    }

    @Test
    void latencyQueriesCountWhatTheirTemplatesRead() {
        for (long person = 2; person < 8; person++) {
            assertEquals(TinySocialDataset.is1(person), reads.latency(LatencyQuery.IS1, lookup(person)), "IS1 " + person);
            assertEquals(TinySocialDataset.is2(person), reads.latency(LatencyQuery.IS2, lookup(person)), "IS2 " + person);
            assertEquals(TinySocialDataset.is3(person), reads.latency(LatencyQuery.IS3, lookup(person)), "IS3 " + person);
        }
        assertEquals(6, reads.latency(LatencyQuery.IS1, lookup(2)), "5 profile properties and the city's name");
        assertEquals(5, reads.latency(LatencyQuery.IS1, lookup(7)), "person 7 has no birthday");
        assertEquals(4, reads.latency(LatencyQuery.IS2, lookup(2)), "2 posts and 2 comments by person 2");
        for (long message = 8; message < 16; message++) {
            assertEquals(TinySocialDataset.is4(message), reads.latency(LatencyQuery.IS4, lookup(message)), "IS4 " + message);
        }
        assertEquals(1, reads.latency(LatencyQuery.IS4, lookup(9)), "post 9 has no imageFile");
        List<LatencyQuery> hops = List.of(LatencyQuery.KHOP1, LatencyQuery.KHOP2, LatencyQuery.KHOP3, LatencyQuery.KHOP4);
        for (long start : new long[] {0, 2, 8, 14}) {
            for (int k = 1; k <= 4; k++) {
                assertEquals(TinySocialDataset.khop(start, k), reads.latency(hops.get(k - 1), lookup(start)), k + "-hop from " + start);
            }
        }
        assertEquals(0, reads.latency(LatencyQuery.KHOP2, new QueryParams(0, 0, 0, null, null, null, Map.of(), 0, -1L)));
    }

    @Test
    void onlyConflictsAreRetryable() {
        assertFalse(reads.isRetryable(new IllegalArgumentException("bad query")));
        assertFalse(reads.isRetryable(new IllegalStateException("closed")));
    }

    // ------------------------------------------------------------------ writes

    @Test
    void q2AddsAVertexWithItsProperties() {
        assertEquals(1, writes.execute(LbvQuery.Q2, newVertex("person", Map.of("ori_id", 9002L, "firstName", "Q2"), null)));
        assertEquals(1, writes.execute(LbvQuery.Q11, has("firstName", "Q2")));
        assertEquals(1, writes.latency(LatencyQuery.IS1, new QueryParams(0, 0, 0, null, null, null, Map.of(), 0, 9002L)),
                "found through the lookup key: its firstName only");
    }

    @Test
    void q3AddsAnEdgeBetweenTwoVertices() {
        long knows = writes.execute(LbvQuery.Q13, label(0, "knows"));
        long out = writes.execute(LbvQuery.Q23, vertex(2));
        long in = writes.execute(LbvQuery.Q22, vertex(5));
        assertEquals(1, writes.execute(LbvQuery.Q3, newEdge(2, 5, "knows", Map.of())));
        assertEquals(knows + 1, writes.execute(LbvQuery.Q13, label(0, "knows")));
        assertEquals(out + 1, writes.execute(LbvQuery.Q23, vertex(2)));
        assertEquals(in + 1, writes.execute(LbvQuery.Q22, vertex(5)));
    }

    @Test
    void q4AddsAnEdgeWithProperties() {
        assertEquals(1, writes.execute(LbvQuery.Q4, newEdge(6, 8, "likes", Map.of("creationDate", 7777L))));
        assertEquals(1, writes.execute(LbvQuery.Q12, has("creationDate", 7777L)));
    }

    @Test
    void q5SetsANewVertexProperty() {
        assertFalse(TinySocialDataset.keys(9).contains("color"));
        assertEquals(1, writes.execute(LbvQuery.Q5, vertexKey(9, "color", "red")));
        assertEquals(1, writes.execute(LbvQuery.Q11, has("color", "red")));
    }

    @Test
    void q6SetsANewEdgeProperty() {
        assertEquals(1, writes.execute(LbvQuery.Q6, edgeKey(8, "note", "n8")));
        assertEquals(1, writes.execute(LbvQuery.Q12, has("note", "n8")));
    }

    @Test
    void q7AddsAVertexAndEdgesToExistingVertices() {
        long[] before = {writes.execute(LbvQuery.Q22, vertex(3)), writes.execute(LbvQuery.Q22, vertex(4)),
                writes.execute(LbvQuery.Q22, vertex(5))};
        long likes = writes.execute(LbvQuery.Q13, label(0, "likes"));
        assertEquals(4, writes.execute(LbvQuery.Q7, newVertex("post", Map.of("content", "q7"), "likes", 3L, 4L, 5L)),
                "1 vertex + 3 edges");
        for (int i = 0; i < 3; i++) {
            assertEquals(before[i] + 1, writes.execute(LbvQuery.Q22, vertex(3 + i)), "in() of " + (3 + i));
        }
        assertEquals(likes + 3, writes.execute(LbvQuery.Q13, label(0, "likes")), "the edges take the edge label");
        assertEquals(1, writes.execute(LbvQuery.Q11, has("content", "q7")));
        long in15 = writes.execute(LbvQuery.Q22, vertex(15));
        assertEquals(3, writes.execute(LbvQuery.Q7, newVertex("comment", Map.of(), "replyOf", 15L, 15L)), "a target named twice");
        assertEquals(in15 + 2, writes.execute(LbvQuery.Q22, vertex(15)));
        assertEquals(1, writes.execute(LbvQuery.Q7, newVertex("post", Map.of(), "likes")), "no fanout: the vertex alone");
    }

    @Test
    void q16UpdatesAnExistingVertexPropertyAndItsIndexEntry() {
        assertEquals(1, writes.execute(LbvQuery.Q16, vertexKey(6, "browserUsed", "Opera")));
        assertEquals(1, writes.execute(LbvQuery.Q11, has("browserUsed", "Opera")));
        assertEquals(1, writes.execute(LbvQuery.Q16, vertexKey(6, "firstName", "G6")));
        assertEquals(1, writes.execute(LbvQuery.Q11, has("firstName", "G6")));
        assertEquals(0, writes.execute(LbvQuery.Q11, has("firstName", "F6")), "the old value no longer matches");
        assertEquals(0, writes.execute(LbvQuery.Q16, vertexKey(6, "imageFile", "x.png")), "Q16 updates only a key the vertex has");
        assertEquals(0, writes.execute(LbvQuery.Q11, has("imageFile", "x.png")));
    }

    @Test
    void q17UpdatesAnExistingEdgeProperty() {
        assertEquals(1, writes.execute(LbvQuery.Q17, edgeKey(7, "creationDate", 8888L)));
        assertEquals(1, writes.execute(LbvQuery.Q12, has("creationDate", 8888L)));
        assertEquals(0, writes.execute(LbvQuery.Q12, has("creationDate", 5007L)));
        assertEquals(0, writes.execute(LbvQuery.Q17, edgeKey(0, "creationDate", 1L)), "isLocatedIn edges have no creationDate");
    }

    @Test
    void q18RemovesAVertexAndItsEdges() {
        long creatorIn = writes.execute(LbvQuery.Q22, vertex(5));
        long repliedIn = writes.execute(LbvQuery.Q22, vertex(12));
        assertEquals(1, writes.execute(LbvQuery.Q18, vertex(14)));
        assertEquals(0, writes.execute(LbvQuery.Q14, vertex(14)));
        assertEquals(0, writes.execute(LbvQuery.Q15, edge(18)), "its hasCreator edge");
        assertEquals(0, writes.execute(LbvQuery.Q15, edge(22)), "its replyOf edge");
        assertEquals(creatorIn - 1, writes.execute(LbvQuery.Q22, vertex(5)));
        assertEquals(repliedIn - 1, writes.execute(LbvQuery.Q22, vertex(12)));
        assertEquals(0, writes.execute(LbvQuery.Q11, has("ori_id", 1014L)));
        // a removed element is found by nothing and is no error
        assertEquals(0, writes.execute(LbvQuery.Q18, vertex(14)));
        assertEquals(0, writes.execute(LbvQuery.Q16, vertexKey(14, "content", "x")));
        assertEquals(0, writes.execute(LbvQuery.Q5, vertexKey(14, "color", "x")));
        assertEquals(0, writes.execute(LbvQuery.Q3, newEdge(14, 2, "knows", Map.of())));
        assertEquals(0, writes.execute(LbvQuery.Q3, newEdge(2, 14, "knows", Map.of())));
        assertEquals(0, writes.execute(LbvQuery.Q22, vertex(14)));
        assertEquals(0, writes.execute(LbvQuery.Q19, edge(18)));
        assertEquals(0, writes.latency(LatencyQuery.IS4, lookup(14)));
    }

    @Test
    void q19RemovesAnEdge() {
        long out = writes.execute(LbvQuery.Q23, vertex(4));
        assertEquals(1, writes.execute(LbvQuery.Q19, edge(9)));
        assertEquals(0, writes.execute(LbvQuery.Q15, edge(9)));
        assertEquals(out - 1, writes.execute(LbvQuery.Q23, vertex(4)));
        assertEquals(0, writes.execute(LbvQuery.Q19, edge(9)));
        assertEquals(0, writes.execute(LbvQuery.Q6, edgeKey(9, "note", "x")));
    }

    @Test
    void q20RemovesAVertexProperty() {
        assertEquals(1, writes.execute(LbvQuery.Q20, vertexKey(7, "locationIP", null)));
        assertEquals(0, writes.execute(LbvQuery.Q11, has("locationIP", "10.0.0.7")));
        assertEquals(0, writes.execute(LbvQuery.Q20, vertexKey(7, "locationIP", null)));
        assertEquals(1, writes.execute(LbvQuery.Q14, vertex(7)), "the vertex stays");
    }

    @Test
    void q21RemovesAnEdgeProperty() {
        assertEquals(1, writes.execute(LbvQuery.Q21, edgeKey(10, "creationDate", null)));
        assertEquals(0, writes.execute(LbvQuery.Q12, has("creationDate", 5010L)));
        assertEquals(0, writes.execute(LbvQuery.Q21, edgeKey(10, "creationDate", null)));
        assertEquals(1, writes.execute(LbvQuery.Q15, edge(10)), "the edge stays");
    }

    // ------------------------------------------------------------------ concurrency

    /**
     * Four threads write the same vertex and edge: some transactions abort, every abort is
     * retryable, and an aborted Q3 leaves no edge (the edges counted afterwards are exactly the
     * committed Q3s). It runs on the write system, so it counts before it starts: the other write
     * tests may have run first (q3 adds a knows edge to vertex 2); none of them reads vertex 2's
     * properties or edge 6 afterwards.
     */
    @Test
    @Timeout(120)
    void concurrentConflictingWritesAbortRetryablyAndLeaveNoTrace() throws Exception {
        LbvSystem system = writes;
        long outBefore = system.execute(LbvQuery.Q23, vertex(2));
        long knowsBefore = system.execute(LbvQuery.Q13, label(0, "knows"));
        AtomicLong commits = new AtomicLong();
        AtomicLong aborts = new AtomicLong();
        AtomicLong addedEdges = new AtomicLong();
        java.util.concurrent.atomic.AtomicReference<Throwable> firstAbort = new java.util.concurrent.atomic.AtomicReference<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                Random random = new Random(SEED + t);
                workers.add(pool.submit(() -> {
                    for (int i = 0; i < 2_000 && System.nanoTime() < deadline; i++) {
                        if (i >= 100 && aborts.get() >= 3) {
                            break;
                        }
                        int pick = random.nextInt(5);
                        try {
                            switch (pick) {
                                case 0 -> system.execute(LbvQuery.Q16, vertexKey(2, "browserUsed", "B" + random.nextInt(1000)));
                                case 1 -> system.execute(LbvQuery.Q5, vertexKey(2, "k" + random.nextInt(3), random.nextInt()));
                                case 2 -> system.execute(LbvQuery.Q17, edgeKey(6, "creationDate", random.nextLong()));
                                case 3 -> {
                                    assertEquals(1, system.execute(LbvQuery.Q3, newEdge(2, 3, "knows", Map.of())));
                                    addedEdges.incrementAndGet();
                                }
                                default -> system.execute(LbvQuery.Q22, vertex(2));
                            }
                            commits.incrementAndGet();
                        } catch (RuntimeException e) {
                            if (!system.isRetryable(e)) {
                                throw new AssertionError("not retryable: " + e, e);
                            }
                            aborts.incrementAndGet();
                            firstAbort.compareAndSet(null, e);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> worker : workers) {
                worker.get(90, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS), "workers stopped");
        }
        System.out.printf("%s %s: commits=%d aborts=%d, the first: %s%n", system.name(), system.isolation(), commits.get(),
                aborts.get(), firstAbort.get());
        assertTrue(aborts.get() > 0, "conflicting writes from 4 threads abort some transactions: commits=" + commits + " aborts=" + aborts);
        assertTrue(commits.get() > 0, "and commit others: commits=" + commits);
        assertEquals(outBefore + addedEdges.get(), system.execute(LbvQuery.Q23, vertex(2)),
                "exactly the committed Q3s added edges");
        assertEquals(knowsBefore + addedEdges.get(), system.execute(LbvQuery.Q13, label(0, "knows")));
    }

    @Test
    void queriesBeforeLoadingAreRefused() {
        assertInstanceOf(IllegalStateException.class, beforeLoading, "a query on the write system before its load");
    }
}
