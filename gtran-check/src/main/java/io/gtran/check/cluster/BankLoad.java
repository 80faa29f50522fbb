package io.gtran.check.cluster;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.T;

/**
 * The bank workload over a remote cluster: account vertices (label {@code account}) start with
 * {@code balance} 100; a transaction is a transfer (read two balances, move 1-5 from one to the
 * other if it has enough, write both) or, one time in four, a read of every account whose owner
 * was not lost. {@link ClusterInvariants#bank} checks the totals of the committed reads.
 */
final class BankLoad implements ClusterWorkload {
    static final String LABEL = "account";
    static final String BALANCE = "balance";
    static final int INITIAL = 100;

    private final RemoteNodes nodes;
    private final int keys;
    private final int finalThread;
    private final List<ClusterInvariants.ReadAll> reads = Collections.synchronizedList(new ArrayList<>());
    private final List<ClusterInvariants.Finding> shortReads = Collections.synchronizedList(new ArrayList<>());
    private long[] ids;
    private int[] owners;

    BankLoad(RemoteNodes nodes, int keys, int threads) {
        this.nodes = nodes;
        this.keys = keys;
        this.finalThread = threads;
    }

    @Override
    public int[] setup() {
        ids = nodes.createKeys(keys, LABEL, BALANCE, INITIAL);
        owners = RemoteNodes.owners(ids);
        return owners.clone();
    }

    @Override
    public RemoteNodes.Attempt<?> runOne(int thread, int index, Random random, Set<Integer> killed) {
        Set<Integer> accounts = new TreeSet<>();
        for (int k = 0; k < keys; k++) {
            if (!killed.contains(owners[k])) {
                accounts.add(k);
            }
        }
        if (random.nextInt(4) == 0 && !accounts.isEmpty()) { // every node killed: a transfer, which fails
            return readAll(thread, index, accounts, Long.MAX_VALUE);
        }
        int from = random.nextInt(keys);
        int to = (from + 1 + random.nextInt(keys - 1)) % keys;
        int amount = 1 + random.nextInt(5);
        return nodes.transaction(index, gtx -> {
            int a = balance(gtx, from);
            int b = balance(gtx, to);
            if (a >= amount) {
                gtx.V(ids[from]).property(BALANCE, a - amount).iterate();
                gtx.V(ids[to]).property(BALANCE, b + amount).iterate();
            }
            return null;
        });
    }

    /** Reads {@code accounts} in one transaction (retrying up to {@code boundMillis} if finite); records it if committed. */
    private RemoteNodes.Attempt<long[]> readAll(int thread, int index, Set<Integer> accounts, long boundMillis) {
        Object[] wanted = accounts.stream().map(k -> ids[k]).toArray();
        long start = System.nanoTime();
        java.util.function.Function<GraphTraversalSource, long[]> body = gtx -> {
            long sum = 0;
            long min = Long.MAX_VALUE;
            int seen = 0;
            for (Map<Object, Object> m : gtx.V(wanted).elementMap(BALANCE).toList()) {
                long b = ((Number) m.get(BALANCE)).longValue();
                sum += b;
                min = Math.min(min, b);
                seen++;
                if (m.get(T.id) == null) {
                    throw new IllegalStateException("a read-all row without an id: " + m);
                }
            }
            return new long[] {sum, min, seen};
        };
        RemoteNodes.Attempt<long[]> a = boundMillis == Long.MAX_VALUE ? nodes.transaction(index, body)
                : nodes.retry(index, boundMillis, body, x -> { });
        if (a.ok()) {
            long[] r = a.value();
            if (r[2] == accounts.size()) {
                reads.add(new ClusterInvariants.ReadAll(thread, start, System.nanoTime(), Set.copyOf(accounts), r[0], r[1]));
            } else {
                shortReads.add(new ClusterInvariants.Finding("short-read", "thread " + thread + " read " + r[2] + " of the "
                        + accounts.size() + " accounts it asked for"));
            }
        }
        return a;
    }

    private int balance(GraphTraversalSource gtx, int k) {
        return ((Number) gtx.V(ids[k]).values(BALANCE).next()).intValue();
    }

    @Override
    public Report finish(Set<Integer> live, long lockBoundMillis, PrintStream out) {
        List<ClusterInvariants.Finding> problems = new ArrayList<>();
        List<ClusterInvariants.Finding> lost = new ArrayList<>();
        Set<Integer> survivors = new TreeSet<>();
        for (int k = 0; k < keys; k++) {
            if (live.contains(owners[k]) && nodes.indexOf(owners[k]) >= 0) {
                survivors.add(k);
            }
        }
        int unavailable = keys - survivors.size();
        // the totals of the load, before the final read joins them
        ClusterInvariants.BankReport load = ClusterInvariants.bank(List.copyOf(reads), keys, (long) keys * INITIAL);
        long expected = unavailable == 0 ? (long) keys * INITIAL : load.settledSum() == null ? -1 : load.settledSum();
        int readOn = nodes.indexOf(owners[survivors.isEmpty() ? 0 : survivors.iterator().next()]);
        RemoteNodes.Attempt<long[]> f = survivors.isEmpty() ? null : readAll(finalThread, readOn, survivors, lockBoundMillis);
        long finalSum = f != null && f.ok() ? f.value()[0] : -1;
        if (expected < 0) {
            problems.add(new ClusterInvariants.Finding("unsettled", "no read of the " + survivors.size()
                    + " live accounts committed after the loss, so their final sum has nothing to be checked against"));
        }
        if (f != null && !f.ok()) {
            problems.add(new ClusterInvariants.Finding("unreadable", "the " + survivors.size()
                    + " live accounts could not be read within " + lockBoundMillis + " ms: " + f.error()));
        } else if (f != null && expected >= 0 && finalSum != expected) {
            lost.add(new ClusterInvariants.Finding("lost-total", "the " + survivors.size() + " live accounts sum to " + finalSum
                    + " at the end, not " + expected + (unavailable == 0 ? "" : " (the sum they settled at after the loss)")));
        }
        long lockWaitMax = 0;
        boolean exceeded = false;
        for (int k : survivors) {
            int key = k;
            long start = System.nanoTime();
            RemoteNodes.Attempt<Object> w = nodes.retry(nodes.indexOf(owners[k]), lockBoundMillis, gtx -> {
                gtx.V(ids[key]).property(BALANCE, balance(gtx, key)).iterate(); // a no-op rewrite takes the write lock
                return null;
            }, a -> { });
            lockWaitMax = Math.max(lockWaitMax, (System.nanoTime() - start) / 1_000_000);
            if (!w.ok()) {
                exceeded = true;
                problems.add(new ClusterInvariants.Finding("lock-bound", "account " + k + " on live node" + owners[k]
                        + ": no write committed within " + lockBoundMillis + " ms: " + w.error()));
            }
        }
        // the final read took part: it started after everything, so it must have the settled sum too
        ClusterInvariants.BankReport all = ClusterInvariants.bank(List.copyOf(reads), keys, (long) keys * INITIAL);
        out.printf("CLUSTER_CHECK_PROGRESS phase=final read_alls=%d settled_sum=%s final_sum=%d expected=%d"
                + " unavailable_keys=%d lock_wait_max_ms=%d%n", reads.size(), load.settledSum(), finalSum, expected,
                unavailable, lockWaitMax);
        List<ClusterInvariants.Finding> anomalies = new ArrayList<>(all.findings());
        anomalies.addAll(shortReads);
        return new Report(anomalies, lost, problems, unavailable, lockWaitMax, exceeded);
    }
}
