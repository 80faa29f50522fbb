package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The bank over a cluster, for {@link ClusterTransactionsContract}: {@value #PER_NODE} accounts on
 * each node, two transfer threads per coordinator node moving random amounts between accounts on
 * any nodes (one SR and one SI thread per node; a conflict is retried as a new transaction), and one
 * audit thread per node that finds the accounts with a label scan across the members, counts them,
 * and reads every balance. Every audit that commits must see every account and the initial total.
 * Workers never assert; the test thread does, naming the seed.
 */
final class ClusterBank {
    static final int PER_NODE = 10;
    static final long INITIAL = 1_000;
    private static final int TRANSFER_THREADS_PER_NODE = 2;
    private static final int MAX_ATTEMPTS = 100;

    private final ClusterNodes c;
    private final int nodes;
    private final long seed;
    private long[] accounts;

    private record Transfers(int committed, int conflicts, int gaveUp, String kinds) {
    }

    private record Audits(int committed, int aborted, List<String> wrong) {
    }

    ClusterBank(ClusterNodes c, long seed) {
        this.c = c;
        this.nodes = c.nodes.length;
        this.seed = seed;
    }

    private int account(int node) {
        return c.engine(node).store().labels().intern("account");
    }

    private int balance(int node) {
        return c.engine(node).store().propertyKeys().intern("balance");
    }

    /** Runs transfers and audits for {@code millis}, then checks the final state; returns a summary. */
    String run(long millis) throws Exception {
        accounts = new long[nodes * PER_NODE];
        for (int node = 0; node < nodes; node++) {
            Transaction t = c.begin(node, Isolation.SERIALIZABLE);
            for (int i = 0; i < PER_NODE; i++) {
                long v = t.addVertex(account(node));
                t.setVertexProperty(v, balance(node), INITIAL);
                accounts[node * PER_NODE + i] = v;
            }
            t.commit();
        }
        ExecutorService pool = Executors.newFixedThreadPool(nodes * (TRANSFER_THREADS_PER_NODE + 1));
        AtomicBoolean stop = new AtomicBoolean();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        List<Future<Transfers>> transfers = new ArrayList<>();
        List<Future<Audits>> audits = new ArrayList<>();
        int committed = 0;
        int conflicts = 0;
        int gaveUp = 0;
        int auditsCommitted = 0;
        int auditsAborted = 0;
        StringBuilder kinds = new StringBuilder();
        try {
            for (int i = 0; i < nodes * TRANSFER_THREADS_PER_NODE; i++) {
                int coordinator = i % nodes;
                Isolation isolation = i < nodes ? Isolation.SERIALIZABLE : Isolation.SNAPSHOT; // one of each per node
                Random random = new Random(seed + i);
                transfers.add(pool.submit(() -> transfers(coordinator, isolation, random, deadline)));
            }
            for (int node = 0; node < nodes; node++) {
                int at = node;
                audits.add(pool.submit(() -> audits(at, stop)));
            }
            for (Future<Transfers> f : transfers) {
                Transfers s = get(f);
                committed += s.committed();
                conflicts += s.conflicts();
                gaveUp += s.gaveUp();
                kinds.append(s.kinds());
            }
            stop.set(true);
            for (Future<Audits> f : audits) {
                Audits s = get(f);
                auditsCommitted += s.committed();
                auditsAborted += s.aborted();
                assertEquals(List.of(), s.wrong(),
                        "seed=" + seed + ": committed audits that saw a wrong total or account count (first 5)");
            }
        } finally {
            stop.set(true);
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS), "seed=" + seed + ": worker threads did not stop");
        }
        String summary = "seed=" + seed + " transfers committed=" + committed + " conflicts=" + conflicts + " gave-up=" + gaveUp
                + " audits committed=" + auditsCommitted + " aborted=" + auditsAborted + " conflict kinds:" + kinds;
        assertTrue(committed > 0, "no transfer committed; " + summary);
        assertTrue(auditsCommitted > 0, "no audit committed; " + summary);
        for (int node = 0; node < nodes; node++) {
            Transaction t = c.begin(node, Isolation.SERIALIZABLE);
            long total = 0;
            for (long v : accounts) {
                long b = balance(t, v, balance(node));
                assertTrue(b >= 0, "negative balance " + b + "; " + summary);
                total += b;
            }
            t.commit();
            assertEquals(accounts.length * INITIAL, total, "final total read from node " + node + "; " + summary);
        }
        String left = c.awaitQuiet(5_000);
        assertTrue(c.quiet(), "status entries or participant contexts left: " + left + "; " + summary);
        return summary;
    }

    private <T> T get(Future<T> f) throws InterruptedException {
        try {
            return f.get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("seed=" + seed + ": a worker failed: " + e.getCause(), e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("seed=" + seed + ": a worker did not finish", e);
        }
    }

    private Transfers transfers(int coordinator, Isolation isolation, Random random, long deadline) {
        int committed = 0;
        int conflicts = 0;
        int gaveUp = 0;
        java.util.Map<ConflictKind, Integer> kinds = new java.util.EnumMap<>(ConflictKind.class);
        int key = balance(coordinator);
        while (System.nanoTime() < deadline) {
            int from = random.nextInt(accounts.length);
            int to = (from + 1 + random.nextInt(accounts.length - 1)) % accounts.length;
            long amount = 1 + random.nextInt(100);
            boolean done = false;
            for (int attempt = 0; attempt < MAX_ATTEMPTS && !done; attempt++) {
                Transaction t = c.begin(coordinator, isolation);
                try {
                    long debit = balance(t, accounts[from], key);
                    long credit = balance(t, accounts[to], key);
                    long moved = Math.min(amount, debit);
                    t.setVertexProperty(accounts[from], key, debit - moved);
                    t.setVertexProperty(accounts[to], key, credit + moved);
                    t.commit();
                    committed++;
                    done = true;
                } catch (TransactionConflictException e) {
                    conflicts++;
                    kinds.merge(e.kind(), 1, Integer::sum);
                    // Back off (up to 2 ms) to let the winner finish; retrying at once burns the
                    // attempts within a millisecond while it commits.
                    java.util.concurrent.locks.LockSupport.parkNanos(Math.min(attempt + 1, 40) * 50_000L);
                } finally {
                    t.rollback(); // no-op unless something unexpected left it active
                }
            }
            if (!done) {
                gaveUp++;
            }
        }
        return new Transfers(committed, conflicts, gaveUp, " " + coordinator + "/" + isolation + kinds);
    }

    /** A balance: every account has one in every snapshot, so none is a visibility bug. */
    private static long balance(Transaction t, long account, int key) {
        Object value = t.vertexProperty(account, key);
        if (value == null) {
            throw new IllegalStateException(t + " sees no balance on account " + io.gtran.storage.ElementIds.toString(account));
        }
        return (Long) value;
    }

    private Audits audits(int node, AtomicBoolean stop) {
        int committed = 0;
        int aborted = 0;
        List<String> wrong = new ArrayList<>();
        int key = balance(node);
        int label = account(node);
        for (int i = 0; !stop.get() || (committed == 0 && aborted < 10_000); i++) {
            Transaction t = c.begin(node, i % 2 == 0 ? Isolation.SERIALIZABLE : Isolation.SNAPSHOT);
            try {
                long[] seen = t.vertices(label);
                long counted = t.countVertices(label);
                long total = 0;
                for (long v : seen) {
                    total += balance(t, v, key);
                }
                t.commit();
                committed++;
                boolean right = seen.length == accounts.length && counted == accounts.length
                        && total == accounts.length * INITIAL;
                if (!right && wrong.size() < 5) {
                    wrong.add(t + " saw " + seen.length + " accounts (counted " + counted + ") holding " + total);
                }
            } catch (TransactionConflictException e) {
                aborted++;
            } finally {
                t.rollback();
            }
        }
        return new Audits(committed, aborted, wrong);
    }
}
