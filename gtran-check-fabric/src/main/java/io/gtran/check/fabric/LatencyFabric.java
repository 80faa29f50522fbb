package io.gtran.check.fabric;

import io.gtran.rdma.Batch;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.ForwardingBatch;
import io.gtran.rdma.ForwardingFabric;
import io.gtran.rdma.ForwardingMailbox;
import io.gtran.rdma.ForwardingRegion;
import io.gtran.rdma.Mailbox;
import io.gtran.rdma.Message;
import io.gtran.rdma.Region;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One node's fabric with the link latency of a {@link LinkLatency} (see there): made by {@link
 * LinkLatency#wrap}.
 */
final class LatencyFabric extends ForwardingFabric {
    private final LinkLatency latency;

    LatencyFabric(Fabric delegate, LinkLatency latency) {
        super(delegate);
        this.latency = latency;
    }

    @Override
    public Region register(String name, long bytes) {
        return new LatencyRegion(super.register(name, bytes));
    }

    @Override
    public Region connect(int node, String name) {
        return new LatencyRegion(super.connect(node, name));
    }

    @Override
    public Batch batch() {
        return new LatencyBatch(super.batch());
    }

    @Override
    public Mailbox openMailbox(String name, int capacity) {
        return new LatencyMailbox(super.openMailbox(name, capacity));
    }

    private boolean remote(int node) {
        return node != localNode();
    }

    /** A handle whose every operation on another node waits a round trip first. */
    private final class LatencyRegion extends ForwardingRegion {
        private final Region region;
        private final boolean remote;

        LatencyRegion(Region region) {
            super(region);
            this.region = region;
            this.remote = remote(region.node());
        }

        LatencyFabric owner() {
            return LatencyFabric.this;
        }

        @Override
        protected Region target() {
            if (remote) {
                latency.awaitRoundTrip();
            }
            return region;
        }
    }

    /** A batch of the wrapped fabric over the wrapped handles; a flush reaching other nodes waits one round trip. */
    private final class LatencyBatch extends ForwardingBatch {
        private final Set<Integer> nodes = new HashSet<>();

        LatencyBatch(Batch batch) {
            super(batch);
        }

        @Override
        protected Region handle(Region region) {
            if (!(region instanceof LatencyRegion latencyRegion) || latencyRegion.owner() != LatencyFabric.this) {
                throw foreign(region);
            }
            if (latencyRegion.remote) {
                nodes.add(latencyRegion.node());
            }
            return latencyRegion.region;
        }

        @Override
        public CompletableFuture<Void> flush() {
            if (!nodes.isEmpty()) {
                nodes.clear();
                latency.awaitRoundTrip(); // the nodes are reached in parallel: one round trip for all
            }
            return super.flush();
        }
    }

    /** Stamps sends to other nodes; hands a received message over once its latency has passed. */
    private final class LatencyMailbox extends ForwardingMailbox {
        LatencyMailbox(Mailbox mailbox) {
            super(mailbox);
        }

        @Override
        public CompletableFuture<Void> send(int node, String name, byte[] payload) {
            if (!remote(node)) {
                return super.send(node, name, payload);
            }
            ArrayDeque<Long> stamps = latency.stamps(localNode(), node, name);
            synchronized (stamps) { // stamp and enqueue in one order
                stamps.addLast(System.nanoTime());
                try {
                    CompletableFuture<Void> sent = super.send(node, name, payload);
                    if (sent.isCompletedExceptionally()) {
                        stamps.pollLast(); // never delivered: no receiver will take its stamp
                    }
                    return sent;
                } catch (RuntimeException e) {
                    stamps.pollLast();
                    throw e;
                }
            }
        }

        @Override
        public Message receive(long timeout, TimeUnit unit) throws InterruptedException {
            return delivered(super.receive(timeout, unit));
        }

        @Override
        public Message poll() {
            return delivered(super.poll());
        }

        private Message delivered(Message message) {
            if (message != null && remote(message.fromNode())) {
                latency.awaitDelivery(message.fromNode(), localNode(), name());
            }
            return message;
        }
    }
}
