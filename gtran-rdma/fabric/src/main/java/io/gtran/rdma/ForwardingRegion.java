package io.gtran.rdma;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link Region} that passes every operation to another: the base of region decorators (fault
 * injection, tests that pause a thread at a read), which override only what they change.
 */
public class ForwardingRegion implements Region {
    private final Region delegate;

    public ForwardingRegion(Region delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
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
    public CompletableFuture<Long> readLongAsync(long offset) {
        return target().readLongAsync(offset);
    }

    @Override
    public CompletableFuture<Void> writeLongAsync(long offset, long value) {
        return target().writeLongAsync(offset, value);
    }

    @Override
    public CompletableFuture<Boolean> compareAndSwapAsync(long offset, long expected, long value) {
        return target().compareAndSwapAsync(offset, expected, value);
    }

    @Override
    public CompletableFuture<Long> fetchAddAsync(long offset, long delta) {
        return target().fetchAddAsync(offset, delta);
    }

    @Override
    public CompletableFuture<byte[]> readAsync(long offset, int length) {
        return target().readAsync(offset, length);
    }

    @Override
    public CompletableFuture<Void> writeAsync(long offset, byte[] src, int srcOffset, int length) {
        return target().writeAsync(offset, src, srcOffset, length);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + delegate + "]";
    }
}
