package io.gtran.txn.membership;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.PeerListener;
import io.gtran.txn.agent.Agent;
import io.gtran.txn.agent.TimeSource;
import io.gtran.txn.protocol.MemberMessage;
import io.gtran.txn.protocol.Wire;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node's view of its cluster's members (docs/cluster-transactions.md, "Members"): whom it
 * heard from lately (pings five times per lease), whether it hears from a majority, which members
 * it counts lost, each member's incarnation, the fences of re-admitted members, and the rejoin
 * handshake. It is the only subscriber to the fabric's peer loss: the commit layer, the GC
 * watermark and the clock are told by it ({@link #onLoss}, {@link #onRejoin}) or ask it.
 *
 * <p>Its messages travel on the node's one mailbox ({@code NodeMailbox}, one receive path): the
 * owner hands every message's sender to {@link #heard} and the membership messages to {@link
 * #onMessage}, and sends for it through a {@link Sender}. Its one loop, the heartbeat, is an
 * {@link Agent} ({@link #heartbeat}); time comes from the node's {@link TimeSource}.
 */
public final class MemberView {
    private static final Logger LOG = LoggerFactory.getLogger(MemberView.class);
    /** How the view sends: to node {@code to}'s mailbox; the future fails if it was not delivered. */
    @FunctionalInterface
    public interface Sender {
        CompletableFuture<Void> send(int to, byte[] payload);
    }

    /**
     * What the commit layer answers for the view: the locks and checks that order a loss against
     * a re-admission (see {@code CommitMessenger}).
     */
    public interface Commitments {
        /** Records a loss report of {@code peer} and runs {@code counted} under the lock a re-admission takes. */
        void reported(int peer, Runnable counted);

        /** Acts on {@code peer}'s loss once a majority allows (its rounds and parts are settled without it). */
        void lossReported(int peer);

        /**
         * Whether nothing this node holds waits for {@code peer} any more, or will once the
         * re-admission fences what {@code peer} began and never asked this node to validate. Changes nothing.
         */
        boolean settledWith(int peer);

        /**
         * Re-admits {@code peer} if {@code counted} (this view still counts it lost, read under the
         * lock every re-admission takes), settled with it, and not reported lost since
         * {@code heardAtNanos}, running {@code admitted}.
         */
        boolean readmit(int peer, long heardAtNanos, BooleanSupplier counted, Runnable admitted);

        /** {@code peer} restarted with a fresh store: nothing is owed to its old incarnation. */
        void forget(int peer);
    }

    /**
     * What the rejoin handshake hands the node's clock (docs/cluster-transactions.md, "Time"): a
     * member counted lost follows the master of the member that asks it back, and each side keeps
     * its later timestamps above the other's fence.
     */
    public interface RejoinClock {
        /** The clock master this node follows, sent in REJOIN and REJOIN_ACK with its epoch. */
        int master();

        long epoch();

        /**
         * {@code member} follows {@code master} in {@code epoch}: this node follows the newer of the two
         * (before its answer's fence is taken). Whether both now follow the same; until then neither re-admits the other.
         */
        boolean agree(int member, int master, long epoch);

        /** {@code member} is re-admitted; its fence bounds every timestamp of its timescale. Before its operations are taken. */
        void readmitted(int member, long fence);
    }

    private final int self;
    private final List<Integer> others;
    private final int size;
    private final long leaseNanos;
    private final long beatNanos;
    private final TimeSource time;
    private final Sender sender;
    private final Executor work;
    /** A bound on every timestamp of this node's timescale so far, its own begin times included ({@code Clock#fence}). */
    private final LongSupplier fence;
    /** What every member must agree on: the members and the lease (the majority rule relies on both). */
    private final String description;
    private volatile Commitments commitments;
    private volatile RejoinClock clock;
    /** This process's incarnation: random, never 0, sent in every ping (and the request field of rejoin messages). */
    private final long incarnation;
    private final Set<Integer> lost = ConcurrentHashMap.newKeySet();
    /** When each member was last heard from (the time source's nanos), by node id. */
    private final Map<Integer, Long> lastHeard = new ConcurrentHashMap<>();
    /** Members a message has come from since this node started. */
    private final Set<Integer> heard = ConcurrentHashMap.newKeySet();
    /** Members whose description differs from this node's: their operations are refused. */
    private final Set<Integer> foreign = ConcurrentHashMap.newKeySet();
    /** Answers to this node's HELLO: "" when the peer agrees, else how it differs. */
    private final Map<Integer, String> verdicts = new ConcurrentHashMap<>();
    /** The first incarnation heard from each member. */
    private final Map<Integer, Long> incarnations = new ConcurrentHashMap<>();
    /** Members heard with another incarnation than the first: restarted with a fresh store, out for good. */
    private final Set<Integer> restarted = ConcurrentHashMap.newKeySet();
    /**
     * Members heard with a new incarnation that restarted on its data, whose old process's loss the
     * commit layer has not acted on yet: until it has, they are not taken back (docs/durability.md,
     * "A member restarted alone", step 2).
     */
    private final Set<Integer> replacing = ConcurrentHashMap.newKeySet();
    /** Members whose loss the commit layer acted on and that are not re-admitted since. */
    private final Set<Integer> actedLost = ConcurrentHashMap.newKeySet();
    /** Whether this process restarted on the data of an earlier one of this node: said in every ping and HELLO. */
    private volatile boolean restored;
    /** Members that told this node its incarnation is out (it is the restarted one). */
    private final Set<Integer> excludedBy = ConcurrentHashMap.newKeySet();
    /** When each member now counted lost was counted lost. */
    private final Map<Integer, Long> lostAt = new ConcurrentHashMap<>();
    /**
     * Per re-admitted member, its fence: operations and forwards of its transactions that begun at
     * or below it start no part here (they may have had one that was settled without them).
     */
    private final Map<Integer, Long> fences = new ConcurrentHashMap<>();
    private final List<PeerListener> lossListeners = new CopyOnWriteArrayList<>();
    private final List<IntConsumer> actedListeners = new CopyOnWriteArrayList<>();
    private final List<IntConsumer> rejoinListeners = new CopyOnWriteArrayList<>();
    /** Set while an {@link #askToRejoin} runs on the work pool: one at a time. */
    private final AtomicBoolean asking = new AtomicBoolean();
    private volatile boolean closed;

    /**
     * A view of {@code others} (every member but node {@code self}); each member gets a grace of
     * one lease from now before it counts as not heard. Its owner subscribes it, and nothing else,
     * to the fabric's peer loss ({@link #peerLost}).
     *
     * @param description what the members must agree on; a member whose differs is refused
     * @param work        runs the rejoin handshake's checks, which may wait for a part's record
     */
    public MemberView(int self, List<Integer> others, long leaseMillis, String description, TimeSource time,
            Sender sender, Executor work, LongSupplier fence) {
        this.self = self;
        this.others = List.copyOf(others);
        this.size = others.size() + 1;
        this.leaseNanos = TimeUnit.MILLISECONDS.toNanos(leaseMillis);
        this.beatNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(1, leaseMillis / 5));
        this.description = description;
        this.time = time;
        this.sender = sender;
        this.work = work;
        this.fence = fence;
        long drawn;
        do {
            drawn = new SecureRandom().nextLong();
        } while (drawn == 0);
        this.incarnation = drawn;
        long now = time.nanos();
        for (int other : others) {
            lastHeard.put(other, now); // a grace of one lease at start
        }
    }

    /** Connects the commit layer; until then a loss is only counted here. */
    public void attach(Commitments commitments) {
        this.commitments = commitments;
    }

    /** Connects the node's clock to the rejoin handshake; until then a rejoin leaves it alone. */
    public void attach(RejoinClock clock) {
        this.clock = clock;
    }

    /** Tells {@code listener} each loss the fabric reports (on a transport thread; it must not block). */
    public void onLoss(PeerListener listener) {
        lossListeners.add(listener);
    }

    /**
     * Tells {@code listener} each member whose loss the commit layer acts on (it has a majority and
     * the loss delay is over; see {@link #actedOn}): what a role that must not change on one side of a
     * cut alone, such as the clock master, waits for.
     */
    public void onLossActedOn(IntConsumer listener) {
        actedListeners.add(listener);
    }

    /** The commit layer acts on {@code peer}'s loss (its owner wires this to the commit messenger). */
    public void actedOn(int peer) {
        actedLost.add(peer);
        replacing.remove(peer);
        for (IntConsumer listener : actedListeners) {
            listener.accept(peer);
        }
    }

    /** Tells {@code listener} the id of each member re-admitted (on a receive thread; it must not block). */
    public void onRejoin(IntConsumer listener) {
        rejoinListeners.add(listener);
    }

    /** This process's incarnation. */
    public long incarnation() {
        return incarnation;
    }

    // ------------------------------------------------------------------ questions

    /** Whether this node counts {@code member} lost. */
    public boolean isLost(int member) {
        return lost.contains(member);
    }

    /**
     * Whether {@code member} restarted on its data (a new incarnation) and its old process's loss is
     * not acted on yet: the membership group is asked to count it lost although it is heard.
     */
    public boolean isReplaced(int member) {
        return replacing.contains(member);
    }

    /**
     * This process restarted on the data of an earlier process of this node (docs/durability.md,
     * "A member restarted alone", step 1): it says so in every ping and HELLO, and counts every
     * other member lost, without proposing their losses, until the rejoin handshake re-admits each
     * (their fences then refuse every transaction they began before, which may have reached the old
     * process). Call before the heartbeat starts.
     */
    public void restartedOnData() {
        restored = true;
        long now = time.nanos();
        for (int other : others) {
            lostAt.put(other, now);
            lost.add(other);
        }
        LOG.warn("node {}: restarted on its data; members {} are taken back through the rejoin handshake", self, others);
    }

    /** Whether {@code member}'s cluster description differs from this node's (its operations are refused). */
    public boolean isForeign(int member) {
        return foreign.contains(member);
    }

    /**
     * Whether this node has heard from a majority of the members (itself included) within the
     * lease: only then does it act on a peer's loss.
     */
    public boolean hasMajority() {
        long now = time.nanos();
        int count = 1;
        for (int other : others) {
            Long at = lastHeard.get(other);
            if (at != null && now - at < leaseNanos && !lost.contains(other)) {
                count++;
            }
        }
        return count > size / 2;
    }

    /** Whether a message of {@code member} arrived within the lease (counted lost or not). */
    public boolean heardLately(int member) {
        Long at = lastHeard.get(member);
        return heard.contains(member) && at != null && time.nanos() - at < leaseNanos;
    }

    /** The other members this node has heard from within the lease (and at all since it started), not lost. */
    public Set<Integer> inContact() {
        long now = time.nanos();
        Set<Integer> contact = new TreeSet<>();
        for (int other : others) {
            Long at = lastHeard.get(other);
            if (heard.contains(other) && at != null && now - at < leaseNanos && !lost.contains(other)) {
                contact.add(other);
            }
        }
        return contact;
    }

    /** Why a transaction of {@code coordinator} begun at {@code beginTime} may start no part here, or null. */
    public String fenced(int coordinator, long beginTime) {
        Long fenceOf = fences.get(coordinator);
        if (fenceOf != null && beginTime <= fenceOf) {
            return "node " + self + " counted node " + coordinator + " lost after this transaction began, and may have settled"
                    + " its part here without it: it takes no operation of it (begin time " + beginTime + " <= fence " + fenceOf + ")";
        }
        return null;
    }

    // ------------------------------------------------------------------ the heartbeat

    /**
     * The heartbeat: every fifth of a lease it sends every other member a ping (with this node's
     * incarnation), so each knows whom it hears from, and REJOIN to each member counted lost that
     * may be taken back.
     */
    public Agent heartbeat() {
        byte[] ping = MemberMessage.encode(new MemberMessage.Ping(incarnation, restored));
        return new Agent() {
            @Override
            public long doWork(long nowNanos) {
                for (int other : others) {
                    send(other, ping);
                }
                if (!lost.isEmpty() && asking.compareAndSet(false, true)) {
                    askToRejoinOffThisThread();
                }
                return nowNanos + beatNanos;
            }

            @Override
            public String roleName() {
                return "heartbeat-" + self;
            }
        };
    }

    /** Off the heartbeat's thread: the settled check may wait for a part's record while it validates. */
    private void askToRejoinOffThisThread() {
        try {
            work.execute(() -> {
                try {
                    askToRejoin();
                } catch (RuntimeException e) {
                    if (!closed) {
                        LOG.warn("node={} could not ask to rejoin", self, e);
                    }
                } finally {
                    asking.set(false);
                }
            });
        } catch (RejectedExecutionException closing) {
            asking.set(false);
        }
    }

    // ------------------------------------------------------------------ messages

    /** Handles the membership message {@code payload} of {@code from}, arrived at {@code nowNanos}; malformed, it is dropped. */
    public void onMessage(int from, byte[] payload, long nowNanos) {
        MemberMessage message;
        try {
            message = MemberMessage.decode(payload);
        } catch (IllegalArgumentException e) {
            LOG.warn("node={} ignored a message from node {}: {}", self, from, e.getMessage());
            return;
        }
        onMessage(from, message, nowNanos);
    }

    /** Notes that a message of {@code from} arrived at {@code nowNanos}. */
    public void heard(int from, long nowNanos) {
        lastHeard.merge(from, nowNanos, (was, now) -> now - was > 0 ? now : was); // told from several threads
        heard.add(from);
    }

    /** Handles membership message {@code message} of {@code from}, arrived at {@code nowNanos}. */
    public void onMessage(int from, MemberMessage message, long nowNanos) {
        if (message instanceof MemberMessage.Ping m) {
            pinged(from, m.incarnation(), m.restored());
        } else if (message instanceof MemberMessage.Handshake m) {
            work.execute(() -> rejoin(from, m, nowNanos)); // the settled check may wait
        } else if (message instanceof MemberMessage.Excluded m) {
            excluded(from, m.yours());
        } else if (message instanceof MemberMessage.Hello m) {
            pinged(from, m.incarnation(), m.restored());
            hello(from, m.description());
        } else if (message instanceof MemberMessage.HelloAck m) {
            pinged(from, m.incarnation(), m.restored());
            verdicts.put(from, m.verdict());
        }
    }

    private void send(int to, byte[] payload) {
        sender.send(to, payload); // a lost message shows as a missing answer or ping
    }

    // ------------------------------------------------------------------ joining

    /**
     * Compares this node's cluster description with every member that is up: each is sent HELLO
     * and answers whether its own differs. Waits for the answers of the members whose HELLO could
     * be delivered (a member not started yet compares when it starts), at most {@code timeoutMillis}.
     *
     * @throws IllegalStateException naming the member and both descriptions if one differs
     */
    public void join(long timeoutMillis, String keys) {
        byte[] hello = MemberMessage.encode(new MemberMessage.Hello(incarnation, description, restored));
        Map<Integer, CompletableFuture<Void>> sent = new TreeMap<>();
        for (int other : others) {
            try {
                sent.put(other, sender.send(other, hello));
            } catch (RuntimeException notUp) {
                // not started yet: it compares when it does
            }
        }
        long deadline = time.nanos() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        for (Map.Entry<Integer, CompletableFuture<Void>> e : sent.entrySet()) {
            int other = e.getKey();
            while (!verdicts.containsKey(other) && !e.getValue().isCompletedExceptionally() && time.nanos() < deadline) {
                LockSupport.parkNanos(200_000); // real time: the answer comes from another node
            }
            String verdict = verdicts.get(other);
            if (verdict != null && !verdict.isEmpty()) {
                throw new IllegalStateException("node " + self + " cannot join: node " + other + " describes the cluster"
                        + " differently (" + verdict + "); start every node with the same " + keys);
            }
        }
    }

    private void hello(int from, String theirs) {
        String verdict = theirs.equals(description) ? "" : "node " + from + ": " + theirs + "; node " + self + ": " + description;
        if (verdict.isEmpty()) {
            foreign.remove(from); // a node started again, this time as described
        } else {
            foreign.add(from);
            LOG.error("node={} refuses node {}: its cluster description differs ({})", self, from, verdict);
        }
        send(from, MemberMessage.encode(new MemberMessage.HelloAck(incarnation, verdict, restored)));
    }

    // ------------------------------------------------------------------ losing and rejoining

    /**
     * The fabric reports {@code peer} lost (the view's owner subscribes this to {@link
     * Fabric#onPeerLost}): count it, and tell the commit layer and the listeners.
     */
    public void peerLost(int peer, String reason) {
        countLost(peer);
        Commitments c = commitments;
        if (c != null) {
            c.lossReported(peer);
        }
        for (PeerListener listener : lossListeners) {
            listener.peerLost(peer, reason);
        }
    }

    private void countLost(int peer) {
        Runnable count = () -> {
            // A member lost before this node heard its incarnation can never be told from a restart of it:
            // 0, which no incarnation is, makes every incarnation heard later a restart.
            incarnations.putIfAbsent(peer, 0L);
            lostAt.putIfAbsent(peer, time.nanos());
            lost.add(peer);
        };
        Commitments c = commitments;
        if (c == null) {
            count.run(); // reported while the node was being built
        } else {
            c.reported(peer, count); // ordered against re-admissions: one that runs after sees this report
        }
    }

    /**
     * Notes the incarnation a ping or HELLO of {@code from} carried; another than the one known means
     * it restarted: on its data ({@code restoredThere}), a loss it comes back from; else out for good.
     */
    private void pinged(int from, long theirs, boolean restoredThere) {
        Long first = incarnations.putIfAbsent(from, theirs);
        if (first != null && first != theirs && !restarted.contains(from)) {
            if (restoredThere) {
                replaced(from, first, theirs);
            } else if (restarted.add(from)) {
                LOG.warn("node {}: member {} restarted (incarnation {} after {}): its store is new, so it stays out;"
                        + " restart the cluster to take it back", self, from, Long.toHexString(theirs), Long.toHexString(first));
                countLost(from);
                Commitments c = commitments;
                if (c != null) {
                    c.forget(from);
                }
            }
        }
        if (restarted.contains(from)) {
            send(from, MemberMessage.encode(new MemberMessage.Excluded(incarnation, theirs)));
        }
    }

    /**
     * {@code from} restarted on its data as {@code theirs} (docs/durability.md, "A member restarted
     * alone", step 2): its old process is gone, so it is counted lost (the commit layer acts on that
     * through the group as on any loss), nothing owed to it is dropped, and the new process is
     * taken back through the handshake once that loss is acted on and this node is settled with it.
     */
    private void replaced(int from, long known, long theirs) {
        synchronized (replacing) { // two pings of the new process at once: one loss
            if (!incarnations.replace(from, known, theirs)) {
                return;
            }
            if (!actedLost.contains(from)) {
                replacing.add(from); // before the report: the commit layer may act on it at once
            }
        }
        LOG.warn("node {}: member {} restarted on its data (incarnation {} after {}): counted lost until it rejoins", self,
                from, Long.toHexString(theirs), Long.toHexString(known));
        peerLost(from, "restarted on its data: its earlier process is gone");
    }

    /** REJOIN to each member counted lost, heard again lately with its known incarnation, with which this node is settled. */
    private void askToRejoin() {
        Commitments c = commitments;
        long now = time.nanos();
        for (int other : lost) {
            Long theirs = incarnations.get(other);
            Long at = lastHeard.get(other);
            Long since = lostAt.get(other);
            if (theirs == null || at == null || now - at >= leaseNanos || (since != null && at - since <= 0)
                    || restarted.contains(other) || excludedBy.contains(other) || replacing.contains(other)) {
                // not heard since it was counted lost (or not lately), or another process: nothing to ask
                continue;
            }
            if (c != null && c.settledWith(other)) {
                send(other, rejoinMessage(false, theirs));
            }
        }
    }

    private byte[] rejoinMessage(boolean answer, long theirs) {
        RejoinClock c = clock;
        long fenceNow = fence.getAsLong();
        int master = c == null ? -1 : c.master();
        long epoch = c == null ? 0 : c.epoch();
        return MemberMessage.encode(answer ? new MemberMessage.RejoinAck(incarnation, theirs, fenceNow, master, epoch)
                : new MemberMessage.Rejoin(incarnation, theirs, fenceNow, master, epoch));
    }

    /** REJOIN or REJOIN_ACK from {@code from}, whose sender knows this node as {@code m.yours()}. */
    private void rejoin(int from, MemberMessage.Handshake m, long heardAt) {
        long theirs = m.incarnation();
        if (m.yours() != incarnation || restarted.contains(from) || !Long.valueOf(theirs).equals(incarnations.get(from))) {
            return; // not between these two processes: a restarted member, or a message for this node's predecessor
        }
        if (replacing.contains(from)) {
            return; // its old process's loss is not acted on yet: it asks again
        }
        // Both clocks follow one master before either side re-admits the other: the fence each sends
        // is then taken on the timescale they share (docs/cluster-transactions.md, "Time").
        RejoinClock c = clock;
        boolean agreed = c == null || m.master() < 0 || c.agree(from, m.master(), m.epoch());
        if (m instanceof MemberMessage.RejoinAck) {
            if (agreed && lost.contains(from)) {
                readmit(from, m.fence(), heardAt);
            }
            return;
        }
        if (agreed && lost.contains(from) && !readmit(from, m.fence(), heardAt)) {
            return; // not settled with it yet: it asks again
        }
        send(from, rejoinMessage(true, theirs)); // disagreeing, it carries the newer master for the asker to follow
    }

    private boolean readmit(int peer, long theirFence, long heardAt) {
        Commitments c = commitments;
        // A repeated REJOIN or REJOIN_ACK handled concurrently finds it re-admitted already, before the
        // re-admission fences anything: the member's new transactions are left alone.
        return c != null && c.readmit(peer, heardAt, () -> lost.contains(peer), () -> {
            fences.merge(peer, theirFence, Math::max); // before it leaves the lost set: no old operation slips in
            RejoinClock rc = clock;
            if (rc != null) {
                rc.readmitted(peer, theirFence); // before it leaves the lost set: its operations meet a lifted clock
            }
            actedLost.remove(peer);
            lost.remove(peer); // under the lock a loss report takes: still there since counted, checked under it
            Long since = lostAt.remove(peer);
            long millis = since == null ? 0 : TimeUnit.NANOSECONDS.toMillis(time.nanos() - since);
            LOG.warn("node {}: member {} rejoined after {} ms lost", self, peer, millis);
            for (IntConsumer listener : rejoinListeners) {
                listener.accept(peer);
            }
        });
    }

    /** A member told this node that its incarnation is out: it restarted, and the member counts it lost for good. */
    private void excluded(int from, long mine) {
        if (mine == incarnation && excludedBy.add(from)) {
            LOG.error("node {}: member {} excludes this process: it counted an earlier process under id {} lost, and this"
                    + " one's store is new; restart the cluster to take this node back", self, from, self);
            countLost(from);
        }
    }

    /** Stops asking to rejoin; the heartbeat's runner is its owner's to close. */
    public void close() {
        closed = true;
    }
}
