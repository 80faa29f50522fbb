package io.gtran.check.fabric;

import io.gtran.rdma.DeliveryException;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.Mailbox;
import io.gtran.rdma.PeerListener;
import io.gtran.rdma.Region;
import io.gtran.rdma.RegionAccessException;
import io.gtran.rdma.spi.FabricChecks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Which faults to inject, and where: one plan shared by the {@link FaultyFabric} decorators of
 * every node of a test cluster, so that a fault between two nodes is seen by both ends whatever
 * the transport underneath. Thread-safe; rules may be switched on and off at any time from any
 * thread and apply to operations started afterwards.
 *
 * <p>Rules are kept per ordered pair of nodes, <i>from → to</i>: from is the node that sends a
 * message or makes a region operation, to is the node that receives the message or owns the
 * region. A node's operations on itself are never faulted unless a rule names the pair
 * {@code (n, n)}, which only {@link #links(int, int) links(n, n)} does: the set forms skip it and
 * partitions never cut a node from itself. Faults are applied by the sending side's decorator, so
 * a node whose fabric is not wrapped sends unhindered.
 *
 * <ul>
 *   <li><b>Delay</b> ({@link Links#delay(Duration)}, {@link Links#delay(Duration, Duration)}):
 *       messages and region operations take that much longer, fixed or drawn uniformly from
 *       {@code [min, max]}. A synchronous region operation (and {@link Fabric#connect}) blocks its
 *       caller that long, then runs; an asynchronous one, a batched one, or a message is issued to
 *       the wrapped fabric that much later from this plan's scheduler thread, so its future
 *       completes that much later and no transport thread ever sleeps. A pair's messages and
 *       asynchronous operations leave in the order they were issued, whatever delay each drew
 *       (nothing overtakes what was delayed before it); a synchronous operation waits out its own
 *       delay on its caller's thread and may pass asynchronous ones still waiting.
 *   <li><b>Reorder</b> ({@link Links#reorder}): messages are held until {@code window} of them
 *       have gathered or the first has waited {@code hold}, then released in a shuffled order.
 *       This deliberately <em>breaks the per-sender ordering</em> that {@link Mailbox} promises;
 *       use it to show that a protocol does not depend on it (or that a test notices when it
 *       does). Region operations are not reordered.
 *   <li><b>Drop</b> ({@link Links#dropNext}, {@link Links#dropWithProbability}): a dropped message
 *       is lost silently, never reaching the receiver, and its sender's future fails with a
 *       {@link DeliveryException} {@code "dropped by fault injection: node=.., mailbox=.."}. That
 *       is what a sender observes when a message or its acknowledgement is lost and the transport
 *       gives up; a plan never fakes the other half (delivered, but the sender told it failed).
 *   <li><b>Region failure</b> ({@link Links#failRegionAccess}): connecting and every region
 *       operation fail with a {@link RegionAccessException}, as a dead peer's would, until
 *       {@link Links#restoreRegionAccess}. Messages pass.
 *   <li><b>Partition</b> ({@link #partition}, {@link #isolate}): until {@link #heal}, every
 *       message, region operation and connect crossing the cut, in either direction, fails
 *       ({@link DeliveryException} / {@link RegionAccessException} naming {@code node=} and
 *       {@code "partitioned by fault injection"}), including those delayed or held before the cut
 *       and issued after it. The {@link PeerListener}s registered through the decorators on each
 *       side are told, once per partition, that the nodes on the other side were lost.
 * </ul>
 *
 * <p><b>Randomness</b>: each pair has its own {@link java.util.Random} seeded from the plan's seed
 * and the pair, so what one pair's traffic meets (which messages drop, what delay each gets, the
 * shuffle of each window) depends only on the seed and the order of that pair's own operations.
 *
 * <pre>{@code
 * try (FaultPlan plan = new FaultPlan(SEED)) {
 *     Fabric n0 = plan.wrap(cluster.join(0));
 *     Fabric n1 = plan.wrap(cluster.join(1));
 *     plan.links(0, 1).delay(Duration.ofMillis(5), Duration.ofMillis(20)).dropWithProbability(0.1);
 *     plan.partition(Set.of(0), Set.of(1));  // both directions fail; listeners on both told
 *     plan.heal();                            // every rule lifted
 * }
 * }</pre>
 */
public final class FaultPlan implements AutoCloseable {
    /** The longest delay or reorder hold a rule may ask for. */
    public static final Duration MAX_DELAY = Duration.ofHours(1);

    /** Why listeners are told a peer was lost, and the start of every partition failure. */
    static final String PARTITIONED = "partitioned by fault injection";

    private volatile long seed;
    private final ConcurrentHashMap<Long, LinkFaults> links = new ConcurrentHashMap<>();
    private final List<FaultyFabric> attached = new CopyOnWriteArrayList<>();
    private final ScheduledThreadPoolExecutor scheduler;
    private volatile List<Cut> cuts = List.of(); // replaced whole, under this
    private volatile boolean closed;

    /** An empty plan; {@code seed} seeds every random choice its rules make. */
    public FaultPlan(long seed) {
        this.seed = seed;
        this.scheduler = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "gtran-fault-plan");
            thread.setDaemon(true);
            return thread;
        });
        scheduler.setRemoveOnCancelPolicy(true);
    }

    /** The seed given at construction, or to the last {@link #reseed}. */
    public long seed() {
        return seed;
    }

    /** Wraps {@code fabric} in a {@link FaultyFabric} steered by this plan. */
    public FaultyFabric wrap(Fabric fabric) {
        return new FaultyFabric(fabric, this);
    }

    /**
     * The pair {@code from → to}, which may be a node to itself.
     *
     * @throws IllegalArgumentException if either is not a valid node id
     */
    public Links links(int from, int to) {
        FabricChecks.checkNodeId(from);
        FabricChecks.checkNodeId(to);
        return new Links(List.of(new long[] {from, to}));
    }

    /**
     * Every pair from a node of {@code from} to a node of {@code to}, except a node to itself.
     *
     * @throws IllegalArgumentException if a set is empty or holds an invalid node id
     */
    public Links links(Set<Integer> from, Set<Integer> to) {
        checkSide("from", from);
        checkSide("to", to);
        List<long[]> pairs = new ArrayList<>();
        for (int f : from) {
            for (int t : to) {
                if (f != t) {
                    pairs.add(new long[] {f, t});
                }
            }
        }
        return new Links(pairs);
    }

    /**
     * Both directions between {@code a} and {@code b}.
     *
     * @throws IllegalArgumentException if either is not a valid node id, or they are the same
     */
    public Links between(int a, int b) {
        if (a == b) {
            throw new IllegalArgumentException("between needs two nodes: a=" + a + ", b=" + b);
        }
        return links(Set.of(a), Set.of(b)).and(links(b, a));
    }

    /**
     * Cuts {@code a} from {@code b} until {@link #heal}: see the class comment. Partitions add up;
     * repeating one changes nothing and tells no listener again. The listeners are told on the
     * calling thread, before this returns.
     *
     * @throws IllegalArgumentException if a side is empty, holds an invalid node id, or the sides share
     *     a node (the message names it)
     * @throws IllegalStateException if this plan is closed
     */
    public void partition(Set<Integer> a, Set<Integer> b) {
        checkSide("a", a);
        checkSide("b", b);
        for (int node : a) {
            if (b.contains(node)) {
                throw new IllegalArgumentException("partition sides overlap: node=" + node + ", a=" + new TreeSet<>(a)
                        + ", b=" + new TreeSet<>(b));
            }
        }
        cut(new Cut(Set.copyOf(a), Set.copyOf(b)));
    }

    /**
     * Cuts {@code node} from every other node: {@code partition({node}, everyone else)}. Its own
     * listeners are told of the loss of every node that has a decorator on this plan or that it
     * has been in contact with through its decorator; the listeners of the others are told of the
     * loss of {@code node}.
     *
     * @throws IllegalArgumentException if {@code node} is not a valid node id
     * @throws IllegalStateException if this plan is closed
     */
    public void isolate(int node) {
        FabricChecks.checkNodeId(node);
        cut(new Cut(Set.of(node), null));
    }

    /**
     * Lifts every rule and partition. Held messages are released (shuffled, as their window would
     * have been); messages and operations already delayed still wait out their delay. Peers cut off
     * by a partition count as back, so a later partition tells listeners again.
     */
    public void heal() {
        synchronized (this) {
            cuts = List.of();
        }
        links.values().forEach(LinkFaults::clear);
        attached.forEach(FaultyFabric::healed);
    }

    /**
     * Heals, then starts every pair's random stream afresh from {@code seed}: the rules set
     * afterwards draw as a new plan of that seed would. Traffic already delayed still waits out its
     * delay. For a plan steered from outside (a node's fault control file) whose seed may change.
     */
    public void reseed(long seed) {
        synchronized (this) {
            this.seed = seed;
            heal();
            links.clear();
        }
    }

    /**
     * Heals, then stops the scheduler thread once what is already delayed has been issued;
     * idempotent. Afterwards rules cannot be set (an {@link IllegalStateException}); the
     * decorators keep working, unhindered.
     */
    @Override
    public void close() {
        closed = true;
        heal();
        scheduler.shutdown();
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("FaultPlan[seed=").append(seed).append(", cuts=").append(cuts)
                .append(", links={");
        String separator = "";
        for (LinkFaults link : new TreeMap<>(links).values()) {
            String rules = link.describe();
            if (!rules.isEmpty()) {
                text.append(separator).append(link.from()).append("->").append(link.to()).append(": ").append(rules);
                separator = ", ";
            }
        }
        return text.append("}]").toString();
    }

    // ---- what the decorators ask --------------------------------------------------------------

    void attach(FaultyFabric fabric) {
        attached.add(fabric);
    }

    void detach(FaultyFabric fabric) {
        attached.remove(fabric);
    }

    /** Checks, and waits out the delay of, a connect or synchronous region operation from → to. */
    void beforeRegionOperation(int from, int to, String region) {
        if (!valid(to)) {
            return; // let the wrapped fabric report the unknown node
        }
        RegionAccessException failure = regionFailure(from, to, region);
        if (failure != null) {
            throw failure;
        }
        LinkFaults link = links.get(key(from, to));
        long delay = link == null ? 0 : link.nextDelayNanos();
        if (delay > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(delay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RegionAccessException("interrupted during a delay injected by fault injection: from=" + from
                        + ", node=" + to + ", region=" + region);
            }
            failure = regionFailure(from, to, region); // cut while we slept
            if (failure != null) {
                throw failure;
            }
        }
    }

    /** An asynchronous or batched region operation from → to, issued through {@code operation}. */
    <T> CompletableFuture<T> regionAsync(int from, int to, String region, Supplier<CompletableFuture<T>> operation) {
        RegionAccessException failure = valid(to) ? regionFailure(from, to, region) : null;
        if (failure != null) {
            return CompletableFuture.failedFuture(failure);
        }
        LinkFaults link = valid(to) ? links.get(key(from, to)) : null;
        if (link == null) {
            return operation.get();
        }
        return link.issue(() -> {
            RegionAccessException late = regionFailure(from, to, region);
            return late != null ? CompletableFuture.failedFuture(late) : operation.get();
        }, false);
    }

    /** A message from → to's {@code mailbox}, handed to the wrapped fabric through {@code send}. */
    CompletableFuture<Void> message(int from, int to, String mailbox, Supplier<CompletableFuture<Void>> send) {
        if (!valid(to)) {
            return send.get();
        }
        if (isCut(from, to)) {
            return CompletableFuture.failedFuture(partitioned(from, to, mailbox));
        }
        LinkFaults link = links.get(key(from, to));
        if (link == null) {
            return send.get();
        }
        if (link.dropNow()) {
            return CompletableFuture.failedFuture(new DeliveryException("dropped by fault injection: from=" + from
                    + ", node=" + to + ", mailbox=" + mailbox));
        }
        return link.issue(() -> isCut(from, to) ? CompletableFuture.failedFuture(partitioned(from, to, mailbox))
                : send.get(), true);
    }

    /** The scheduler that issues delayed operations and releases held messages. */
    ScheduledExecutorService scheduler() {
        return scheduler;
    }

    // ---- internals ----------------------------------------------------------------------------

    private void cut(Cut cut) {
        synchronized (this) {
            checkOpen();
            if (!cuts.contains(cut)) {
                List<Cut> more = new ArrayList<>(cuts);
                more.add(cut);
                cuts = List.copyOf(more);
            }
        }
        // Tell listeners outside the lock: a listener may look at the plan.
        for (FaultyFabric fabric : attached) {
            int node = fabric.localNode();
            if (cut.a().contains(node)) {
                fabric.partitioned(cut.b() != null ? cut.b() : others(fabric));
            } else if (cut.inB(node)) {
                fabric.partitioned(cut.a());
            }
        }
    }

    /** The nodes other than {@code fabric}'s that it knows of: decorated on this plan, or contacted. */
    private Set<Integer> others(FaultyFabric fabric) {
        Set<Integer> known = new TreeSet<>(fabric.contacted());
        attached.forEach(other -> known.add(other.localNode()));
        known.remove(fabric.localNode());
        return known;
    }

    private boolean isCut(int from, int to) {
        for (Cut cut : cuts) {
            if (cut.separates(from, to)) {
                return true;
            }
        }
        return false;
    }

    private RegionAccessException regionFailure(int from, int to, String region) {
        if (isCut(from, to)) {
            return new RegionAccessException(PARTITIONED + ": from=" + from + ", node=" + to + ", region=" + region);
        }
        LinkFaults link = links.get(key(from, to));
        if (link != null && link.regionsFailing()) {
            return new RegionAccessException("region access failed by fault injection: from=" + from + ", node=" + to
                    + ", region=" + region);
        }
        return null;
    }

    private static DeliveryException partitioned(int from, int to, String mailbox) {
        return new DeliveryException(PARTITIONED + ": from=" + from + ", node=" + to + ", mailbox=" + mailbox);
    }

    private LinkFaults link(long[] pair) {
        return links.computeIfAbsent(key((int) pair[0], (int) pair[1]),
                k -> new LinkFaults(this, (int) pair[0], (int) pair[1], seed));
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("fault plan is closed: seed=" + seed);
        }
    }

    private static long key(int from, int to) {
        return (long) from * (Fabric.MAX_NODE + 1) + to;
    }

    private static boolean valid(int node) {
        return node >= 0 && node <= Fabric.MAX_NODE;
    }

    private static void checkSide(String name, Set<Integer> nodes) {
        Objects.requireNonNull(nodes, name);
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("node set is empty: " + name + "=" + nodes);
        }
        for (Integer node : nodes) {
            FabricChecks.checkNodeId(Objects.requireNonNull(node, name + " holds null"));
        }
    }

    static long checkDelay(String name, Duration delay, boolean zeroAllowed) {
        Objects.requireNonNull(delay, name);
        if (delay.isNegative() || (!zeroAllowed && delay.isZero())) {
            throw new IllegalArgumentException(name + " must be " + (zeroAllowed ? "non-negative" : "positive") + ": "
                    + name + "=" + delay);
        }
        if (delay.compareTo(MAX_DELAY) > 0) {
            throw new IllegalArgumentException(name + " is too long: " + name + "=" + delay + ", max=" + MAX_DELAY);
        }
        return delay.toNanos();
    }

    /** Two sides cut from each other; {@code b == null} stands for every node not in {@code a}. */
    private record Cut(Set<Integer> a, Set<Integer> b) {
        boolean inB(int node) {
            return b == null ? !a.contains(node) : b.contains(node);
        }

        boolean separates(int from, int to) {
            return (a.contains(from) && inB(to)) || (a.contains(to) && inB(from));
        }

        @Override
        public String toString() {
            return new TreeSet<>(a) + "|" + (b == null ? "rest" : new TreeSet<>(b));
        }
    }

    /**
     * A set of ordered pairs of nodes, chosen by {@link #links(int, int)}, {@link #links(Set, Set)}
     * or {@link #between}, on which rules are switched. Each method replaces the pairs' previous
     * setting of the same kind and returns this for chaining; each throws
     * {@link IllegalStateException} once the plan is closed.
     */
    public final class Links {
        private final List<long[]> pairs;

        private Links(List<long[]> pairs) {
            this.pairs = List.copyOf(pairs);
        }

        /** A fixed delay; {@link Duration#ZERO} switches delays off. */
        public Links delay(Duration delay) {
            return delay(delay, delay);
        }

        /**
         * A delay drawn uniformly from {@code [min, max]} for each message and operation.
         *
         * @throws IllegalArgumentException if either is negative or over {@link #MAX_DELAY}, or
         *     {@code min > max}
         */
        public Links delay(Duration min, Duration max) {
            long low = checkDelay("min", min, true);
            long high = checkDelay("max", max, true);
            if (low > high) {
                throw new IllegalArgumentException("delay range is empty: min=" + min + ", max=" + max);
            }
            return each(link -> link.delay(low, high));
        }

        /**
         * Holds messages and releases them shuffled once {@code window} are held or the first has
         * been held for {@code hold}; breaks per-sender ordering (see the class comment).
         *
         * @throws IllegalArgumentException if {@code window < 2} or {@code hold} is not positive or is
         *     over {@link #MAX_DELAY}
         */
        public Links reorder(int window, Duration hold) {
            if (window < 2) {
                throw new IllegalArgumentException("reorder window must be at least 2: window=" + window);
            }
            long holdNanos = checkDelay("hold", hold, false);
            return each(link -> link.reorder(window, holdNanos));
        }

        /** Stops reordering, releasing what is held. */
        public Links stopReordering() {
            return each(LinkFaults::stopReordering);
        }

        /**
         * Drops the next {@code count} messages of each pair, replacing any count still pending; 0
         * stops. Counted drops come before probabilistic ones.
         *
         * @throws IllegalArgumentException if {@code count} is negative
         */
        public Links dropNext(int count) {
            if (count < 0) {
                throw new IllegalArgumentException("drop count is negative: count=" + count);
            }
            return each(link -> link.dropNext(count));
        }

        /**
         * Drops each message with probability {@code probability}, drawn from the pair's seeded
         * random; 0 stops.
         *
         * @throws IllegalArgumentException unless {@code 0 <= probability <= 1}
         */
        public Links dropWithProbability(double probability) {
            if (!(probability >= 0 && probability <= 1)) {
                throw new IllegalArgumentException("drop probability must be in [0, 1]: probability=" + probability);
            }
            return each(link -> link.dropProbability(probability));
        }

        /** Fails connecting and every region operation, including through handles obtained earlier. */
        public Links failRegionAccess() {
            return each(link -> link.failRegions(true));
        }

        /** Undoes {@link #failRegionAccess}. */
        public Links restoreRegionAccess() {
            return each(link -> link.failRegions(false));
        }

        /** Lifts every rule of these pairs (not partitions), releasing held messages. */
        public Links clear() {
            return each(LinkFaults::clear);
        }

        private Links and(Links more) {
            List<long[]> all = new ArrayList<>(pairs);
            all.addAll(more.pairs);
            return new Links(all);
        }

        private Links each(Consumer<LinkFaults> rule) {
            checkOpen();
            pairs.forEach(pair -> rule.accept(link(pair)));
            return this;
        }

        @Override
        public String toString() {
            List<String> names = new ArrayList<>();
            pairs.forEach(pair -> names.add(pair[0] + "->" + pair[1]));
            Collections.sort(names);
            return "Links" + names;
        }
    }
}
