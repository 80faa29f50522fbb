package io.gtran.txn.clock;

import io.gtran.txn.agent.Agent;
import io.gtran.txn.agent.AgentHandle;
import io.gtran.txn.agent.IdlePause;
import io.gtran.txn.agent.AgentHost;
import io.gtran.txn.agent.TimeSource;
import io.gtran.txn.protocol.ClockMessage;
import io.gtran.txn.protocol.Family;
import io.gtran.txn.protocol.NodeMailbox;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one node's {@link SyncedClock} synchronised over the fabric. The clock master starts as the
 * member with the smallest id; every other member sends it a {@code REQUEST} every sync interval
 * through the node's mailbox and adds each {@code REPLY} (the master's time) as a sample.
 * When the node acts on the master's loss, the smallest live member takes over, from above
 * everything it knew (see {@link SyncedClock#becomeMaster}), in a new epoch; a node acts on a loss
 * only with a majority. A re-admitted member never takes the role back: at the rejoin handshake
 * the two sides {@link #agree} on the newer epoch's master before either re-admits the other, and each
 * lifts its clock above the other's fence ({@link #readmitted}). See docs/cluster-transactions.md,
 * "Time". One agent per node does the syncing.
 *
 * <p>Messages are {@link ClockMessage}s. A reply is matched with the time its request was sent, kept for the
 * last {@value #REMEMBERED} requests, so a round trip longer than the sync interval still gives a
 * sample; a reply to an older request is ignored (its round trip is unknown). Requests go out on
 * the agent, replies come in on the node's receive path: the ring is guarded by itself. A requester
 * whose master does not answer keeps asking, and {@link SyncedClock#next()} fails after its wait
 * limit if no sample comes.
 *
 * <p>Where the membership group's log names the master ({@link #install}), a node follows it
 * through any member that hears it: once its master has not answered for {@value #RELAY_AFTER}
 * sync intervals, each request also goes to every other member, and a member that follows the
 * same master in the same epoch answers with its own interval {@code [L, U]} of the master's time
 * ({@link ClockMessage.Relayed}), a wider sample ({@link SyncedClock#addRelayedSample}). So a node
 * cut off from the master only (one link cut) keeps an uncertainty of a few round trips instead of
 * one that grows with its oscillator's drift bound until the cut heals or the group decides.
 */
public final class ClockSync implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClockSync.class);
    /** How many requests' send times are kept to match replies with (a ring, by sequence number). */
    static final int REMEMBERED = 256;
    /** Sync intervals without an answer from the master after which other members are asked too. */
    static final int RELAY_AFTER = 3;
    /**
     * Below this many timestamps a second since the last request, a node counts as idle and doubles
     * the pause before its next request, up to {@link #IDLE_PAUSE_MAX_MS}; at or above it, it asks
     * every interval. An idle node's GC takes about three a second; one transaction takes two.
     */
    static final int BUSY_TIMESTAMPS_PER_SECOND = 20;
    /** The longest pause between two requests of an idle node: its drift bound widens the next timestamps' uncertainty by at most this times the bound. */
    static final int IDLE_PAUSE_MAX_MS = 160;
    private static final long NOT_YET = Long.MIN_VALUE;

    private final SyncedClock clock;
    private final NodeMailbox mailbox;
    private final long intervalNanos;
    private final Set<Integer> live; // guarded by itself
    /**
     * Every member but this node, in id order: whom a relayed request goes to (a list, not a
     * {@code Set.copyOf}, whose order changes from one JVM to the next: the simulator replays a
     * seed in another process).
     */
    private final List<Integer> others;
    /** Whether members relay the master's time: only where the group's log names it; guarded by {@link #live}. */
    private boolean relays;
    /** The master this node follows (itself if it is master), and its epoch; guarded by {@link #live}. */
    private int master;
    private long epoch;
    private final AgentHandle runner;
    private long nextSend;
    /** The pause before the next request: the interval, or longer while the node is idle; the agent's. */
    private long pauseNanos;
    /** {@link SyncedClock#timestampsTaken} at the last request; the agent's. */
    private long takenAtLastRequest;
    private final AtomicBoolean closed = new AtomicBoolean();
    private long sequence;
    /** Send time and sequence number of each remembered request, at {@code sequence % REMEMBERED}. */
    private final long[] sentNanos = new long[REMEMBERED];
    private final long[] sentSequence = new long[REMEMBERED];
    /** When the master last answered, or since when this node has followed it; guarded by {@link #sentNanos}. */
    private long answeredNanos = NOT_YET;

    /**
     * Starts synchronising {@code clock} with the other {@code members} of the cluster, through its
     * node's {@code mailbox}, which must tell its handlers the time of {@code time} (a reply's
     * arrival is read on the same clock as its request's send).
     *
     * @param members every node id of the cluster, this node's included
     * @throws IllegalArgumentException if {@code members} does not contain this node
     */
    public ClockSync(NodeMailbox mailbox, SyncedClock clock, TimeSource time, Set<Integer> members, long intervalMillis) {
        this(mailbox, clock, AgentHost.threads(time), members, intervalMillis);
    }

    /** As above, its agent run by {@code host} (the node's: threads in production, a simulator's scheduler in tests). */
    public ClockSync(NodeMailbox mailbox, SyncedClock clock, AgentHost host, Set<Integer> members, long intervalMillis) {
        if (!members.contains(mailbox.node()) || clock.node() != mailbox.node()) {
            throw new IllegalArgumentException("members must include this node and the clock must be its: node="
                    + mailbox.node() + " clock=" + clock.node() + " members=" + members);
        }
        this.clock = clock;
        this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(intervalMillis);
        this.live = new TreeSet<>(members);
        TreeSet<Integer> rest = new TreeSet<>(members);
        rest.remove(mailbox.node());
        this.others = List.copyOf(rest);
        this.master = ((TreeSet<Integer>) live).first();
        this.mailbox = mailbox;
        clock.follow(master);
        this.nextSend = host.time().nanos();
        this.pauseNanos = intervalNanos;
        mailbox.on(Family.CLOCK, this::onMessage);
        this.runner = host.start(new Syncer());
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
     * Follows {@code master} in {@code epoch} as the membership group's log decided it (its clock
     * was handed over by the caller, {@link SyncedClock#handOver}); {@link #lost} and {@link #agree}
     * are then not used: the log, not this node's live set, names the master.
     */
    public void install(int master, long epoch) {
        synchronized (live) {
            this.master = master;
            this.epoch = epoch;
            relays = true;
        }
        synchronized (sentNanos) {
            answeredNanos = NOT_YET; // counted from the next request
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

    /**
     * Asks the master for its time every interval, or, while this node takes fewer than {@value
     * #BUSY_TIMESTAMPS_PER_SECOND} timestamps a second and none is waited for, after a pause that
     * doubles up to {@value #IDLE_PAUSE_MAX_MS} ms (an idle cluster then sends a few requests a
     * second, not a hundred; the first timestamps after idling wait out a wider uncertainty until
     * the next reply). A timestamp waited for (a node cut off from its master, whose uncertainty
     * grows) keeps the interval, so the relay starts after three intervals as before.
     */
    private final class Syncer implements Agent {
        @Override
        public long doWork(long nowNanos) {
            if (nowNanos - nextSend >= 0) {
                long sincePrevious = pauseNanos;
                long taken = clock.timestampsTaken();
                pauseNanos = clock.timestampAwaited() ? intervalNanos : nextPause(pauseNanos, taken - takenAtLastRequest, intervalNanos);
                takenAtLastRequest = taken;
                try {
                    requestFromMaster(nowNanos, sincePrevious);
                } catch (IllegalStateException goneMeanwhile) {
                    // a send to a peer that just went: the next round asks the next master
                }
                nextSend = nowNanos + pauseNanos;
            }
            return nextSend;
        }

        @Override
        public String roleName() {
            return "clock-sync-" + clock.node();
        }
    }

    /**
     * The pause after one of {@code pause} in which {@code taken} timestamps were taken: doubled up
     * to {@value #IDLE_PAUSE_MAX_MS} ms below {@value #BUSY_TIMESTAMPS_PER_SECOND} a second, else
     * the {@code interval}.
     */
    static long nextPause(long pause, long taken, long interval) {
        boolean idle = taken * 1_000_000_000L < (long) BUSY_TIMESTAMPS_PER_SECOND * pause;
        return IdlePause.next(pause, idle, interval, TimeUnit.MILLISECONDS.toNanos(IDLE_PAUSE_MAX_MS));
    }

    /** Sends a request to the master; {@code sincePrevious} is the pause since the last one (the master is silent after {@value #RELAY_AFTER} such). */
    private void requestFromMaster(long now, long sincePrevious) {
        int master;
        boolean relayed;
        synchronized (live) {
            master = this.master;
            relayed = relays;
        }
        if (master == clock.node()) {
            return;
        }
        long asked;
        boolean silent;
        synchronized (sentNanos) {
            asked = ++sequence;
            int at = (int) (asked % REMEMBERED);
            sentNanos[at] = now;
            sentSequence[at] = asked;
            if (answeredNanos == NOT_YET) {
                answeredNanos = now;
            }
            silent = now - answeredNanos >= RELAY_AFTER * Math.max(intervalNanos, sincePrevious);
        }
        byte[] request = ClockMessage.encode(new ClockMessage.Request(asked));
        send(master, request); // failures show as a missing reply
        if (relayed && silent) {
            for (int member : others) {
                if (member != master) {
                    send(member, request);
                }
            }
        }
    }

    private void send(int to, byte[] message) {
        try {
            mailbox.send(to, message);
        } catch (IllegalStateException goneOrClosing) {
            // a peer that just went, or this node closing: the next round asks again
        }
    }

    /** Handles the clock message {@code payload} of {@code from}: the node's receive path calls it. */
    private void onMessage(int from, byte[] payload, long now) {
        if (closed.get()) {
            return;
        }
        ClockMessage received;
        try {
            received = ClockMessage.decode(payload);
        } catch (IllegalArgumentException e) {
            LOG.warn("node={} ignored a message from node {}: {}", clock.node(), from, e.getMessage());
            return;
        }
        long seq = received.sequence();
        if (received instanceof ClockMessage.Request) {
            answer(from, seq);
        } else if (received instanceof ClockMessage.Reply reply && seq > 0 && from == master()) {
            long sent = sentAt(seq);
            if (sent != NOT_YET) {
                synchronized (sentNanos) {
                    answeredNanos = Math.max(answeredNanos, now);
                }
                clock.addSample(sent, now, reply.masterMicros()); // its own send time bounds the reading
            }
        } else if (received instanceof ClockMessage.Relayed relayed && seq > 0) {
            long sent = sentAt(seq);
            synchronized (live) { // the relay's master and epoch are this node's (the clock checks they are its own)
                if (sent != NOT_YET && relays && relayed.master() == master && relayed.epoch() == epoch) {
                    clock.addRelayedSample(relayed.master(), sent, now, relayed.loMicros(), relayed.hiMicros());
                }
            }
        }
    }

    /** The send time of request {@code seq}, or NOT_YET if it is not one of the last ones (its round trip is unknown). */
    private long sentAt(long seq) {
        synchronized (sentNanos) {
            int at = (int) (seq % REMEMBERED);
            return sentSequence[at] == seq ? sentNanos[at] : NOT_YET;
        }
    }

    /** The master answers with its time; another member that relays, with its interval of the master's time. */
    private void answer(int from, long seq) {
        ClockMessage reply;
        if (clock.isMaster()) {
            try {
                reply = new ClockMessage.Reply(seq, clock.masterMicros());
            } catch (IllegalStateException noLongerMaster) {
                return; // it handed over meanwhile: the requester asks again
            }
        } else {
            synchronized (live) {
                Marzullo.Interval known = relays && master != clock.node() && clock.masterNode() == master ? clock.interval() : null;
                if (known == null) {
                    return;
                }
                reply = new ClockMessage.Relayed(seq, master, epoch, known.lo(), known.hi());
            }
        }
        send(from, ClockMessage.encode(reply));
    }

    /** Stops the agent (the mailbox is its node's); idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            runner.close(TimeUnit.SECONDS.toMillis(5));
        }
    }
}
