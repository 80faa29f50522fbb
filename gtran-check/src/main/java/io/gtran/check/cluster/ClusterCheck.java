package io.gtran.check.cluster;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code bin/gtran check cluster}: drives a running gtran cluster (a hosts file) through
 * gremlin-driver with the list-append or bank workload while a fault schedule runs the cluster
 * script, then checks what it saw. Steps:
 * <ol>
 *   <li>Connect to every node; create the keys through node 0 in one transaction; each key's owner
 *       is the node field of its vertex id ({@code ElementIds.node}).
 *   <li>For {@code --seconds} S: T workers, worker i on node i % N, moving to the next node when
 *       theirs fails (waiting 100 ms each time every node failed in turn, as under a crash of all)
 *       and back home at heal; the schedule injects at S/3 and heals after the fault's
 *       time. The load goes on for S/3 after the heal command has returned, past S if the command
 *       was slow, and until every live node has committed after the heal (at most 120 s past S), so
 *       that served_after_heal says whether each serves again, not whether it was quick.
 *   <li>Final phase on the nodes not killed: read every key (lost acknowledged writes), write every
 *       key within the lock bound, and check the history.
 * </ol>
 * Ends with one {@code CLUSTER_CHECK ...} line; exit 0 on pass, 1 on fail, 2 on a bad option.
 */
public final class ClusterCheck {
    private ClusterCheck() {
    }

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out, System.err, null));
    }

    /** Runs the check; {@code command} replaces the cluster script (tests), null for {@code --cluster-cmd}. */
    public static int run(String[] args, PrintStream out, PrintStream err, FaultSchedule.Command command) throws Exception {
        ClusterOptions o;
        List<Host> hosts;
        try {
            o = ClusterOptions.parse(args);
            if (o.help()) {
                out.println(ClusterOptions.USAGE);
                return 0;
            }
            hosts = Host.read(o.hosts());
        } catch (IllegalArgumentException | java.io.IOException e) {
            err.println("cluster check: bad option: " + e.getMessage());
            err.println(ClusterOptions.USAGE);
            return 2;
        }
        Set<Integer> ids = new TreeSet<>();
        hosts.forEach(h -> ids.add(h.id()));
        FaultSchedule schedule = FaultSchedule.of(o.schedule(), o.seconds(), o.faultMillis(), ids);
        FaultSchedule.Command faults = command != null ? command : FaultSchedule.process(o.clusterCmd(), out);
        out.printf("CLUSTER_CHECK_PROGRESS phase=start workload=%s schedule=%s seed=%d nodes=%d threads=%d keys=%d seconds=%d"
                + " isolation=%s hosts=%s%n", o.workload(), o.schedule(), o.seed(), hosts.size(), o.threads(), o.keys(),
                o.seconds(), o.isolationLabel(), hosts);
        try (RemoteNodes nodes = new RemoteNodes(hosts, o.graphSource(), o.callTimeoutMillis())) {
            ClusterWorkload workload = o.workload().equals("bank") ? new BankLoad(nodes, o.keys(), o.threads())
                    : new ListAppendLoad(nodes, o.keys(), o.threads());
            int[] owners = workload.setup();
            TreeMap<Integer, Integer> perOwner = new TreeMap<>();
            for (int owner : owners) {
                perOwner.merge(owner, 1, Integer::sum);
            }
            out.printf("CLUSTER_CHECK_PROGRESS phase=setup keys=%d keys_per_owner=%s%n", owners.length, perOwner);
            Load load = new Load(nodes, workload, schedule, o);
            load.run(faults, out);
            Set<Integer> live = new TreeSet<>();
            for (Host h : hosts) {
                if (!schedule.killed().contains(h.id())) {
                    live.add(h.id());
                }
            }
            ClusterWorkload.Report report = workload.finish(live, o.lockBoundMillis(), out);
            return summarize(o, load, schedule, live, report, out);
        } catch (RuntimeException e) {
            err.println("cluster check: seed=" + o.seed() + " failed: " + e);
            e.printStackTrace(err);
            out.printf("CLUSTER_CHECK workload=%s schedule=%s seed=%d error=%s result=fail%n", o.workload(), o.schedule(), o.seed(),
                    String.valueOf(e.getMessage()).replace(' ', '_'));
            return 1;
        }
    }

    private static int summarize(ClusterOptions o, Load load, FaultSchedule schedule, Set<Integer> live,
            ClusterWorkload.Report report, PrintStream out) {
        List<String> anomalies = new ArrayList<>();
        report.anomalies().forEach(a -> anomalies.add(a.kind() + "\t" + a));
        schedule.errors().forEach(e -> anomalies.add("fault-command\tfault-command: " + e));
        Set<String> kinds = new TreeSet<>();
        anomalies.forEach(a -> kinds.add(a.substring(0, a.indexOf('\t'))));
        boolean served = load.servedAfterHeal();
        StringBuilder perNode = new StringBuilder();
        for (int i = 0; i < load.nodes.size(); i++) {
            perNode.append(perNode.length() == 0 ? "" : ",").append("node").append(load.nodes.host(i).id()).append('=')
                    .append(load.committedAfterHeal.get(i));
        }
        out.printf("CLUSTER_CHECK_PROGRESS phase=summary committed_after_heal=%s live=%s killed=%s%n", perNode, live,
                schedule.killed());
        for (String a : anomalies) {
            out.println("CLUSTER_CHECK_ANOMALY " + a.substring(a.indexOf('\t') + 1));
        }
        report.lost().forEach(l -> out.println("CLUSTER_CHECK_LOST " + l));
        report.problems().forEach(p -> out.println("CLUSTER_CHECK_PROBLEM " + p));
        boolean pass = anomalies.isEmpty() && report.lost().isEmpty() && !report.lockBoundExceeded() && served
                && report.problems().isEmpty();
        out.printf("CLUSTER_CHECK workload=%s schedule=%s seed=%d txns=%d ok=%d fail=%d info=%d anomalies=%d kinds=%s lost=%d"
                + " unavailable_keys=%d lock_wait_max_ms=%d served_after_heal=%s result=%s%n", o.workload(), o.schedule(), o.seed(),
                load.ok.sum() + load.fail.sum() + load.info.sum(), load.ok.sum(), load.fail.sum(), load.info.sum(), anomalies.size(),
                kinds.isEmpty() ? "none" : String.join(",", kinds), report.lost().size(), report.unavailableKeys(),
                report.lockWaitMaxMillis(), served, pass ? "pass" : "fail");
        return pass ? 0 : 1;
    }

    /** How long a worker that found every node down waits before it tries them again. */
    static final long DOWN_BACKOFF_MILLIS = 100;

    private static void sleepQuietly(long millis) {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The timed load: workers and the fault schedule, with per-phase progress. */
    private static final class Load {
        final RemoteNodes nodes;
        final ClusterWorkload workload;
        final FaultSchedule schedule;
        final ClusterOptions options;
        final LongAdder ok = new LongAdder();
        final LongAdder fail = new LongAdder();
        final LongAdder info = new LongAdder();
        final AtomicLongArray committedAfterHeal;

        Load(RemoteNodes nodes, ClusterWorkload workload, FaultSchedule schedule, ClusterOptions options) {
            this.nodes = nodes;
            this.workload = workload;
            this.schedule = schedule;
            this.options = options;
            this.committedAfterHeal = new AtomicLongArray(nodes.size());
        }

        /** Whether every node not killed has committed a transaction since the heal. */
        boolean servedAfterHeal() {
            for (int i = 0; i < nodes.size(); i++) {
                if (committedAfterHeal.get(i) == 0 && !schedule.killed().contains(nodes.host(i).id())) {
                    return false;
                }
            }
            return true;
        }

        void run(FaultSchedule.Command faults, PrintStream out) throws Exception {
            long start = System.nanoTime();
            End end = new End(start, options.seconds());
            ExecutorService pool = Executors.newFixedThreadPool(options.threads() + 2, r -> {
                Thread t = new Thread(r, "cluster-check-worker");
                t.setDaemon(true);
                return t;
            });
            try {
                List<Future<?>> workers = new ArrayList<>();
                for (int i = 0; i < options.threads(); i++) {
                    int thread = i;
                    workers.add(pool.submit(() -> work(thread, end)));
                }
                Future<?> timeline = pool.submit(() -> {
                    schedule.run(start, faults, out);
                    return null;
                });
                Future<?> progress = pool.submit(() -> report(start, end, out));
                timeline.get(options.seconds() + End.HEAL_GRACE_SECONDS, TimeUnit.SECONDS);
                for (Future<?> w : workers) {
                    // a worker ends its last transaction within the call timeout after the end
                    w.get(options.seconds() + End.HEAL_GRACE_SECONDS + options.callTimeoutMillis() / 1000 + 30, TimeUnit.SECONDS);
                }
                progress.cancel(true);
            } finally {
                pool.shutdownNow();
            }
            out.printf("CLUSTER_CHECK_PROGRESS phase=load-done elapsed_ms=%d ok=%d fail=%d info=%d%n",
                    (System.nanoTime() - start) / 1_000_000, ok.sum(), fail.sum(), info.sum());
        }

        private Void work(int thread, End end) {
            Random random = new Random(options.seed() * 1_000_003L + thread);
            int home = thread % nodes.size();
            int index = home;
            int epoch = schedule.healEpoch();
            int downInARow = 0;
            while (!end.passed()) {
                if (schedule.healEpoch() != epoch) {
                    epoch = schedule.healEpoch();
                    index = home; // healed: sessions spread over all nodes again
                }
                boolean afterHeal = schedule.healed();
                RemoteNodes.Attempt<?> a = workload.runOne(thread, index, random, schedule.killed());
                switch (a.outcome()) {
                    case OK -> {
                        ok.increment();
                        if (afterHeal) {
                            committedAfterHeal.incrementAndGet(index);
                        }
                    }
                    case FAIL -> fail.increment();
                    case INFO -> info.increment();
                }
                if (a.nodeDown()) {
                    index = (index + 1) % nodes.size(); // its node failed: on to the next
                    if (++downInARow % nodes.size() == 0) {
                        sleepQuietly(DOWN_BACKOFF_MILLIS); // every node down (a crash): as a client would, wait a little
                    }
                } else {
                    downInARow = 0;
                }
            }
            return null;
        }

        private Void report(long start, End end, PrintStream out) throws InterruptedException {
            while (!end.passed()) {
                TimeUnit.SECONDS.sleep(Math.max(1, options.seconds() / 6));
                out.printf("CLUSTER_CHECK_PROGRESS phase=load elapsed_ms=%d ok=%d fail=%d info=%d healed=%s killed=%s%n",
                        (System.nanoTime() - start) / 1_000_000, ok.sum(), fail.sum(), info.sum(), schedule.healed(),
                        schedule.killed());
            }
            return null;
        }

        /**
         * When the load ends: {@code seconds} after the start, not before a third of that has
         * passed since the heal command returned, and not before every node not killed has
         * committed a transaction after the heal; at the latest {@link #HEAL_GRACE_SECONDS} after
         * the planned end (a heal that never returns fails the timeline; a node that never commits
         * again fails served_after_heal).
         */
        private final class End {
            static final long HEAL_GRACE_SECONDS = 120;
            private final long planned;
            private final long afterHeal;
            private final long latest;

            End(long start, int seconds) {
                this.planned = start + TimeUnit.SECONDS.toNanos(seconds);
                this.afterHeal = TimeUnit.SECONDS.toNanos(seconds) / 3;
                this.latest = planned + TimeUnit.SECONDS.toNanos(HEAL_GRACE_SECONDS);
            }

            boolean passed() {
                long now = System.nanoTime();
                if (now - latest >= 0) {
                    return true;
                }
                return now - planned >= 0 && schedule.healed() && now - (schedule.healedAtNanos() + afterHeal) >= 0
                        && servedAfterHeal();
            }
        }
    }
}
