package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.storage.EdgeDirection;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The classic bank: {@value #ACCOUNTS} accounts of {@value #INITIAL} each, {@value #TRANSFER_THREADS}
 * threads moving random amounts between random pairs of accounts, and {@value #AUDIT_THREADS}
 * threads running read-only audits (a label scan plus a property read per account) at the same
 * time. Every audit that commits must see exactly the initial total: a transfer is all or nothing
 * and an audit reads one consistent snapshot. Runs at SR and SI, with GC running every
 * millisecond and with GC off.
 *
 * <p>"Never below zero" holds at SI as well as at SR: write skew needs two transactions whose
 * write sets are disjoint, but a transfer writes every balance it read (both accounts). Two
 * transfers that debit the same account both write it, so one of them aborts (write-write while
 * the other runs, first-committer-wins once it committed), and the survivor's check of the
 * balance was made on the value it overwrites.
 *
 * <p>Workers never assert: they return what they saw, and the test thread asserts on it.
 */
@Timeout(180)
class BankTransferTest {
    private static final int ACCOUNTS = 20;
    private static final int HOT_ACCOUNTS = 6;
    private static final long INITIAL = 1_000;
    private static final int TRANSFER_THREADS = 8;
    private static final int AUDIT_THREADS = 2;
    private static final int TRANSFERS_PER_THREAD = 400;
    private static final int MAX_ATTEMPTS = 50;
    private static final long SEED = 0x6A7A_2024L;

    private TxnFixture node;
    private int account;
    private int transferLabel;
    private int balance;
    private int outCount;
    private long[] accounts;

    /** What a transfer does: move money, move money and toggle an edge, or only toggle an edge. */
    private enum Mode {
        MONEY, MONEY_AND_EDGE, EDGE_ONLY;

        boolean edges() {
            return this != MONEY;
        }
    }

    /** What one transfer thread did. */
    private record TransferStats(int committed, int conflicts, int gaveUp, int skipped) {
    }

    /** What one committed audit saw. */
    private record Audit(int accounts, long total, long outEdges, long inEdges, long allEdges, int counterMismatches) {
    }

    /** Everything the audit threads saw, plus how many audits aborted. */
    private record AuditStats(List<Audit> committed, int aborted) {
    }

    static Stream<Arguments> settings() {
        return Stream.of(
                Arguments.of(Isolation.SERIALIZABLE, true),
                Arguments.of(Isolation.SERIALIZABLE, false),
                Arguments.of(Isolation.SNAPSHOT, true),
                Arguments.of(Isolation.SNAPSHOT, false));
    }

    @AfterEach
    void close() {
        if (node != null) {
            node.close();
        }
    }

    /** Transfers of money only: every committed audit sees the initial total, no balance goes negative. */
    @ParameterizedTest(name = "{0} gc={1}")
    @MethodSource("settings")
    void transfersKeepTheTotal(Isolation isolation, boolean gc) throws Exception {
        run(isolation, gc, Mode.MONEY, ACCOUNTS, TRANSFERS_PER_THREAD);
    }

    /**
     * Each transfer also adds the edge "transfer" from debited to credited account, or removes it
     * if there is one, and keeps the debited account's "outCount" property equal to its number of
     * outgoing transfer edges. Audits count edges out of and into every account (adjacency reads)
     * and all transfer edges (an edge scan): each audit's counts must agree with each other and
     * with the counters, besides the money total.
     */
    @ParameterizedTest(name = "{0} gc={1}")
    @MethodSource("settings")
    void transfersWithEdgesKeepTotalsAndCounts(Isolation isolation, boolean gc) throws Exception {
        run(isolation, gc, Mode.MONEY_AND_EDGE, ACCOUNTS, TRANSFERS_PER_THREAD);
    }

    /**
     * Edge churn on {@value #HOT_ACCOUNTS} accounts with GC every millisecond: transfers only
     * toggle edges, so dead edges pile up between few vertices and GC recycles their headers and
     * cells while audits and transfers scan the same adjacency lists. A recycled edge must stay
     * dead to every reader: audits' out, in and scan counts agree with the counters, and a
     * transfer never loses an edge it has just seen (which would surface as an
     * ElementNotFoundException from the transfer thread).
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Isolation.class)
    void edgeChurnUnderGcNeverShowsDeadEdges(Isolation isolation) throws Exception {
        run(isolation, true, Mode.EDGE_ONLY, HOT_ACCOUNTS, 2 * TRANSFERS_PER_THREAD);
    }

    private void run(Isolation isolation, boolean gc, Mode mode, int accountCount, int transfersPerThread) throws Exception {
        boolean withEdges = mode.edges();
        node = new TxnFixture(Map.of(TxnConfig.GC, gc, TxnConfig.GC_INTERVAL_MS, 1));
        account = node.label("account");
        transferLabel = node.label("transfer");
        balance = node.key("balance");
        outCount = node.key("outCount");
        createAccounts(accountCount);

        ExecutorService pool = Executors.newFixedThreadPool(TRANSFER_THREADS + AUDIT_THREADS);
        AtomicBoolean stop = new AtomicBoolean();
        List<Future<TransferStats>> transfers = new ArrayList<>();
        List<Future<AuditStats>> audits = new ArrayList<>();
        try {
            for (int i = 0; i < TRANSFER_THREADS; i++) {
                long seed = SEED + i;
                transfers.add(pool.submit(() -> transferLoop(new Random(seed), isolation, mode, transfersPerThread)));
            }
            for (int i = 0; i < AUDIT_THREADS; i++) {
                audits.add(pool.submit(() -> auditLoop(isolation, withEdges, stop)));
            }
            int committed = 0;
            int conflicts = 0;
            int gaveUp = 0;
            int skipped = 0;
            for (Future<TransferStats> f : transfers) {
                TransferStats s = f.get();
                committed += s.committed();
                conflicts += s.conflicts();
                gaveUp += s.gaveUp();
                skipped += s.skipped();
            }
            stop.set(true);
            int auditsCommitted = 0;
            int auditsAborted = 0;
            for (Future<AuditStats> f : audits) {
                AuditStats s = f.get();
                auditsAborted += s.aborted();
                for (Audit audit : s.committed()) {
                    auditsCommitted++;
                    checkAudit(audit, withEdges);
                }
            }
            System.out.printf("bank %s gc=%s %s: transfers committed=%d conflicts=%d gave-up=%d nothing-to-move=%d; "
                    + "audits committed=%d aborted=%d%n  engine %s%n  gc %s%n", isolation, gc, mode, committed,
                    conflicts, gaveUp, skipped, auditsCommitted, auditsAborted, node.engine.stats(), node.engine.gc().stats());
            assertTrue(committed > 0, "some transfers must commit");
            assertTrue(auditsCommitted > 0, "some audits must commit");
        } finally {
            stop.set(true);
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS), "worker threads did not stop");
        }
        checkFinalState(withEdges);
    }

    private void createAccounts(int count) {
        accounts = new long[count];
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        for (int i = 0; i < count; i++) {
            accounts[i] = t.addVertex(account);
            t.setVertexProperty(accounts[i], balance, INITIAL);
            t.setVertexProperty(accounts[i], outCount, 0L);
        }
        t.commit();
    }

    private TransferStats transferLoop(Random rnd, Isolation isolation, Mode mode, int transfers) {
        int committed = 0;
        int conflicts = 0;
        int gaveUp = 0;
        int skipped = 0;
        int n = accounts.length;
        for (int i = 0; i < transfers; i++) {
            int from = rnd.nextInt(n);
            int to = (from + 1 + rnd.nextInt(n - 1)) % n;
            boolean done = false;
            for (int attempt = 0; attempt < MAX_ATTEMPTS && !done; attempt++) {
                Transaction t = node.begin(isolation);
                try {
                    if (mode != Mode.EDGE_ONLY && !moveMoney(t, rnd, accounts[from], accounts[to])) {
                        t.commit(); // nothing to move; a read-only transaction
                        skipped++;
                        done = true;
                        continue;
                    }
                    if (mode.edges()) {
                        toggleTransferEdge(t, accounts[from], accounts[to]);
                    }
                    t.commit();
                    committed++;
                    done = true;
                } catch (TransactionConflictException e) {
                    conflicts++;
                    Thread.yield(); // let the winner finish before retrying
                } finally {
                    t.rollback(); // no-op unless an unexpected exception left it active
                }
            }
            if (!done) {
                gaveUp++;
            }
        }
        return new TransferStats(committed, conflicts, gaveUp, skipped);
    }

    /** Moves a random amount, at most the debited balance; false if that balance is 0. */
    private boolean moveMoney(Transaction t, Random rnd, long from, long to) {
        long debit = longProperty(t, from, balance);
        long credit = longProperty(t, to, balance);
        if (debit < 0 || credit < 0) {
            throw new IllegalStateException("negative balance read: " + debit + ", " + credit + " in " + t);
        }
        if (debit == 0) {
            return false;
        }
        long amount = 1 + rnd.nextInt((int) Math.min(debit, 200));
        t.setVertexProperty(from, balance, debit - amount);
        t.setVertexProperty(to, balance, credit + amount);
        return true;
    }

    /** An account's balance or outCount: every account has both in every snapshot, so null is a visibility bug. */
    private long longProperty(Transaction t, long v, int key) {
        Object value = t.vertexProperty(v, key);
        if (value == null) {
            throw new IllegalStateException("no visible value of key " + key + " on account " + v + " in " + t);
        }
        return (Long) value;
    }

    /** Adds the transfer edge from -> to, or removes it if present, keeping from's outCount. */
    private void toggleTransferEdge(Transaction t, long from, long to) {
        long existing = -1;
        for (long e : t.edges(from, EdgeDirection.OUT, transferLabel)) {
            if (t.edgeInVertex(e) == to) {
                existing = e;
            }
        }
        long count = longProperty(t, from, outCount);
        if (existing == -1) {
            t.addEdge(from, to, transferLabel);
            count++;
        } else {
            t.removeEdge(existing);
            count--;
        }
        t.setVertexProperty(from, outCount, count);
    }

    private AuditStats auditLoop(Isolation isolation, boolean withEdges, AtomicBoolean stop) {
        List<Audit> committed = new ArrayList<>();
        int aborted = 0;
        while (!stop.get() || (committed.isEmpty() && aborted < 100_000)) {
            Transaction t = node.begin(isolation);
            try {
                Audit audit = audit(t, withEdges);
                t.commit();
                committed.add(audit);
            } catch (TransactionConflictException e) {
                aborted++; // what it read may be inconsistent: ignored
            } finally {
                t.rollback();
            }
        }
        return new AuditStats(committed, aborted);
    }

    private Audit audit(Transaction t, boolean withEdges) {
        long[] seen = t.vertices(account);
        long total = 0;
        long out = 0;
        long in = 0;
        int mismatches = 0;
        for (long v : seen) {
            total += longProperty(t, v, balance);
            if (withEdges) {
                int outEdges = t.edges(v, EdgeDirection.OUT, transferLabel).length;
                out += outEdges;
                in += t.edges(v, EdgeDirection.IN, transferLabel).length;
                if (longProperty(t, v, outCount) != outEdges) {
                    mismatches++;
                }
            }
        }
        long all = withEdges ? t.allEdges(transferLabel).length : 0;
        return new Audit(seen.length, total, out, in, all, mismatches);
    }

    private void checkAudit(Audit audit, boolean withEdges) {
        assertEquals(accounts.length, audit.accounts(), () -> "an audit saw the wrong number of accounts: " + audit);
        assertEquals(accounts.length * INITIAL, audit.total(), () -> "a committed audit saw money created or destroyed: " + audit);
        if (withEdges) {
            assertEquals(audit.outEdges(), audit.inEdges(), () -> "out and in adjacency disagree: " + audit);
            assertEquals(audit.outEdges(), audit.allEdges(), () -> "adjacency and edge scan disagree: " + audit);
            assertEquals(0, audit.counterMismatches(), () -> "an outCount disagreed with the edges in the same snapshot: " + audit);
        }
    }

    /** After the run, at SR: total unchanged, no negative balance, counts agree. */
    private void checkFinalState(boolean withEdges) {
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        Audit audit = audit(t, withEdges);
        for (long v : accounts) {
            long b = longProperty(t, v, balance);
            assertTrue(b >= 0, "negative balance " + b + " on account " + v);
        }
        t.commit();
        checkAudit(audit, withEdges);
        assertEquals(0L, node.engine.stats().get("running"), "status-table entries leaked");
    }
}
