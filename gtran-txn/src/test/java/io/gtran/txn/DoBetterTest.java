package io.gtran.txn;

import static io.gtran.txn.TxnWords.INFINITY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.InJvmCluster;
import io.gtran.storage.EdgeCursor;
import io.gtran.storage.EdgeDirection;
import io.gtran.storage.GraphStore;
import io.gtran.storage.MvStore;
import io.gtran.storage.StoreConfig;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One test (or a few) per item of DESIGN.md's "Where G-Tran's own code falls short — do better",
 * each building the dangerous interleaving step by step (transactions driven from the test
 * thread, no timing):
 * <ol type="a">
 *   <li>the GC watermark is the minimum begin time: versions and RCT entries an old transaction
 *       needs survive GC passes;
 *   <li>commit times and RCT registration: a query waits for smaller reserved commit times, a late
 *       one does not escape validation, and a reader that begins after a writer took its commit
 *       time sees all of that writer or none of it;
 *   <li>a version read around (its writer executing) is re-checked at validation;
 *   <li>phantoms through adjacency, label and edge scans, id look-ups and property-key listings
 *       abort at SR and are allowed at SI;
 *   <li>SI first-committer-wins, also when an aborted version sits on top of the committed one;
 *       SR stops the same lost update;
 *   <li>dependency waits are bounded, wait for the outcome, and end in an abort with its reason;
 *   <li>an aborted transaction leaves nothing half-applied;
 *   <li>GC recycles aborted writes and dead elements down to exactly the live graph.
 * </ol>
 * Where a step must block (a commit waiting on the RCT or on a dependency), it runs on an
 * executor and the test waits until that thread is parked in its timed wait.
 *
 * <p>Not covered: "control messages over a reliable channel" is a matter of the cluster transport
 * (status, RCT and commit traffic between nodes); this single-node module has none, so it is left
 * to the cluster tests.
 */
@Timeout(60)
class DoBetterTest {
    private TxnFixture node;
    private final AtomicReference<Thread> worker = new AtomicReference<>();
    private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "do-better-worker");
        t.setDaemon(true);
        worker.set(t);
        return t;
    });
    private int person;
    private int knows;
    private int x;
    private int note;

    private void open(Map<String, ?> settings) {
        Map<String, Object> all = new LinkedHashMap<>(Map.of(TxnConfig.GC, false));
        all.putAll(settings);
        node = new TxnFixture(all);
        person = node.label("person");
        knows = node.label("knows");
        x = node.key("x");
        note = node.key("note");
    }

    @AfterEach
    void close() {
        executor.shutdownNow();
        if (node != null) {
            node.close();
        }
    }

    // ---------------------------------------------------------------- (a) GC watermark

    /**
     * An old reader R holds the watermark down while a writer updates x twenty times with a GC
     * pass after each commit (and a younger reader comes and goes): R keeps reading its value,
     * the watermark never passes R's begin time and no version is freed. Once R ends, GC frees
     * every version but the newest.
     */
    @Test
    void gcWatermarkIsTheMinimumBeginTimeOfActiveTransactions() throws Exception {
        open(Map.of());
        long v = committedVertex(0L);
        update(v, x, 1L);
        quiesceGc();
        assertEquals(1, versions(), "one property, one version after GC");
        Transaction r = node.begin(Isolation.SERIALIZABLE);
        assertEquals(1L, r.vertexProperty(v, x));
        Transaction young = null;
        for (long i = 2; i <= 21; i++) {
            update(v, x, i);
            if (i == 10) {
                young = node.begin(Isolation.SERIALIZABLE);
                assertEquals(10L, young.vertexProperty(v, x));
            }
            if (i == 15) {
                young.commit(); // the youngest leaves; the watermark must stay at R
            }
            node.engine.gc().runOnce();
            assertTrue(node.engine.watermark() <= r.beginTime(), "watermark passed the oldest running transaction");
            assertEquals(1L, r.vertexProperty(v, x), "the old reader's version must survive GC");
            assertEquals(i, versions(), "nothing may be freed while R runs");
        }
        assertTrue(node.engine.stats().get("rct.entries") >= 20, "RCT entries in R's window must survive");
        r.commit();
        quiesceGc();
        assertEquals(1, versions(), "after R, only the newest version remains");
        assertEquals(0L, node.engine.stats().get("rct.entries"));
    }

    /** The same, with R writing: the RCT entries GC kept let R's validation see the first writer. */
    @Test
    void gcKeepsRecentCommittedEntriesARunningValidatorNeeds() throws Exception {
        open(Map.of());
        long v = committedVertex(0L);
        long z = committedVertex(0L);
        Transaction r = node.begin(Isolation.SERIALIZABLE);
        assertEquals(0L, r.vertexProperty(v, x));
        long firstWriter = 0;
        for (long i = 1; i <= 20; i++) {
            long writer = update(v, x, i);
            firstWriter = firstWriter == 0 ? writer : firstWriter;
            node.engine.gc().runOnce();
        }
        r.setVertexProperty(z, note, "r");
        expectConflict(ConflictKind.READ_WRITE, firstWriter, r::commit);
    }

    // ---------------------------------------------------------------- (b) commit time and RCT

    /** A reserved commit time holds back every RCT query above it until its write set is published; bounded. */
    @Test
    void rctQueryWaitsForEverySmallerCommitTimeToRegister() throws Exception {
        RecentCommittedTable rct = new RecentCommittedTable();
        Clock clock = new LocalClock();
        long ct1 = rct.reserve(clock);
        long ct2 = clock.next();
        assertTrue(rct.awaitRegisteredBelow(ct1, 0), "nothing below ct1 is missing");
        assertFalse(rct.awaitRegisteredBelow(ct2, 50), "ct1 is missing: a query above it must time out");
        AtomicBoolean published = new AtomicBoolean();
        Future<Boolean> waiter = executor.submit(() -> rct.awaitRegisteredBelow(ct2, 60_000) && published.get());
        awaitParked();
        assertFalse(waiter.isDone(), "the query answered before ct1 registered");
        long fake = TxnWords.txnId(1, 7, 1); // a remote participant
        published.set(true);
        RecentCommittedTable.Entry entry = rct.publish(ct1, fake, Set.of(ConflictKey.element(42)));
        assertTrue(waiter.get(30, TimeUnit.SECONDS), "the query must answer once ct1 registered, and not before");
        assertEquals(entry, rct.between(ct1 - 1, ct2).iterator().next());
    }

    /** A writer W that took its commit time before T (W wrote what T read): T's validation sees W. */
    @Test
    void validationSeesAWriterWithASmallerCommitTime() {
        open(Map.of());
        long v = committedVertex(0L);
        long z = committedVertex(0L);
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        assertEquals(0L, t.vertexProperty(v, x));
        long w = update(v, x, 1L);
        t.setVertexProperty(z, note, "t");
        expectConflict(ConflictKind.READ_WRITE, w, t::commit);
    }

    /**
     * A remote participant's commit time, reserved below T's and published late, with a write set
     * that T's reads meet: T's validation waits for it instead of missing it, then aborts.
     */
    @Test
    void lateRegisteredCommitTimeDoesNotEscapeValidation() throws Exception {
        open(Map.of(TxnConfig.DEPENDENCY_WAIT_MS, 60_000));
        long v = committedVertex(0L);
        long z = committedVertex(0L);
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        assertEquals(0L, t.vertexProperty(v, x));
        RecentCommittedTable rct = node.engine.recentCommitted();
        long ct = rct.reserve(node.engine.clock());
        t.setVertexProperty(z, note, "t");
        Future<?> commit = executor.submit(t::commit);
        awaitParked();
        assertFalse(commit.isDone(), "T validated while a smaller commit time was unregistered");
        long fake = TxnWords.txnId(1, 9, 1);
        synchronized (rct) { // T wakes only after both steps: it sees the entry committed
            rct.decide(rct.publish(ct, fake, Set.of(ConflictKey.property(v, x))), TxnStatus.COMMITTED);
        }
        expectConflict(ConflictKind.READ_WRITE, fake, () -> getCause(commit));
    }

    /**
     * W takes its commit time; before W's status says VALIDATING, R begins (R's begin time is
     * after W's commit time, so W belongs in R's snapshot) and reads x, which W wrote. Once W has
     * committed R reads y, which W also wrote. R must see both of W's writes or neither: taking a
     * commit time must be atomic with publishing it to readers, not only with the RCT. The hook
     * runs R's step on another thread and waits for it, bounded, so a fixed engine that makes R
     * wait for W's commit time cannot deadlock the test.
     */
    @Test
    void readerBeginningAfterAWritersCommitTimeSeesAllOrNoneOfItsWrites() throws Exception {
        HookedClock clock = new HookedClock();
        InJvmCluster cluster = new InJvmCluster();
        GraphStore store = GraphStore.open(StoreConfig.from(Map.of(StoreConfig.CHUNK_BYTES, 1 << 16)));
        TransactionEngine engine = TransactionEngine.open(store, cluster.join(0), TxnConfig.from(Map.of(TxnConfig.GC, false)), clock);
        try {
            int k = store.propertyKeys().intern("k");
            int label = store.labels().intern("l");
            Transaction setup = engine.begin(Isolation.SERIALIZABLE);
            long a = setup.addVertex(label);
            long b = setup.addVertex(label);
            setup.setVertexProperty(a, k, 0L);
            setup.setVertexProperty(b, k, 0L);
            setup.commit();
            Transaction w = engine.begin(Isolation.SERIALIZABLE);
            w.setVertexProperty(a, k, 1L);
            w.setVertexProperty(b, k, 1L);
            AtomicReference<Transaction> reader = new AtomicReference<>();
            AtomicReference<Object> first = new AtomicReference<>();
            clock.armForCurrentThread(() -> {
                Future<?> step = executor.submit(() -> {
                    reader.set(engine.begin(Isolation.SERIALIZABLE));
                    first.set(reader.get().vertexProperty(a, k));
                });
                try {
                    step.get(1, TimeUnit.SECONDS);
                } catch (TimeoutException e) {
                    // R waits for W's commit time (a fixed engine): let W go on
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            w.commit();
            executor.submit(() -> { }).get(30, TimeUnit.SECONDS); // R's first step has finished
            Transaction r = reader.get();
            assertNotNull(r, "the clock hook did not run R");
            assertTrue(r.beginTime() > w.commitTime(), "R began after W took its commit time");
            Object second = r.vertexProperty(b, k);
            r.commit();
            assertEquals(second, first.get(), "R saw a=" + first.get() + " and b=" + second + " of one transaction W");
            assertEquals(1L, second, "W committed before R's begin time: R must see its writes");
        } finally {
            engine.close();
            store.close();
            cluster.close();
        }
    }

    // ---------------------------------------------------------------- (c) versions read around

    /** T1 reads x around W's uncommitted write (or removal); W commits inside T1's window; T1 must abort naming W. */
    @ParameterizedTest
    @EnumSource(names = {"UPDATE", "REMOVE"})
    void versionReadAroundAnExecutingWriterIsRecheckedAtValidation(Write kind) {
        open(Map.of());
        long v = committedVertex(0L);
        long z = committedVertex(0L);
        update(v, x, 1L); // a full version at the head, as after any update
        Transaction t1 = node.begin(Isolation.SERIALIZABLE);
        Transaction w = node.begin(Isolation.SERIALIZABLE);
        if (kind == Write.UPDATE) {
            w.setVertexProperty(v, x, 2L);
        } else {
            w.removeVertexProperty(v, x);
        }
        assertEquals(1L, t1.vertexProperty(v, x), "an executing writer's version is read around");
        w.commit();
        assertEquals(1L, t1.vertexProperty(v, x), "still T1's snapshot");
        t1.setVertexProperty(z, note, "t1");
        expectConflict(ConflictKind.READ_WRITE, w.id(), t1::commit);
    }

    enum Write { UPDATE, REMOVE }

    // ---------------------------------------------------------------- (d) phantoms

    /** The scenarios: what T1 reads (checking what it saw), what T2 writes and commits in between. */
    enum Phantom {
        OUT_EDGES, IN_EDGES, EDGE_REMOVED, NEIGHBOUR_DELETED, LABEL_SCAN_INSERT, ANY_LABEL_SCAN_INSERT, LABEL_SCAN_DELETE,
        EDGE_SCAN_INSERT, ID_LOOKUP_DELETE, ID_LOOKUP_INSERT, PROPERTY_KEYS
    }

    /**
     * T1 reads by adjacency, label scan, edge scan, id look-up or property-key listing; T2 changes
     * what that read returned and commits; T1 writes elsewhere and commits. At SR T1 aborts
     * (READ_WRITE naming T2); at SI it commits: SI allows these anomalies (write skew on a
     * predicate) by definition, since only write-write conflicts abort it.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Phantom.class)
    void phantomsAbortAtSerializable(Phantom p) {
        phantom(p, Isolation.SERIALIZABLE);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Phantom.class)
    void phantomsCommitAtSnapshot(Phantom p) {
        phantom(p, Isolation.SNAPSHOT);
    }

    private void phantom(Phantom p, Isolation isolation) {
        open(Map.of());
        int other = node.label("other");
        int color = node.key("color");
        long v = committedVertex(0L);
        long u = committedVertex(0L);
        long z = committedVertex(0L);
        Transaction s = node.begin(Isolation.SERIALIZABLE);
        long e = s.addEdge(v, u, knows);
        s.commit();
        Transaction t1 = node.begin(isolation);
        Transaction t2 = node.begin(isolation);
        long[] created = new long[1];
        if (p == Phantom.ID_LOOKUP_INSERT) {
            created[0] = t2.addVertex(person); // uncommitted when T1 looks it up
        }
        switch (p) { // T1's read, and what it saw
            case OUT_EDGES -> assertEquals(1, t1.edges(v, EdgeDirection.OUT, EdgeCursor.ANY_LABEL).length);
            case IN_EDGES -> assertEquals(0, t1.edges(v, EdgeDirection.IN, EdgeCursor.ANY_LABEL).length);
            case EDGE_REMOVED -> assertEquals(1, t1.edges(v, EdgeDirection.BOTH, EdgeCursor.ANY_LABEL).length);
            case NEIGHBOUR_DELETED -> assertEquals(1, t1.edges(v, EdgeDirection.OUT, knows).length);
            case LABEL_SCAN_INSERT, LABEL_SCAN_DELETE -> assertEquals(3, t1.vertices(person).length);
            case ANY_LABEL_SCAN_INSERT -> assertEquals(3, t1.vertices(EdgeCursor.ANY_LABEL).length);
            case EDGE_SCAN_INSERT -> assertEquals(1, t1.allEdges(knows).length);
            case ID_LOOKUP_DELETE -> assertTrue(t1.vertexExists(u));
            case ID_LOOKUP_INSERT -> assertFalse(t1.vertexExists(created[0]));
            case PROPERTY_KEYS -> assertEquals(Set.of(x), t1.vertexProperties(v).keySet());
            default -> throw new AssertionError(p);
        }
        switch (p) { // T2's write
            case OUT_EDGES -> t2.addEdge(v, z, knows);
            case IN_EDGES -> t2.addEdge(z, v, knows);
            case EDGE_REMOVED -> t2.removeEdge(e);
            case LABEL_SCAN_INSERT -> t2.addVertex(person);
            case ANY_LABEL_SCAN_INSERT -> t2.addVertex(other);
            case NEIGHBOUR_DELETED, LABEL_SCAN_DELETE, ID_LOOKUP_DELETE -> t2.removeVertex(u); // and edge v->u
            case EDGE_SCAN_INSERT -> t2.addEdge(z, u, knows);
            case ID_LOOKUP_INSERT -> { }
            case PROPERTY_KEYS -> t2.setVertexProperty(v, color, "red");
            default -> throw new AssertionError(p);
        }
        t2.commit();
        t1.setVertexProperty(z, note, "t1");
        if (isolation == Isolation.SERIALIZABLE) {
            expectConflict(ConflictKind.READ_WRITE, t2.id(), t1::commit);
        } else {
            t1.commit();
            assertTrue(t1.isCommitted());
        }
    }

    // ---------------------------------------------------------------- (e) lost updates

    /** SI: T1 and T2 read x=10; T2 writes 11 and commits; T1's write of 12 aborts (first committer wins). */
    @ParameterizedTest
    @EnumSource(names = {"UPDATE", "REMOVE"})
    void snapshotIsolationFirstCommitterWins(Write kind) {
        open(Map.of());
        long v = committedVertex(10L);
        Transaction t1 = node.begin(Isolation.SNAPSHOT);
        Transaction t2 = node.begin(Isolation.SNAPSHOT);
        assertEquals(10L, t1.vertexProperty(v, x));
        assertEquals(10L, t2.vertexProperty(v, x));
        if (kind == Write.UPDATE) {
            t2.setVertexProperty(v, x, 11L);
        } else {
            t2.removeVertexProperty(v, x);
        }
        t2.commit();
        expectConflict(ConflictKind.FIRST_COMMITTER_WINS, 0, () -> t1.setVertexProperty(v, x, 12L));
        assertEquals(kind == Write.UPDATE ? 11L : null, read(v, x), "the first committer's write stands");
    }

    /**
     * SI, the same lost update with an aborted version on top: T2 commits x=11 after T1 began,
     * then T3 writes x=12 and rolls back, leaving its aborted version at the head of the chain. T1's
     * write must still abort: the version it would supersede was committed after T1 began.
     */
    @Test
    void firstCommitterWinsAlsoBelowAnAbortedVersion() {
        open(Map.of());
        long v = committedVertex(10L);
        Transaction t1 = node.begin(Isolation.SNAPSHOT);
        assertEquals(10L, t1.vertexProperty(v, x));
        update(v, x, 11L);
        Transaction t3 = node.begin(Isolation.SNAPSHOT);
        t3.setVertexProperty(v, x, 12L);
        t3.rollback();
        expectConflict(ConflictKind.FIRST_COMMITTER_WINS, 0, () -> {
            t1.setVertexProperty(v, x, 13L);
            t1.commit();
        });
        assertEquals(11L, read(v, x), "T2's committed update was lost");
    }

    /** SR, same lost-update interleaving: T1 aborts, at its write or at commit. */
    @Test
    void serializableStopsLostUpdates() {
        open(Map.of());
        long v = committedVertex(10L);
        Transaction t1 = node.begin(Isolation.SERIALIZABLE);
        Transaction t2 = node.begin(Isolation.SERIALIZABLE);
        assertEquals(10L, t1.vertexProperty(v, x));
        assertEquals(10L, t2.vertexProperty(v, x));
        t2.setVertexProperty(v, x, 11L);
        t2.commit();
        TransactionConflictException e = assertThrows(TransactionConflictException.class, () -> {
            t1.setVertexProperty(v, x, 12L);
            t1.commit();
        });
        assertTrue(EnumSet.of(ConflictKind.READ_WRITE, ConflictKind.FIRST_COMMITTER_WINS).contains(e.kind()), e.getMessage());
        assertEquals(11L, read(v, x));
    }

    // ---------------------------------------------------------------- (f) dependency waits

    /** A validating transaction that never decides: a reader that pre-read it aborts, bounded, naming it. */
    @Test
    @Timeout(30)
    void dependencyWaitIsBoundedAndEndsInANamedAbort() {
        open(Map.of(TxnConfig.DEPENDENCY_WAIT_MS, 200));
        long v = committedVertex(0L);
        update(v, x, 1L);
        FakeValidator fake = new FakeValidator(v, 99L);
        Transaction r = node.begin(Isolation.SERIALIZABLE);
        assertEquals(99L, r.vertexProperty(v, x), "optimistic pre-read of a validator with a smaller commit time");
        expectConflict(ConflictKind.DEPENDENCY_TIMEOUT, fake.id, r::commit);
        assertFalse(r.isActive());
        assertEquals(StatusTable.GONE, node.engine.statusTable().read(r.id()), "the aborted reader's entry is released");
        assertEquals(1L, node.engine.stats().get("aborts.DEPENDENCY_TIMEOUT"));
        fake.decide(TxnStatus.ABORTED); // an abort decided elsewhere: readers see the old value again
        assertEquals(1L, read(v, x));
    }

    /** The wait is for the outcome: the reader commits if the validator commits, aborts if it aborts. */
    @ParameterizedTest
    @EnumSource(value = TxnStatus.class, names = {"COMMITTED", "ABORTED"})
    void dependencyWaitEndsWithTheOutcome(TxnStatus outcome) throws Exception {
        open(Map.of(TxnConfig.DEPENDENCY_WAIT_MS, 60_000));
        long v = committedVertex(0L);
        update(v, x, 1L);
        FakeValidator fake = new FakeValidator(v, 99L);
        Transaction r = node.begin(Isolation.SERIALIZABLE);
        assertEquals(99L, r.vertexProperty(v, x));
        Future<?> commit = executor.submit(r::commit);
        awaitParked();
        assertFalse(commit.isDone(), "the reader committed before its dependency decided");
        fake.decide(outcome);
        if (outcome == TxnStatus.COMMITTED) {
            commit.get(30, TimeUnit.SECONDS);
            assertTrue(r.isCommitted());
        } else {
            expectConflict(ConflictKind.PRE_READ_DEPENDENCY_ABORTED, fake.id, () -> getCause(commit));
        }
    }

    /**
     * R pre-reads an edge created by a validating transaction, which then aborts: R is doomed, and
     * its next look at that edge must say so (PRE_READ_DEPENDENCY_ABORTED naming the validator),
     * not throw ElementNotFoundException, which is not retryable, for an edge R was just given.
     */
    @Test
    void readerOfAnAbortedValidatorsEdgeLearnsWhyItIsGone() {
        open(Map.of());
        long v = committedVertex(0L);
        long u = committedVertex(0L);
        update(v, x, 1L);
        FakeValidator fake = new FakeValidator(v, 99L);
        long e = node.store.addEdge(v, u, knows, fake.id, INFINITY); // the validator's new edge
        Transaction r = node.begin(Isolation.SERIALIZABLE);
        assertEquals(1, r.edges(v, EdgeDirection.OUT, knows).length, "optimistic pre-read of the validator's edge");
        fake.decide(TxnStatus.ABORTED);
        expectConflict(ConflictKind.PRE_READ_DEPENDENCY_ABORTED, fake.id, () -> r.edgeInVertex(e));
    }

    /** Validation waiting for a commit time that never registers is bounded too, and the abort is recorded. */
    @Test
    void validationWaitForUnregisteredCommitTimesIsBounded() {
        open(Map.of(TxnConfig.DEPENDENCY_WAIT_MS, 200));
        long v = committedVertex(0L);
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        node.engine.recentCommitted().reserve(node.engine.clock()); // never published
        t.setVertexProperty(v, x, 1L);
        expectConflict(ConflictKind.DEPENDENCY_TIMEOUT, 0, t::commit);
        assertEquals(TxnStatus.ABORTED, node.engine.recentCommitted().find(t.id()).outcome());
        assertEquals(1L, node.engine.stats().get("aborts.DEPENDENCY_TIMEOUT"));
        assertEquals(0L, read(v, x));
    }

    /**
     * A transaction frozen in VALIDATING, built as CommitProtocol builds one (package-private
     * access): a status entry, a version of the property with its id as begin time over the
     * committed head (whose end time it locks), an RCT entry with its commit time, status VALIDATING.
     */
    private final class FakeValidator {
        final long id;
        final RecentCommittedTable.Entry entry;

        FakeValidator(long vertex, long value) {
            StatusTable st = node.engine.statusTable();
            MvStore mv = node.store.mvStore();
            id = st.allocate();
            st.publishBeginTime(id, node.engine.clock().next());
            int head = node.store.vertexPropertyVersion(vertex, x);
            assertFalse(MvStore.isBase(head));
            int fresh = mv.createVersion(value, id, INFINITY, head);
            assertTrue(mv.compareAndSetEndTime(head, INFINITY, id));
            assertTrue(node.store.linkVertexPropertyVersion(vertex, x, head, fresh));
            entry = node.engine.recentCommitted().register(id, Set.of(ConflictKey.property(vertex, x)), node.engine.clock());
            assertTrue(st.move(id, TxnStatus.EXECUTING, 0, TxnStatus.VALIDATING, entry.commitTime));
        }

        void decide(TxnStatus outcome) {
            assertTrue(node.engine.statusTable().move(id, TxnStatus.VALIDATING, entry.commitTime, outcome, entry.commitTime));
            node.engine.recentCommitted().decide(entry, outcome);
        }
    }

    // ---------------------------------------------------------------- (g) nothing half-applied

    enum Abort { WRITE_WRITE, FIRST_COMMITTER_WINS, READ_WRITE }

    /**
     * T writes four properties, an edge with a property, and then a fifth property that conflicts
     * (another writer holds it, or committed it after T began at SI, or, at SR, committed what T
     * read so that T fails at commit). Nothing of T's is visible afterwards, and the exception
     * names the kind and the other transaction.
     */
    @ParameterizedTest
    @EnumSource(Abort.class)
    void anAbortedTransactionLeavesNothingHalfApplied(Abort mode) {
        open(Map.of());
        long[] vs = new long[5];
        for (int i = 0; i < 5; i++) {
            vs[i] = committedVertex(0L);
        }
        Transaction t = node.begin(mode == Abort.FIRST_COMMITTER_WINS ? Isolation.SNAPSHOT : Isolation.SERIALIZABLE);
        assertEquals(0L, t.vertexProperty(vs[4], x));
        Transaction o = node.begin(Isolation.SERIALIZABLE);
        o.setVertexProperty(vs[4], x, 100L);
        if (mode != Abort.WRITE_WRITE) {
            o.commit();
        }
        long[] edge = new long[1];
        TransactionConflictException e = assertThrows(TransactionConflictException.class, () -> {
            t.setVertexProperty(vs[0], x, 1L);
            t.setVertexProperty(vs[1], x, 1L);
            edge[0] = t.addEdge(vs[0], vs[1], knows);
            t.setEdgeProperty(edge[0], note, "half");
            t.setVertexProperty(vs[2], x, 1L);
            t.setVertexProperty(vs[3], x, 1L);
            t.setVertexProperty(vs[4], x, 1L);
            t.commit();
        });
        assertEquals(ConflictKind.valueOf(mode.name()), e.kind(), e.getMessage());
        assertTrue(e.getMessage().contains(mode.name()), e.getMessage());
        if (mode != Abort.FIRST_COMMITTER_WINS) {
            assertEquals(o.id(), e.otherTransaction());
            assertTrue(e.getMessage().contains(TxnWords.toString(o.id())), e.getMessage());
        }
        if (mode == Abort.WRITE_WRITE) {
            o.commit();
        }
        Transaction check = node.begin(Isolation.SERIALIZABLE);
        for (int i = 0; i < 4; i++) {
            assertEquals(0L, check.vertexProperty(vs[i], x), "a write of the aborted transaction is visible");
        }
        assertEquals(100L, check.vertexProperty(vs[4], x));
        assertFalse(check.edgeExists(edge[0]));
        assertEquals(0, check.edges(vs[0], EdgeDirection.BOTH, EdgeCursor.ANY_LABEL).length);
        assertEquals(0, check.allEdges(EdgeCursor.ANY_LABEL).length);
        check.commit();
    }

    // ---------------------------------------------------------------- (h) GC recycles

    /**
     * Committed and aborted writes, a write-write abort, a vertex deleted with its edge, a string
     * property added and removed; then GC with nothing running. Exactly the live graph remains:
     * vertices a and b, edge a->b with one property; a.x (updated: one version), b.x
     * (materialized by an aborted update: one version), the edge's base version; no string value.
     */
    @Test
    void gcRecyclesAbortedWritesAndDeadElementsExactly() throws Exception {
        open(Map.of());
        int y = node.key("y");
        Map<String, Long> empty = node.store.liveSlots();
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        long a = t.addVertex(person);
        long b = t.addVertex(person);
        long c = t.addVertex(person);
        for (long v : new long[] {a, b, c}) {
            t.setVertexProperty(v, x, 0L);
        }
        long ab = t.addEdge(a, b, knows);
        t.setEdgeProperty(ab, note, 1L);
        t.addEdge(b, c, knows);
        t.commit();
        update(a, x, 2L); // committed update
        Transaction aborted = node.begin(Isolation.SERIALIZABLE);
        aborted.setVertexProperty(b, x, 99L);
        long d = aborted.addVertex(person);
        aborted.setVertexProperty(d, x, 1L);
        aborted.setEdgeProperty(aborted.addEdge(a, d, knows), note, "gone");
        aborted.rollback(); // rolled back
        Transaction holder = node.begin(Isolation.SERIALIZABLE);
        holder.setVertexProperty(c, x, 5L);
        Transaction loser = node.begin(Isolation.SERIALIZABLE);
        loser.setVertexProperty(a, y, "a string value");
        assertThrows(TransactionConflictException.class, () -> loser.setVertexProperty(c, x, 6L)); // write-write abort
        holder.rollback();
        Transaction removal = node.begin(Isolation.SERIALIZABLE);
        removal.removeVertex(c); // and edge b->c with it
        removal.commit();
        update(a, y, "another string");
        Transaction removeY = node.begin(Isolation.SERIALIZABLE);
        removeY.removeVertexProperty(a, y);
        removeY.commit();
        quiesceGc();

        Map<String, Long> expected = new LinkedHashMap<>(empty); // a, b; a->b; a row each; a.x, b.x, the edge's base
        Map.of("vertex-header", 2L, "edge-header", 1L, "edge-row", 2L, "vertex-property-row", 2L, "edge-property-row", 1L,
                "mv-tuple", 3L).forEach((pool, n) -> expected.merge(pool, n, Long::sum));
        assertEquals(expected, node.store.liveSlots(), () -> "GC stats " + node.engine.gc().stats());
        for (Map.Entry<String, Long> s : node.engine.gc().stats().entrySet()) {
            if (s.getKey().startsWith("waiting.")) {
                assertEquals(0L, s.getValue(), s.getKey());
            }
        }
        Transaction check = node.begin(Isolation.SERIALIZABLE);
        assertEquals(2, check.vertices(person).length);
        assertEquals(Map.of(x, 2L), check.vertexProperties(a));
        assertEquals(Map.of(x, 0L), check.vertexProperties(b));
        assertEquals(1L, check.edgeProperty(ab, note));
        check.commit();
    }

    // ---------------------------------------------------------------- helpers

    private long committedVertex(Object value) {
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        long v = t.addVertex(person);
        t.setVertexProperty(v, x, value);
        t.commit();
        return v;
    }

    /** Commits one write in its own transaction; returns that transaction's id. */
    private long update(long v, int key, Object value) {
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        t.setVertexProperty(v, key, value);
        t.commit();
        return t.id();
    }

    private Object read(long v, int key) {
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        Object value = t.vertexProperty(v, key);
        t.commit();
        return value;
    }

    private long versions() {
        return node.store.mvStore().liveVersions();
    }

    /** GC passes with nothing running, the clock moved past every commit before each. */
    private void quiesceGc() throws InterruptedException {
        for (int i = 0; i < 5; i++) {
            node.engine.clock().next();
            node.engine.gc().runOnce();
        }
    }

    private static void expectConflict(ConflictKind kind, long other, Runnable action) {
        TransactionConflictException e = assertThrows(TransactionConflictException.class, action::run);
        assertEquals(kind, e.kind(), e.getMessage());
        assertEquals(other, e.otherTransaction(), e.getMessage());
    }

    /** Waits for the future and rethrows the exception its task threw. */
    private static void getCause(Future<?> future) {
        try {
            future.get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new AssertionError(e.getCause());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Until the worker thread is parked in a timed wait (the wait under test). */
    private void awaitParked() throws InterruptedException {
        while (worker.get() == null || worker.get().getState() != Thread.State.TIMED_WAITING) {
            Thread.sleep(1);
        }
    }

    /** A LocalClock that runs a hook inside the next call to {@link #next} from one thread, after taking the time. */
    private static final class HookedClock implements Clock {
        private final LocalClock clock = new LocalClock();
        private volatile Thread armedThread;
        private volatile Runnable hook;

        void armForCurrentThread(Runnable r) {
            hook = r;
            armedThread = Thread.currentThread();
        }

        @Override
        public long next() {
            long time = clock.next();
            if (Thread.currentThread() == armedThread) {
                armedThread = null;
                hook.run();
            }
            return time;
        }

        @Override
        public long current() {
            return clock.current();
        }
    }
}
