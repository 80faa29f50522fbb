package io.gtran.rdma;

import io.gtran.rdma.spi.FabricChecks;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link Batch} that passes every call to another, first mapping each region handle with {@link
 * #handle}: the base of the fabric decorators' batches, whose handles wrap the wrapped fabric's.
 * A subclass overrides {@link #flush} to act once per flush.
 */
public abstract class ForwardingBatch implements Batch {
    private final Batch delegate;

    protected ForwardingBatch(Batch delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /**
     * The handle the wrapped batch takes for {@code region}, a handle of this batch's fabric.
     *
     * @throws IllegalArgumentException if {@code region} is not a handle of this batch's fabric
     */
    protected abstract Region handle(Region region);

    /** What {@link #handle} throws for a handle of another fabric, in the words of the fabrics' own batches. */
    protected static IllegalArgumentException foreign(Region region) {
        return new IllegalArgumentException("region handle belongs to another fabric: " + FabricChecks.describe(region));
    }

    @Override
    public CompletableFuture<Long> readLong(Region region, long offset) {
        return delegate.readLong(handle(region), offset);
    }

    @Override
    public CompletableFuture<Void> writeLong(Region region, long offset, long value) {
        return delegate.writeLong(handle(region), offset, value);
    }

    @Override
    public CompletableFuture<Boolean> compareAndSwap(Region region, long offset, long expected, long value) {
        return delegate.compareAndSwap(handle(region), offset, expected, value);
    }

    @Override
    public CompletableFuture<Long> fetchAdd(Region region, long offset, long delta) {
        return delegate.fetchAdd(handle(region), offset, delta);
    }

    @Override
    public CompletableFuture<byte[]> read(Region region, long offset, int length) {
        return delegate.read(handle(region), offset, length);
    }

    @Override
    public CompletableFuture<Void> write(Region region, long offset, byte[] src, int srcOffset, int length) {
        return delegate.write(handle(region), offset, src, srcOffset, length);
    }

    @Override
    public Batch fence() {
        delegate.fence();
        return this;
    }

    @Override
    public int size() {
        return delegate.size();
    }

    @Override
    public CompletableFuture<Void> flush() {
        return delegate.flush();
    }
}
