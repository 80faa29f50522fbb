package io.gtran.txn.clock;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.Mailbox;
import io.gtran.rdma.Message;
import io.gtran.txn.agent.Agent;
import io.gtran.txn.agent.AgentHandle;
import io.gtran.txn.agent.AgentHost;
import io.gtran.txn.agent.TimeSource;
import io.gtran.txn.protocol.ClockMessage;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Keeps one node's {@link SyncedClock} synchronised over the fabric. The clock master starts as the
 * member with the smallest id; every other member sends it a {@code REQUEST} every sync interval
 * through mailbox {@value #MAILBOX} and adds each {@code REPLY} (the master's time) as a sample.
 * When the node acts on the master's loss, the smallest live member takes over, from above
 * everything it knew (see {@link SyncedClock#becomeMaster}), in a new epoch; a node acts on a loss
 * only with a majority. A re-admitted member never takes the role back: at the rejoin handshake
 * the two sides {@link #agree} on the newer epoch's master before either re-admits the other, and each
 * lifts its clock above the other's fence ({@link #readmitted}). See docs/cluster-transactions.md,
 * "Time". One agent per node does the syncing.
 *
 * <p>Messages are {@link ClockMessage}s. A reply is matched with the time its request was sent, kept for the
 * last {@value #REMEMBERED} requests, so a round trip longer than the sync interval still gives a
 * sample; a reply to an older request is ignored (its round trip is unknown). Requests are
 * answered only by a node that is master; a requester whose master does not answer keeps asking,
 * and {@link SyncedClock#next()} fails after its wait limit if no sample comes.
 */
public final class ClockSync implements AutoCloseable {
    public static final String MAILBOX = "gtran.clock";
    /** How many requests' send times are kept to match replies with (a ring, by sequence number). */
    static final int REMEMBERED = 256;

    private final SyncedClock clock;
    private final Mailbox mailbox;
    private final long intervalNanos;
    private final Set<Integer> live; // guarded by itself
    /** The master this node follows (itself if it is master), and its epoch; guarded by {@link #live}. */
    private int master;
    private long epoch;
    private final AgentHandle runner;
    private long nextSend;
    private final AtomicBoolean closed = new AtomicBoolean();
    private long sequence;
    /** Send time and sequence number of each remembered request, at {@code sequence % REMEMBERED}. */
    private final long[] sentNanos = new long[REMEMBERED];
    private final long[] sentSequence = new long[REMEMBERED];

    /**
     * Starts synchronising {@code clock} with the other {@code members} of {@code fabric}'s cluster.
     *
     * @param members every node id of the cluster, this node's included
     * @throws IllegalArgumentException if {@code members} does not contain this node
     */
    public ClockSync(Fabric fabric, SyncedClock clock, TimeSource time, Set<Integer> members, long intervalMillis) {
        this(fabric, clock, AgentHost.threads(time), members, intervalMillis);
    }

    /** As above, its agent run by {@code host} (the node's: threads in production, a simulator's scheduler in tests). */
    public ClockSync(Fabric fabric, SyncedClock clock, AgentHost host, Set<Integer> members, long intervalMillis) {
        if (!members.contains(fabric.localNode()) || clock.node() != fabric.localNode()) {
            throw new IllegalArgumentException("members must include this node and the clock must be its: node="
                    + fabric.localNode() + " clock=" + clock.node() + " members=" + members);
        }
        this.clock = clock;
        this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(intervalMillis);
        this.live = new TreeSet<>(members);
        this.master = ((TreeSet<Integer>) live).first();
        this.mailbox = fabric.openMailbox(MAILBOX);
        clock.follow(master);
        this.nextSend = host.time().nanos();
        this.runner = host.start(new Syncer(), mailbox);
    }

    /** The clock master as this node sees it. */
    public int master() {
        synchronized (live) {
            return master;
        }
    }

    /** How many times the master changed in the history this node follows: a newer epoch wins at a rejoin. */
    public long epoch() {
        synchronized (live) {
            return epoch;
        }
    }

    /**
     * The node acts on member {@code node}'s loss (its member view tells it once the commit layer
     * does: with a majority, after the loss delay): it is not live, and if it was the master the
     * smallest live member takes over (this node itself, if that is its id) in a new epoch. A node
     * cut off with a minority acts on no loss, so it keeps following its master; if that master is
     * on the other side, it takes no timestamp until it is back.
     */
    public void lost(int node) {
        synchronized (live) { // the clock follows under the same lock, so two changes apply in order
            if (live.size() == 1 || !live.remove(node) || node != master) {
                return;
            }
            master = ((TreeSet<Integer>) live).first();
            epoch++;
            clock.follow(master); // this node's own id makes it master
        }
    }

    /**
     * Member {@code node}, counted lost, was re-admitted (the same process) after a handshake in
     * which it sent {@code fence}, a bound on every timestamp of the timescale it followed: it is
     * live again, and this clock's later timestamps stay above the fence. The master does not change.
     */
    public void readmitted(int node, long fence) {
        synchronized (live) {
            live.add(node);
            clock.atLeast(fence);
        }
    }

    /**
     * At a rejoin handshake, member {@code from} follows {@code theirMaster} in {@code theirEpoch}:
     * this node follows that master too if its epoch is newer (or the same with a smaller master),
     * from above its own timestamps (see {@link SyncedClock#follow}). Returns whether both now follow
     * the same master in the same epoch; until they do, neither re-admits the other.
     */
    public boolean agree(int from, int theirMaster, long theirEpoch) {
        synchronized (live) {
            if (theirEpoch > epoch || (theirEpoch == epoch && theirMaster < master)) {
                master = theirMaster;
                epoch = theirEpoch;
                live.add(theirMaster);
                clock.follow(theirMaster);
            }
            return theirMaster == master && theirEpoch == epoch;
        }
    }

    /** Asks the master for its time every interval, and handles requests and replies as they come. */
    private final class Syncer implements Agent {
        @Override
        public long doWork(long nowNanos) {
            if (nowNanos - nextSend >= 0) {
                try {
                    requestFromMaster(nowNanos);
                } catch (IllegalStateException goneMeanwhile) {
                    // a send to a peer that just went: the next round asks the next master
                }
                nextSend = nowNanos + intervalNanos;
            }
            return nextSend;
        }

        @Override
        public void onMessage(Message message, long nowNanos) {
            try {
                handle(message, nowNanos);
            } catch (IllegalStateException goneMeanwhile) {
                // a reply to a peer that just went
            }
        }

        @Override
        public String roleName() {
            return "clock-sync-" + clock.node();
        }
    }

    private void requestFromMaster(long now) {
        int master = master();
        if (master == clock.node()) {
            return;
        }
        sequence++;
        int at = (int) (sequence % REMEMBERED);
        sentNanos[at] = now;
        sentSequence[at] = sequence;
        mailbox.send(master, MAILBOX, ClockMessage.encode(new ClockMessage.Request(sequence))); // failures show as a missing reply
    }

    private void handle(Message message, long now) {
        ClockMessage received;
        try {
            received = ClockMessage.decode(message.payload());
        } catch (IllegalArgumentException e) {
            return; // not ours: nothing else is sent to this mailbox
        }
        long seq = received.sequence();
        if (received instanceof ClockMessage.Request && clock.isMaster()) {
            mailbox.send(message.fromNode(), message.fromMailbox(), ClockMessage.encode(new ClockMessage.Reply(seq, clock.masterMicros())));
        } else if (received instanceof ClockMessage.Reply reply && seq > 0 && message.fromNode() == master()) {
            int at = (int) (seq % REMEMBERED);
            if (sentSequence[at] == seq) { // one of the last requests: its own send time bounds the reading
                clock.addSample(sentNanos[at], now, reply.masterMicros());
            }
        }
    }

    /** Stops the thread and closes the mailbox; idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            runner.close(TimeUnit.SECONDS.toMillis(5));
            mailbox.close();
        }
    }
}
