package io.gtran.rdma.spi;

import io.gtran.rdma.Batch;
import io.gtran.rdma.Region;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A {@link Batch} that, at {@link #flush}, issues each operation through the asynchronous method
 * of its region handle, in the order they were added; the operations after a {@link #fence} are
 * issued once those before it have completed (at once where they completed synchronously). Right for transports where an operation
 * costs no round trip of its own (in-JVM) or that already pipeline what they are given, and for
 * decorators, which must see every operation.
 */
public final class OpBatch implements Batch {
    private final Predicate<Region> ours;
    private final Runnable checkOpen;
    private List<DeferredOp<?>> pending = new ArrayList<>(); // since the last fence
    private final List<List<DeferredOp<?>>> fenced = new ArrayList<>(); // the groups before it, in order

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
    public Batch fence() {
        checkOpen.run();
        if (!pending.isEmpty()) {
            fenced.add(pending);
            pending = new ArrayList<>();
        }
        return this;
    }

    @Override
    public int size() {
        return pending.size() + fenced.stream().mapToInt(List::size).sum();
    }

    @Override
    public CompletableFuture<Void> flush() {
        checkOpen.run();
        List<List<DeferredOp<?>>> groups = new ArrayList<>(fenced);
        groups.add(pending);
        fenced.clear();
        pending = new ArrayList<>();
        CompletableFuture<?>[] all = groups.stream().flatMap(List::stream).map(DeferredOp::result)
                .toArray(CompletableFuture<?>[]::new);
        issueFrom(groups, 0);
        return CompletableFuture.allOf(all);
    }

    /** Issues the groups from {@code from} in order, each after the one before has completed; iteratively while they complete at once. */
    private static void issueFrom(List<List<DeferredOp<?>>> groups, int from) {
        for (int i = from; i < groups.size(); i++) {
            CompletableFuture<Void> group = CompletableFuture.allOf(groups.get(i).stream().map(DeferredOp::issue)
                    .toArray(CompletableFuture<?>[]::new));
            if (!group.isDone() && i + 1 < groups.size()) {
                int next = i + 1;
                group.whenComplete((ignored, failure) -> issueFrom(groups, next)); // failed or not: order only
                return;
            }
        }
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
