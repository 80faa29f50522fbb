package io.gtran.check.sim;

import io.gtran.rdma.Batch;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.Mailbox;
import io.gtran.rdma.Message;
import io.gtran.rdma.PeerListener;
import io.gtran.rdma.Region;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A simulated node's {@link Fabric}: mailboxes over the {@link SimNetwork}, and news of lost peers
 * from the simulator's failure detector. It carries messages only: the protocol parts the
 * simulator runs (membership, commit, recovery) use no registered regions.
 */
final class SimFabric implements Fabric {
    private final SimNode node;
    private final SimNetwork network;
    private final List<PeerListener> listeners = new CopyOnWriteArrayList<>();

    SimFabric(SimNode node, SimNetwork network) {
        this.node = node;
        this.network = network;
    }

    @Override
    public int localNode() {
        return node.id();
    }

    @Override
    public Region register(String name, long bytes) {
        throw new UnsupportedOperationException("the simulated fabric carries messages only: register " + name);
    }

    @Override
    public Region connect(int node, String name) {
        throw new UnsupportedOperationException("the simulated fabric carries messages only: connect " + name);
    }

    @Override
    public Batch batch() {
        throw new UnsupportedOperationException("the simulated fabric carries messages only: batch");
    }

    @Override
    public Mailbox openMailbox(String name, int capacity) {
        return new SimMailbox(name);
    }

    @Override
    public void onPeerLost(PeerListener listener) {
        listeners.add(listener);
    }

    /** The failure detector reports {@code peer} lost to this node's listeners. */
    void reportLost(int peer, String reason) {
        for (PeerListener listener : listeners) {
            listener.peerLost(peer, reason);
        }
    }

    @Override
    public void close() {
    }

    /** A mailbox whose messages the simulator pushes to the agent that receives from it (see {@link SimHost#start(io.gtran.txn.agent.Agent, Mailbox)}). */
    private final class SimMailbox implements Mailbox {
        private final String name;

        SimMailbox(String name) {
            this.name = name;
        }

        @Override
        public int node() {
            return node.id();
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public CompletableFuture<Void> send(int to, String mailbox, byte[] payload) {
            network.send(node, name, to, mailbox, payload.clone());
            return CompletableFuture.completedFuture(null); // a lost message shows as a missing answer, as on a cut link
        }

        @Override
        public Message receive(long timeout, TimeUnit unit) {
            throw new UnsupportedOperationException("the simulator pushes messages to the mailbox's agent");
        }

        @Override
        public Message poll() {
            throw new UnsupportedOperationException("the simulator pushes messages to the mailbox's agent");
        }

        @Override
        public void close() {
        }
    }
}
