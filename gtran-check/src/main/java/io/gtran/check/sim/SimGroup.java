package io.gtran.check.sim;

import io.gtran.txn.membership.MemberEntry;
import io.gtran.txn.membership.MembershipLog;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The membership group in the simulator, standing in for the Ratis group of a real cluster
 * (docs/simulation.md): what Raft promises, on the simulated network. One leader; an entry is
 * committed when the proposer's request reaches the leader and the leader runs with a majority of
 * the members (itself included) reachable both ways, running and not paused; a leader that has
 * no such majority is replaced by the lowest member that has one, and while none has, nothing is
 * committed. Each member applies the committed entries in order whenever the leader can reach it:
 * at each commit and every tick (a member cut off catches up after the heal).
 */
final class SimGroup {
    /** How long a proposal takes to reach the leader and be committed. */
    private static final long COMMIT_NANOS = 2_000_000;

    private final Simulation sim;
    private final SimNetwork network;
    private final List<MemberEntry> committed = new ArrayList<>();
    private final Log[] logs;
    private int leader;

    SimGroup(Simulation sim, SimNetwork network, int size) {
        this.sim = sim;
        this.network = network;
        this.logs = new Log[size];
        for (int n = 0; n < size; n++) {
            logs[n] = new Log(n);
        }
    }

    /** Node {@code node}'s part of the group. */
    MembershipLog logOf(int node) {
        return logs[node];
    }

    /** Every member catches up now and every tick from now on. */
    void start() {
        tick();
    }

    private void tick() {
        for (int n = 0; n < logs.length; n++) {
            catchUpLater(n);
        }
        sim.scheduler().at(sim.scheduler().now() + Simulation.ms(Simulation.TICK_MS), null, this::tick);
    }

    private boolean running(int node) {
        SimNode n = sim.nodes()[node];
        return !n.isCrashed() && n.pausedUntil() <= sim.scheduler().now();
    }

    private boolean linked(int a, int b) {
        return a == b ? running(a) : running(a) && running(b) && !network.cutBetween(a, b);
    }

    private boolean hasMajority(int node) {
        int count = 0;
        for (int n = 0; n < logs.length; n++) {
            if (linked(node, n)) {
                count++;
            }
        }
        return count > logs.length / 2;
    }

    /** Whether the group has a leader now, electing one if the current one lost its majority. */
    private boolean hasLeader() {
        if (hasMajority(leader)) {
            return true;
        }
        for (int n = 0; n < logs.length; n++) {
            if (hasMajority(n)) {
                leader = n;
                return true;
            }
        }
        return false;
    }

    private CompletableFuture<Void> propose(int from, MemberEntry entry) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        sim.scheduler().at(sim.scheduler().now() + COMMIT_NANOS, null, () -> {
            if (!hasLeader() || (from != leader && (!running(from) || network.link(from, leader).cut()))) {
                done.completeExceptionally(new IllegalStateException("no leader of the membership group reachable from node " + from));
                return;
            }
            committed.add(entry);
            done.complete(null);
            for (int n = 0; n < logs.length; n++) {
                catchUpLater(n);
            }
        });
        return done;
    }

    private void catchUpLater(int node) {
        SimNode target = sim.nodes()[node];
        sim.scheduler().at(sim.scheduler().now(), target, () -> {
            if (hasLeader() && (node == leader || !network.link(leader, node).cut())) {
                logs[node].catchUp();
            }
        });
    }

    /** One member's part: applies what was committed, in order. */
    private final class Log implements MembershipLog {
        private final int node;
        private Consumer<MemberEntry> applier;
        private int applied;

        Log(int node) {
            this.node = node;
        }

        @Override
        public void start(Consumer<MemberEntry> applier) {
            this.applier = applier;
        }

        void catchUp() {
            while (applier != null && applied < committed.size()) {
                applier.accept(committed.get(applied++));
            }
        }

        @Override
        public CompletableFuture<Void> propose(MemberEntry entry) {
            return SimGroup.this.propose(node, entry);
        }

        @Override
        public String describe() {
            return "simulated group: leader=" + leader + " committed=" + committed.size() + " applied=" + applied;
        }

        @Override
        public GroupState state() {
            return new GroupState(leader, 0, node == leader ? "leader" : "follower");
        }

        @Override
        public void close() {
        }
    }
}
