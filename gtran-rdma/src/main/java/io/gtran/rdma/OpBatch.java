package io.gtran.rdma;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A {@link Batch} that, at {@link #flush}, issues each operation through the asynchronous method
 * of its region handle, in the order they were added. Right for transports where an operation
 * costs no round trip of its own (in-JVM) or that already pipeline what they are given, and for
 * decorators, which must see every operation.
 */
public final class OpBatch implements Batch {
    private final Predicate<Region> ours;
    private final Runnable checkOpen;
    private final List<DeferredOp<?>> pending = new ArrayList<>();

    /**
     * @param ours whether a handle belongs to the batch's fabric
     * @param checkOpen throws {@link IllegalStateException} once the fabric is closed
     */
    public OpBatch(Predicate<Region> ours, Runnable checkOpen) {
        this.ours = Objects.requireNonNull(ours, "ours");
        this.checkOpen = Objects.requireNonNull(checkOpen, "checkOpen");
    }

    @Override
    public CompletableFuture<Long> readLong(Region region, long offset) {
        FabricChecks.checkLongOffset(own(region), offset);
        return add(region, r -> r.readLongAsync(offset));
    }

    @Override
    public CompletableFuture<Void> writeLong(Region region, long offset, long value) {
        FabricChecks.checkLongOffset(own(region), offset);
        return add(region, r -> r.writeLongAsync(offset, value));
    }

    @Override
    public CompletableFuture<Boolean> compareAndSwap(Region region, long offset, long expected, long value) {
        FabricChecks.checkLongOffset(own(region), offset);
        return add(region, r -> r.compareAndSwapAsync(offset, expected, value));
    }

    @Override
    public CompletableFuture<Long> fetchAdd(Region region, long offset, long delta) {
        FabricChecks.checkLongOffset(own(region), offset);
        return add(region, r -> r.fetchAddAsync(offset, delta));
    }

    @Override
    public CompletableFuture<byte[]> read(Region region, long offset, int length) {
        FabricChecks.checkTransferLength(own(region), offset, length);
        return add(region, r -> r.readAsync(offset, length));
    }

    @Override
    public CompletableFuture<Void> write(Region region, long offset, byte[] src, int srcOffset, int length) {
        FabricChecks.checkRange(own(region), offset, src, srcOffset, length);
        byte[] copy = java.util.Arrays.copyOfRange(src, srcOffset, srcOffset + length);
        return add(region, r -> r.writeAsync(offset, copy, 0, length));
    }

    @Override
    public int size() {
        return pending.size();
    }

    @Override
    public CompletableFuture<Void> flush() {
        checkOpen.run();
        List<DeferredOp<?>> issuing = new ArrayList<>(pending);
        pending.clear();
        CompletableFuture<?>[] all = new CompletableFuture<?>[issuing.size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = issuing.get(i).issue();
        }
        return CompletableFuture.allOf(all);
    }

    private Region own(Region region) {
        checkOpen.run();
        Objects.requireNonNull(region, "region");
        if (!ours.test(region)) {
            throw new IllegalArgumentException("region handle belongs to another fabric: " + FabricChecks.describe(region));
        }
        return region;
    }

    private <T> CompletableFuture<T> add(Region region, Function<Region, CompletableFuture<T>> operation) {
        DeferredOp<T> op = new DeferredOp<>(region, operation);
        pending.add(op);
        return op.result();
    }
}
