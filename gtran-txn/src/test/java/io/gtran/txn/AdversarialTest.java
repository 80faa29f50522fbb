package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.storage.EdgeCursor;
import io.gtran.storage.EdgeDirection;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.common.ConflictKind;
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
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Serializability corner cases of property removal, writes
 * the store rejects halfway, API misuse, and concurrent workloads whose invariants are checked by
 * read-only audits, serial replay in commit order and re-reads of long-held snapshots, with GC
 * running hard (1 ms) or off. Seeds are fixed; every concurrent part runs in an executor and is
 * judged through {@link Future#get}.
 */
@Timeout(180)
class AdversarialTest {
    private static final long SEED = 0x5EED_AD5EL;
    private static final String TOMBSTONE = "<removed>"; // compared by identity

    private final ExecutorService pool = Executors.newFixedThreadPool(10, r -> {
        Thread t = new Thread(r, "adversary");
        t.setDaemon(true); // a hung reader (see rejectedValue...) must not keep the JVM alive
        return t;
    });
    private TxnFixture node;

    @AfterEach
    void close() {
        pool.shutdownNow();
        if (node != null) {
            node.close();
        }
    }

    /** One transaction's work: returns what to do once it committed (or null); may roll back to skip. */
    private interface Step {
        Runnable run(Transaction t, Random rnd, List<String> bad) throws Exception;
    }

    /**
     * Runs {@code threads} workers, each up to {@code txns} transactions of {@code step} (seeded
     * per worker) until {@code stop} is set; conflicts are expected, any other exception is a
     * violation. Returns every violation reported.
     */
    private List<String> run(int threads, long seed, int txns, Isolation isolation, AtomicBoolean stop, Step step) throws Exception {
        List<Future<List<String>>> futures = new ArrayList<>();
        for (int w = 0; w < threads; w++) {
            Random rnd = new Random(seed + w);
            futures.add(pool.submit(() -> {
                List<String> bad = new ArrayList<>();
                for (int i = 0; i < txns && !stop.get() && bad.size() < 20; i++) {
                    Transaction t = node.begin(isolation);
                    try {
                        Runnable afterCommit = step.run(t, rnd, bad);
                        if (t.isActive()) {
                            t.commit();
                            if (afterCommit != null) {
                                afterCommit.run();
                            }
                        }
                    } catch (TransactionConflictException conflict) {
                        // aborted: only committed transactions count
                    } catch (RuntimeException unexpected) {
                        t.rollback();
                        bad.add("unexpected " + unexpected);
                    }
                }
                return bad;
            }));
        }
        List<String> violations = new ArrayList<>();
        for (Future<List<String>> f : futures) {
            violations.addAll(f.get(150, TimeUnit.SECONDS));
        }
        return violations;
    }

    private static String first(List<String> violations) {
        return violations.size() + " violations, first: " + violations.subList(0, Math.min(5, violations.size()));
    }

    private long committedVertex(int label, int key, Object value) {
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        long v = t.addVertex(label);
        if (value != null) {
            t.setVertexProperty(v, key, value);
        }
        t.commit();
        return v;
    }

    // ------------------------------------------------------------ SR: removals that hold no claim

    /**
     * T1 removes a property its snapshot lacks (false: a read of absence), T3 then adds it and
     * also writes j; T1 blind-writes j and commits last. Final state k=T3, j=T1 matches neither
     * serial order (T3;T1 removes k, T1;T3 leaves j=T3), so SR must abort T1.
     */
    @Test
    void removingAnAbsentPropertyIsAReadSerializableMustValidate() {
        node = new TxnFixture(Map.of(TxnConfig.GC, false));
        int label = node.label("n");
        int k = node.key("k");
        int j = node.key("j");
        long v = committedVertex(label, j, 0L);
        Transaction t1 = node.begin(Isolation.SERIALIZABLE);
        assertFalse(t1.removeVertexProperty(v, k), "absent in T1's snapshot");
        Transaction t3 = node.begin(Isolation.SERIALIZABLE);
        t3.setVertexProperty(v, k, 3L);
        t3.setVertexProperty(v, j, 3L);
        t3.commit();
        t1.setVertexProperty(v, j, 1L);
        assertThrows(TransactionConflictException.class, t1::commit,
                "T1's 'k is absent' was invalidated by T3, which committed inside T1's window");
    }

    /**
     * A transaction sets a property that did not exist and removes it again: the cell is unlinked
     * and it holds no lock on k any more, so T3 adds k and commits first. T1's last word on k was
     * "remove", yet k survives T1's commit. At SI both wrote k: first committer wins is broken. At
     * SR a write of j by both orders T3 before T1, so the outcome k=T3, j=T1 is not serializable.
     */
    @ParameterizedTest
    @EnumSource(Isolation.class)
    void setThenRemoveOfANewPropertyKeepsItsClaim(Isolation isolation) {
        node = new TxnFixture(Map.of(TxnConfig.GC, false));
        int label = node.label("n");
        int k = node.key("k");
        int j = node.key("j");
        long v = committedVertex(label, j, 0L);
        Transaction t1 = node.begin(isolation);
        t1.setVertexProperty(v, k, 1L);
        assertTrue(t1.removeVertexProperty(v, k)); // no read of k: SR validation has nothing to go on
        boolean bothCommitted;
        try {
            Transaction t3 = node.begin(isolation);
            t3.setVertexProperty(v, k, 3L);
            if (isolation == Isolation.SERIALIZABLE) {
                t3.setVertexProperty(v, j, 3L);
            }
            t3.commit();
            if (isolation == Isolation.SERIALIZABLE) {
                t1.setVertexProperty(v, j, 1L); // blind: allowed over a newer commit at SR
            }
            t1.commit();
            bothCommitted = true;
        } catch (TransactionConflictException expected) {
            bothCommitted = false; // either aborting is correct
        }
        Transaction check = node.begin(Isolation.SERIALIZABLE);
        Object finalK = check.vertexProperty(v, k);
        Object finalJ = check.vertexProperty(v, j);
        check.commit();
        assertFalse(bothCommitted && finalK != null,
                "both committed and T1 (last committer, k removed) lost its removal to T3: k=" + finalK + " j=" + finalJ);
    }

    /**
     * At SR a blind set over a property removed after the snapshot, then a removal of our own
     * version, relinks the version our snapshot saw: the transaction reads back the value it
     * just removed (read-your-own-writes broken) and vertexProperties lists it.
     */
    @Test
    void ownRemovalHidesTheValueEvenWhenAnotherRemovedItAfterOurSnapshot() {
        node = new TxnFixture(Map.of(TxnConfig.GC, false));
        int label = node.label("n");
        int p = node.key("p");
        long v = committedVertex(label, p, "x");
        Transaction t1 = node.begin(Isolation.SERIALIZABLE);
        Transaction t2 = node.begin(Isolation.SERIALIZABLE);
        assertTrue(t2.removeVertexProperty(v, p));
        t2.commit();
        t1.setVertexProperty(v, p, "y");
        assertEquals("y", t1.vertexProperty(v, p));
        assertTrue(t1.removeVertexProperty(v, p));
        assertNull(t1.vertexProperty(v, p), "removed by this very transaction");
        assertEquals(Map.of(), t1.vertexProperties(v));
        t1.rollback();
    }

    // ------------------------------------------------------------ writes the store rejects

    /**
     * A property update the store rejects (value over gtran.storage.value.max-bytes, a type it
     * cannot store, a string UTF-8 cannot hold) must leave nothing behind: the transaction still
     * sees the old value, and after it commits or rolls back others read and write the property
     * without hanging.
     */
    @ParameterizedTest
    @CsvSource({"huge,rollback", "huge,commit", "unstorable,rollback", "unstorable,commit", "surrogate,rollback"})
    void rejectedValueLeavesNoLockBehind(String badKind, String end) throws Exception {
        node = new TxnFixture(Map.of(TxnConfig.GC, false, StoreConfig.VALUE_MAX_BYTES, 64));
        int label = node.label("n");
        int p = node.key("p");
        long v = committedVertex(label, p, "v0");
        Transaction u = node.begin(Isolation.SERIALIZABLE);
        u.setVertexProperty(v, p, "v1"); // a full version now, not the base
        u.commit();
        Object bad = switch (badKind) {
            case "huge" -> "x".repeat(1000);
            case "unstorable" -> new Object();
            default -> "broken \uD800 surrogate";
        };
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        RuntimeException e = assertThrows(RuntimeException.class, () -> t.setVertexProperty(v, p, bad));
        assertFalse(e instanceof TransactionConflictException, e.toString());
        List<String> problems = new ArrayList<>();
        if (t.isActive() && !"v1".equals(t.vertexProperty(v, p))) {
            problems.add("after the rejected write the transaction reads p=" + t.vertexProperty(v, p) + ", not v1");
        }
        if (end.equals("commit") && t.isActive()) {
            t.commit();
        } else {
            t.rollback();
        }
        Future<Object> read = pool.submit(() -> {
            Transaction r = node.begin(Isolation.SERIALIZABLE);
            Object value = r.vertexProperty(v, p);
            r.commit();
            return value;
        });
        try {
            Object value = read.get(5, TimeUnit.SECONDS);
            if (!"v1".equals(value)) {
                problems.add("a later reader reads p=" + value);
            }
        } catch (TimeoutException hung) {
            problems.add("a later reader of p spins for ever: the version's end word still names the finished transaction");
        }
        assertTrue(problems.isEmpty(), badKind + "/" + end + " (" + e + "): " + problems);
    }

    // ------------------------------------------------------------ API misuse and limits

    /**
     * Every operation on an ended transaction is refused and rollback of an ended one is a no-op;
     * closing the engine under running transactions refuses further work but lets them roll back.
     */
    @Test
    void endedTransactionsAndClosedEnginesRefuseWork() {
        node = new TxnFixture(Map.of(TxnConfig.GC_INTERVAL_MS, 1));
        int label = node.label("n");
        int p = node.key("p");
        long v = committedVertex(label, p, 1L);
        Transaction done = node.begin(Isolation.SERIALIZABLE);
        done.setVertexProperty(v, p, 2L);
        done.commit();
        assertThrows(IllegalStateException.class, done::commit);
        assertThrows(IllegalStateException.class, () -> done.setVertexProperty(v, p, 3L));
        assertThrows(IllegalStateException.class, () -> done.addVertex(label));
        assertThrows(IllegalStateException.class, () -> done.edges(v, EdgeDirection.BOTH, EdgeCursor.ANY_LABEL));
        long rollbacks = node.engine.stats().get("rollbacks");
        done.rollback();
        assertTrue(done.isCommitted(), "rollback after commit must not undo it");
        Transaction a = node.begin(Isolation.SERIALIZABLE);
        a.setVertexProperty(v, p, 10L);
        Transaction b = node.begin(Isolation.SERIALIZABLE);
        assertThrows(TransactionConflictException.class, () -> b.setVertexProperty(v, p, 11L));
        b.rollback();
        b.close();
        assertThrows(IllegalStateException.class, () -> b.vertexProperty(v, p));
        assertThrows(IllegalStateException.class, b::commit);
        assertEquals(rollbacks, node.engine.stats().get("rollbacks"), "no-op rollbacks are not counted");
        a.commit();
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        t.setVertexProperty(v, p, 2L);
        Transaction reader = node.begin(Isolation.SNAPSHOT);
        node.engine.close();
        assertFalse(node.engine.gc().isRunning());
        assertThrows(IllegalStateException.class, () -> node.begin(Isolation.SERIALIZABLE));
        assertThrows(IllegalStateException.class, () -> t.vertexProperty(v, p));
        assertThrows(IllegalStateException.class, t::commit);
        t.rollback();
        reader.rollback();
        assertFalse(t.isActive() || reader.isActive());
        assertEquals(0L, node.engine.stats().get("running"));
    }

    /** With four status slots the fifth begin fails clearly; finishing any transaction frees a slot. */
    @Test
    void statusTableExhaustionIsClearAndRecoverable() {
        node = new TxnFixture(Map.of(TxnConfig.GC, false, TxnConfig.STATUS_SLOTS, 4));
        int label = node.label("n");
        int p = node.key("p");
        long v = committedVertex(label, p, 1L);
        List<Transaction> running = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            running.add(node.begin(Isolation.SERIALIZABLE));
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> node.begin(Isolation.SNAPSHOT));
        assertTrue(e.getMessage().contains(TxnConfig.STATUS_SLOTS), e.getMessage());
        running.get(0).setVertexProperty(v, p, 2L);
        assertThrows(TransactionConflictException.class, () -> running.get(1).setVertexProperty(v, p, 3L)); // aborted: frees its slot
        Transaction again = node.begin(Isolation.SERIALIZABLE);
        assertThrows(IllegalStateException.class, () -> node.begin(Isolation.SERIALIZABLE));
        running.get(0).commit();
        running.get(2).commit();
        running.get(3).rollback();
        again.commit();
        assertEquals(0L, node.engine.stats().get("running"));
    }

    /** Ids of the wrong kind and never-interned label/key ids fail clearly and leave the transaction usable. */
    @Test
    void wrongKindsAndUnknownIdsFailClearly() {
        node = new TxnFixture(Map.of(TxnConfig.GC, false));
        int label = node.label("n");
        int p = node.key("p");
        Transaction s = node.begin(Isolation.SERIALIZABLE);
        long a = s.addVertex(label);
        long b = s.addVertex(label);
        long e = s.addEdge(a, b, label);
        s.commit();
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        assertFalse(t.vertexExists(e));
        assertFalse(t.edgeExists(a));
        assertThrows(ElementNotFoundException.class, () -> t.vertexProperty(e, p));
        assertThrows(ElementNotFoundException.class, () -> t.setVertexProperty(e, p, 1L));
        assertThrows(ElementNotFoundException.class, () -> t.removeVertex(e));
        assertThrows(ElementNotFoundException.class, () -> t.removeEdge(a));
        assertThrows(ElementNotFoundException.class, () -> t.addEdge(a, e, label));
        assertThrows(ElementNotFoundException.class, () -> t.edges(e, EdgeDirection.OUT, EdgeCursor.ANY_LABEL));
        IllegalArgumentException badLabel = assertThrows(IllegalArgumentException.class, () -> t.addVertex(4242));
        assertTrue(badLabel.getMessage().contains("4242"), badLabel.getMessage());
        assertThrows(IllegalArgumentException.class, () -> t.addEdge(a, b, 4242));
        RuntimeException badKey = assertThrows(RuntimeException.class, () -> t.setVertexProperty(a, 4343, 1L));
        assertTrue(badKey.getMessage().contains("4343"), "names the key id: " + badKey);
        assertTrue(t.isActive(), "misuse is not a conflict");
        t.setVertexProperty(a, p, 5L);
        t.commit();
        Transaction r = node.begin(Isolation.SERIALIZABLE);
        assertEquals(Map.of(p, 5L), r.vertexProperties(a));
        assertEquals(2, r.vertices(EdgeCursor.ANY_LABEL).length, "no vertex or edge leaked from the failed calls");
        assertEquals(1, r.allEdges(EdgeCursor.ANY_LABEL).length);
        r.commit();
    }

    /** A read-only SR transaction commits exactly when the validating writer it pre-read commits. */
    @ParameterizedTest
    @CsvSource({"true", "false"})
    void readOnlySerializableCommitFollowsItsPreReadWriter(boolean writerCommits) {
        node = new TxnFixture(Map.of(TxnConfig.GC, false));
        int label = node.label("n");
        long a = committedVertex(label, 0, null);
        long b = committedVertex(label, 0, null);
        Transaction writer = node.begin(Isolation.SERIALIZABLE);
        writer.addEdge(a, b, label);
        CommitProtocol held = new CommitProtocol(writer);
        assertTrue(held.prepare());
        Transaction reader = node.begin(Isolation.SERIALIZABLE);
        assertEquals(1, reader.edges(a, EdgeDirection.OUT, EdgeCursor.ANY_LABEL).length, "pre-read of the validating edge");
        Transaction bystander = node.begin(Isolation.SERIALIZABLE);
        assertTrue(bystander.vertexExists(b)); // read nothing of the writer's
        if (writerCommits) {
            held.decide();
            reader.commit();
        } else {
            writer.rollback();
            TransactionConflictException e = assertThrows(TransactionConflictException.class, reader::commit);
            assertEquals(ConflictKind.PRE_READ_DEPENDENCY_ABORTED, e.kind());
        }
        bystander.commit();
    }

    // ------------------------------------------------------------ concurrent graph workloads

    /**
     * Random graph with degree counters (properties out and in) kept by every transaction that adds
     * or removes an edge or a vertex. Every committed audit must find no dangling edge and every
     * counter equal to the adjacency; at the end GC must free exactly what is dead. Work goes to
     * the ten newest vertices, so deletes race edge inserts. SI keeps these invariants too: each
     * counter is read-modify-written, and deletes conflict with edge inserts at both levels.
     */
    @ParameterizedTest
    @CsvSource({"SERIALIZABLE,true", "SERIALIZABLE,false", "SNAPSHOT,true", "SNAPSHOT,false"})
    void degreeCountedGraphStaysWellFormed(Isolation isolation, boolean gc) throws Exception {
        node = new TxnFixture(Map.of(TxnConfig.GC, gc, TxnConfig.GC_INTERVAL_MS, 1));
        int label = node.label("n");
        int out = node.key("out");
        int in = node.key("in");
        List<Long> known = new CopyOnWriteArrayList<>();
        Step newVertex = (t, rnd, bad) -> {
            long v = t.addVertex(label);
            t.setVertexProperty(v, out, 0L);
            t.setVertexProperty(v, in, 0L);
            return () -> known.add(v);
        };
        run(1, SEED, 12, Isolation.SERIALIZABLE, new AtomicBoolean(), newVertex);
        List<String> violations = run(8, SEED, 1500, isolation, new AtomicBoolean(), (t, rnd, bad) -> {
            int op = rnd.nextInt(100);
            if (op < 20) {
                List<String> found = audit(t, label, out, in);
                return () -> found.forEach(f -> bad.add("audit at " + t.beginTime() + ": " + f));
            }
            if (op < 35) {
                return newVertex.run(t, rnd, bad);
            }
            long a = known.get(known.size() - 1 - rnd.nextInt(Math.min(10, known.size()))); // the newest: contention
            long b = rnd.nextInt(10) == 0 ? a : known.get(known.size() - 1 - rnd.nextInt(Math.min(10, known.size())));
            if (!t.vertexExists(a) || !t.vertexExists(b)) {
                t.rollback();
            } else if (op < 65) {
                t.addEdge(a, b, label);
                bump(t, a, out, 1);
                bump(t, b, in, 1);
            } else if (op < 85) {
                long[] edges = t.edges(a, EdgeDirection.OUT, EdgeCursor.ANY_LABEL);
                if (edges.length > 0) {
                    long e = edges[rnd.nextInt(edges.length)];
                    long target = t.edgeInVertex(e);
                    t.removeEdge(e);
                    bump(t, a, out, -1);
                    bump(t, target, in, -1);
                }
            } else {
                for (long e : t.edges(a, EdgeDirection.OUT, EdgeCursor.ANY_LABEL)) {
                    if (t.edgeInVertex(e) != a) {
                        bump(t, t.edgeInVertex(e), in, -1);
                    }
                }
                for (long e : t.edges(a, EdgeDirection.IN, EdgeCursor.ANY_LABEL)) {
                    if (t.edgeOutVertex(e) != a) {
                        bump(t, t.edgeOutVertex(e), out, -1);
                    }
                }
                t.removeVertex(a);
            }
            return null;
        });
        assertTrue(violations.isEmpty(), first(violations));
        Transaction end = node.begin(Isolation.SERIALIZABLE);
        List<String> found = audit(end, label, out, in);
        int vertices = end.vertices(label).length;
        int edges = end.allEdges(label).length;
        end.commit();
        assertTrue(found.isEmpty(), found.toString());
        assertTrue(node.engine.stats().get("commits") > 1000, node.engine.stats().toString());
        Map<String, Long> live = quiesce();
        assertEquals(vertices, live.get("vertex-header"), "dead vertices freed: " + live + " " + node.engine.gc().stats());
        assertEquals(edges, live.get("edge-header"), "dead edges freed: " + live);
        assertEquals(2L * vertices, live.get("mv-tuple"), "one version per counter once no transaction runs: " + live);
    }

    /** Runs GC passes with no transaction running until nothing more is recycled; returns live slots. */
    private Map<String, Long> quiesce() throws InterruptedException {
        for (int pass = 0; pass < 50; pass++) {
            if (node.engine.gc().runOnce() == 0 && pass > 3) {
                break;
            }
            Thread.sleep(2);
        }
        return node.store.liveSlots();
    }

    private static void bump(Transaction t, long v, int key, long delta) {
        t.setVertexProperty(v, key, (Long) t.vertexProperty(v, key) + delta);
    }

    /** Dangling edges and counters that disagree with the adjacency, as this transaction sees them. */
    private static List<String> audit(Transaction t, int label, int out, int in) {
        List<String> bad = new ArrayList<>();
        Set<Long> vertices = new HashSet<>();
        long sumOut = 0;
        for (long v : t.vertices(label)) {
            vertices.add(v);
            long outs = t.edges(v, EdgeDirection.OUT, EdgeCursor.ANY_LABEL).length;
            long ins = t.edges(v, EdgeDirection.IN, EdgeCursor.ANY_LABEL).length;
            Object o = t.vertexProperty(v, out);
            Object i = t.vertexProperty(v, in);
            if (!Objects.equals(o, outs) || !Objects.equals(i, ins)) {
                bad.add("vertex " + v + " counters out=" + o + " in=" + i + " but adjacency out=" + outs + " in=" + ins);
            }
            sumOut += outs;
        }
        long[] edges = t.allEdges(label);
        for (long e : edges) {
            if (!vertices.contains(t.edgeOutVertex(e)) || !vertices.contains(t.edgeInVertex(e))) {
                bad.add("dangling edge " + e + " " + t.edgeOutVertex(e) + "->" + t.edgeInVertex(e));
            }
        }
        if (sumOut != edges.length) {
            bad.add("edge scan finds " + edges.length + " edges, adjacency " + sumOut);
        }
        return bad;
    }

    // ------------------------------------------------------------ property churn, serial replay

    /**
     * Set / remove / set-set / remove-set / set-remove on a few shared keys (and on vertices the
     * transaction creates), values of mixed types, checking read-your-own-writes after each step.
     * The final state must equal the committed transactions' net writes replayed in commit-time
     * order. Every operation reads the property first, so SR validation covers what it saw.
     */
    @ParameterizedTest
    @CsvSource({"SERIALIZABLE,true", "SERIALIZABLE,false", "SNAPSHOT,true"})
    void propertyChurnEqualsSerialReplayInCommitOrder(Isolation isolation, boolean gc) throws Exception {
        node = new TxnFixture(Map.of(TxnConfig.GC, gc, TxnConfig.GC_INTERVAL_MS, 1));
        int label = node.label("n");
        int[] keys = {node.key("a"), node.key("b"), node.key("c")};
        List<Long> all = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 4; i++) {
            all.add(committedVertex(label, keys[0], 0L));
        }
        List<Long> shared = List.copyOf(all);
        ConcurrentLinkedQueue<Map.Entry<Long, Map<List<Long>, Object>>> committed = new ConcurrentLinkedQueue<>();
        List<String> violations = run(8, SEED * 7, 3000, isolation, new AtomicBoolean(), (t, rnd, bad) -> {
            Map<List<Long>, Object> net = new HashMap<>();
            long fresh = rnd.nextInt(8) == 0 ? t.addVertex(label) : 0;
            for (int step = 1 + rnd.nextInt(4); step > 0; step--) {
                long v = fresh != 0 && rnd.nextBoolean() ? fresh : shared.get(rnd.nextInt(shared.size()));
                int k = keys[rnd.nextInt(keys.length)];
                Object seen = t.vertexProperty(v, k);
                for (char c : new String[] {"s", "r", "ss", "rs", "sr"}[rnd.nextInt(5)].toCharArray()) {
                    if (c == 's') {
                        seen = rnd.nextBoolean() ? (Object) (long) rnd.nextInt(1000) : "s" + "x".repeat(rnd.nextInt(40));
                        t.setVertexProperty(v, k, seen);
                        net.put(List.of(v, (long) k), seen);
                    } else {
                        if (t.removeVertexProperty(v, k)) { // may be true for a value added after our snapshot
                            net.put(List.of(v, (long) k), TOMBSTONE);
                        }
                        seen = null;
                    }
                    Object now = t.vertexProperty(v, k);
                    if (!Objects.equals(now, seen)) {
                        bad.add("read-your-own-writes after '" + c + "': expected " + seen + " read " + now);
                    }
                }
                if (!Objects.equals(t.vertexProperties(v).get(k), seen)) {
                    bad.add("vertexProperties disagrees with vertexProperty for " + v + "/" + k);
                }
            }
            return () -> {
                committed.add(Map.entry(t.commitTime(), net));
                if (fresh != 0) {
                    all.add(fresh);
                }
            };
        });
        TreeMap<Long, Map<List<Long>, Object>> byCommit = new TreeMap<>();
        committed.forEach(e -> assertTrue(byCommit.put(e.getKey(), e.getValue()) == null, "commit times are unique"));
        Map<List<Long>, Object> expected = new HashMap<>();
        for (long v : shared) {
            expected.put(List.of(v, (long) keys[0]), 0L);
        }
        byCommit.values().forEach(expected::putAll);
        Transaction check = node.begin(Isolation.SERIALIZABLE);
        List<String> diff = new ArrayList<>();
        for (long v : all) {
            for (int k : keys) {
                Object want = expected.getOrDefault(List.of(v, (long) k), TOMBSTONE);
                Object have = check.vertexProperty(v, k);
                if (!Objects.equals(want == TOMBSTONE ? null : want, have)) {
                    diff.add(v + "/" + k + " replay=" + want + " store=" + have);
                }
            }
        }
        check.commit();
        assertTrue(byCommit.size() > 500, "enough commits: " + byCommit.size());
        assertTrue(diff.isEmpty() && violations.isEmpty(), diff.size() + " properties differ from the serial replay "
                + diff + "; in-transaction: " + first(violations));
    }

    // ------------------------------------------------------------ long-running readers under GC

    /**
     * Readers hold SR snapshots for many GC passes (1 ms) while writers update, remove and re-add
     * properties, add and remove edges and replace vertices. Every committed reader must read, five
     * times over 75 ms, exactly what it read first: vertex set, property maps and adjacency.
     */
    @Test
    void longRunningReadersKeepTheirSnapshotUnderHeavyGc() throws Exception {
        node = new TxnFixture(Map.of(TxnConfig.GC, true, TxnConfig.GC_INTERVAL_MS, 1));
        int label = node.label("n");
        int a = node.key("a");
        int s = node.key("s");
        List<Long> known = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 10; i++) {
            known.add(committedVertex(label, a, (long) i));
        }
        AtomicBoolean stop = new AtomicBoolean();
        Future<List<String>> writers = pool.submit(() -> run(5, SEED * 13, 1_000_000, Isolation.SERIALIZABLE, stop, (t, rnd, bad) -> {
            long x = known.get(known.size() - 1 - rnd.nextInt(Math.min(12, known.size())));
            long y = known.get(known.size() - 1 - rnd.nextInt(Math.min(12, known.size())));
            int op = rnd.nextInt(100);
            if (!t.vertexExists(x) || !t.vertexExists(y)) {
                t.rollback();
            } else if (op < 50) {
                t.setVertexProperty(x, rnd.nextBoolean() ? a : s, rnd.nextBoolean() ? (Object) (long) rnd.nextInt() : "v" + rnd.nextInt());
            } else if (op < 65) {
                t.removeVertexProperty(x, rnd.nextBoolean() ? a : s);
            } else if (op < 80) {
                t.addEdge(x, y, label);
            } else if (op < 93) {
                long[] edges = t.edges(x, EdgeDirection.BOTH, EdgeCursor.ANY_LABEL);
                if (edges.length > 0) {
                    t.removeEdge(edges[rnd.nextInt(edges.length)]);
                }
            } else {
                t.removeVertex(x);
                long v = t.addVertex(label);
                t.setVertexProperty(v, s, "new");
                return () -> known.add(v);
            }
            return null;
        }));
        List<String> committedReads = new CopyOnWriteArrayList<>();
        List<String> violations;
        try {
            violations = run(3, SEED * 17, 12, Isolation.SERIALIZABLE, new AtomicBoolean(), (t, rnd, bad) -> {
                String first = snapshotOf(t, label);
                List<String> changed = new ArrayList<>();
                for (int again = 0; again < 5; again++) {
                    Thread.sleep(15); // real time: writers and GC run between this reader's re-reads
                    String now = snapshotOf(t, label);
                    if (!now.equals(first)) {
                        changed.add("re-read " + again + " at " + t.beginTime() + " differs:\n first " + first + "\n now   " + now);
                    }
                }
                return () -> { // committed: what it read was its snapshot
                    committedReads.add(first);
                    bad.addAll(changed);
                };
            });
        } finally {
            stop.set(true);
        }
        violations.addAll(writers.get(60, TimeUnit.SECONDS));
        assertTrue(violations.isEmpty(), first(violations));
        assertTrue(committedReads.size() > 10, "long reads committed: " + committedReads.size());
        assertTrue(node.engine.gc().stats().get("versions.freed") > 0, "GC ran under the readers: " + node.engine.gc().stats());
    }

    /** Vertices, their properties and both adjacency lists, and the edge scan, as one canonical string. */
    private static String snapshotOf(Transaction t, int label) {
        StringBuilder out = new StringBuilder();
        for (long v : t.vertices(label)) {
            long[] edges = t.edges(v, EdgeDirection.BOTH, EdgeCursor.ANY_LABEL);
            Arrays.sort(edges);
            out.append(v).append(new TreeMap<>(t.vertexProperties(v))).append(Arrays.toString(edges)).append(';');
        }
        for (long e : t.allEdges(label)) {
            out.append('e').append(e).append(':').append(t.edgeOutVertex(e)).append('>').append(t.edgeInVertex(e)).append(';');
        }
        return out.toString();
    }
}
