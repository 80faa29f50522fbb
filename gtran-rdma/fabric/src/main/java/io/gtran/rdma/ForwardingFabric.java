package io.gtran.rdma;

import java.util.Objects;

/**
 * A {@link Fabric} that passes every call to another: the base of fabric decorators in tests
 * (pausing a thread at a read, counting operations), which override only what they change.
 */
public class ForwardingFabric implements Fabric {
    private final Fabric delegate;

    public ForwardingFabric(Fabric delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** The wrapped fabric. */
    protected Fabric delegate() {
        return delegate;
    }

    @Override
    public int localNode() {
        return delegate.localNode();
    }

    @Override
    public int maxMessageBytes() {
        return delegate.maxMessageBytes();
    }

    @Override
    public Region register(String name, long bytes) {
        return delegate.register(name, bytes);
    }

    @Override
    public Region connect(int node, String name) {
        return delegate.connect(node, name);
    }

    @Override
    public Batch batch() {
        return delegate.batch();
    }

    @Override
    public Mailbox openMailbox(String name, int capacity) {
        return delegate.openMailbox(name, capacity);
    }

    @Override
    public void onPeerLost(PeerListener listener) {
        delegate.onPeerLost(listener);
    }

    @Override
    public void close() {
        delegate.close();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + delegate + "]";
    }
}
