package io.gtran.rdma;

import java.util.concurrent.CompletableFuture;

/**
 * A handle held by node {@code local} to a region whose memory another (or the same) in-JVM node
 * owns. Every operation first checks that the holder is open ({@link IllegalStateException}) and
 * that the owner is open ({@link RegionAccessException}: a dead peer), then its arguments with
 * {@link FabricChecks}. {@link #node()}, {@link #name()} and {@link #size()} always answer. The
 * asynchronous forms run at once on the caller's thread and return a completed future.
 */
final class InJvmRegion implements Region {
    private final InJvmFabric local;
    private final InJvmFabric owner;
    private final RegionMemory memory;

    InJvmRegion(InJvmFabric local, InJvmFabric owner, RegionMemory memory) {
        this.local = local;
        this.owner = owner;
        this.memory = memory;
    }

    /** The fabric whose handle this is. */
    InJvmFabric holder() {
        return local;
    }

    @Override
    public int node() {
        return owner.localNode();
    }

    @Override
    public String name() {
        return memory.name();
    }

    @Override
    public long size() {
        return memory.size();
    }

    @Override
    public long readLong(long offset) {
        return longWord(offset).getLongVolatile(offset);
    }

    @Override
    public void writeLong(long offset, long value) {
        longWord(offset).putLongVolatile(offset, value);
    }

    @Override
    public boolean compareAndSwap(long offset, long expected, long value) {
        return longWord(offset).compareAndSetLong(offset, expected, value);
    }

    @Override
    public long fetchAdd(long offset, long delta) {
        return longWord(offset).getAndAddLong(offset, delta);
    }

    @Override
    public void read(long offset, byte[] dst, int dstOffset, int length) {
        reachable();
        FabricChecks.checkRange(this, offset, dst, dstOffset, length);
        memory.getBytes(offset, dst, dstOffset, length);
    }

    @Override
    public void write(long offset, byte[] src, int srcOffset, int length) {
        reachable();
        FabricChecks.checkRange(this, offset, src, srcOffset, length);
        memory.putBytes(offset, src, srcOffset, length);
    }

    @Override
    public CompletableFuture<Long> readLongAsync(long offset) {
        RegionAccessException dead = checkLongOperation(offset);
        return dead != null ? CompletableFuture.failedFuture(dead) : CompletableFuture.completedFuture(memory.getLongVolatile(offset));
    }

    @Override
    public CompletableFuture<Void> writeLongAsync(long offset, long value) {
        RegionAccessException dead = checkLongOperation(offset);
        if (dead != null) {
            return CompletableFuture.failedFuture(dead);
        }
        memory.putLongVolatile(offset, value);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<Boolean> compareAndSwapAsync(long offset, long expected, long value) {
        RegionAccessException dead = checkLongOperation(offset);
        return dead != null ? CompletableFuture.failedFuture(dead)
                : CompletableFuture.completedFuture(memory.compareAndSetLong(offset, expected, value));
    }

    @Override
    public CompletableFuture<Long> fetchAddAsync(long offset, long delta) {
        RegionAccessException dead = checkLongOperation(offset);
        return dead != null ? CompletableFuture.failedFuture(dead) : CompletableFuture.completedFuture(memory.getAndAddLong(offset, delta));
    }

    @Override
    public CompletableFuture<byte[]> readAsync(long offset, int length) {
        local.checkOpen();
        FabricChecks.checkTransferLength(this, offset, length);
        RegionAccessException dead = deadFailure();
        if (dead != null) {
            return CompletableFuture.failedFuture(dead);
        }
        byte[] bytes = new byte[length];
        memory.getBytes(offset, bytes, 0, length);
        return CompletableFuture.completedFuture(bytes);
    }

    @Override
    public CompletableFuture<Void> writeAsync(long offset, byte[] src, int srcOffset, int length) {
        local.checkOpen();
        FabricChecks.checkRange(this, offset, src, srcOffset, length);
        RegionAccessException dead = deadFailure();
        if (dead != null) {
            return CompletableFuture.failedFuture(dead);
        }
        memory.putBytes(offset, src, srcOffset, length);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public String toString() {
        return "InJvmRegion[" + FabricChecks.describe(this) + ", size=" + size() + ", heldBy=" + local.localNode() + "]";
    }

    private RegionMemory longWord(long offset) {
        reachable();
        FabricChecks.checkLongOffset(this, offset);
        return memory;
    }

    /** Checks an asynchronous long operation; returns its failure if the owner is dead, else null. */
    private RegionAccessException checkLongOperation(long offset) {
        local.checkOpen();
        FabricChecks.checkLongOffset(this, offset);
        return deadFailure();
    }

    private void reachable() {
        local.checkOpen();
        RegionAccessException dead = deadFailure();
        if (dead != null) {
            throw dead;
        }
    }

    /** The failure of an operation on a closed owner's region, or null while the owner is open. */
    private RegionAccessException deadFailure() {
        return owner.isClosed() ? new RegionAccessException("node is closed: " + FabricChecks.describe(this)) : null;
    }
}
