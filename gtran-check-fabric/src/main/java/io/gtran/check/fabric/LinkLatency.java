package io.gtran.check.fabric;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.InJvmCluster;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * A fixed one-way latency on every link between the nodes of one {@link InJvmCluster}, at
 * microsecond precision, for benchmarks that ask what a network would cost: wrap every node's
 * fabric with the same instance ({@link #wrap}).
 *
 * <p>A message to another node is handed to its receiver no sooner than {@link #latency} after it
 * was sent: the sender stamps the send time in a queue of its own link (sender, receiver,
 * mailbox) as it sends, and the receiving mailbox's {@code receive} or {@code poll} waits out what
 * is left of the latency before it returns the message. Senders do not wait, so a node sending to
 * two others pays the latency once, not twice, and messages on one link overlap in flight as on a
 * network. A one-sided operation on another node's region (or a batch's flush that reaches other
 * nodes) is a round trip: its caller waits twice the latency before it runs. Work on a node's own
 * regions and mailboxes is not delayed.
 *
 * <p>{@link FaultPlan}'s delays go through a scheduler thread that parks; this JVM parks for
 * about 75 µs more than asked on a Linux host (and {@code Thread.sleep} rounds up to a
 * millisecond), so delays of tens of microseconds come out several times too long there. Here the
 * waiting thread parks only while more than {@value #SPIN_NANOS} ns are left and spins the rest,
 * which costs a core while it spins. {@link #stats} says what the receivers really waited.
 *
 * <p>Relies on the in-JVM fabric putting a message into the receiving mailbox's queue during
 * {@code send} (so the stamp queue and the mailbox queue agree in order) and on one thread
 * receiving from each mailbox; with several receivers on one mailbox a message may wait out
 * another's stamp, which differs by the time between the two sends.
 */
public final class LinkLatency {
    /** Below this many nanoseconds left, a waiting thread spins instead of parking. */
    static final long SPIN_NANOS = 200_000;

    private volatile long nanos;
    private final ConcurrentHashMap<Link, ArrayDeque<Long>> sent = new ConcurrentHashMap<>();
    private final LongAdder messages = new LongAdder();
    private final LongAdder messageNanos = new LongAdder();
    private final LongAccumulator maxMessageNanos = new LongAccumulator(Math::max, 0);
    private final LongAdder roundTrips = new LongAdder();

    /**
     * @throws IllegalArgumentException if {@code latency} is negative or longer than {@link FaultPlan#MAX_DELAY}
     */
    public LinkLatency(Duration latency) {
        this.nanos = FaultPlan.checkDelay("latency", latency, true);
    }

    /** The one-way latency of every link. */
    public Duration latency() {
        return Duration.ofNanos(nanos);
    }

    /**
     * Sets the latency from now on (a benchmark loads its data at zero, then measures at the
     * latency it asks) and starts the {@link #stats} afresh. A message already sent waits out the
     * new latency from its send time.
     *
     * @throws IllegalArgumentException as the constructor
     */
    public void latency(Duration latency) {
        nanos = FaultPlan.checkDelay("latency", latency, true);
        messages.reset();
        messageNanos.reset();
        maxMessageNanos.reset();
        roundTrips.reset();
    }

    /** Wraps one node's fabric; wrap every node of the cluster with this instance. */
    public Fabric wrap(Fabric fabric) {
        return new LatencyFabric(fabric, this);
    }

    /**
     * What the links did so far.
     *
     * @param messages        messages to other nodes handed to their receivers (at zero latency too:
     *                        then the times below are the wrapped fabric's bare hand-off)
     * @param meanMessageNanos mean time from a message's send to its hand-over (at least the latency)
     * @param maxMessageNanos  the longest such time
     * @param roundTrips      one-sided operations and flushes that waited a round trip
     */
    public record Stats(long messages, double meanMessageNanos, long maxMessageNanos, long roundTrips) {
    }

    public Stats stats() {
        long n = messages.sum();
        return new Stats(n, n == 0 ? 0 : messageNanos.sum() / (double) n, maxMessageNanos.get(), roundTrips.sum());
    }

    // ---- for LatencyFabric --------------------------------------------------------------------

    /** One direction of a link, per receiving mailbox. */
    private record Link(int from, int to, String mailbox) {
    }

    /** The send stamps of a link, oldest first; lock it while stamping and sending. */
    ArrayDeque<Long> stamps(int from, int to, String mailbox) {
        return sent.computeIfAbsent(new Link(from, to, mailbox), link -> new ArrayDeque<>());
    }

    /** Waits until {@code latency} has passed since the oldest stamp of the link a message came over. */
    void awaitDelivery(int from, int to, String mailbox) {
        long wait = nanos;
        ArrayDeque<Long> stamps = sent.get(new Link(from, to, mailbox));
        if (stamps == null) {
            return; // sent around this decorator: nothing to wait for
        }
        Long stamp;
        synchronized (stamps) {
            stamp = stamps.pollFirst();
        }
        if (stamp == null) {
            return;
        }
        long now = wait == 0 ? System.nanoTime() : waitUntil(stamp + wait); // at zero: the bare hand-off, measured
        long took = now - stamp;
        messages.increment();
        messageNanos.add(took);
        maxMessageNanos.accumulate(took);
    }

    /** Waits out a round trip (twice the latency) on the calling thread. */
    void awaitRoundTrip() {
        long wait = nanos;
        if (wait > 0) {
            waitUntil(System.nanoTime() + 2 * wait);
            roundTrips.increment();
        }
    }

    /** Parks while more than {@link #SPIN_NANOS} are left, then spins; returns the time it ended. */
    static long waitUntil(long deadline) {
        long now = System.nanoTime();
        while (deadline - now > 0) {
            long left = deadline - now;
            if (left > SPIN_NANOS) {
                LockSupport.parkNanos(left - SPIN_NANOS);
            } else {
                Thread.onSpinWait();
            }
            now = System.nanoTime();
        }
        return now;
    }
}
