package io.gtran.check.faults;

import io.gtran.check.fabric.FaultPlan;
import io.gtran.check.fabric.FaultyFabric;
import io.gtran.rdma.Fabric;
import io.gtran.txn.NodeFaults;
import io.gtran.txn.agent.TimeSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's faults and wall clock, steered from outside through a control file
 * ({@code gtran.faults.control=PATH}; the format is {@link FaultRules}'s): the {@link NodeFaults} a
 * node opened with that setting gets ({@link FaultControlProvider}). The node's fabric is
 * wrapped in a {@link FaultyFabric} of a plan of this process's own, which holds only this node:
 * each rule is "from this node to node X", and the other end's process gets the mirror rule from
 * its own file. The node's {@link TimeSource} reads the wall clock plus an adjustable offset.
 *
 * <p>A daemon thread reads the file every {@value #POLL_MS} ms; when its text changed, every rule
 * is lifted and the new ones applied (logged at INFO with the whole rule set). A missing or empty
 * file means no faults and offset 0. A malformed one is logged at ERROR, naming the file, the line
 * and what is wrong, and the previous rules stay.
 *
 * <p>A cut acts as a cut network does: from the moment it is applied this node's messages and
 * one-sided operations to the cut nodes are lost, silently, and only when the cut has lasted the
 * fabric's {@code gtran.fabric.peer-lost-after-ms} (as long as its heartbeats would take to miss)
 * does it become {@link FaultPlan#partition}, which tells this node's listeners the cut nodes are
 * lost. A cut lifted before then leaves no loss behind.
 */
final class FaultControl implements NodeFaults {
    static final long POLL_MS = 100;
    private static final Logger LOG = LoggerFactory.getLogger(FaultControl.class);

    private final Path path;
    private final int node;
    private final FaultPlan plan = new FaultPlan(FaultRules.DEFAULT_SEED);
    private final OffsetTime time;
    private final ScheduledExecutorService poller;
    /** How long a cut lasts before this node's listeners are told its nodes are lost. */
    private final long lostAfterMs;
    /** Bumped by every change of the cut: a pending loss report of an earlier cut is dropped. */
    private long generation;
    /** The generation whose cut was reported lost (-1: none). */
    private long reportedGeneration = -1;
    /** The file's text last read (null before the first read), applied or found malformed. */
    private String lastText;
    private volatile FaultRules rules = FaultRules.NONE;

    /** Reads {@code path} once and applies what it says; call {@link #start} to keep reading it. */
    FaultControl(Path path, int node, TimeSource wall, long lostAfterMs) {
        this.path = path;
        this.node = node;
        this.lostAfterMs = lostAfterMs;
        this.time = new OffsetTime(wall);
        this.poller = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "gtran-faults-" + node);
            thread.setDaemon(true);
            return thread;
        });
        poll();
    }

    /** {@code fabric} wrapped in this control's plan. */
    @Override
    public Fabric wrap(Fabric fabric) {
        return plan.wrap(fabric);
    }

    /** The node's time: the wall clock plus the file's clock offset. */
    @Override
    public TimeSource time() {
        return time;
    }

    /** The rules in force. */
    FaultRules rules() {
        return rules;
    }

    @Override
    public long clockOffsetMillis() {
        return rules.clockOffsetMs();
    }

    /** Starts reading the file every {@value #POLL_MS} ms. */
    @Override
    public void start() {
        poller.scheduleWithFixedDelay(this::poll, POLL_MS, POLL_MS, TimeUnit.MILLISECONDS);
    }

    /** Reads the file and, if its text changed, applies it; never throws (the node keeps running). */
    synchronized void poll() {
        try {
            String text;
            try {
                text = Files.readString(path, StandardCharsets.UTF_8);
            } catch (NoSuchFileException missing) {
                text = "";
            }
            if (text.equals(lastText)) {
                return;
            }
            lastText = text;
            FaultRules next;
            try {
                next = FaultRules.parse(text, node);
            } catch (FaultRules.Malformed e) {
                LOG.error("gtran faults node={}: {} {}; the previous rules stay: {}", node, path, e.getMessage(),
                        rules.describe());
                return;
            }
            apply(next);
        } catch (IOException | RuntimeException e) { // an unreadable file, or a rule refused: keep running
            LOG.error("gtran faults node={}: cannot apply {}: {}; the previous rules stay: {}", node, path, e, rules.describe());
        }
    }

    private void apply(FaultRules next) {
        boolean sameCut = next.cut().equals(rules.cut());
        boolean cutReported = reportedGeneration == generation;
        plan.reseed(next.seed()); // lifts every rule: the ones in force are applied again below
        Set<Integer> self = Set.of(node);
        Set<Integer> delayed = new java.util.TreeSet<>(next.delayTo());
        delayed.removeAll(next.cut()); // a cut link loses everything, whatever its delay rule says
        if (!delayed.isEmpty()) {
            plan.links(self, delayed)
                    .delay(Duration.ofMillis(next.delayMinMs()), Duration.ofMillis(next.delayMaxMs()))
                    .dropWithProbability(next.loss());
        }
        if (next.cut().isEmpty()) {
            generation++;
        } else if (sameCut && cutReported) {
            plan.partition(self, next.cut()); // the same cut, already reported lost: in force as it was
        } else {
            plan.links(self, next.cut()).dropWithProbability(1.0).failRegionAccess();
            if (!sameCut) { // a new cut: its loss bound starts now; an unchanged one keeps its report pending
                long current = ++generation;
                poller.schedule(() -> reportLost(current, next.cut()), lostAfterMs, TimeUnit.MILLISECONDS);
            }
        }
        time.offsetMicros = TimeUnit.MILLISECONDS.toMicros(next.clockOffsetMs());
        rules = next;
        LOG.info("gtran faults node={} applied: {}", node, next.describe());
    }

    /** Tells this node's listeners the cut nodes are lost, if the cut of {@code cutGeneration} is still in force. */
    private synchronized void reportLost(long cutGeneration, Set<Integer> cut) {
        if (cutGeneration != generation) {
            return; // lifted or replaced meanwhile
        }
        plan.partition(Set.of(node), cut);
        reportedGeneration = cutGeneration;
        LOG.info("gtran faults node={}: cut to {} has lasted {} ms: reported lost", node, cut, lostAfterMs);
    }

    /** Stops reading the file, then lifts every rule and stops the plan's scheduler. */
    @Override
    public void close() {
        poller.shutdownNow();
        plan.close();
    }

    /** The wall clock plus an offset; monotonic time is left alone (a wall clock jump does not move it). */
    private static final class OffsetTime implements TimeSource {
        private final TimeSource wall;
        volatile long offsetMicros;

        OffsetTime(TimeSource wall) {
            this.wall = wall;
        }

        @Override
        public long nanos() {
            return wall.nanos();
        }

        @Override
        public long wallMicros() {
            return wall.wallMicros() + offsetMicros;
        }

        @Override
        public void pause(long nanos) {
            wall.pause(nanos);
        }
    }
}
