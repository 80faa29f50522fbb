package io.gtran.check.sim;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * One simulated schedule (FoundationDB-style): N nodes in one thread, each running the real
 * membership, commit messenger and recovery, on a seeded simulated network and drifting simulated
 * clocks. Clients run bank transfers and list appends for {@value #WORKLOAD_MS} ms of virtual time
 * while one to three (or {@code --max-faults}) faults drawn from the seed strike; then every fault heals, the cluster is
 * given up to {@value #SETTLE_MS} ms to settle, and the {@link Ledger}'s invariants are checked.
 * The same seed gives the same schedule.
 */
final class Simulation {
    static final long LEASE_MS = 200;
    static final long VOTE_TIMEOUT_MS = 300;
    static final long TICK_MS = 20;
    /**
     * How long a node keeps a decided part to answer retried messages, at most: short, so that
     * schedules reach the forgetting (production keeps it 30 s, against a 500 ms lease).
     */
    static final long FORGET_MS = 300;
    /** How long a cut link, a paused or a crashed node goes unnoticed before the fabric reports the loss. */
    static final long DETECT_MS = 100;
    /** How often a clock follower asks the master for its time (the default of gtran.clock.sync-interval-ms). */
    static final long CLOCK_SYNC_MS = 10;
    /**
     * How far ahead the clock master's lease runs (gtran.clock.lease-ms), under {@link LossRule#GROUP}:
     * longer than a loss takes to be decided (about 340 ms), so that a new master's wait for the old
     * lease to end matters (without the wait, 18 of 3,000 five-node schedules break timestamp order).
     */
    static final long CLOCK_LEASE_MS = 500;
    static final long WORKLOAD_MS = 1_500;
    /** Faults last 50 to 700 ms; by this time every one has ended (crashes excepted). */
    static final long HEALED_MS = WORKLOAD_MS + 700;
    static final long SETTLE_MS = 15_000;

    /** What one schedule found. */
    record Result(long seed, List<String> violations, int committed, int aborted, int unknown, int inDoubt, long events,
            List<String> faults) {
    }

    private final long seed;
    private final int maxFaults;
    private final int size;
    private final Set<Fault> faults;
    private final SplittableRandom random;
    private final Scheduler scheduler = new Scheduler();
    private final Ledger ledger;
    private final SimNetwork network;
    private final SimNode[] nodes;
    private final LossRule lossRule;
    /** The membership group of {@link LossRule#GROUP}, or null. */
    private final SimGroup group;
    private final int accounts;
    private final int lists;
    private final boolean[][] reported;
    private final List<String> drawn = new ArrayList<>();
    private long timestamps;
    private final TimestampOrder order = new TimestampOrder();
    private int crashes;

    /** A schedule of {@code size} nodes from {@code seed}, with one to three faults of the kinds {@code faults}. */
    Simulation(long seed, int size, Set<Fault> faults) {
        this(seed, size, faults, 3);
    }

    /** As above, with one to {@code maxFaults} faults. */
    Simulation(long seed, int size, Set<Fault> faults, int maxFaults) {
        this(seed, size, faults, maxFaults, LossRule.GROUP);
    }

    /** As above, losses decided by {@code lossRule}. */
    Simulation(long seed, int size, Set<Fault> faults, int maxFaults, LossRule lossRule) {
        this.seed = seed;
        this.lossRule = lossRule;
        this.maxFaults = maxFaults;
        this.size = size;
        this.faults = faults.isEmpty() ? EnumSet.noneOf(Fault.class) : EnumSet.copyOf(faults);
        this.random = new SplittableRandom(seed);
        this.ledger = new Ledger(size);
        this.network = new SimNetwork(size, scheduler, random.split());
        this.group = lossRule == LossRule.GROUP ? new SimGroup(this, network, size) : null;
        this.accounts = 4 * size;
        this.lists = 2 * size;
        this.reported = new boolean[size][size];
        this.nodes = new SimNode[size];
        for (int n = 0; n < size; n++) {
            List<Integer> ownAccounts = new ArrayList<>();
            List<Integer> ownLists = new ArrayList<>();
            for (int key = 0; key < accounts + lists; key++) {
                if (key % size == n) {
                    (key < accounts ? ownAccounts : ownLists).add(key);
                }
            }
            nodes[n] = new SimNode(n, this, network, new Shard(n, ledger, ownAccounts, ownLists), random.split());
        }
        network.attach(nodes);
    }

    Scheduler scheduler() {
        return scheduler;
    }

    Ledger ledger() {
        return ledger;
    }

    SimNode[] nodes() {
        return nodes;
    }

    LossRule lossRule() {
        return lossRule;
    }

    /** The membership group (with {@link LossRule#GROUP}). */
    SimGroup group() {
        return group;
    }

    Set<Fault> faults() {
        return faults;
    }

    List<Integer> others(int node) {
        List<Integer> others = new ArrayList<>();
        for (int n = 0; n < size; n++) {
            if (n != node) {
                others.add(n);
            }
        }
        return others;
    }

    /** The begin times the nodes' real clocks handed out, for {@link TimestampOrder#check}. */
    TimestampOrder timestamps() {
        return order;
    }

    /** Commit times: unique and increasing across the cluster (begin times come from each node's real clock). */
    long nextTimestamp() {
        return ++timestamps;
    }

    boolean workloadRunning() {
        return scheduler.now() < ms(WORKLOAD_MS);
    }

    /** A transaction's writes: a transfer between two accounts, or appends to one to three lists. */
    List<Ledger.Write> workload(SplittableRandom r) {
        List<Ledger.Write> writes = new ArrayList<>();
        if (r.nextBoolean()) {
            int from = r.nextInt(accounts);
            int to = (from + 1 + r.nextInt(accounts - 1)) % accounts;
            long amount = 1 + r.nextInt(5);
            writes.add(new Ledger.Write(from, -amount));
            writes.add(new Ledger.Write(to, amount));
        } else {
            int count = 1 + r.nextInt(3);
            int first = r.nextInt(lists);
            for (int i = 0; i < count; i++) {
                writes.add(new Ledger.Write(accounts + (first + i * (1 + r.nextInt(2))) % lists, Ledger.APPEND));
            }
            writes = new ArrayList<>(new java.util.LinkedHashSet<>(writes));
        }
        return writes;
    }

    /** Runs the schedule and checks it. */
    Result run() {
        if (group != null) {
            group.start();
        }
        for (SimNode node : nodes) {
            node.client().next();
        }
        drawFaults();
        scheduler.runUntil(ms(HEALED_MS));
        healAll();
        long[] lastCheck = {0};
        boolean settled = scheduler.runUntil(ms(HEALED_MS + SETTLE_MS), () -> {
            if (scheduler.now() - lastCheck[0] < ms(5)) {
                return false;
            }
            lastCheck[0] = scheduler.now();
            return settled();
        });
        int inDoubt = 0;
        for (SimNode node : nodes) {
            if (!node.isCrashed()) {
                inDoubt += node.shard().holding().size() - unsettled(node).size();
            }
        }
        if (!settled) {
            for (SimNode node : nodes) {
                if (!node.isCrashed() && (!unsettled(node).isEmpty() || node.messenger().pendingRounds() > 0)) {
                    ledger.violation("node " + node.id() + " did not settle within " + SETTLE_MS + " ms: it holds the locks of "
                            + hex(unsettled(node)) + " and " + node.messenger().pendingRounds() + " rounds ["
                            + node.messenger().describePendingRounds() + "]");
                }
            }
        }
        ledger.checkSettled(nodes);
        order.check(ledger);
        int committed = 0;
        int aborted = 0;
        int unknown = 0;
        for (Ledger.Txn txn : ledger.txns().values()) {
            if ("COMMIT".equals(txn.told)) {
                committed++;
            } else if ("ABORT".equals(txn.told)) {
                aborted++;
            } else {
                unknown++;
            }
        }
        return new Result(seed, ledger.violations(), committed, aborted, unknown, inDoubt, scheduler.events(), drawn);
    }

    private boolean settled() {
        for (SimNode node : nodes) {
            if (!node.isCrashed() && (node.client().busy() || !unsettled(node).isEmpty()
                    || node.messenger().pendingRounds() > 0)) {
                return false;
            }
        }
        return true;
    }

    /** The transactions {@code node} holds locks of, but those whose outcome no live node can learn ({@link Ledger#undecidable}). */
    private Set<Long> unsettled(SimNode node) {
        Set<Long> held = new java.util.TreeSet<>(node.shard().holding());
        held.removeIf(txn -> ledger.undecidable(txn, nodes));
        return held;
    }

    // ------------------------------------------------------------------ faults

    private void drawFaults() {
        List<Fault> kinds = new ArrayList<>(faults);
        kinds.remove(Fault.DRIFT); // the nodes' clocks, set when they were made
        if (kinds.isEmpty()) {
            return;
        }
        int count = 1 + random.nextInt(maxFaults);
        for (int i = 0; i < count; i++) {
            Fault kind = kinds.get(random.nextInt(kinds.size()));
            long start = random.nextLong(ms(WORKLOAD_MS));
            long length = ms(50) + random.nextLong(ms(650));
            scheduler.at(start, null, () -> strike(kind, start + length));
        }
    }

    private void strike(Fault kind, long end) {
        int a = random.nextInt(size);
        int b = (a + 1 + random.nextInt(size - 1)) % size;
        boolean everywhere = random.nextBoolean();
        switch (kind) {
            case DELAY -> {
                long extra = ms(1) + random.nextLong(ms(50));
                onLinks(everywhere, a, b, end, link -> link.extraDelayNanos = extra, link -> link.extraDelayNanos = 0);
                note(kind, everywhere, a, b, "up to " + extra / 1_000_000 + " ms");
            }
            case LOSS -> {
                double loss = 0.05 + random.nextDouble() * 0.45;
                onLinks(everywhere, a, b, end, link -> link.loss = loss, link -> link.loss = 0);
                note(kind, everywhere, a, b, String.format("%.0f%%", loss * 100));
            }
            case DUPLICATE -> {
                double twice = 0.05 + random.nextDouble() * 0.45;
                onLinks(everywhere, a, b, end, link -> link.duplicate = twice, link -> link.duplicate = 0);
                note(kind, everywhere, a, b, String.format("%.0f%%", twice * 100));
            }
            case REORDER -> {
                onLinks(everywhere, a, b, end, link -> {
                    link.reorder = true;
                    link.extraDelayNanos = Math.max(link.extraDelayNanos, ms(5));
                }, link -> link.reorder = false);
                note(kind, everywhere, a, b, "");
            }
            case PARTITION -> {
                List<Integer> side = new ArrayList<>();
                do {
                    side.clear();
                    for (int n = 0; n < size; n++) {
                        if (random.nextBoolean()) {
                            side.add(n);
                        }
                    }
                } while (side.isEmpty() || side.size() == size);
                for (int x : side) {
                    for (int y = 0; y < size; y++) {
                        if (!side.contains(y)) {
                            cut(x, y, end);
                            cut(y, x, end);
                        }
                    }
                }
                drawn.add(at() + " partition " + side + " | rest until " + end / 1_000_000 + " ms");
            }
            case ONEWAY -> {
                cut(a, b, end);
                drawn.add(at() + " oneway " + a + "->" + b + " cut until " + end / 1_000_000 + " ms");
            }
            case PAUSE -> {
                if (!nodes[a].isCrashed()) {
                    nodes[a].pauseUntil(end);
                    scheduler.at(scheduler.now() + ms(DETECT_MS), null, () -> {
                        if (nodes[a].pausedUntil() > scheduler.now()) {
                            reportEverywhere(a, "no answer (paused)");
                        }
                    });
                    scheduler.at(end, null, () -> forgetReports(a));
                    drawn.add(at() + " pause " + a + " until " + end / 1_000_000 + " ms");
                }
            }
            case CRASH -> {
                if (crashes < (size - 1) / 2 && !nodes[a].isCrashed()) {
                    crashes++;
                    nodes[a].crash();
                    scheduler.at(scheduler.now() + ms(DETECT_MS), null, () -> reportEverywhere(a, "connection reset (crashed)"));
                    drawn.add(at() + " crash " + a);
                }
            }
            case DRIFT -> throw new IllegalStateException("drift is set when the nodes are made");
        }
    }

    private String at() {
        return scheduler.now() / 1_000_000 + " ms:";
    }

    private void note(Fault kind, boolean everywhere, int a, int b, String how) {
        drawn.add(at() + " " + kind + (everywhere ? " everywhere " : " " + a + "<->" + b + " ") + how);
    }

    private void onLinks(boolean everywhere, int a, int b, long end, java.util.function.Consumer<SimNetwork.Link> set,
            java.util.function.Consumer<SimNetwork.Link> unset) {
        List<SimNetwork.Link> links = new ArrayList<>();
        for (int x = 0; x < size; x++) {
            for (int y = 0; y < size; y++) {
                if (x != y && (everywhere || (x == a && y == b) || (x == b && y == a))) {
                    links.add(network.link(x, y));
                }
            }
        }
        links.forEach(set);
        scheduler.at(end, null, () -> links.forEach(unset));
    }

    /** Cuts messages from {@code x} to {@code y} until {@code end}; the fabric reports the loss at both ends a while later. */
    private void cut(int x, int y, long end) {
        network.link(x, y).cuts++;
        scheduler.at(scheduler.now() + ms(DETECT_MS), null, () -> {
            if (network.cutBetween(x, y)) {
                report(x, y, "link cut");
                report(y, x, "link cut");
            }
        });
        scheduler.at(end, null, () -> {
            SimNetwork.Link link = network.link(x, y);
            link.cuts = Math.max(0, link.cuts - 1); // healed by healAll meanwhile: stays healed
            if (!network.cutBetween(x, y)) {
                reported[x][y] = false;
                reported[y][x] = false;
            }
        });
    }

    /** The fabric of {@code observer} reports {@code lost}, once per loss. */
    private void report(int observer, int lost, String reason) {
        if (reported[observer][lost] || nodes[observer].isCrashed()) {
            return;
        }
        reported[observer][lost] = true;
        SimNode node = nodes[observer];
        scheduler.at(scheduler.now(), node, () -> node.fabric().reportLost(lost, reason));
    }

    private void reportEverywhere(int lost, String reason) {
        for (int n = 0; n < size; n++) {
            if (n != lost) {
                report(n, lost, reason);
            }
        }
    }

    private void forgetReports(int node) {
        for (int n = 0; n < size; n++) {
            reported[n][node] = false;
        }
    }

    private void healAll() {
        for (int x = 0; x < size; x++) {
            for (int y = 0; y < size; y++) {
                network.link(x, y).heal();
                if (x != y && !nodes[x].isCrashed() && !nodes[y].isCrashed()) {
                    reported[x][y] = false;
                }
            }
        }
    }

    static long ms(long millis) {
        return TimeUnit.MILLISECONDS.toNanos(millis);
    }

    private static List<String> hex(Set<Long> txns) {
        List<String> out = new ArrayList<>();
        for (long txn : txns) {
            out.add(Long.toHexString(txn));
        }
        return out;
    }
}
