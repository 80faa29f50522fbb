package io.gtran.rdma;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * A {@link Fabric} decorator that injects faults, for tests: it drops messages this node sends
 * and fails region operations this node makes, per target node, switchable at any time from any
 * thread. Everything else passes through to the wrapped fabric.
 *
 * <ul>
 *   <li>{@link #dropNextMessages}: the next {@code count} sends to a node are not delivered; their
 *       futures fail with a {@link DeliveryException}, as a message to a dead peer would.
 *   <li>{@link #failRegionAccess}: until {@link #restoreRegionAccess} or {@link #heal}, connecting to
 *       the node and every operation through handles to its regions (including handles obtained
 *       earlier, through this decorator) throw a {@link RegionAccessException}, as a dead peer's
 *       regions would. The memory itself is untouched.
 * </ul>
 *
 * <p>Faults apply to what passes through this decorator only; close the fabric through it.
 */
public final class FaultyFabric implements Fabric {
    private final Fabric delegate;
    private final AtomicIntegerArray dropsLeft = new AtomicIntegerArray(MAX_NODE + 1);
    private final AtomicIntegerArray regionsFailing = new AtomicIntegerArray(MAX_NODE + 1);
    private volatile boolean closed;

    /** Wraps {@code delegate}, with no faults switched on. */
    public FaultyFabric(Fabric delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /**
     * Drops the next {@code count} messages this node sends to {@code node}, replacing any count
     * still pending for it; 0 stops dropping.
     *
     * @throws IllegalArgumentException if {@code node} is not a valid id or {@code count} is negative
     */
    public void dropNextMessages(int node, int count) {
        FabricChecks.checkNodeId(node);
        if (count < 0) {
            throw new IllegalArgumentException("drop count is negative: node=" + node + ", count=" + count);
        }
        dropsLeft.set(node, count);
    }

    /**
     * Makes connecting to {@code node} and every operation on its regions throw a
     * {@link RegionAccessException}, until restored.
     *
     * @throws IllegalArgumentException if {@code node} is not a valid id
     */
    public void failRegionAccess(int node) {
        FabricChecks.checkNodeId(node);
        regionsFailing.set(node, 1);
    }

    /**
     * Undoes {@link #failRegionAccess} for {@code node}.
     *
     * @throws IllegalArgumentException if {@code node} is not a valid id
     */
    public void restoreRegionAccess(int node) {
        FabricChecks.checkNodeId(node);
        regionsFailing.set(node, 0);
    }

    /** Switches every fault off: no pending drops, no failing regions. */
    public void heal() {
        for (int node = 0; node <= MAX_NODE; node++) {
            dropsLeft.set(node, 0);
            regionsFailing.set(node, 0);
        }
    }

    @Override
    public int localNode() {
        return delegate.localNode();
    }

    @Override
    public Region register(String name, long bytes) {
        return new FaultyRegion(delegate.register(name, bytes));
    }

    @Override
    public Region connect(int node, String name) {
        checkOpen();
        if (failing(node)) {
            throw new RegionAccessException("region access failed by fault injection: node=" + node + ", region=" + name);
        }
        return new FaultyRegion(delegate.connect(node, name));
    }

    @Override
    public Batch batch() {
        checkOpen();
        return new OpBatch(region -> region instanceof FaultyRegion faulty && faulty.owner() == this, this::checkOpen);
    }

    @Override
    public Mailbox openMailbox(String name, int capacity) {
        return new FaultyMailbox(delegate.openMailbox(name, capacity));
    }

    @Override
    public void onPeerLost(PeerListener listener) {
        delegate.onPeerLost(listener);
    }

    @Override
    public void close() {
        closed = true;
        delegate.close();
    }

    @Override
    public String toString() {
        return "FaultyFabric[" + delegate + "]";
    }

    private boolean failing(int node) {
        return node >= 0 && node <= MAX_NODE && regionsFailing.get(node) != 0;
    }

    /** Fails like the wrapped fabric would once closed; dropped messages must not hide misuse. */
    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("fabric is closed: node=" + delegate.localNode());
        }
    }

    /** A handle that consults the fault switch of its node before every operation. */
    private final class FaultyRegion extends ForwardingRegion {
        private final Region region;

        FaultyRegion(Region region) {
            super(region);
            this.region = region;
        }

        FaultyFabric owner() {
            return FaultyFabric.this;
        }

        @Override
        protected Region target() {
            if (failing(region.node())) {
                throw new RegionAccessException("region access failed by fault injection: "
                        + FabricChecks.describe(region));
            }
            return region;
        }
    }

    /** A mailbox whose sends consult the drop counter of their target node. */
    private final class FaultyMailbox implements Mailbox {
        private final Mailbox mailbox;

        FaultyMailbox(Mailbox mailbox) {
            this.mailbox = mailbox;
        }

        @Override
        public int node() {
            return mailbox.node();
        }

        @Override
        public String name() {
            return mailbox.name();
        }

        @Override
        public CompletableFuture<Void> send(int node, String to, byte[] payload) {
            checkOpen();
            FabricChecks.checkMailboxName(to);
            FabricChecks.checkPayload(payload);
            if (node >= 0 && node <= MAX_NODE && dropsLeft.getAndUpdate(node, left -> Math.max(0, left - 1)) > 0) {
                return CompletableFuture.failedFuture(new DeliveryException("message dropped by fault injection: node="
                        + node + ", mailbox=" + to));
            }
            return mailbox.send(node, to, payload);
        }

        @Override
        public Message receive(long timeout, java.util.concurrent.TimeUnit unit) throws InterruptedException {
            return mailbox.receive(timeout, unit);
        }

        @Override
        public Message poll() {
            return mailbox.poll();
        }

        @Override
        public void close() {
            mailbox.close();
        }
    }
}
