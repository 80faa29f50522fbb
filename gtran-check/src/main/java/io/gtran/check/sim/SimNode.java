package io.gtran.check.sim;

import io.gtran.rdma.Message;
import io.gtran.txn.LeasedClockMaster;
import io.gtran.txn.MajorityClockMaster;
import io.gtran.txn.agent.TimeSource;
import io.gtran.txn.clock.ClockSync;
import io.gtran.txn.clock.SyncedClock;
import io.gtran.txn.commit.CommitMessenger;
import io.gtran.txn.common.TxnWords;
import io.gtran.txn.membership.HeardMajority;
import io.gtran.txn.membership.LossQuorum;
import io.gtran.txn.membership.MemberGroup;
import io.gtran.txn.membership.MemberView;
import io.gtran.txn.protocol.Family;
import io.gtran.txn.protocol.NodeMailbox;
import io.gtran.txn.protocol.Outcome;
import io.gtran.txn.protocol.Wire;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * One simulated node: the real {@link NodeMailbox} (the node's one receive path), {@link
 * MemberView}, {@link CommitMessenger} (with its coordinator rounds, participant records and
 * recovery) and clock ({@link SyncedClock} kept by a {@link ClockSync}, its master named by the
 * group's log with a lease, or by the rule before the group) on a {@link SimFabric} and a {@link
 * SimHost}, over a {@link Shard} of data; a handler
 * of {@link Family#OPS} messages that stands in for the node's operations; and a client that runs
 * transactions from here.
 */
final class SimNode {
    /**
     * Sim-only {@link Family#OPS} messages, in place of the real node's operations: a transaction's
     * writes at a participant, and the answer (type numbers the real operations do not use).
     */
    private static final int WRITE = 14;
    private static final int WRITE_ACK = 15;

    private final int id;
    private final Simulation sim;
    private final Scheduler scheduler;
    private final SplittableRandom random;
    private final long offsetNanos;
    private final double drift;
    private final TimeSource time;
    private final SimFabric fabric;
    private final Shard shard;
    private final NodeMailbox mailbox;
    private final MemberView view;
    private final CommitMessenger messenger;
    private final SyncedClock clock;
    private final Map<String, SimHost.Running> receivers = new HashMap<>();
    /** Transactions this node's client waits on for write answers, by id. */
    private final Map<Long, Client.Pending> waiting = new HashMap<>();
    private final Client client;
    private boolean crashed;
    private long pausedUntil;

    SimNode(int id, Simulation sim, SimNetwork network, Shard shard, SplittableRandom random) {
        this.id = id;
        this.sim = sim;
        this.scheduler = sim.scheduler();
        this.random = random;
        this.offsetNanos = random.nextLong(1L << 40);
        this.drift = (random.nextInt(1001) - 500) * 1e-6 * (sim.faults().contains(Fault.DRIFT) ? 1 : 0);
        this.time = new VirtualTime();
        this.fabric = new SimFabric(this, network);
        this.shard = shard;
        SimHost host = new SimHost(this, scheduler);
        this.mailbox = new NodeMailbox(fabric, host);
        this.clock = new SyncedClock(id, time, SyncedClock.DEFAULT_DRIFT, TimeUnit.SECONDS.toNanos(1));
        List<Integer> others = sim.others(id);
        this.view = new MemberView(id, others, Simulation.LEASE_MS, "simulated", time, mailbox::send,
                host.workers("members-" + id), clock::fence);
        fabric.onPeerLost(view::peerLost);
        mailbox.onHeard(view::heard);
        mailbox.on(Family.MEMBER, view::onMessage);
        mailbox.on(Family.OPS, this::onOpsMessage);
        List<Integer> members = new java.util.ArrayList<>(others);
        members.add(id);
        ClockSync sync = new ClockSync(mailbox, clock, host, new TreeSet<>(members), Simulation.CLOCK_SYNC_MS);
        LossQuorum quorum;
        if (sim.lossRule() == LossRule.GROUP) {
            MemberGroup group = new MemberGroup(view, id, members, sim.group().logOf(id), Simulation.LEASE_MS);
            group.start();
            host.start(group.agent());
            LeasedClockMaster master = new LeasedClockMaster(group, sync, clock, host, Simulation.CLOCK_LEASE_MS,
                    SyncedClock.DEFAULT_DRIFT);
            view.attach(master);
            master.start();
            quorum = group;
        } else {
            MajorityClockMaster.attach(view, sync);
            quorum = new HeardMajority(view);
        }
        this.messenger = new CommitMessenger(mailbox, shard, Simulation.VOTE_TIMEOUT_MS, Simulation.TICK_MS, quorum,
                Simulation.LEASE_MS + Simulation.LEASE_MS / 5, Simulation.FORGET_MS, host);
        view.attach(messenger);
        mailbox.start();
        host.start(view.heartbeat());
        this.client = new Client(this);
    }

    int id() {
        return id;
    }

    Simulation sim() {
        return sim;
    }

    TimeSource time() {
        return time;
    }

    SplittableRandom random() {
        return random;
    }

    Shard shard() {
        return shard;
    }

    CommitMessenger messenger() {
        return messenger;
    }

    Client client() {
        return client;
    }

    SimFabric fabric() {
        return fabric;
    }

    boolean isCrashed() {
        return crashed;
    }

    long pausedUntil() {
        return pausedUntil;
    }

    void crash() {
        crashed = true;
    }

    void pauseUntil(long simulatorNanos) {
        pausedUntil = Math.max(pausedUntil, simulatorNanos);
    }

    SyncedClock clock() {
        return clock;
    }

    /** The simulator's time at which this node's clock reads {@code nodeNanos}. */
    long toSimulatorTime(long nodeNanos) {
        return (long) ((nodeNanos - offsetNanos) / (1 + drift));
    }

    /** Where a {@link SimHost} registers the agent that receives from {@code mailbox}. */
    void receive(String mailbox, SimHost.Running running) {
        receivers.put(mailbox, running);
    }

    /** A message arrives at mailbox {@code mailbox}; one of a mailbox nobody receives from is dropped. */
    void deliver(String mailbox, Message message) {
        SimHost.Running receiver = receivers.get(mailbox);
        if (receiver != null) {
            receiver.deliver(message);
        }
    }

    /** Code of this node threw where the real node would log and carry on: the simulator counts it a violation. */
    void failed(String role, RuntimeException e) {
        sim.ledger().violation("node " + id + " " + role + " threw " + e);
    }

    void send(int to, byte[] payload) {
        mailbox.send(to, payload);
    }

    /** Sends {@code txn}'s {@code writes} here to node {@code to}, to run there (again, if sent before). */
    void sendWrites(int to, long txn, long beginTime, List<Ledger.Write> writes) {
        Wire.Writer w = new Wire.Writer().putByte(WRITE).putLong(txn).putLong(beginTime).putInt(writes.size());
        for (Ledger.Write write : writes) {
            w.putInt(write.key()).putLong(write.delta());
        }
        send(to, w.bytes());
    }

    void await(long txn, Client.Pending pending) {
        waiting.put(txn, pending);
    }

    void stopAwaiting(long txn) {
        waiting.remove(txn);
    }

    /** The node's clock: the simulator's time, offset and drifting. */
    private final class VirtualTime implements TimeSource {
        @Override
        public long nanos() {
            return offsetNanos + (long) (scheduler.now() * (1 + drift));
        }

        @Override
        public long wallMicros() {
            return nanos() / 1000;
        }

        @Override
        public void pause(long nanos) {
            throw new UnsupportedOperationException("simulated code must not wait: it is told the time");
        }
    }

    /** The stand-in operations: the transactions' writes, and their answers. */
    private void onOpsMessage(int from, byte[] payload, long nowNanos) {
        Wire.Reader in = new Wire.Reader(payload);
        int type = in.getByte();
        long request = in.getLong();
        if (type == WRITE) {
            runWrites(from, request, in);
        } else if (type == WRITE_ACK) {
            Client.Pending pending = waiting.get(request);
            if (pending != null) {
                pending.answered(from, in.getBoolean(), in.getString());
            }
        }
    }

    /** Runs a transaction's writes here, as the real node serves an operation: refused once its part is settled. */
    private void runWrites(int from, long txn, Wire.Reader in) {
        long beginTime = in.getLong();
        int count = in.getInt();
        List<Ledger.Write> writes = new java.util.ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            writes.add(new Ledger.Write(in.getInt(), in.getLong()));
        }
        String refusal = null;
        if (TxnWords.node(txn) != from) {
            refusal = "not its coordinator";
        } else if (view.isLost(from)) {
            refusal = "node " + id + " counts node " + from + " lost";
        } else {
            refusal = view.fenced(from, beginTime);
        }
        boolean ok = false;
        if (refusal == null) {
            messenger.open(txn); // from here, the coordinator's loss aborts the part
            if (!messenger.acceptsOperations(txn)) {
                refusal = "settled here";
            } else if (!shard.execute(txn, writes)) {
                refusal = "a lock is taken";
            } else {
                ok = true;
            }
        }
        send(from, new Wire.Writer().putByte(WRITE_ACK).putLong(txn).putBoolean(ok).putString(refusal == null ? "" : refusal)
                .bytes());
    }

    /** Applies {@code outcome} to the coordinator's own part of {@code txn}, if its writes ran here. */
    void applyOwnPart(long txn, Outcome outcome) {
        if (shard.holding().contains(txn)) {
            shard.apply(txn, outcome, 0);
        }
    }
}
