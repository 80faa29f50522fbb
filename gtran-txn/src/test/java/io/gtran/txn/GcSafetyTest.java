package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.gtran.storage.EdgeCursor;
import io.gtran.storage.EdgeDirection;
import io.gtran.txn.common.ElementNotFoundException;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/**
 * Garbage collection, and reads racing with commit and abort phases,
 * while GC frees versions, headers, cells and RCT entries. GC runs every millisecond with two
 * workers; long-held snapshots pile up superseded chains past {@link GarbageCollector#HELP_THRESHOLD},
 * so committing transactions help trim. Every committed reader's observations are checked, after
 * the run, against a model of committed writes keyed by commit time: a snapshot at begin time B
 * must read exactly the newest value committed before B. Every test also fails on any ERROR the
 * transaction layer logs ("GC pass failed", "GC batch of X failed" (a double free in SlotPool
 * lands there), "could not rewrite a word"), and quiesced GC must bring the pools back to exactly
 * the live data with no item left waiting. Seeds are fixed; concurrent parts run in an executor and
 * are judged through {@link Future#get}.
 */
@Timeout(120)
class GcSafetyTest {
    private static final long SEED = 0x6C5A_FE7EL;
    private static final Object REMOVED = new String("<removed>"); // compared by identity
    private static final Object INVISIBLE = new String("<vertex not visible>");

    private final ExecutorService pool = Executors.newFixedThreadPool(8);
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    private final Logger txnLogger = (Logger) LoggerFactory.getLogger("io.gtran.txn");
    private TxnFixture node;

    @BeforeEach
    void captureLog() {
        logged.start();
        txnLogger.addAppender(logged);
    }

    @AfterEach
    void close() {
        pool.shutdownNow();
        try {
            if (node != null) {
                node.close();
            }
        } finally {
            txnLogger.detachAppender(logged);
        }
        List<String> errors = logged.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.ERROR))
                .map(e -> e.getFormattedMessage() + (e.getThrowableProxy() == null ? "" : " <- " + e.getThrowableProxy().getMessage()))
                .toList();
        assertTrue(errors.isEmpty(), "ERROR logged by the transaction layer (" + errors.size() + "): "
                + errors.subList(0, Math.min(5, errors.size())));
    }

    // ------------------------------------------------------------ model of committed property values

    /** Committed values by (element, key) and commit time; commit times of vertex creations and deletions. */
    private static final class History {
        final Map<List<Long>, ConcurrentSkipListMap<Long, Object>> values = new ConcurrentHashMap<>();
        final Map<Long, Long> created = new ConcurrentHashMap<>();
        final Map<Long, Long> deleted = new ConcurrentHashMap<>();

        void write(long element, int key, long time, Object value) {
            values.computeIfAbsent(List.of(element, (long) key), k -> new ConcurrentSkipListMap<>())
                    .put(time, value == null ? REMOVED : value);
        }

        /** What a snapshot at {@code begin} must read: null (absent), INVISIBLE or the value. */
        Object at(long element, int key, long begin) {
            Long born = created.get(element);
            Long died = deleted.get(element);
            if (born == null || born > begin || (died != null && died < begin)) {
                return INVISIBLE;
            }
            ConcurrentSkipListMap<Long, Object> chain = values.get(List.of(element, (long) key));
            Map.Entry<Long, Object> e = chain == null ? null : chain.lowerEntry(begin);
            return e == null || e.getValue() == REMOVED ? null : e.getValue();
        }

        /** Properties alive now, and how many of them hold strings (values in the value region). */
        long[] liveNow() {
            List<Object> last = values.values().stream().map(chain -> chain.lastEntry().getValue()).toList();
            return new long[] {last.stream().filter(x -> x != REMOVED).count(), last.stream().filter(x -> x != REMOVED && x instanceof String).count()};
        }
    }

    /** One property read by a committed reader: what it saw at its begin time. */
    private record Obs(long begin, long element, int key, Object seen, String how) {
    }

    private static List<String> check(History history, Iterable<Obs> observations) {
        List<String> bad = new ArrayList<>();
        for (Obs o : observations) {
            Object want = history.at(o.element(), o.key(), o.begin());
            if (!Objects.equals(want, o.seen())) {
                bad.add(o.how() + " " + o.element() + "/" + o.key() + " at " + o.begin() + ": read " + o.seen() + ", snapshot holds "
                        + want + " (history " + history.values.get(List.of(o.element(), (long) o.key())) + ")");
            }
        }
        return bad;
    }

    /**
     * Reads properties of random vertices in one long snapshot: halfway it holds the watermark
     * until 2,000 more transactions committed (or 300 ms passed), so superseded chains pile up.
     */
    private void readSnapshot(Transaction t, List<Long> vertices, int[] keys, Random rnd, List<Obs> out, AtomicLong maxWaiting) throws InterruptedException {
        for (int i = 0; i < 60; i++) {
            long v = vertices.get(rnd.nextInt(vertices.size()));
            if (!t.vertexExists(v)) {
                for (int k : keys) {
                    out.add(new Obs(t.beginTime(), v, k, INVISIBLE, "exists"));
                }
            } else if (rnd.nextBoolean()) {
                int k = keys[rnd.nextInt(keys.length)];
                out.add(new Obs(t.beginTime(), v, k, t.vertexProperty(v, k), "vertexProperty"));
            } else {
                Map<Integer, Object> all = t.vertexProperties(v);
                for (int k : keys) {
                    out.add(new Obs(t.beginTime(), v, k, all.get(k), "vertexProperties"));
                }
            }
            if (i == 30) {
                long until = node.engine.stats().get("commits") + 2_000;
                long deadline = System.nanoTime() + 300_000_000L;
                while (node.engine.stats().get("commits") < until && System.nanoTime() < deadline) {
                    Thread.sleep(1);
                }
                maxWaiting.accumulateAndGet(node.engine.gc().stats().get("waiting.OBSOLETE_VERSIONS"), Math::max);
            }
        }
    }

    /** A writer's transaction body; returns what to record with the commit time once it committed, or null. */
    private interface Body {
        LongConsumer run(Transaction t, Random rnd) throws Exception;
    }

    /** A reader's transaction body; returns what to keep once it committed. */
    private interface ReaderBody {
        Runnable run(Transaction t, Random rnd) throws Exception;
    }

    /**
     * Runs {@code writers} workers of {@code txns} transactions each and {@code readers} workers
     * reading long snapshots (through {@code reader}) until the writers finish. Conflicts are
     * expected; any other exception is a violation. Returns the violations.
     */
    private List<String> run(int writers, int txns, Body body, int readers, ReaderBody reader) throws Exception {
        AtomicBoolean done = new AtomicBoolean();
        List<Future<List<String>>> readerFutures = new ArrayList<>();
        for (int r = 0; r < readers; r++) {
            Random rnd = new Random(SEED * 31 + r);
            readerFutures.add(pool.submit(() -> {
                List<String> bad = new ArrayList<>();
                while (!done.get() && bad.size() < 10) {
                    Transaction t = node.begin(rnd.nextBoolean() ? Isolation.SERIALIZABLE : Isolation.SNAPSHOT);
                    try {
                        Runnable onCommit = reader.run(t, rnd);
                        t.commit();
                        onCommit.run();
                    } catch (TransactionConflictException preReadWriterAborted) {
                        // its observations are discarded
                    } catch (RuntimeException e) {
                        t.rollback();
                        bad.add("reader: " + e);
                    }
                }
                return bad;
            }));
        }
        List<Future<List<String>>> writerFutures = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            Random rnd = new Random(SEED + w);
            writerFutures.add(pool.submit(() -> {
                List<String> bad = new ArrayList<>();
                for (int i = 0; i < txns && bad.size() < 10; i++) {
                    Transaction t = node.begin(rnd.nextBoolean() ? Isolation.SERIALIZABLE : Isolation.SNAPSHOT);
                    try {
                        LongConsumer onCommit = body.run(t, rnd);
                        if (t.isActive()) {
                            t.commit();
                            if (onCommit != null) {
                                onCommit.accept(t.commitTime());
                            }
                        }
                    } catch (TransactionConflictException expected) {
                        // aborted: it wrote nothing
                    } catch (ElementNotFoundException notInSnapshot) {
                        t.rollback(); // picked a vertex committed after this transaction began
                    } catch (RuntimeException e) {
                        t.rollback();
                        bad.add("writer: " + e + " at " + (e.getStackTrace().length > 0 ? e.getStackTrace()[0] : "?"));
                    }
                }
                return bad;
            }));
        }
        List<String> violations = new ArrayList<>();
        try {
            for (Future<List<String>> f : writerFutures) {
                violations.addAll(f.get(90, TimeUnit.SECONDS));
            }
        } finally {
            done.set(true);
        }
        for (Future<List<String>> f : readerFutures) {
            violations.addAll(f.get(30, TimeUnit.SECONDS));
        }
        return violations;
    }

    private TxnFixture open(Map<String, ?> settings) {
        Map<String, Object> all = new HashMap<>(Map.of(TxnConfig.GC, true, TxnConfig.GC_INTERVAL_MS, 1, TxnConfig.GC_WORKERS, 2));
        all.putAll(settings);
        node = new TxnFixture(all);
        return node;
    }

    /** GC passes with no transaction running (the clock moved on before each) until nothing is recycled. */
    private Map<String, Long> quiesce() throws InterruptedException {
        int idle = 0;
        for (int pass = 0; pass < 40 && idle < 3; pass++) {
            node.engine.clock().next();
            idle = node.engine.gc().runOnce() == 0 ? idle + 1 : 0;
        }
        return node.store.liveSlots();
    }

    private void assertNothingWaiting() {
        Map<String, Long> stats = node.engine.gc().stats();
        Map<String, Long> waiting = stats.entrySet().stream().filter(e -> e.getKey().startsWith("waiting.") && e.getValue() != 0)
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        assertEquals(Map.of(), waiting, "GC items left waiting with no transaction running: " + stats);
    }

    private static String first(List<String> violations) {
        return violations.size() + " violations, first: " + violations.subList(0, Math.min(4, violations.size()));
    }

    private static Object value(Random rnd, String tag) {
        return rnd.nextBoolean() ? (Object) rnd.nextLong() : tag + "-" + rnd.nextLong() + "x".repeat(rnd.nextInt(48));
    }

    // ------------------------------------------------------------ hot properties, long readers, help

    /**
     * Three writers hammer two keys of six hot vertices (set, remove, re-create after removal,
     * set twice, set then remove; longs and strings) and each commit also supersedes six cold
     * properties, so that long snapshots pile more than HELP_THRESHOLD chains up and committers
     * help trim. Every committed reader must read exactly its snapshot; afterwards GC leaves one
     * version per live property and nothing waiting.
     */
    @Test
    void hotPropertiesReadExactlyTheirSnapshotWhileGcAndCommittersTrim() throws Exception {
        open(Map.of());
        int label = node.label("n");
        int[] hotKeys = {node.key("h0"), node.key("h1")};
        int[] coldKeys = {node.key("c0"), node.key("c1"), node.key("c2"), node.key("c3")};
        History history = new History();
        List<Long> hot = new ArrayList<>();
        List<Long> cold = new ArrayList<>();
        Transaction setup = node.begin(Isolation.SERIALIZABLE);
        for (int i = 0; i < 6; i++) {
            long v = setup.addVertex(label);
            setup.setVertexProperty(v, hotKeys[0], "init-" + i); // base versions
            hot.add(v);
        }
        for (int i = 0; i < 300; i++) {
            long v = setup.addVertex(label);
            for (int k : coldKeys) {
                setup.setVertexProperty(v, k, (long) i);
            }
            cold.add(v);
        }
        setup.commit();
        for (long v : hot) {
            history.created.put(v, setup.commitTime());
            history.write(v, hotKeys[0], setup.commitTime(), "init-" + hot.indexOf(v));
        }
        ConcurrentLinkedQueue<Obs> observations = new ConcurrentLinkedQueue<>();
        AtomicLong maxWaiting = new AtomicLong();
        List<String> violations = run(3, 15_000, (t, rnd) -> {
            long v = hot.get(rnd.nextInt(hot.size()));
            int k = hotKeys[rnd.nextInt(hotKeys.length)];
            Object net;
            boolean wrote = true;
            switch (rnd.nextInt(10)) {
                case 0, 1 -> {
                    wrote = t.removeVertexProperty(v, k); // a no-op removal writes nothing (at SI not even a read)
                    net = null;
                }
                case 2 -> {
                    t.setVertexProperty(v, k, value(rnd, "first"));
                    net = value(rnd, "twice");
                    t.setVertexProperty(v, k, net);
                }
                case 3 -> {
                    t.setVertexProperty(v, k, value(rnd, "gone"));
                    t.removeVertexProperty(v, k);
                    net = null;
                }
                default -> {
                    net = value(rnd, "set");
                    t.setVertexProperty(v, k, net);
                }
            }
            for (int i = 0; i < 6; i++) {
                t.setVertexProperty(cold.get(rnd.nextInt(cold.size())), coldKeys[rnd.nextInt(coldKeys.length)], rnd.nextLong());
            }
            boolean recorded = wrote;
            return time -> {
                if (recorded) {
                    history.write(v, k, time, net);
                }
            };
        }, 2, (t, rnd) -> {
            List<Obs> mine = new ArrayList<>();
            readSnapshot(t, hot, hotKeys, rnd, mine, maxWaiting);
            return () -> observations.addAll(mine);
        });
        violations.addAll(check(history, observations));
        assertTrue(violations.isEmpty(), first(violations));
        assertTrue(observations.size() > 1000, "committed reads: " + observations.size());
        assertTrue(maxWaiting.get() >= GarbageCollector.HELP_THRESHOLD,
                "the backlog must reach the help threshold for committers to trim: max waiting " + maxWaiting);
        Map<String, Long> live = quiesce();
        assertNothingWaiting();
        Transaction end = node.begin(Isolation.SERIALIZABLE);
        List<Obs> last = new ArrayList<>();
        for (long v : hot) {
            for (int k : hotKeys) {
                last.add(new Obs(end.beginTime(), v, k, end.vertexProperty(v, k), "final read"));
            }
        }
        end.commit();
        assertEquals(List.of(), check(history, last), "the final state is the last committed value of each property");
        long[] hotLive = history.liveNow();
        assertEquals(hotLive[0] + cold.size() * coldKeys.length, live.get("mv-tuple"), "one version per live property: " + live);
        assertEquals(hotLive[1], live.get("value"), "one value per live string property: " + live);
    }

    // ------------------------------------------------------------ aborted writes and base versions

    /**
     * Writers roll back writes to hot vertices (and vertices and edges they created), collide on
     * purpose (write-write and first-committer-wins aborts), create vertices whose properties are
     * base versions and update those of recent vertices (materializing their bases, often two
     * writers at once). Readers must never see an aborted value, must see exactly their snapshot,
     * and a vertex exactly when its creation committed before their begin time. Once no
     * transaction runs, GC leaves exactly the committed graph: headers, one version and one string
     * value per property, no edge.
     */
    @Test
    void abortedWritesAndMaterializedBasesUnderGc() throws Exception {
        open(Map.of());
        int label = node.label("n");
        int[] keys = {node.key("a"), node.key("b")};
        History history = new History();
        List<Long> vertices = new CopyOnWriteArrayList<>();
        Transaction setup = node.begin(Isolation.SERIALIZABLE);
        for (int i = 0; i < 8; i++) {
            long v = setup.addVertex(label);
            setup.setVertexProperty(v, keys[0], "init-a" + i);
            setup.setVertexProperty(v, keys[1], "init-b" + i);
            vertices.add(v);
        }
        setup.commit();
        for (int i = 0; i < vertices.size(); i++) {
            history.created.put(vertices.get(i), setup.commitTime());
            history.write(vertices.get(i), keys[0], setup.commitTime(), "init-a" + i);
            history.write(vertices.get(i), keys[1], setup.commitTime(), "init-b" + i);
        }
        ConcurrentLinkedQueue<Obs> observations = new ConcurrentLinkedQueue<>();
        AtomicLong maxWaiting = new AtomicLong();
        List<String> violations = run(4, 8_000, (t, rnd) -> {
            int op = rnd.nextInt(100);
            if (op < 20) { // a committed creation: base versions
                long v = t.addVertex(label);
                Object a = "base-a" + rnd.nextLong();
                Object b = "base-b" + rnd.nextLong();
                t.setVertexProperty(v, keys[0], a);
                t.setVertexProperty(v, keys[1], b);
                return time -> {
                    history.created.put(v, time);
                    history.write(v, keys[0], time, a);
                    history.write(v, keys[1], time, b);
                    vertices.add(v);
                };
            }
            // Mostly the newest vertices: their base versions get materialized, often concurrently.
            Map<List<Long>, Object> net = new HashMap<>();
            for (int n = 1 + rnd.nextInt(2); n > 0; n--) {
                long v = vertices.get(vertices.size() - 1 - rnd.nextInt(Math.min(10, vertices.size())));
                int k = keys[rnd.nextInt(keys.length)];
                Object x = "w-" + rnd.nextLong();
                t.setVertexProperty(v, k, x);
                net.put(List.of(v, (long) k), x);
            }
            if (op < 55) { // written, then rolled back: with a vertex, an edge and base versions of its own
                long extra = t.addVertex(label);
                t.setVertexProperty(extra, keys[0], "ABORTED");
                t.addEdge(extra, vertices.get(rnd.nextInt(vertices.size())), label);
                Thread.yield(); // let others meet our versions
                t.rollback();
                return null;
            }
            if (op < 65) {
                Thread.sleep(0, 200_000); // hold the versions a while: collisions
            }
            return time -> net.forEach((vk, x) -> history.write(vk.get(0), vk.get(1).intValue(), time, x));
        }, 2, (t, rnd) -> {
            List<Obs> mine = new ArrayList<>();
            readSnapshot(t, vertices, keys, rnd, mine, maxWaiting);
            return () -> observations.addAll(mine);
        });
        for (Obs o : observations) {
            ConcurrentSkipListMap<Long, Object> chain = history.values.get(List.of(o.element(), (long) o.key()));
            if (o.seen() != INVISIBLE && o.seen() instanceof String s && (chain == null || !chain.containsValue(s))) {
                violations.add("read a value no committed transaction wrote: " + o);
            }
        }
        violations.addAll(check(history, observations));
        assertTrue(violations.isEmpty(), first(violations));
        assertTrue(node.engine.stats().get("rollbacks") > 500 && node.engine.stats().get("aborts.WRITE_WRITE") > 0,
                "rollbacks and write-write aborts happened: " + node.engine.stats());
        Map<String, Long> live = quiesce();
        assertNothingWaiting();
        long props = 2L * vertices.size();
        assertEquals(Map.of("vertex-header", (long) vertices.size(), "edge-header", 0L, "edge-row", 0L, "mv-tuple", props, "value", props),
                Map.of("vertex-header", live.get("vertex-header"), "edge-header", live.get("edge-header"), "edge-row", live.get("edge-row"),
                        "mv-tuple", live.get("mv-tuple"), "value", live.get("value")),
                "after GC only the committed graph remains: " + live + " " + node.engine.gc().stats());
    }

    // ------------------------------------------------------------ adjacency under GC

    /** A vertex or an edge: endpoints (edges) and the commit time of its creation; deaths are kept apart. */
    private record Life(long out, long in, long born) {
    }

    /** Alive at {@code begin}: created before it and not deleted before it. */
    private static boolean aliveAt(Life life, Long died, long begin) {
        return life.born() < begin && (died == null || died > begin);
    }

    private static Set<Long> diff(Set<Long> a, Set<Long> b) {
        Set<Long> d = new TreeSet<>(a);
        d.removeAll(b);
        return d;
    }

    private record Scan(long begin, Set<Long> vertices, Set<Long> edges, Map<Long, Set<Long>> adjacency, Map<Long, List<Long>> ends) {
    }

    private static Set<Long> set(long[] ids) {
        return Arrays.stream(ids).boxed().collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * Writers add and remove edges, add vertices with edges, delete vertices (with their edges)
     * and update a vertex property; readers scan vertices, all edges and every vertex's adjacency
     * in long snapshots while GC frees edge and vertex headers, cells and rows. No reader may get
     * a storage exception, and each committed scan must be exactly its snapshot by the model of
     * commit times (no dangling edge, no freed or reused id, the right endpoints). Afterwards GC
     * leaves exactly the live headers and one version per vertex.
     */
    @Test
    void adjacencyScansSeeExactlyTheirSnapshotWhileGcFreesHeaders() throws Exception {
        open(Map.of());
        int label = node.label("n");
        int w = node.key("w");
        Map<Long, Life> vertexLife = new ConcurrentHashMap<>();
        Map<Long, Life> edgeLife = new ConcurrentHashMap<>();
        Map<Long, Long> died = new ConcurrentHashMap<>(); // vertex and edge ids never collide
        List<Long> known = new CopyOnWriteArrayList<>();
        Transaction setup = node.begin(Isolation.SERIALIZABLE);
        List<Long> ring = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            long v = setup.addVertex(label);
            setup.setVertexProperty(v, w, 0L);
            ring.add(v);
        }
        List<long[]> ringEdges = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            long a = ring.get(i);
            long b = ring.get((i + 1) % 30);
            ringEdges.add(new long[] {setup.addEdge(a, b, label), a, b});
        }
        setup.commit();
        ring.forEach(v -> vertexLife.put(v, new Life(0, 0, setup.commitTime())));
        ringEdges.forEach(e -> edgeLife.put(e[0], new Life(e[1], e[2], setup.commitTime())));
        known.addAll(ring);
        ConcurrentLinkedQueue<Scan> scans = new ConcurrentLinkedQueue<>();
        List<String> violations = run(3, 20_000, (t, rnd) -> {
            long a = known.get(known.size() - 1 - rnd.nextInt(Math.min(40, known.size())));
            long b = known.get(known.size() - 1 - rnd.nextInt(Math.min(40, known.size())));
            int op = rnd.nextInt(100);
            if (!t.vertexExists(a) || !t.vertexExists(b)) {
                t.rollback();
                return null;
            }
            if (op < 30) {
                long e = t.addEdge(a, b, label);
                return time -> edgeLife.put(e, new Life(a, b, time));
            } else if (op < 55) {
                long[] edges = t.edges(a, EdgeDirection.BOTH, EdgeCursor.ANY_LABEL);
                if (edges.length == 0) {
                    return null;
                }
                long e = edges[rnd.nextInt(edges.length)];
                t.removeEdge(e);
                return time -> died.put(e, time);
            } else if (op < 70) {
                long v = t.addVertex(label);
                t.setVertexProperty(v, w, 0L);
                long e1 = t.addEdge(v, a, label);
                long e2 = t.addEdge(b, v, label);
                return time -> {
                    vertexLife.put(v, new Life(0, 0, time));
                    edgeLife.put(e1, new Life(v, a, time));
                    edgeLife.put(e2, new Life(b, v, time));
                    known.add(v);
                };
            } else if (op < 82) {
                Set<Long> incident = set(t.edges(a, EdgeDirection.BOTH, EdgeCursor.ANY_LABEL));
                t.removeVertex(a);
                return time -> {
                    died.put(a, time);
                    incident.forEach(e -> died.put(e, time));
                };
            }
            t.setVertexProperty(a, w, rnd.nextLong());
            return null;
        }, 2, (t, rnd) -> {
            Set<Long> vertices = set(t.vertices(label));
            Thread.sleep(rnd.nextInt(3)); // real time: GC and writers run between this reader's reads
            Set<Long> edges = set(t.allEdges(label));
            Map<Long, Set<Long>> adjacency = new HashMap<>();
            for (long v : vertices) {
                adjacency.put(v, set(t.edges(v, EdgeDirection.BOTH, EdgeCursor.ANY_LABEL)));
                t.vertexProperties(v);
            }
            Thread.sleep(rnd.nextInt(3)); // real time: as above
            Map<Long, List<Long>> ends = new HashMap<>();
            for (long e : edges) {
                ends.put(e, List.of(t.edgeOutVertex(e), t.edgeInVertex(e)));
            }
            return () -> scans.add(new Scan(t.beginTime(), vertices, edges, adjacency, ends));
        });
        for (Scan s : scans) {
            Set<Long> wantV = vertexLife.entrySet().stream().filter(e -> aliveAt(e.getValue(), died.get(e.getKey()), s.begin()))
                    .map(Map.Entry::getKey).collect(Collectors.toCollection(TreeSet::new));
            Set<Long> wantE = edgeLife.entrySet().stream().filter(e -> aliveAt(e.getValue(), died.get(e.getKey()), s.begin()))
                    .map(Map.Entry::getKey).collect(Collectors.toCollection(TreeSet::new));
            if (!wantV.equals(s.vertices()) || !wantE.equals(s.edges())) {
                violations.add("scan at " + s.begin() + ": extra vertices " + diff(s.vertices(), wantV) + " missing " + diff(wantV, s.vertices())
                        + ", extra edges " + diff(s.edges(), wantE) + " missing " + diff(wantE, s.edges()));
                continue;
            }
            for (long v : s.vertices()) {
                Set<Long> want = wantE.stream().filter(e -> edgeLife.get(e).out() == v || edgeLife.get(e).in() == v).collect(Collectors.toSet());
                if (!want.equals(s.adjacency().get(v))) {
                    violations.add("adjacency of " + v + " at " + s.begin() + ": " + s.adjacency().get(v) + ", snapshot holds " + want);
                }
            }
            for (long e : s.edges()) {
                Life life = edgeLife.get(e);
                if (!List.of(life.out(), life.in()).equals(s.ends().get(e)) || !s.vertices().containsAll(s.ends().get(e))) {
                    violations.add("edge " + e + " at " + s.begin() + " reads ends " + s.ends().get(e) + ", is " + life.out() + "->" + life.in());
                }
            }
        }
        assertTrue(scans.size() > 20, "committed scans: " + scans.size());
        Map<String, Long> live = quiesce();
        assertNothingWaiting();
        long vertices = vertexLife.keySet().stream().filter(v -> !died.containsKey(v)).count();
        long edges = edgeLife.keySet().stream().filter(e -> !died.containsKey(e)).count();
        assertEquals(List.of(vertices, edges, vertices), List.of(live.get("vertex-header"), live.get("edge-header"), live.get("mv-tuple")),
                "vertex headers, edge headers, versions after GC: " + live + " " + node.engine.gc().stats());
    }

    /**
     * Vertices with eight properties are updated a few times and then deleted, while long
     * snapshots pile superseded chains past HELP_THRESHOLD: committers trim chains (outside the GC
     * pass) of vertices the pass may be freeing at that moment. No commit may throw, GC may log
     * no error (a double free), readers read exactly their snapshot, and GC ends with only the
     * live vertices' versions.
     */
    @Test
    void helpersTrimmingChainsOfVerticesGcIsDeleting() throws Exception {
        open(Map.of());
        int label = node.label("n");
        int[] keys = new int[8];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = node.key("k" + i);
        }
        History history = new History();
        List<Long> vertices = new CopyOnWriteArrayList<>();
        Transaction setup = node.begin(Isolation.SERIALIZABLE);
        for (int i = 0; i < 20; i++) {
            long v = setup.addVertex(label);
            for (int k : keys) {
                setup.setVertexProperty(v, k, 0L);
            }
            vertices.add(v);
        }
        setup.commit();
        for (long v : vertices) {
            history.created.put(v, setup.commitTime());
            for (int k : keys) {
                history.write(v, k, setup.commitTime(), 0L);
            }
        }
        ConcurrentLinkedQueue<Obs> observations = new ConcurrentLinkedQueue<>();
        AtomicLong maxWaiting = new AtomicLong();
        List<String> violations = run(3, 12_000, (t, rnd) -> {
            int op = rnd.nextInt(10);
            if (op < 2) {
                long v = t.addVertex(label);
                for (int k : keys) {
                    t.setVertexProperty(v, k, 0L);
                }
                return time -> {
                    history.created.put(v, time);
                    for (int k : keys) {
                        history.write(v, k, time, 0L);
                    }
                    vertices.add(v);
                };
            }
            long v = vertices.get(vertices.size() - 1 - rnd.nextInt(Math.min(30, vertices.size())));
            if (!t.vertexExists(v)) {
                return null;
            }
            if (op < 4) {
                t.removeVertex(v);
                return time -> history.deleted.put(v, time);
            }
            Map<Integer, Object> net = new HashMap<>();
            for (int k : keys) {
                if (rnd.nextInt(4) != 0) {
                    net.put(k, rnd.nextLong());
                    t.setVertexProperty(v, k, net.get(k));
                }
            }
            return time -> net.forEach((k, x) -> history.write(v, k, time, x));
        }, 2, (t, rnd) -> {
            List<Obs> mine = new ArrayList<>();
            readSnapshot(t, vertices, keys, rnd, mine, maxWaiting);
            return () -> observations.addAll(mine);
        });
        violations.addAll(check(history, observations));
        assertTrue(violations.isEmpty(), first(violations));
        assertTrue(maxWaiting.get() >= GarbageCollector.HELP_THRESHOLD, "committers helped: max waiting " + maxWaiting);
        Map<String, Long> live = quiesce();
        assertNothingWaiting();
        long alive = vertices.stream().filter(v -> !history.deleted.containsKey(v)).count();
        assertEquals(List.of(alive, alive * keys.length), List.of(live.get("vertex-header"), live.get("mv-tuple")), "after GC: " + live);
    }

    // ------------------------------------------------------------ deterministic GC paths

    /**
     * A property updated (at c1) and then removed (at c2) leaves two superseded-chain items for
     * one chain. A GC pass merges them, but a committing transaction that helps (more than
     * HELP_THRESHOLD items waiting) trims them one by one: the first trim, seeing the removal
     * below the watermark, unlinks the whole chain; the second finds no chain and must count as
     * done, not be requeued for ever. Afterwards nothing may wait and only the live versions remain.
     */
    @Test
    void helpingCommitterTrimsAChainRemovedBelowTheWatermarkOnlyOnce() throws Exception {
        open(Map.of(TxnConfig.GC_INTERVAL_MS, 60_000)); // the scanner runs its first pass, then we drive GC
        int label = node.label("n");
        int p = node.key("p");
        int[] fillKeys = new int[10];
        for (int i = 0; i < fillKeys.length; i++) {
            fillKeys[i] = node.key("f" + i);
        }
        Transaction setup = node.begin(Isolation.SERIALIZABLE);
        long v = setup.addVertex(label);
        setup.setVertexProperty(v, p, 0L);
        List<Long> fill = new ArrayList<>();
        for (int i = 0; i < 410; i++) {
            long f = setup.addVertex(label);
            for (int k : fillKeys) {
                setup.setVertexProperty(f, k, 0L);
            }
            fill.add(f);
        }
        setup.commit();
        while (node.engine.gc().stats().get("passes") == 0) {
            Thread.sleep(1);
        }
        Transaction update = node.begin(Isolation.SERIALIZABLE);
        update.setVertexProperty(v, p, 1L);
        update.commit(); // superseded-chain item at c1
        Transaction removal = node.begin(Isolation.SERIALIZABLE);
        assertTrue(removal.removeVertexProperty(v, p));
        removal.commit(); // and at c2, for the same chain
        Transaction bulk = node.begin(Isolation.SERIALIZABLE);
        node.engine.watermark(); // the helpers' watermark: above c2
        for (long f : fill) {
            for (int k : fillKeys) {
                bulk.setVertexProperty(f, k, 1L);
            }
        }
        bulk.commit(); // 4,100 more items: over the threshold, so this commit helps, starting with the two above
        Transaction check = node.begin(Isolation.SERIALIZABLE);
        assertEquals(null, check.vertexProperty(v, p));
        check.commit();
        Map<String, Long> live = quiesce();
        assertEquals(fill.size() * fillKeys.length, live.get("mv-tuple"), "one version per live property: " + live);
        assertNothingWaiting();
    }

    /**
     * Removal and re-creation of a property across GC passes: an old reader keeps the removed
     * value while GC runs; once it ends the chain is unlinked (RETIRED_CHAINS) and freed; the
     * re-created property (from a base version and from scratch) reads right in old and new
     * snapshots, and a second removal and re-creation goes the same way.
     */
    @Test
    void removedChainIsRetiredAndThePropertyComesBackClean() throws Exception {
        open(Map.of(TxnConfig.GC, false));
        int label = node.label("n");
        int p = node.key("p");
        Transaction setup = node.begin(Isolation.SERIALIZABLE);
        long v = setup.addVertex(label);
        setup.setVertexProperty(v, p, "base");
        setup.commit();
        Object expected = "base";
        for (int round = 0; round < 3; round++) {
            Transaction old = node.begin(Isolation.SNAPSHOT);
            assertEquals(expected, old.vertexProperty(v, p));
            Transaction removal = node.begin(Isolation.SERIALIZABLE);
            assertTrue(removal.removeVertexProperty(v, p));
            removal.commit();
            quiesce();
            assertEquals(expected, old.vertexProperty(v, p), "round " + round + ": the old reader's version survives GC");
            old.commit();
            quiesce();
            assertEquals(0, node.store.mvStore().liveVersions(), "round " + round + ": the removed chain is freed");
            Transaction between = node.begin(Isolation.SNAPSHOT);
            Transaction again = node.begin(Isolation.SERIALIZABLE);
            expected = "again-" + round;
            again.setVertexProperty(v, p, expected);
            again.commit();
            quiesce();
            assertEquals(null, between.vertexProperty(v, p), "round " + round + ": re-created after this snapshot");
            between.commit();
            Transaction after = node.begin(Isolation.SERIALIZABLE);
            assertEquals(Map.of(p, expected), after.vertexProperties(v));
            after.commit();
            quiesce();
            assertEquals(1, node.store.mvStore().liveVersions(), "round " + round + ": one version left");
        }
        assertNothingWaiting();
    }

    /**
     * A property removed at c2, then re-created by a transaction W that is still running when GC
     * processes the removal's item (the chain's head is W's unstamped version, so the removed
     * version is not unlinked and the item is done), then W rolls back: GC unlinks W's version and
     * the removed version is the head again. With no transaction running, GC must free it: a
     * removed property costs no memory for ever.
     */
    @Test
    void removedVersionUnderAnAbortedReCreationIsFreed() throws Exception {
        open(Map.of(TxnConfig.GC, false));
        int p = node.key("p");
        long v = vertexWithRemovedProperty(p, false);
        Transaction recreate = node.begin(Isolation.SERIALIZABLE);
        recreate.setVertexProperty(v, p, "aborted");
        node.engine.clock().next();
        node.engine.gc().runOnce(); // the removal's item, with W's version on top
        recreate.rollback();
        Map<String, Long> live = quiesce();
        Transaction check = node.begin(Isolation.SERIALIZABLE);
        assertEquals(Map.of(), check.vertexProperties(v));
        check.commit();
        assertNothingWaiting();
        assertEquals(0L, live.get("mv-tuple"), "the removed property's versions are freed: " + live + " " + node.engine.gc().stats());
    }

    /**
     * As above, but W commits: its version supersedes the removed one, which no item covered (the
     * removal's item ran while W's version was unstamped, and W locked nothing, since nothing was
     * alive). Once no reader can see below W's version, GC must free the removed one: a property
     * removed and re-created keeps one version, not two. This is the leak that
     * hotPropertiesReadExactlyTheirSnapshotWhileGcAndCommittersTrim caught once in CI.
     */
    @Test
    void removedVersionUnderACommittedReCreationIsFreed() throws Exception {
        open(Map.of(TxnConfig.GC, false));
        int p = node.key("p");
        long v = vertexWithRemovedProperty(p, true);
        Transaction recreate = node.begin(Isolation.SERIALIZABLE);
        recreate.setVertexProperty(v, p, "again");
        node.engine.clock().next();
        node.engine.gc().runOnce(); // the removal's item, with W's unstamped version on top
        recreate.commit();
        Map<String, Long> live = quiesce();
        Transaction check = node.begin(Isolation.SERIALIZABLE);
        assertEquals(Map.of(p, "again"), check.vertexProperties(v));
        check.commit();
        assertNothingWaiting();
        assertEquals(1L, live.get("mv-tuple"), "the removed version under the re-created one is freed: " + live + " " + node.engine.gc().stats());
    }

    /**
     * A vertex created with property {@code p}, then (if {@code updated}) given a full version of
     * it above the base and quiesced, then the property removed: all committed.
     */
    private long vertexWithRemovedProperty(int p, boolean updated) throws InterruptedException {
        Transaction setup = node.begin(Isolation.SERIALIZABLE);
        long v = setup.addVertex(node.label("n"));
        setup.setVertexProperty(v, p, "base");
        setup.commit();
        if (updated) {
            Transaction update = node.begin(Isolation.SERIALIZABLE);
            update.setVertexProperty(v, p, "full");
            update.commit();
            quiesce();
        }
        Transaction removal = node.begin(Isolation.SERIALIZABLE);
        assertTrue(removal.removeVertexProperty(v, p));
        removal.commit();
        return v;
    }

    // ------------------------------------------------------------ closing under load

    /**
     * The engine closes while writers commit and abort, readers hold snapshots and GC runs every
     * millisecond: close returns, the GC threads stop without logging an error, and running
     * transactions get only "engine is closed" refusals or conflicts, and can still roll back.
     */
    @Test
    void closingTheEngineUnderLoadIsClean() throws Exception {
        open(Map.of());
        int k = node.key("k");
        Transaction setup = node.begin(Isolation.SERIALIZABLE);
        List<Long> vs = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            vs.add(setup.addVertex(node.label("n")));
            setup.setVertexProperty(vs.get(i), k, 0L);
        }
        setup.commit();
        List<Future<String>> workers = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            Random rnd = new Random(SEED * 7 + w);
            workers.add(pool.submit(() -> {
                while (true) {
                    Transaction t;
                    try {
                        t = node.begin(Isolation.SERIALIZABLE);
                    } catch (IllegalStateException closed) {
                        return closed.getMessage().contains("closed") ? null : "begin: " + closed;
                    }
                    try {
                        for (int i = 0; i < 4; i++) {
                            long v = vs.get(rnd.nextInt(vs.size()));
                            if (rnd.nextBoolean()) {
                                t.setVertexProperty(v, k, rnd.nextLong());
                            } else {
                                t.vertexProperties(v);
                            }
                        }
                        if (rnd.nextInt(4) == 0) {
                            t.rollback();
                        } else {
                            t.commit();
                        }
                    } catch (TransactionConflictException expected) {
                        // fine
                    } catch (RuntimeException e) {
                        t.rollback();
                        if (!(e instanceof IllegalStateException) || !e.getMessage().contains("closed") || t.isActive()) {
                            return "unexpected: " + e + " active=" + t.isActive();
                        }
                    }
                }
            }));
        }
        while (node.engine.stats().get("commits") < 3000) {
            Thread.sleep(5);
        }
        pool.submit(node.engine::close).get(20, TimeUnit.SECONDS);
        assertFalse(node.engine.gc().isRunning());
        for (Future<String> f : workers) {
            assertEquals(null, f.get(20, TimeUnit.SECONDS));
        }
        assertEquals(0L, node.engine.stats().get("running"), "every transaction ended");
        Set<String> gcThreads = Thread.getAllStackTraces().keySet().stream().filter(t -> t.isAlive() && t.getName().startsWith("gtran-gc-"))
                .map(Thread::getName).collect(Collectors.toSet());
        assertTrue(gcThreads.isEmpty(), "GC threads still alive after close: " + gcThreads);
    }
}
