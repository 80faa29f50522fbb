package io.gtran.rdma;

/**
 * A {@link Region} that passes every operation to another: the base of region decorators (fault
 * injection, tests that pause a thread at a read), which override only what they change.
 */
public class ForwardingRegion implements Region {
    private final Region delegate;

    public ForwardingRegion(Region delegate) {
        this.delegate = java.util.Objects.requireNonNull(delegate, "delegate");
    }

    /** The region operations go to; decorators may pick another per call by overriding this. */
    protected Region target() {
        return delegate;
    }

    @Override
    public int node() {
        return delegate.node();
    }

    @Override
    public String name() {
        return delegate.name();
    }

    @Override
    public long size() {
        return delegate.size();
    }

    @Override
    public long readLong(long offset) {
        return target().readLong(offset);
    }

    @Override
    public void writeLong(long offset, long value) {
        target().writeLong(offset, value);
    }

    @Override
    public boolean compareAndSwap(long offset, long expected, long value) {
        return target().compareAndSwap(offset, expected, value);
    }

    @Override
    public long fetchAdd(long offset, long delta) {
        return target().fetchAdd(offset, delta);
    }

    @Override
    public void read(long offset, byte[] dst, int dstOffset, int length) {
        target().read(offset, dst, dstOffset, length);
    }

    @Override
    public void write(long offset, byte[] src, int srcOffset, int length) {
        target().write(offset, src, srcOffset, length);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + delegate + "]";
    }
}
