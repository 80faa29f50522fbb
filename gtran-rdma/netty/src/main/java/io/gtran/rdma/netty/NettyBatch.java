package io.gtran.rdma.netty;

import io.gtran.rdma.Batch;
import io.gtran.rdma.Region;
import io.gtran.rdma.spi.DeferredOp;
import io.gtran.rdma.spi.FabricChecks;
import io.gtran.rdma.spi.MemoryRegion;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * A {@link Batch} of the Netty fabric: at {@link #flush} the operations on each peer go out as one
 * OPS frame (more only if they pass the frame limit), answered by one OPS_REPLY and applied there
 * in the order they were added; operations on this node's own regions are applied at once, in
 * order, during the flush. Both apply reads in order too, so a {@link #fence} costs nothing.
 */
final class NettyBatch implements Batch {
    private final NettyFabric fabric;
    private final List<Object> added = new ArrayList<>(); // RegionOp (remote) or DeferredOp (local)

    NettyBatch(NettyFabric fabric) {
        this.fabric = fabric;
    }

    @Override
    public CompletableFuture<Long> readLong(Region region, long offset) {
        FabricChecks.checkLongOffset(own(region), offset);
        return region instanceof RemoteRegion remote ? remote(RegionOp.readLong(remote, offset))
                : local(region, r -> r.readLongAsync(offset));
    }

    @Override
    public CompletableFuture<Void> writeLong(Region region, long offset, long value) {
        FabricChecks.checkLongOffset(own(region), offset);
        return region instanceof RemoteRegion remote ? remote(RegionOp.writeLong(remote, offset, value))
                : local(region, r -> r.writeLongAsync(offset, value));
    }

    @Override
    public CompletableFuture<Boolean> compareAndSwap(Region region, long offset, long expected, long value) {
        FabricChecks.checkLongOffset(own(region), offset);
        return region instanceof RemoteRegion remote ? remote(RegionOp.compareAndSwap(remote, offset, expected, value))
                : local(region, r -> r.compareAndSwapAsync(offset, expected, value));
    }

    @Override
    public CompletableFuture<Long> fetchAdd(Region region, long offset, long delta) {
        FabricChecks.checkLongOffset(own(region), offset);
        return region instanceof RemoteRegion remote ? remote(RegionOp.fetchAdd(remote, offset, delta))
                : local(region, r -> r.fetchAddAsync(offset, delta));
    }

    @Override
    public CompletableFuture<byte[]> read(Region region, long offset, int length) {
        FabricChecks.checkTransferLength(own(region), offset, length);
        return region instanceof RemoteRegion remote ? remote(RegionOp.read(remote, offset, length))
                : local(region, r -> r.readAsync(offset, length));
    }

    @Override
    public CompletableFuture<Void> write(Region region, long offset, byte[] src, int srcOffset, int length) {
        FabricChecks.checkRange(own(region), offset, src, srcOffset, length);
        byte[] copy = Arrays.copyOfRange(src, srcOffset, srcOffset + length);
        return region instanceof RemoteRegion remote ? remote(RegionOp.write(remote, offset, copy, 0, length))
                : local(region, r -> r.writeAsync(offset, copy, 0, length));
    }

    @Override
    public Batch fence() {
        fabric.checkOpen();
        return this; // the owner applies a node's operations one after the other: already in order
    }

    @Override
    public int size() {
        return added.size();
    }

    @Override
    public CompletableFuture<Void> flush() {
        fabric.checkOpen();
        List<Object> issuing = new ArrayList<>(added);
        added.clear();
        CompletableFuture<?>[] all = new CompletableFuture<?>[issuing.size()];
        Map<Destination, List<RegionOp>> remote = new LinkedHashMap<>();
        for (int i = 0; i < all.length; i++) {
            Object op = issuing.get(i);
            if (op instanceof RegionOp regionOp) {
                remote.computeIfAbsent(new Destination(regionOp.region.node(), regionOp.region.incarnation()),
                        d -> new ArrayList<>()).add(regionOp);
                all[i] = regionOp.future();
            } else {
                all[i] = ((DeferredOp<?>) op).issue();
            }
        }
        remote.forEach((destination, ops) -> fabric.peer(destination.node()).submitOps(ops, destination.incarnation()));
        return CompletableFuture.allOf(all);
    }

    @Override
    public void flushAndWait() {
        fabric.checkMayBlock("batch of " + added.size() + " operations: node=" + nodes());
        FabricChecks.awaitFlush(flush());
    }

    /** The nodes of the operations added, for messages. */
    private String nodes() {
        return added.stream().map(op -> op instanceof RegionOp remote ? remote.region.node() : fabric.localNode())
                .distinct().map(String::valueOf).collect(java.util.stream.Collectors.joining(","));
    }

    @Override
    public String toString() {
        return "NettyBatch[node=" + fabric.localNode() + ", size=" + added.size() + "]";
    }

    private Region own(Region region) {
        fabric.checkOpen();
        Objects.requireNonNull(region, "region");
        boolean ours = region instanceof RemoteRegion remote ? remote.holder() == fabric
                : region instanceof MemoryRegion local && local.holder() == fabric;
        if (!ours) {
            throw new IllegalArgumentException("region handle belongs to another fabric: " + FabricChecks.describe(region));
        }
        return region;
    }

    private <T> CompletableFuture<T> remote(RegionOp op) {
        added.add(op);
        return op.future();
    }

    private <T> CompletableFuture<T> local(Region region, Function<Region, CompletableFuture<T>> operation) {
        DeferredOp<T> op = new DeferredOp<>(region, operation);
        added.add(op);
        return op.result();
    }

    /** The peer incarnation a group of remote operations is for: one OPS frame each. */
    private record Destination(int node, long incarnation) {
    }
}
