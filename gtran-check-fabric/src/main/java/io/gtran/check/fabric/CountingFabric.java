package io.gtran.check.fabric;

import io.gtran.rdma.Batch;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.ForwardingBatch;
import io.gtran.rdma.ForwardingFabric;
import io.gtran.rdma.ForwardingMailbox;
import io.gtran.rdma.ForwardingRegion;
import io.gtran.rdma.Mailbox;
import io.gtran.rdma.Region;
import io.gtran.rdma.spi.OpBatch;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;

/**
 * A fabric decorator that counts what crosses the network: messages sent to other nodes (and their
 * bytes), one-sided operations on other nodes' regions, and one-sided round trips (a single
 * operation, or one node's share of a batch's flush). Work on this node's own regions and
 * mailboxes is not counted. For asserting the cost of a protocol step (messages per commit) and
 * for benchmarks that report it.
 */
public final class CountingFabric extends ForwardingFabric {
    private final LongAdder messages = new LongAdder();
    private final LongAdder messageBytes = new LongAdder();
    private final LongAdder remoteOps = new LongAdder();
    private final LongAdder roundTrips = new LongAdder();
    private final java.util.Map<String, LongAdder> byMailbox = new java.util.concurrent.ConcurrentHashMap<>();

    public CountingFabric(Fabric delegate) {
        super(delegate);
    }

    /** What was counted since the fabric was made or last {@link #reset}. */
    public record Counts(long messages, long messageBytes, long remoteOps, long roundTrips) {
        /** The counts of {@code this} less {@code earlier}'s. */
        public Counts minus(Counts earlier) {
            return new Counts(messages - earlier.messages, messageBytes - earlier.messageBytes, remoteOps - earlier.remoteOps,
                    roundTrips - earlier.roundTrips);
        }
    }

    public Counts counts() {
        return new Counts(messages.sum(), messageBytes.sum(), remoteOps.sum(), roundTrips.sum());
    }

    /** Messages sent to other nodes' mailbox {@code name} since the fabric was made or last {@link #reset}. */
    public long messagesTo(String name) {
        LongAdder sent = byMailbox.get(name);
        return sent == null ? 0 : sent.sum();
    }

    public void reset() {
        byMailbox.values().forEach(LongAdder::reset);
        messages.reset();
        messageBytes.reset();
        remoteOps.reset();
        roundTrips.reset();
    }

    @Override
    public Region register(String name, long bytes) {
        return new CountingRegion(super.register(name, bytes));
    }

    @Override
    public Region connect(int node, String name) {
        return new CountingRegion(super.connect(node, name));
    }

    @Override
    public Batch batch() {
        return new CountingBatch(new OpBatch(region -> true, () -> {
        })); // given the wrapped handles: CountingBatch checks and counts
    }

    @Override
    public Mailbox openMailbox(String name, int capacity) {
        return new CountingMailbox(super.openMailbox(name, capacity));
    }

    private boolean remote(int node) {
        return node != localNode();
    }

    /** Counts each operation on another node's region, each a round trip of its own. */
    private final class CountingRegion extends ForwardingRegion {
        private final Region region;
        private final boolean remote;

        CountingRegion(Region region) {
            super(region);
            this.region = region;
            this.remote = remote(region.node());
        }

        CountingFabric owner() {
            return CountingFabric.this;
        }

        @Override
        protected Region target() {
            if (remote) {
                remoteOps.increment();
                roundTrips.increment();
            }
            return region;
        }
    }

    /**
     * A batch: its operations run on the wrapped handles, so they are counted here, with one round
     * trip per other node it touches at each flush.
     */
    private final class CountingBatch extends ForwardingBatch {
        private final Set<Integer> nodes = new HashSet<>();

        CountingBatch(Batch batch) {
            super(batch);
        }

        @Override
        protected Region handle(Region region) {
            if (!(region instanceof CountingRegion counting) || counting.owner() != CountingFabric.this) {
                throw foreign(region);
            }
            if (counting.remote) {
                nodes.add(counting.node());
                remoteOps.increment();
            }
            return counting.region;
        }

        @Override
        public CompletableFuture<Void> flush() {
            roundTrips.add(nodes.size());
            nodes.clear();
            return super.flush();
        }
    }

    /** Counts sends to other nodes' mailboxes. */
    private final class CountingMailbox extends ForwardingMailbox {
        CountingMailbox(Mailbox mailbox) {
            super(mailbox);
        }

        @Override
        public CompletableFuture<Void> send(int node, String name, byte[] payload) {
            CompletableFuture<Void> sent = super.send(node, name, payload);
            if (remote(node)) {
                messages.increment();
                messageBytes.add(payload.length);
                byMailbox.computeIfAbsent(name, n -> new LongAdder()).increment();
            }
            return sent;
        }

        @Override
        public boolean handOnArrival(Arrival arrival) {
            return delegate().handOnArrival(arrival); // counts sends only: arrivals pass as they are
        }
    }
}
