package io.gtran.txn.membership;

import io.gtran.txn.agent.Agent;
import io.gtran.txn.protocol.Outcome;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Losses and returns decided by the membership group's log (docs/cluster-transactions.md,
 * "Membership decided by consensus"). A node's failure detector only proposes: when its fabric
 * reports a peer lost, the commit layer asks {@link #mayActOnLossOf}, which proposes {@code
 * Lost(peer)} and answers yes once that entry is applied here, and never while the log counts
 * this node itself lost. Every member acts on an applied loss, whether its own detector saw it
 * or not ({@link MemberView#peerLost}). A member that the log counts lost but this node's view
 * re-admitted (the rejoin handshake) is proposed {@code Back} by this node's {@link #agent}.
 *
 * <p>Entries are applied on the log's one thread; the ledger and the view's counting of an
 * applied loss happen under this object's lock, which the agent takes to read them together.
 */
public final class MemberGroup implements LossQuorum {
    private static final Logger LOG = LoggerFactory.getLogger(MemberGroup.class);

    private final int self;
    private final MemberView view;
    private final MembershipLog log;
    private final long beatNanos;
    /** Guarded by this. */
    private final MemberLedger ledger;
    /** Proposals under way, so that each is made once until it commits or fails. */
    private final Map<MemberEntry, CompletableFuture<Void>> proposing = new ConcurrentHashMap<>();
    private volatile boolean closed;
    /** Set while a lease proposal is under way. */
    private final AtomicBoolean leasing = new AtomicBoolean();
    private volatile OutcomeListener outcomes = (txn, outcome) -> { };
    /** Guarded by this. */
    private MasterListener masters = new MasterListener() {
        @Override
        public void changed(Mastership now) {
        }

        @Override
        public void leased(Mastership now) {
        }
    };

    /** The clock master as the log has it: who, in which epoch, its lease end and the earlier masters' (MIN_VALUE: none). */
    public record Mastership(int master, long epoch, long leaseEnd, long handover) {
    }

    /**
     * Where the node's clock hears the clock master the log decides (docs/cluster-transactions.md,
     * "Time"), on the log's thread, in log order, under the group's lock: it must not block or call
     * back into the group.
     */
    public interface MasterListener {
        /** The master changed (or, once at registration, the master as applied so far). */
        void changed(Mastership now);

        /** The master's lease was extended. */
        void leased(Mastership now);
    }

    /**
     * The group of {@code members} as node {@code view}'s owner sees it through {@code log}; the
     * agent looks every fifth of {@code leaseMillis} for members to propose back.
     */
    public MemberGroup(MemberView view, int self, List<Integer> members, MembershipLog log, long leaseMillis) {
        this.self = self;
        this.view = view;
        this.log = log;
        this.ledger = new MemberLedger(members);
        this.beatNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(1, leaseMillis / 5));
    }

    /** Starts applying the log's entries (before the node takes messages: an entry may count a member lost). */
    public void start() {
        log.start(this::apply);
    }

    @Override
    public boolean mayActOnLossOf(int peer) {
        MemberEntry lost;
        synchronized (this) {
            if (ledger.isLost(self)) {
                return false; // this node is out: it decides nothing until it is back
            }
            if (ledger.isLost(peer)) {
                return true;
            }
            lost = new MemberEntry.Lost(peer, ledger.generation(peer), self, ledger.generation(self));
        }
        if (!view.heardLately(peer) || view.isReplaced(peer)) {
            // Heard again: the cut healed before the group decided, and the rejoin handshake takes it back;
            // unless what is heard is a new process of that member (restarted on its data): the old one is gone.
            propose(lost);
        }
        return false;
    }

    @Override
    public boolean ordered() {
        return true;
    }

    @Override
    public void onOutcome(OutcomeListener listener) {
        this.outcomes = listener;
    }

    /** Proposes {@code txn}'s outcome to the log; the listener of {@link #onOutcome} hears the first one applied. */
    @Override
    public void proposeOutcome(long txn, Outcome outcome, OutcomeListener here) {
        Outcome decided;
        synchronized (this) {
            decided = ledger.outcome(txn);
        }
        if (decided != null) {
            here.decided(txn, decided); // applied already: asked again by a round that missed it
            return;
        }
        propose(new MemberEntry.Decided(txn, outcome));
    }

    /**
     * Registers the one listener of clock master changes and leases, and tells it the master as
     * applied so far ({@link MasterListener#changed}, then {@link MasterListener#leased} if leased).
     */
    public synchronized void onMaster(MasterListener listener) {
        this.masters = listener;
        Mastership now = mastership();
        listener.changed(now);
        if (now.leaseEnd() != Long.MIN_VALUE) {
            listener.leased(now);
        }
    }

    /** The clock master as applied here so far. */
    public synchronized Mastership mastership() {
        return new Mastership(ledger.master(), ledger.epoch(), ledger.leaseEnd(), ledger.handover());
    }

    /**
     * Proposes that this node, master in {@code epoch}, may issue timestamps below {@code untilMicros};
     * nothing while an earlier lease proposal is under way (a renewal queued behind a stalled one
     * would only be staler).
     */
    public void proposeLease(long epoch, long untilMicros) {
        if (leasing.compareAndSet(false, true)) {
            CompletableFuture<Void> sent = propose(new MemberEntry.Lease(self, epoch, untilMicros));
            if (sent == null) {
                leasing.set(false);
            } else {
                sent.whenComplete((ok, failed) -> leasing.set(false));
            }
        }
    }

    /** Whether the log counts {@code node} lost (as applied here so far). */
    public synchronized boolean countsLost(int node) {
        return ledger.isLost(node);
    }

    /** The members the log counts lost (as applied here so far), ascending. */
    public synchronized java.util.Set<Integer> lost() {
        return ledger.lost();
    }

    /** The group's leader, term and this member's role. */
    public MembershipLog.GroupState state() {
        return log.state();
    }

    /** Proposes {@code entry} unless the same is under way; the proposal's future, or null if none was made. */
    private CompletableFuture<Void> propose(MemberEntry entry) {
        if (closed) {
            return null;
        }
        CompletableFuture<Void> mine = new CompletableFuture<>();
        if (proposing.putIfAbsent(entry, mine) != null) {
            return null; // under way
        }
        return log.propose(entry).whenComplete((ok, failed) -> {
            proposing.remove(entry, mine);
            if (failed != null && !closed) {
                LOG.warn("node={} could not get {} committed (asks again): {}", self, entry, failed.getMessage());
            }
        });
    }

    /** An entry committed by the group, in log order. */
    private void apply(MemberEntry entry) {
        if (entry instanceof MemberEntry.Decided d) {
            boolean first;
            synchronized (this) {
                first = ledger.apply(entry);
            }
            if (first) {
                outcomes.decided(d.txn(), d.outcome()); // on every member, counted lost or not: it settles its rounds too
            }
            return;
        }
        if (entry instanceof MemberEntry.Lease) {
            synchronized (this) {
                if (ledger.apply(entry)) {
                    masters.leased(mastership());
                }
            }
            return;
        }
        MemberEntry.Change change = (MemberEntry.Change) entry;
        synchronized (this) {
            long epoch = ledger.epoch();
            if (!ledger.apply(entry)) {
                return; // what it assumed no longer holds: a late, repeated or stale proposal
            }
            boolean selfLost = ledger.isLost(self);
            if (change instanceof MemberEntry.Lost) {
                LOG.warn("node={} membership: node {} counted lost (proposed by node {}){}", self, change.node(), change.by(),
                        change.node() == self ? ": this node decides nothing until it is back" : "");
                if (!selfLost) {
                    countLost(change.node(), change.by());
                }
                if (ledger.epoch() != epoch) {
                    LOG.warn("node={} membership: node {} is the clock master of epoch {}", self, ledger.master(), ledger.epoch());
                    masters.changed(mastership());
                }
            } else {
                LOG.warn("node={} membership: node {} back (re-admitted by node {})", self, change.node(), change.by());
                if (change.node() == self) {
                    for (int other : ledger.lost()) {
                        countLost(other, -1); // decided while this node was out: it acts on them now
                    }
                }
            }
        }
    }

    /** Under this lock: the view counts {@code node} lost, so the commit layer acts on it. */
    private void countLost(int node, int by) {
        if (!view.isLost(node)) {
            view.peerLost(node, by < 0 ? "the membership group counts it lost"
                    : "the membership group counted it lost (proposed by node " + by + ")");
        }
    }

    /**
     * Every fifth of a lease: proposes {@code Back(n)} for each member the log counts lost and this
     * node's view does not (the rejoin handshake re-admitted it here).
     */
    public Agent agent() {
        return new Agent() {
            @Override
            public long doWork(long nowNanos) {
                proposeReadmitted();
                return nowNanos + beatNanos;
            }

            @Override
            public String roleName() {
                return "member-group-" + self;
            }
        };
    }

    private void proposeReadmitted() {
        List<MemberEntry> backs = new java.util.ArrayList<>();
        synchronized (this) {
            if (ledger.isLost(self)) {
                return;
            }
            for (int node : ledger.lost()) {
                if (!view.isLost(node)) {
                    backs.add(new MemberEntry.Back(node, ledger.generation(node), self, ledger.generation(self)));
                }
            }
        }
        backs.forEach(this::propose);
    }

    @Override
    public String toString() {
        return "the membership group has not counted it lost";
    }

    /** Stops proposing; the log is its owner's to close. */
    public void close() {
        closed = true;
    }
}
