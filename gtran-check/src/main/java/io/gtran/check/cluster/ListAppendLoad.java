package io.gtran.check.cluster;

import io.gtran.check.history.Anomaly;
import io.gtran.check.history.History;
import io.gtran.check.history.ListAppendChecker;
import io.gtran.check.history.Op;
import io.gtran.check.history.TxnRecord;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;

/**
 * The list-append workload over a remote cluster: key vertices (label {@code key}) hold their list
 * in {@code vals} as {@code " 3 7 12"}; a transaction is 1-4 reads or appends on random keys. The
 * history goes to the history checker ({@link ListAppendChecker}). That checker knows only committed and
 * aborted: a transaction of unknown outcome (info) enters it as committed with its appends only (its
 * reads dropped), so its elements may show up in reads without a G1a, and it can close no cycle
 * through a read it might not have made.
 */
final class ListAppendLoad implements ClusterWorkload {
    static final String LABEL = "key";
    static final String VALS = "vals";

    private final RemoteNodes nodes;
    private final int keys;
    private final int finalThread;
    private final History history = new History();
    private final AtomicInteger nextValue = new AtomicInteger();
    private final Map<Integer, List<Integer>> acked = new ConcurrentHashMap<>();
    private long[] ids;
    private int[] owners;

    ListAppendLoad(RemoteNodes nodes, int keys, int threads) {
        this.nodes = nodes;
        this.keys = keys;
        this.finalThread = threads;
    }

    @Override
    public int[] setup() {
        ids = nodes.createKeys(keys, LABEL, VALS, "");
        owners = RemoteNodes.owners(ids);
        return owners.clone();
    }

    @Override
    public RemoteNodes.Attempt<?> runOne(int thread, int index, Random random, Set<Integer> killed) {
        int count = 1 + random.nextInt(4);
        int[] keyOf = new int[count];
        boolean[] append = new boolean[count];
        for (int i = 0; i < count; i++) {
            keyOf[i] = random.nextInt(keys);
            append[i] = random.nextBoolean();
        }
        List<Op> ops = Collections.synchronizedList(new ArrayList<>());
        long start = System.nanoTime(); // invoked: real-time order is taken on this client's one clock
        RemoteNodes.Attempt<Object> a = nodes.transaction(index, gtx -> {
            for (int i = 0; i < count; i++) {
                int k = keyOf[i];
                if (append[i]) {
                    appendTo(gtx, k, ops);
                } else {
                    int[] read = parse(read(gtx, k));
                    ops.add(Op.read(k, read));
                }
            }
            return null;
        });
        record(thread, a, List.copyOf(ops), "node" + nodes.host(index).id(), start, System.nanoTime());
        return a;
    }

    private void appendTo(GraphTraversalSource gtx, int k, List<Op> ops) {
        int value = nextValue.incrementAndGet();
        ops.add(Op.append(k, value)); // recorded first: an aborted append still counts for G1a
        String list = read(gtx, k);
        gtx.V(ids[k]).property(VALS, list + " " + value).iterate();
    }

    private String read(GraphTraversalSource gtx, int k) {
        Object v = gtx.V(ids[k]).values(VALS).next();
        return v == null ? "" : v.toString();
    }

    private void record(int thread, RemoteNodes.Attempt<?> a, List<Op> ops, String where, long start, long end) {
        switch (a.outcome()) {
            case OK -> {
                history.add(thread, TxnRecord.Outcome.COMMITTED, ops, where, start, end);
                for (Op op : ops) {
                    if (op.isAppend()) {
                        acked.computeIfAbsent(op.key(), k -> Collections.synchronizedList(new ArrayList<>())).add(op.value());
                    }
                }
            }
            case FAIL -> history.add(thread, TxnRecord.Outcome.ABORTED, ops, where + " fail: " + a.error());
            case INFO -> history.add(thread, TxnRecord.Outcome.COMMITTED, ops.stream().filter(Op::isAppend).toList(),
                    where + " info (outcome unknown, reads dropped): " + a.error());
        }
    }

    @Override
    public Report finish(Set<Integer> live, long lockBoundMillis, PrintStream out) {
        Map<Integer, List<Integer>> loadAcked = new TreeMap<>();
        acked.forEach((k, values) -> loadAcked.put(k, List.copyOf(values))); // before the final phase's own writes
        Map<Integer, int[]> finalReads = new TreeMap<>();
        List<ClusterInvariants.Finding> findings = new ArrayList<>();
        List<ClusterInvariants.Finding> problems = new ArrayList<>();
        int unavailable = 0;
        long lockWaitMax = 0;
        boolean exceeded = false;
        for (int k = 0; k < keys; k++) {
            int index = nodes.indexOf(owners[k]);
            if (!live.contains(owners[k]) || index < 0) {
                unavailable++;
                continue;
            }
            int key = k;
            List<Op> readOps = Collections.synchronizedList(new ArrayList<>());
            long readStart = System.nanoTime(); // at or before the attempt that read: a bound real-time order can use
            RemoteNodes.Attempt<int[]> r = nodes.retry(index, lockBoundMillis, gtx -> parse(read(gtx, key)), a -> { });
            if (r.ok()) {
                finalReads.put(k, r.value());
                readOps.add(Op.read(k, r.value()));
                record(finalThread, r, List.copyOf(readOps), "final read on node" + owners[k], readStart, System.nanoTime());
            } else {
                problems.add(new ClusterInvariants.Finding("unreadable", "k" + k + " on live node" + owners[k]
                        + " could not be read within " + lockBoundMillis + " ms: " + r.error()));
            }
            long start = System.nanoTime();
            AtomicReference<List<Op>> attempt = new AtomicReference<>(List.of());
            String where = "lock-bound write on node" + owners[k];
            RemoteNodes.Attempt<Object> w = nodes.retry(index, lockBoundMillis, gtx -> {
                List<Op> ops = Collections.synchronizedList(new ArrayList<>());
                attempt.set(ops);
                appendTo(gtx, key, ops);
                return null;
            }, a -> record(finalThread, a, List.copyOf(attempt.get()), where, TxnRecord.NO_TIME,
                    TxnRecord.NO_TIME)); // every attempt, untimed (it retries): a late commit is explained
            long waited = (System.nanoTime() - start) / 1_000_000;
            lockWaitMax = Math.max(lockWaitMax, waited);
            if (!w.ok()) {
                exceeded = true;
                problems.add(new ClusterInvariants.Finding("lock-bound", "k" + k + " on live node" + owners[k]
                        + ": no write committed within " + lockBoundMillis + " ms: " + w.error()));
            }
        }
        List<ClusterInvariants.Finding> lost = ClusterInvariants.lostAppends(loadAcked, finalReads);
        out.printf("CLUSTER_CHECK_PROGRESS phase=final keys_read=%d unavailable_keys=%d lost=%d lock_wait_max_ms=%d%n",
                finalReads.size(), unavailable, lost.size(), lockWaitMax);
        long checkStart = System.nanoTime();
        List<Anomaly> anomalies = ListAppendChecker.check(history);
        out.printf("CLUSTER_CHECK_PROGRESS phase=check txns=%d anomalies=%d check_ms=%d%n", history.txns().size(),
                anomalies.size(), (System.nanoTime() - checkStart) / 1_000_000);
        for (Anomaly an : anomalies) {
            findings.add(new ClusterInvariants.Finding(an.kind().display(), an.describe()));
        }
        return new Report(findings, lost, problems, unavailable, lockWaitMax, exceeded);
    }

    /** {@code " 3 7 12"} to {@code [3, 7, 12]}; blank to {@code []}. */
    static int[] parse(String list) {
        String t = list == null ? "" : list.trim();
        if (t.isEmpty()) {
            return new int[0];
        }
        String[] parts = t.split("\\s+");
        int[] values = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            values[i] = Integer.parseInt(parts[i]);
        }
        return values;
    }
}
