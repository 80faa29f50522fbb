package io.gtran.check.sim;

import io.gtran.txn.clock.Marzullo;
import io.gtran.txn.clock.SyncedClock;
import io.gtran.txn.commit.CommitMessenger;
import io.gtran.txn.common.TxnWords;
import io.gtran.txn.protocol.Outcome;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * A simulated node's client: one transaction at a time from this node (its coordinator), a bank
 * transfer between two accounts or appends to one to three lists, anywhere in the cluster. The
 * writes run at their owners (the coordinator's own part first), then the node's real {@link
 * CommitMessenger} commits; what the client is told goes to the {@link Ledger}.
 */
final class Client {
    /** How long the client waits for its writes' answers before it aborts. */
    private static final long WRITE_TIMEOUT_NANOS = TimeUnit.MILLISECONDS.toNanos(400);
    private static final long RESEND_NANOS = TimeUnit.MILLISECONDS.toNanos(30);
    /** How long the client waits for the commit's outcome before it is told the outcome is unknown. */
    private static final long COMMIT_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(2);
    /** How long a client waits for its node's clock to give a begin time (gtran.clock.wait-limit-ms, shorter). */
    private static final long CLOCK_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    /** Status slots per node: the real engine's are 4,096; few here, so that they are reused often. */
    private static final int SLOTS = 4;

    private final SimNode node;
    private final Scheduler scheduler;
    /**
     * The slots free for a new transaction, taken last-in first-out as the status table does; a
     * slot is freed only when the real engine frees its entry (the round acknowledged, or the
     * abort's DECIDE), since participants rely on it (docs/cluster-transactions.md, "Forgetting a
     * decided part").
     */
    private final ArrayDeque<Integer> freeSlots = new ArrayDeque<>();
    private final int[] sequences = new int[SLOTS];
    private Pending current;

    Client(SimNode node) {
        this.node = node;
        this.scheduler = node.sim().scheduler();
        for (int slot = 0; slot < SLOTS; slot++) {
            freeSlots.addLast(slot);
        }
    }

    /** Whether a transaction of this client waits for its outcome. */
    boolean busy() {
        return current != null;
    }

    /** Begins the next transaction a little later, while the workload runs. */
    void next() {
        current = null;
        if (!node.sim().workloadRunning()) {
            return;
        }
        long pause = TimeUnit.MILLISECONDS.toNanos(1 + node.random().nextInt(20));
        scheduler.at(scheduler.now() + pause, node, this::begin);
    }

    /**
     * Takes a begin time from the node's real clock as {@code SyncedClock.next} does, its two halves
     * apart: reserved now, handed out once the clock's uncertainty has passed it, the wait being the
     * simulator's. A clock that gives none within {@link #CLOCK_WAIT_NANOS} (no reading of the
     * master, no lease: cut off with a minority) begins nothing, as a real begin fails with
     * {@code ClockUnavailableException}.
     */
    private void begin() {
        long asked = scheduler.now();
        reserve(asked, asked + CLOCK_WAIT_NANOS);
    }

    private void reserve(long asked, long deadline) {
        SyncedClock.Reservation taken = node.clock().reserve();
        if (taken != null) {
            awaitPassed(taken, asked, deadline);
        } else if (scheduler.now() - deadline >= 0) {
            next();
        } else {
            scheduler.at(scheduler.now() + TimeUnit.MILLISECONDS.toNanos(1), node, () -> reserve(asked, deadline));
        }
    }

    private void awaitPassed(SyncedClock.Reservation taken, long asked, long deadline) {
        SyncedClock clock = node.clock();
        if (clock.passed(taken)) {
            long beginTime = clock.timestamp(taken.micros());
            node.sim().timestamps().handed(asked, scheduler.now(), node.id(), beginTime);
            start(beginTime);
            return;
        }
        if (scheduler.now() - deadline >= 0) {
            next();
            return;
        }
        Marzullo.Interval now = clock.interval();
        long waitMicros = now == null ? 1000 : Math.min(1000, Math.max(1, taken.micros() + 1 - now.lo()));
        scheduler.at(scheduler.now() + waitMicros * 1000, node, () -> awaitPassed(taken, asked, deadline));
    }

    private void start(long beginTime) {
        Integer slot = freeSlots.pollLast();
        if (slot == null) {
            next(); // every slot waits for acknowledgements: try again a little later
            return;
        }
        long txn = TxnWords.txnId(node.id(), slot, ++sequences[slot]);
        List<Ledger.Write> writes = node.sim().workload(node.random());
        Ledger.Txn record = node.sim().ledger().begin(txn, node.id(), writes);
        Map<Integer, List<Ledger.Write>> byOwner = new TreeMap<>();
        for (Ledger.Write write : writes) {
            byOwner.computeIfAbsent(node.sim().ledger().owner(write.key()), k -> new ArrayList<>()).add(write);
        }
        List<Ledger.Write> own = byOwner.remove(node.id());
        if (own != null && !node.shard().execute(txn, own)) {
            record.told = "ABORT"; // a lock of its own is taken: nothing ran anywhere
            freeSlots.addLast(slot);
            next();
            return;
        }
        if (byOwner.isEmpty()) {
            node.applyOwnPart(txn, Outcome.COMMIT);
            record.told = "COMMIT";
            freeSlots.addLast(slot);
            next();
            return;
        }
        current = new Pending(txn, record, byOwner, beginTime);
        node.await(txn, current);
        current.send();
    }

    /** A transaction whose writes at other nodes wait for their answers. */
    final class Pending {
        private final long txn;
        private final Ledger.Txn record;
        private final Map<Integer, List<Ledger.Write>> remote;
        private final long beginTime;
        private final long deadline;
        private final Set<Integer> answered = new TreeSet<>();
        private boolean done;

        Pending(long txn, Ledger.Txn record, Map<Integer, List<Ledger.Write>> remote, long beginTime) {
            this.txn = txn;
            this.record = record;
            this.remote = remote;
            this.beginTime = beginTime;
            this.deadline = node.time().nanos() + WRITE_TIMEOUT_NANOS;
        }

        /** Sends the writes not answered yet, and again after a while until answered or out of time. */
        void send() {
            if (done) {
                return;
            }
            if (node.time().nanos() - deadline > 0) {
                abort();
                return;
            }
            remote.forEach((owner, writes) -> {
                if (!answered.contains(owner)) {
                    node.sendWrites(owner, txn, beginTime, writes);
                }
            });
            scheduler.at(scheduler.now() + RESEND_NANOS, node, this::send);
        }

        void answered(int from, boolean ok, String refusal) {
            if (done || !remote.containsKey(from)) {
                return;
            }
            if (!ok) {
                abort();
                return;
            }
            answered.add(from);
            if (answered.size() == remote.size()) {
                commit();
            }
        }

        private int[] participants() {
            return remote.keySet().stream().mapToInt(Integer::intValue).toArray();
        }

        private void commit() {
            done = true;
            node.stopAwaiting(txn);
            int[] participants = participants();
            CommitMessenger messenger = node.messenger();
            messenger.commit(txn, node.sim().nextTimestamp(), participants).whenComplete((outcome, failure) -> {
                if (failure != null) {
                    node.sim().ledger().violation("node " + node.id() + " commit of " + Long.toHexString(txn) + " failed: " + failure);
                    return;
                }
                node.applyOwnPart(txn, outcome);
                if (record.told == null) {
                    record.told = outcome.name();
                    next();
                }
            });
            messenger.acknowledged(txn).thenRun(() -> {
                appliedBeforeAcknowledged(participants);
                freeSlots.addLast(TxnWords.slot(txn));
            });
            scheduler.at(scheduler.now() + COMMIT_TIMEOUT_NANOS, node, () -> {
                if (record.told == null) {
                    record.told = "UNKNOWN"; // the client gives up waiting; the outcome comes later
                    next();
                }
            });
        }

        /** A coordinator forgets a round once every participant it does not count lost acknowledged: each must have applied. */
        private void appliedBeforeAcknowledged(int[] participants) {
            for (int p : participants) {
                if (!node.messenger().countsLost(p) && !record.applied.containsKey(p)) {
                    node.sim().ledger().violation("node " + node.id() + " finished " + Long.toHexString(txn)
                            + " on an acknowledgement of node " + p + ", which had not applied the decision");
                }
            }
        }

        private void abort() {
            done = true;
            node.stopAwaiting(txn);
            // Half the aborts (odd slots) go as a read-only release does, their DECIDEs and ACKs in
            // bundles (docs/cluster-transactions.md, "Bundles"): the same decisions, sent later.
            CommitMessenger messenger = node.messenger();
            int slot = TxnWords.slot(txn);
            int[] participants = participants();
            (slot % 2 == 1 ? messenger.release(txn, participants) : messenger.abort(txn, participants))
                    .thenRun(() -> {
                        appliedBeforeAcknowledged(participants);
                        freeSlots.addLast(slot);
                    });
            node.applyOwnPart(txn, Outcome.ABORT);
            record.told = "ABORT";
            next();
        }
    }
}
