package io.gtran.rdma.spi;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.Region;
import io.gtran.rdma.RegionAccessException;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

/**
 * A handle to a region whose memory is in this JVM: any region of an in-JVM cluster, and a
 * networked fabric's handles to its own node's regions. Operations go straight to the
 * {@link RegionMemory}, with no copy and no thread hop. Every operation first checks that the
 * holding fabric is open ({@link IllegalStateException}) and that the owning node is
 * ({@link RegionAccessException}: a dead peer), then its arguments with {@link FabricChecks}.
 * {@link #node()}, {@link #name()} and {@link #size()} always answer. The asynchronous forms run
 * at once on the caller's thread and return a completed future.
 */
public final class MemoryRegion implements Region {
    private final Fabric holder;
    private final Runnable checkHolderOpen;
    private final int owner;
    private final BooleanSupplier ownerClosed;
    private final RegionMemory memory;

    /**
     * @param holder the fabric whose handle this is
     * @param checkHolderOpen throws {@code IllegalStateException("fabric is closed: node=N")} once the holder is closed
     * @param owner the id of the node that owns the memory
     * @param ownerClosed whether that node is closed (a dead peer); never true for the holder's own regions
     */
    public MemoryRegion(Fabric holder, Runnable checkHolderOpen, int owner, BooleanSupplier ownerClosed,
                        RegionMemory memory) {
        this.holder = Objects.requireNonNull(holder, "holder");
        this.checkHolderOpen = Objects.requireNonNull(checkHolderOpen, "checkHolderOpen");
        this.owner = owner;
        this.ownerClosed = Objects.requireNonNull(ownerClosed, "ownerClosed");
        this.memory = Objects.requireNonNull(memory, "memory");
    }

    /** The fabric whose handle this is (batches accept only their own fabric's handles). */
    public Fabric holder() {
        return holder;
    }

    @Override
    public int node() {
        return owner;
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
        checkHolderOpen.run();
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
        checkHolderOpen.run();
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
        return "MemoryRegion[" + FabricChecks.describe(this) + ", size=" + size() + ", heldBy=" + holder.localNode() + "]";
    }

    private RegionMemory longWord(long offset) {
        reachable();
        FabricChecks.checkLongOffset(this, offset);
        return memory;
    }

    /** Checks an asynchronous long operation; returns its failure if the owner is dead, else null. */
    private RegionAccessException checkLongOperation(long offset) {
        checkHolderOpen.run();
        FabricChecks.checkLongOffset(this, offset);
        return deadFailure();
    }

    private void reachable() {
        checkHolderOpen.run();
        RegionAccessException dead = deadFailure();
        if (dead != null) {
            throw dead;
        }
    }

    /** The failure of an operation on a closed owner's region, or null while the owner is open. */
    private RegionAccessException deadFailure() {
        return ownerClosed.getAsBoolean() ? new RegionAccessException("node is closed: " + FabricChecks.describe(this)) : null;
    }
}
