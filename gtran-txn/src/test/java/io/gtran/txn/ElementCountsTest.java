package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.storage.EdgeCursor;
import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.ElementNotFoundException;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import io.gtran.txn.local.ElementCounts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link Transaction#countVertices} and {@link Transaction#countEdges} answer from the multi-version
 * counters of {@link ElementCounts}: each test compares them with what a scan of the same snapshot
 * finds, through creations, deletions (with a vertex's edges), aborts, validating writers and
 * folding.
 */
@Timeout(120)
class ElementCountsTest {
    private static final int ANY = EdgeCursor.ANY_LABEL;
    private TxnFixture node;
    private int person;
    private int post;
    private int knows;
    private int likes;

    private void open(Map<String, ?> settings) {
        node = new TxnFixture(settings);
        person = node.label("person");
        post = node.label("post");
        knows = node.label("knows");
        likes = node.label("likes");
    }

    /** A node without GC holding one committed person; returns its id. */
    private long openWithOnePerson() {
        open(Map.of(TxnConfig.GC, false));
        Transaction setup = node.begin(Isolation.SERIALIZABLE);
        long a = setup.addVertex(person);
        setup.commit();
        return a;
    }

    @AfterEach
    void close() {
        if (node != null) {
            node.close();
        }
    }

    /** Counts, checked against scans of the same snapshot. */
    private static void assertCounts(Transaction t, int label, long vertices, long edges) {
        assertEquals(vertices, t.countVertices(label), "vertices label=" + label);
        assertEquals(edges, t.countEdges(label), "edges label=" + label);
        assertEquals(t.vertices(label).length, t.countVertices(label), "vertex count differs from a scan, label=" + label);
        assertEquals(t.allEdges(label).length, t.countEdges(label), "edge count differs from a scan, label=" + label);
    }

    @ParameterizedTest
    @EnumSource(Isolation.class)
    void countsFollowCommitsAndSnapshots(Isolation isolation) {
        open(Map.of(TxnConfig.GC, false));
        Transaction empty = node.begin(isolation);
        assertCounts(empty, person, 0, 0);
        assertCounts(empty, ANY, 0, 0);

        Transaction w = node.begin(isolation);
        long a = w.addVertex(person);
        long b = w.addVertex(person);
        long c = w.addVertex(post);
        w.addEdge(a, b, knows);
        w.addEdge(a, c, likes);
        w.addEdge(b, c, likes);
        assertCounts(w, person, 2, 0);
        assertCounts(w, likes, 0, 2);
        assertCounts(w, ANY, 3, 3);
        Transaction concurrent = node.begin(isolation);
        assertCounts(concurrent, ANY, 0, 0); // not its writes while they are uncommitted
        w.commit();

        assertCounts(empty, ANY, 0, 0); // began before the commit: still its snapshot
        assertCounts(concurrent, person, 0, 0);
        empty.commit();
        concurrent.commit();
        Transaction after = node.begin(isolation);
        assertCounts(after, person, 2, 0);
        assertCounts(after, post, 1, 0);
        assertCounts(after, knows, 0, 1);
        assertCounts(after, likes, 0, 2);
        assertCounts(after, ANY, 3, 3);
        assertCounts(after, node.label("never-used"), 0, 0);
        after.commit();
    }

    @Test
    void deletionsCountDownIncludingAVertexsEdgesAndElementsCreatedAndDeletedInOneTransaction() {
        open(Map.of(TxnConfig.GC, false));
        Transaction w = node.begin(Isolation.SERIALIZABLE);
        long a = w.addVertex(person);
        long b = w.addVertex(person);
        long c = w.addVertex(post);
        long ab = w.addEdge(a, b, knows);
        w.addEdge(b, a, knows);
        w.addEdge(a, a, knows); // a self-loop is one edge
        w.addEdge(b, c, likes);
        w.commit();

        Transaction d = node.begin(Isolation.SERIALIZABLE);
        d.removeEdge(ab);
        assertCounts(d, knows, 0, 2);
        d.removeVertex(a); // takes b->a and a->a with it
        assertCounts(d, knows, 0, 0);
        assertCounts(d, person, 1, 0);
        long e = d.addVertex(person);
        long f = d.addEdge(e, b, knows);
        d.removeEdge(f);
        d.removeVertex(e);
        assertCounts(d, ANY, 2, 1);
        d.commit();

        Transaction r = node.begin(Isolation.SNAPSHOT);
        assertCounts(r, knows, 0, 0);
        assertCounts(r, likes, 0, 1);
        assertCounts(r, ANY, 2, 1);
        r.commit();
    }

    @Test
    void anAbortedTransactionsDeltasCountForNobody() {
        long a = openWithOnePerson();

        // Aborted while executing: nothing was published.
        Transaction rolledBack = node.begin(Isolation.SERIALIZABLE);
        rolledBack.addEdge(a, a, knows);
        rolledBack.rollback();

        // Aborted by validation after publishing its deltas: they stay in the chain as NEVER.
        Transaction loser = node.begin(Isolation.SERIALIZABLE);
        assertEquals(0, loser.countEdges(knows)); // reads the label's scan
        Transaction winner = node.begin(Isolation.SERIALIZABLE);
        winner.addEdge(a, a, knows);
        winner.commit();
        loser.addVertex(post);
        loser.addEdge(a, a, likes);
        TransactionConflictException conflict = assertThrows(TransactionConflictException.class, loser::commit);
        assertEquals(ConflictKind.READ_WRITE, conflict.kind(), "a count is a read of its label's scan at SR");

        Transaction r = node.begin(Isolation.SERIALIZABLE);
        assertCounts(r, knows, 0, 1);
        assertCounts(r, likes, 0, 0);
        assertCounts(r, post, 0, 0);
        assertCounts(r, ANY, 1, 1);
        r.commit();
    }

    @Test
    void aValidatingWritersDeltaIsPreReadAndAReaderDependsOnItsOutcome() {
        long a = openWithOnePerson();

        Transaction writer = node.begin(Isolation.SERIALIZABLE);
        writer.addEdge(a, a, knows);
        CommitProtocol held = new CommitProtocol(writer);
        assertTrue(held.prepare()); // VALIDATING, deltas published under its id
        Transaction before = node.begin(Isolation.SNAPSHOT); // begins after the writer's commit time
        assertEquals(1, before.countEdges(knows), "optimistic pre-read of the validating writer's delta");
        assertEquals(1, before.visibility.preReadDependencies.size());
        writer.rollback();
        TransactionConflictException e = assertThrows(TransactionConflictException.class, before::commit);
        assertEquals(ConflictKind.PRE_READ_DEPENDENCY_ABORTED, e.kind());
        Transaction r = node.begin(Isolation.SNAPSHOT);
        assertEquals(0, r.countEdges(knows));
        r.commit();

        Transaction second = node.begin(Isolation.SERIALIZABLE);
        second.addEdge(a, a, knows);
        CommitProtocol decided = new CommitProtocol(second);
        assertTrue(decided.prepare());
        Transaction reader = node.begin(Isolation.SERIALIZABLE);
        assertEquals(1, reader.countEdges(knows));
        decided.decide();
        reader.commit();
        assertTrue(reader.isCommitted());
    }

    @Test
    void foldingKeepsChainsShortUnderOldTransactionsAndEveryReaderKeepsItsCount() throws Exception {
        long a = openWithOnePerson();
        List<Transaction> readers = new ArrayList<>();
        for (int round = 0; round < 5; round++) {
            readers.add(node.begin(Isolation.SNAPSHOT)); // sees 100 * round edges, however long it stays
            for (int i = 0; i < 110; i++) {
                Transaction t = node.begin(Isolation.SERIALIZABLE);
                t.addEdge(a, a, knows);
                if (i % 11 == 10) {
                    assertTrue(new CommitProtocol(t).prepare()); // publishes its delta, then aborts: NEVER
                    t.rollback();
                } else {
                    t.commit();
                }
            }
        }
        ElementCounts.Counter counter = node.engine.counts().find(ElementKind.EDGE, knows);
        node.engine.gc().runOnce();
        // One delta per stretch between two readers' begin times, plus the base.
        assertTrue(chainLength(counter) <= readers.size() + 2, "folded between the readers: " + chainLength(counter));
        for (int i = 0; i < readers.size(); i++) {
            assertEquals(100L * i, readers.get(i).countEdges(knows), "reader " + i);
            assertEquals(100L * i, readers.get(i).allEdges(knows).length, "reader " + i + " scan");
            assertEquals(1, readers.get(i).countVertices(ANY));
        }
        readers.forEach(Transaction::commit);
        node.engine.gc().runOnce();
        assertEquals(1, chainLength(counter), "no reader left: everything in the base");

        Transaction old = node.begin(Isolation.SNAPSHOT);
        for (int i = 0; i < 1000; i++) { // folding by appenders (GC is off), an old reader running
            Transaction t = node.begin(Isolation.SERIALIZABLE);
            t.addEdge(a, a, knows);
            t.commit();
        }
        assertTrue(chainLength(counter) <= 2 * ElementCounts.FOLD_AFTER, "appenders fold: " + chainLength(counter));
        assertEquals(500, old.countEdges(knows));
        old.commit();
        Transaction r = node.begin(Isolation.SERIALIZABLE);
        assertCounts(r, knows, 0, 1500);
        assertCounts(r, ANY, 1, 1500);
        r.commit();
    }

    private static int chainLength(ElementCounts.Counter counter) {
        int n = 0;
        for (ElementCounts.Delta d = counter.head(); d != null; d = d.next) {
            n++;
        }
        return n;
    }

    /**
     * Writers add and delete vertices and edges of two labels at random and sometimes roll back;
     * readers compare each count with a scan in the same transaction. With GC running, counters
     * fold while readers walk them.
     */
    @ParameterizedTest
    @EnumSource(Isolation.class)
    void concurrentWritersNeverMakeACountDisagreeWithAScanOfTheSameSnapshot(Isolation isolation) throws Exception {
        open(Map.of(TxnConfig.GC_INTERVAL_MS, 1));
        int[] vertexLabels = {person, post};
        int[] edgeLabels = {knows, likes};
        List<Long> seed = new ArrayList<>();
        Transaction setup = node.begin(Isolation.SERIALIZABLE);
        for (int i = 0; i < 20; i++) {
            seed.add(setup.addVertex(vertexLabels[i % 2]));
        }
        setup.commit();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(5);
        List<Future<?>> tasks = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
            long randomSeed = 17 + w;
            tasks.add(pool.submit(() -> {
                Random random = new Random(randomSeed);
                while (!stop.get()) {
                    Transaction t = node.begin(Isolation.SERIALIZABLE);
                    try {
                        long[] vertices = t.vertices(ANY);
                        for (int op = 0; op < 4; op++) {
                            int choice = random.nextInt(10);
                            if (choice < 4 && vertices.length > 1) {
                                t.addEdge(vertices[random.nextInt(vertices.length)], vertices[random.nextInt(vertices.length)],
                                        edgeLabels[random.nextInt(2)]);
                            } else if (choice < 6) {
                                long[] edges = t.allEdges(ANY);
                                if (edges.length > 0) {
                                    t.removeEdge(edges[random.nextInt(edges.length)]);
                                }
                            } else if (choice < 8) {
                                t.addVertex(vertexLabels[random.nextInt(2)]);
                            } else if (vertices.length > 10) {
                                t.removeVertex(vertices[random.nextInt(vertices.length)]);
                            }
                        }
                        if (random.nextInt(5) == 0) {
                            t.rollback();
                        } else {
                            t.commit();
                        }
                    } catch (TransactionConflictException | ElementNotFoundException expected) {
                        t.rollback();
                    }
                }
                return null;
            }));
        }
        for (int r = 0; r < 2; r++) {
            tasks.add(pool.submit(() -> {
                int checks = 0;
                while (!stop.get() || checks < 50) {
                    Transaction t = node.begin(isolation);
                    List<String> mismatches = new ArrayList<>();
                    try {
                        for (int label : new int[] {person, post, ANY}) {
                            long count = t.countVertices(label);
                            long scanned = t.vertices(label).length;
                            if (count != scanned) {
                                mismatches.add("vertices label=" + label + " count=" + count + " scan=" + scanned + " " + t);
                            }
                        }
                        for (int label : new int[] {knows, likes, ANY}) {
                            long count = t.countEdges(label);
                            long scanned = t.allEdges(label).length;
                            if (count != scanned) {
                                mismatches.add("edges label=" + label + " count=" + count + " scan=" + scanned + " " + t);
                            }
                        }
                        t.commit();
                        failures.addAll(mismatches); // a reader that commits read one snapshot
                    } catch (TransactionConflictException abortedDependency) {
                        // It pre-read a validating writer that then aborted: what it read does not count.
                        t.rollback();
                    }
                    checks++;
                }
                return null;
            }));
        }
        Thread.sleep(3_000); // real time: how long the writers and the counting readers race
        stop.set(true);
        pool.shutdown();
        assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS));
        for (Future<?> task : tasks) {
            task.get();
        }
        assertEquals(List.of(), new ArrayList<>(failures));
        Transaction end = node.begin(Isolation.SERIALIZABLE);
        assertCounts(end, ANY, end.vertices(ANY).length, end.allEdges(ANY).length);
        assertTrue(end.countEdges(ANY) > 0, "the writers left edges behind");
        end.commit();
    }
}
