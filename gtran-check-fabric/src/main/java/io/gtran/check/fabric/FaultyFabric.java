package io.gtran.check.fabric;

import io.gtran.rdma.Batch;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.ForwardingFabric;
import io.gtran.rdma.ForwardingMailbox;
import io.gtran.rdma.ForwardingRegion;
import io.gtran.rdma.Mailbox;
import io.gtran.rdma.Message;
import io.gtran.rdma.PeerListener;
import io.gtran.rdma.Region;
import io.gtran.rdma.spi.FabricChecks;
import io.gtran.rdma.spi.OpBatch;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Fabric} decorator ({@link ForwardingFabric}) for one node that injects the faults a shared {@link FaultPlan}
 * asks for, over any transport; for tests. Wrap every node of a test cluster with the same plan
 * ({@link FaultPlan#wrap}) so that a fault between two nodes applies at both ends.
 *
 * <p>Everything that can cross nodes passes the plan's checks, with this node as <i>from</i>:
 * {@link #connect}, every synchronous and asynchronous operation through a region handle obtained
 * here ({@link #register} and {@link #connect}; handles obtained earlier see rules switched on
 * later), every operation of a {@link #batch} (an {@link OpBatch} over those handles, so each
 * operation is faulted as its asynchronous form is), and {@link Mailbox#send} through a mailbox
 * opened here. Receiving, {@link #localNode} and closing pass straight through.
 *
 * <p>Misuse is reported as the {@link Fabric} contract says, before any fault: a closed fabric or
 * mailbox throws {@link IllegalStateException}, bad arguments {@link IllegalArgumentException}
 * (checked here with {@link FabricChecks}), even while messages are being dropped.
 *
 * <p>{@link #onPeerLost} listeners hear both the wrapped fabric's losses and the plan's
 * partitions: when a partition puts this node on one side, they are told that each node on the
 * other side was lost (reason {@code "partitioned by fault injection"}), once until the plan heals.
 */
public final class FaultyFabric extends ForwardingFabric {
    private static final Logger LOG = LoggerFactory.getLogger(FaultyFabric.class);

    private final FaultPlan plan;
    private final int node;
    private final List<PeerListener> listeners = new CopyOnWriteArrayList<>();
    /** Peers this node connected to, sent to or heard from; what {@link FaultPlan#isolate} may tell of. */
    private final Set<Integer> contacted = ConcurrentHashMap.newKeySet();
    /** Peers the listeners were told are lost to a partition, until the plan heals. */
    private final Set<Integer> cutOff = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /** Wraps {@code delegate}, steered by {@code plan}. */
    public FaultyFabric(Fabric delegate, FaultPlan plan) {
        super(delegate);
        this.plan = Objects.requireNonNull(plan, "plan");
        this.node = delegate.localNode();
        plan.attach(this);
    }

    /** The plan steering this decorator. */
    public FaultPlan plan() {
        return plan;
    }

    @Override
    public int localNode() {
        return node;
    }

    @Override
    public Region register(String name, long bytes) {
        checkOpen();
        return new FaultyRegion(delegate().register(name, bytes));
    }

    @Override
    public Region connect(int to, String name) {
        checkOpen();
        Objects.requireNonNull(name, "name");
        contact(to);
        plan.beforeRegionOperation(node, to, name);
        return new FaultyRegion(delegate().connect(to, name));
    }

    @Override
    public Batch batch() {
        checkOpen();
        return new OpBatch(region -> region instanceof FaultyRegion faulty && faulty.owner() == this, this::checkOpen);
    }

    @Override
    public Mailbox openMailbox(String name, int capacity) {
        checkOpen();
        return new FaultyMailbox(delegate().openMailbox(name, capacity));
    }

    @Override
    public void onPeerLost(PeerListener listener) {
        checkOpen();
        Objects.requireNonNull(listener, "listener");
        delegate().onPeerLost(listener);
        listeners.add(listener);
    }

    @Override
    public void close() {
        closed = true;
        plan.detach(this);
        delegate().close();
    }

    @Override
    public String toString() {
        return "FaultyFabric[" + delegate() + ", cutOff=" + new TreeSet<>(cutOff) + "]";
    }

    // ---- what the plan asks -------------------------------------------------------------------

    /** The peers this node has been in contact with through this decorator. */
    Set<Integer> contacted() {
        return Set.copyOf(contacted);
    }

    /** Tells the listeners of each of {@code peers} not already told since the last heal. */
    void partitioned(Collection<Integer> peers) {
        if (closed) {
            return;
        }
        for (int peer : peers) {
            if (cutOff.add(peer)) {
                for (PeerListener listener : listeners) {
                    try {
                        listener.peerLost(peer, FaultPlan.PARTITIONED);
                    } catch (RuntimeException e) {
                        LOG.warn("node={}: peer listener failed on the loss of node={}", node, peer, e);
                    }
                }
            }
        }
    }

    /** The plan healed: a later partition tells the listeners again. */
    void healed() {
        cutOff.clear();
    }

    // ---- internals ----------------------------------------------------------------------------

    private void contact(int peer) {
        if (peer != node && peer >= 0 && peer <= MAX_NODE) {
            contacted.add(peer);
        }
    }

    /** Fails like the wrapped fabric would once closed; a fault must not hide misuse. */
    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("fabric is closed: node=" + node);
        }
    }

    /**
     * A handle whose every operation passes the plan first. Synchronous operations check their
     * arguments, then the plan ({@link #target}), then run; asynchronous ones check their arguments
     * at once and hand the operation to the plan, which may issue it later.
     */
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
            plan.beforeRegionOperation(node, region.node(), region.name());
            return region;
        }

        @Override
        public long readLong(long offset) {
            checkLong(offset);
            return super.readLong(offset);
        }

        @Override
        public void writeLong(long offset, long value) {
            checkLong(offset);
            super.writeLong(offset, value);
        }

        @Override
        public boolean compareAndSwap(long offset, long expected, long value) {
            checkLong(offset);
            return super.compareAndSwap(offset, expected, value);
        }

        @Override
        public long fetchAdd(long offset, long delta) {
            checkLong(offset);
            return super.fetchAdd(offset, delta);
        }

        @Override
        public void read(long offset, byte[] dst, int dstOffset, int length) {
            checkOpen();
            FabricChecks.checkRange(this, offset, dst, dstOffset, length);
            super.read(offset, dst, dstOffset, length);
        }

        @Override
        public void write(long offset, byte[] src, int srcOffset, int length) {
            checkOpen();
            FabricChecks.checkRange(this, offset, src, srcOffset, length);
            super.write(offset, src, srcOffset, length);
        }

        @Override
        public CompletableFuture<Long> readLongAsync(long offset) {
            checkLong(offset);
            return async(() -> region.readLongAsync(offset));
        }

        @Override
        public CompletableFuture<Void> writeLongAsync(long offset, long value) {
            checkLong(offset);
            return async(() -> region.writeLongAsync(offset, value));
        }

        @Override
        public CompletableFuture<Boolean> compareAndSwapAsync(long offset, long expected, long value) {
            checkLong(offset);
            return async(() -> region.compareAndSwapAsync(offset, expected, value));
        }

        @Override
        public CompletableFuture<Long> fetchAddAsync(long offset, long delta) {
            checkLong(offset);
            return async(() -> region.fetchAddAsync(offset, delta));
        }

        @Override
        public CompletableFuture<byte[]> readAsync(long offset, int length) {
            checkOpen();
            FabricChecks.checkTransferLength(this, offset, length);
            return async(() -> region.readAsync(offset, length));
        }

        @Override
        public CompletableFuture<Void> writeAsync(long offset, byte[] src, int srcOffset, int length) {
            checkOpen();
            FabricChecks.checkRange(this, offset, src, srcOffset, length);
            byte[] copy = Arrays.copyOfRange(src, srcOffset, srcOffset + length); // the caller may reuse src
            return async(() -> region.writeAsync(offset, copy, 0, length));
        }

        private void checkLong(long offset) {
            checkOpen();
            FabricChecks.checkLongOffset(this, offset);
        }

        private <T> CompletableFuture<T> async(Supplier<CompletableFuture<T>> operation) {
            return plan.regionAsync(node, region.node(), region.name(), operation);
        }
    }

    /** A mailbox whose sends pass the plan; receiving passes straight through. */
    private final class FaultyMailbox extends ForwardingMailbox {
        private final Mailbox mailbox;
        private volatile boolean mailboxClosed;

        FaultyMailbox(Mailbox mailbox) {
            super(mailbox);
            this.mailbox = mailbox;
        }

        @Override
        public CompletableFuture<Void> send(int to, String name, byte[] payload) {
            checkOpen();
            if (mailboxClosed) {
                throw new IllegalStateException("mailbox is closed: node=" + node + ", mailbox=" + mailbox.name());
            }
            FabricChecks.checkMailboxName(name);
            FabricChecks.checkPayload(payload);
            contact(to);
            byte[] copy = payload.clone(); // the caller may reuse payload while the plan holds the message
            return plan.message(node, to, name, () -> mailbox.send(to, name, copy));
        }

        @Override
        public Message receive(long timeout, TimeUnit unit) throws InterruptedException {
            return heard(mailbox.receive(timeout, unit));
        }

        @Override
        public Message poll() {
            return heard(mailbox.poll());
        }

        @Override
        public boolean handOnArrival(Arrival arrival) {
            return mailbox.handOnArrival(new Arrival() {
                @Override
                public boolean take(Message message) {
                    contact(message.fromNode());
                    return arrival.take(message);
                }

                @Override
                public void notQueued(Message message) {
                    arrival.notQueued(message);
                }
            });
        }

        @Override
        public void close() {
            mailboxClosed = true;
            mailbox.close();
        }

        private Message heard(Message message) {
            if (message != null) {
                contact(message.fromNode());
            }
            return message;
        }
    }
}
