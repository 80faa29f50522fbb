package io.gtran.lbv.testkit;

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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every {@link LbvSystem} must answer on {@link TinySocial}: each LBV query's count and effect,
 * each latency query's count, and a concurrent write-heavy mix in which every failure is either
 * retried (the system calls it retryable) or fails the test. Call {@link #checkReads} on a freshly
 * loaded system, then {@link #checkWrites}, then {@link #concurrentMix}.
 */
public final class LbvContract {
    private LbvContract() {
    }

    /** Parameters with only the given fields set. */
    public static QueryParams params(long vertex, long otherVertex, long edge, String label, String key, Object value,
                                     Map<String, Object> properties, int fanout, Object lookupValue) {
        return new QueryParams(vertex, otherVertex, edge, label, key, value, properties, fanout, lookupValue);
    }

    static QueryParams v(long vertex) {
        return params(vertex, -1, -1, null, null, null, Map.of(), 0, null);
    }

    static QueryParams vl(long vertex, String label) {
        return params(vertex, -1, -1, label, null, null, Map.of(), 0, null);
    }

    static QueryParams e(long edge) {
        return params(-1, -1, edge, null, null, null, Map.of(), 0, null);
    }

    static QueryParams kv(String key, Object value) {
        return params(-1, -1, -1, null, key, value, Map.of(), 0, null);
    }

    static QueryParams label(String label) {
        return params(-1, -1, -1, label, null, null, Map.of(), 0, null);
    }

    static QueryParams lookup(long value) {
        return params(-1, -1, -1, null, null, null, Map.of(), 0, value);
    }

    /** The read-only queries on the data as loaded; changes nothing. */
    public static void checkReads(LbvSystem s) {
        assertEquals(1, s.execute(LbvQuery.Q11, kv("firstName", "Ann")), "Q11 firstName=Ann");
        assertEquals(0, s.execute(LbvQuery.Q11, kv("firstName", "Nobody")), "Q11 firstName=Nobody");
        assertEquals(1, s.execute(LbvQuery.Q12, kv("creationDate", 1L)), "Q12 creationDate=1");
        assertEquals(1, s.execute(LbvQuery.Q12, kv("creationDate", 50L)), "Q12 creationDate=50");
        assertEquals(0, s.execute(LbvQuery.Q12, kv("creationDate", 10L)), "Q12 finds edges only, not post 4");
        assertEquals(4, s.execute(LbvQuery.Q13, label("hasCreator")), "Q13 hasCreator");
        assertEquals(3, s.execute(LbvQuery.Q13, label("knows")), "Q13 knows");
        assertEquals(1, s.execute(LbvQuery.Q14, v(0)), "Q14 v0");
        assertEquals(0, s.execute(LbvQuery.Q14, v(99)), "Q14 out of range");
        assertEquals(1, s.execute(LbvQuery.Q15, e(11)), "Q15 e11");
        assertEquals(0, s.execute(LbvQuery.Q15, e(99)), "Q15 out of range");
        assertEquals(2, s.execute(LbvQuery.Q22, v(0)), "Q22 in(v0)");
        assertEquals(3, s.execute(LbvQuery.Q23, v(0)), "Q23 out(v0)");
        assertEquals(2, s.execute(LbvQuery.Q24, vl(0, "knows")), "Q24 both(knows) v0");
        assertEquals(2, s.execute(LbvQuery.Q24, vl(2, "knows")), "Q24 both(knows) v2");
        assertEquals(1, s.execute(LbvQuery.Q25, v(0)), "Q25 inE labels v0");
        assertEquals(2, s.execute(LbvQuery.Q26, v(0)), "Q26 outE labels v0");
        assertEquals(3, s.execute(LbvQuery.Q27, v(0)), "Q27 bothE labels v0");
        assertEquals(2, s.execute(LbvQuery.Q27, v(6)), "Q27 bothE labels v6: hasCreator, replyOf");

        assertEquals(6, s.latency(LatencyQuery.IS1, lookup(100)), "IS1 person 0: 5 properties + city");
        assertEquals(5, s.latency(LatencyQuery.IS1, lookup(102)), "IS1 person 2: no city");
        assertEquals(2, s.latency(LatencyQuery.IS2, lookup(100)), "IS2 person 0: post 4, comment 6");
        assertEquals(1, s.latency(LatencyQuery.IS2, lookup(102)), "IS2 person 2: comment 7");
        assertEquals(2, s.latency(LatencyQuery.IS3, lookup(100)), "IS3 person 0: two out-knows");
        assertEquals(2, s.latency(LatencyQuery.IS3, lookup(102)), "IS3 person 2: two in-knows");
        assertEquals(2, s.latency(LatencyQuery.IS4, lookup(104)), "IS4 post 4: imageFile, creationDate");
        assertEquals(1, s.latency(LatencyQuery.IS4, lookup(105)), "IS4 post 5: no imageFile");
        assertEquals(2, s.latency(LatencyQuery.IS4, lookup(106)), "IS4 comment 6: content, creationDate");
        LatencyQuery[] khops = {LatencyQuery.KHOP1, LatencyQuery.KHOP2, LatencyQuery.KHOP3, LatencyQuery.KHOP4};
        for (int k = 1; k <= 4; k++) {
            assertEquals(TinySocial.khop(0, k), s.latency(khops[k - 1], lookup(100)), "KHOP" + k + " from 0");
            assertEquals(TinySocial.khop(3, k), s.latency(khops[k - 1], lookup(103)), "KHOP" + k + " from 3");
        }
        for (LatencyQuery q : LatencyQuery.values()) {
            assertEquals(0, s.latency(q, lookup(999)), q + " of a missing vertex");
        }
    }

    /**
     * Every write query, each followed by a read showing its effect. {@code q7Count} is what the
     * system's Q7 returns for a vertex with 3 edges (systems count written elements differently).
     */
    public static void checkWrites(LbvSystem s, long q7Count) {
        assertEquals(1, s.execute(LbvQuery.Q2, params(-1, -1, -1, "person", null, null,
                Map.of(TinySocial.LOOKUP, 200L, "firstName", "Dan"), 0, null)), "Q2");
        assertEquals(1, s.execute(LbvQuery.Q11, kv("firstName", "Dan")), "Q2 effect");
        assertEquals(0, s.latency(LatencyQuery.KHOP1, lookup(200)), "Q2 vertex has no edges");

        assertEquals(1, s.execute(LbvQuery.Q3, params(0, 5, -1, "likes", null, null, Map.of(), 0, null)), "Q3");
        assertEquals(4, s.execute(LbvQuery.Q23, v(0)), "Q3 effect: out(v0)");
        assertEquals(0, s.execute(LbvQuery.Q3, params(0, 99, -1, "likes", null, null, Map.of(), 0, null)),
                "Q3 to a missing vertex");

        assertEquals(1, s.execute(LbvQuery.Q4, params(2, 4, -1, "likes", null, null,
                Map.of("creationDate", 60L), 0, null)), "Q4");
        assertEquals(1, s.execute(LbvQuery.Q12, kv("creationDate", 60L)), "Q4 effect");

        assertEquals(1, s.execute(LbvQuery.Q5, params(3, -1, -1, null, "firstName", "Zed", Map.of(), 0, null)), "Q5");
        assertEquals(1, s.execute(LbvQuery.Q11, kv("firstName", "Zed")), "Q5 effect: an indexed key on a place");

        assertEquals(1, s.execute(LbvQuery.Q6, params(-1, -1, 3, null, "creationDate", 70L, Map.of(), 0, null)), "Q6");
        assertEquals(1, s.execute(LbvQuery.Q12, kv("creationDate", 70L)), "Q6 effect");

        assertEquals(q7Count, s.execute(LbvQuery.Q7, params(1, 2, -1, "post", null, null,
                Map.of(TinySocial.LOOKUP, 201L, "creationDate", 80L), 3, null)), "Q7");
        assertEquals(3, s.latency(LatencyQuery.KHOP1, lookup(201)), "Q7 effect: 3 edges");

        assertEquals(1, s.execute(LbvQuery.Q16, params(1, -1, -1, null, "firstName", "Bobby", Map.of(), 0, null)), "Q16");
        assertEquals(1, s.execute(LbvQuery.Q11, kv("firstName", "Bobby")), "Q16 effect");
        assertEquals(0, s.execute(LbvQuery.Q11, kv("firstName", "Bob")), "Q16 effect: old value gone");

        assertEquals(1, s.execute(LbvQuery.Q17, params(-1, -1, 0, null, "creationDate", 5L, Map.of(), 0, null)), "Q17");
        assertEquals(0, s.execute(LbvQuery.Q12, kv("creationDate", 1L)), "Q17 effect: old value gone");
        assertEquals(1, s.execute(LbvQuery.Q12, kv("creationDate", 5L)), "Q17 effect");

        assertEquals(1, s.execute(LbvQuery.Q20, params(2, -1, -1, null, "lastName", null, Map.of(), 0, null)), "Q20");
        assertEquals(4, s.latency(LatencyQuery.IS1, lookup(102)), "Q20 effect");

        assertEquals(1, s.execute(LbvQuery.Q21, params(-1, -1, 2, null, "creationDate", null, Map.of(), 0, null)), "Q21");
        assertEquals(1, s.latency(LatencyQuery.IS3, lookup(102)), "Q21 effect");

        assertEquals(1, s.execute(LbvQuery.Q19, e(11)), "Q19");
        assertEquals(0, s.execute(LbvQuery.Q15, e(11)), "Q19 effect");
        assertEquals(0, s.execute(LbvQuery.Q19, e(11)), "Q19 again");

        assertEquals(1, s.execute(LbvQuery.Q18, v(7)), "Q18");
        assertEquals(0, s.execute(LbvQuery.Q14, v(7)), "Q18 effect");
        assertEquals(3, s.execute(LbvQuery.Q13, label("hasCreator")), "Q18 effect: its edges are gone");
        assertEquals(0, s.execute(LbvQuery.Q18, v(7)), "Q18 again");
        // New elements may reuse a deleted element's native id; the dataset id must still find nothing.
        for (int i = 0; i < 5; i++) {
            s.execute(LbvQuery.Q2, params(-1, -1, -1, "comment", null, null, Map.of("content", "new" + i), 0, null));
            s.execute(LbvQuery.Q3, params(0, 1, -1, "likes", null, null, Map.of(), 0, null));
        }
        assertEquals(0, s.execute(LbvQuery.Q14, v(7)), "deleted vertex stays deleted");
        assertEquals(0, s.execute(LbvQuery.Q15, e(11)), "deleted edge stays deleted");
        assertEquals(0, s.execute(LbvQuery.Q22, v(7)), "deleted vertex has no neighbours");
    }

    /** What {@link #concurrentMix} did. */
    public record MixResult(long committed, long retried, long gaveUp, List<String> retryableSamples) {
    }

    /**
     * {@code threads} threads each run {@code opsPerThread} queries, 80% writes, with parameters drawn
     * from a seeded {@link Random} over the tiny graph (high contention). A failure the system calls
     * retryable is retried up to 20 times, as a client would; any other failure fails the run.
     */
    public static MixResult concurrentMix(LbvSystem s, int threads, int opsPerThread, long seed) throws Exception {
        List<LbvQuery> writes = new ArrayList<>();
        List<LbvQuery> reads = new ArrayList<>();
        for (LbvQuery q : LbvQuery.values()) {
            (q.category().writes() ? writes : reads).add(q);
        }
        AtomicLong committed = new AtomicLong();
        AtomicLong retried = new AtomicLong();
        AtomicLong gaveUp = new AtomicLong();
        List<String> samples = new java.util.concurrent.CopyOnWriteArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Random random = new Random(seed + t);
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < opsPerThread; i++) {
                        LbvQuery q = random.nextDouble() < 0.8 ? writes.get(random.nextInt(writes.size()))
                                : reads.get(random.nextInt(reads.size()));
                        QueryParams p = randomParams(q, random);
                        int attempt = 0;
                        while (true) {
                            try {
                                s.execute(q, p);
                                committed.incrementAndGet();
                                break;
                            } catch (RuntimeException failure) {
                                if (!s.isRetryable(failure)) {
                                    throw new AssertionError("non-retryable failure of " + q + " " + p, failure);
                                }
                                if (samples.size() < 5) {
                                    Throwable root = failure;
                                    while (root.getCause() != null && root.getCause() != root) {
                                        root = root.getCause();
                                    }
                                    samples.add(q + ": " + failure + (root == failure ? "" : " caused by " + root));
                                }
                                if (++attempt > 20) {
                                    gaveUp.incrementAndGet();
                                    break;
                                }
                                retried.incrementAndGet();
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(90, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS), "mix threads did not stop");
        }
        return new MixResult(committed.get(), retried.get(), gaveUp.get(), List.copyOf(samples));
    }

    private static final String[] VERTEX_LABELS = {"person", "place", "post", "comment"};
    private static final String[] EDGE_LABELS = {"knows", "isLocatedIn", "hasCreator", "replyOf", "likes"};
    private static final String[] KEYS = {"firstName", "lastName", "content", "creationDate", "nick"};

    private static QueryParams randomParams(LbvQuery q, Random random) {
        long vertex = random.nextInt(8);
        long other = random.nextInt(8);
        long edge = random.nextInt(12);
        boolean vertexLabel = q == LbvQuery.Q2 || q == LbvQuery.Q7;
        String label = vertexLabel ? VERTEX_LABELS[random.nextInt(VERTEX_LABELS.length)]
                : EDGE_LABELS[random.nextInt(EDGE_LABELS.length)];
        String key = q == LbvQuery.Q11 ? "firstName" : q == LbvQuery.Q12 ? "creationDate"
                : KEYS[random.nextInt(KEYS.length)];
        Object value = key.equals("creationDate") ? (Object) (long) random.nextInt(100) : "s" + random.nextInt(10);
        Map<String, Object> props = Map.of("creationDate", (long) random.nextInt(100), "content", "x");
        return params(vertex, other, edge, label, key, value, props, 1 + random.nextInt(3), 100L + random.nextInt(8));
    }
}
