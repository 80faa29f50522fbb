package io.gtran.rdma.netty;

import io.gtran.rdma.Region;
import io.gtran.rdma.spi.FabricChecks;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A handle to a region of another node, bound to the incarnation of that node that answered the
 * look-up: every operation is checked here (the same checks and messages as every transport),
 * sent as an OPS frame over the node's connection to the peer and applied there by the peer's I/O
 * thread. The synchronous forms wait for the reply; once the peer has restarted the handle fails
 * with {@code "node restarted"}, as the region ids it holds mean nothing to the new incarnation.
 */
final class RemoteRegion implements Region {
    private final NettyFabric fabric;
    private final int node;
    private final String name;
    private final long size;
    private final int regionId;
    private final long incarnation;

    RemoteRegion(NettyFabric fabric, int node, String name, long size, int regionId, long incarnation) {
        this.fabric = fabric;
        this.node = node;
        this.name = name;
        this.size = size;
        this.regionId = regionId;
        this.incarnation = incarnation;
    }

    /** The fabric whose handle this is. */
    NettyFabric holder() {
        return fabric;
    }

    int regionId() {
        return regionId;
    }

    long incarnation() {
        return incarnation;
    }

    /** {@code "node=N, region=NAME"}. */
    String describe() {
        return FabricChecks.describe(this);
    }

    @Override
    public int node() {
        return node;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public long readLong(long offset) {
        return fabric.await(blocking().readLongAsync(offset), this);
    }

    @Override
    public void writeLong(long offset, long value) {
        fabric.await(blocking().writeLongAsync(offset, value), this);
    }

    @Override
    public boolean compareAndSwap(long offset, long expected, long value) {
        return fabric.await(blocking().compareAndSwapAsync(offset, expected, value), this);
    }

    @Override
    public long fetchAdd(long offset, long delta) {
        return fabric.await(blocking().fetchAddAsync(offset, delta), this);
    }

    @Override
    public void read(long offset, byte[] dst, int dstOffset, int length) {
        FabricChecks.checkRange(blocking(), offset, dst, dstOffset, length);
        byte[] bytes = fabric.<byte[]>await(issue(RegionOp.read(this, offset, length)), this);
        System.arraycopy(bytes, 0, dst, dstOffset, length);
    }

    @Override
    public void write(long offset, byte[] src, int srcOffset, int length) {
        FabricChecks.checkRange(blocking(), offset, src, srcOffset, length);
        fabric.<Void>await(issue(RegionOp.write(this, offset, src, srcOffset, length)), this);
    }

    @Override
    public CompletableFuture<Long> readLongAsync(long offset) {
        FabricChecks.checkLongOffset(checked(), offset);
        return issue(RegionOp.readLong(this, offset));
    }

    @Override
    public CompletableFuture<Void> writeLongAsync(long offset, long value) {
        FabricChecks.checkLongOffset(checked(), offset);
        return issue(RegionOp.writeLong(this, offset, value));
    }

    @Override
    public CompletableFuture<Boolean> compareAndSwapAsync(long offset, long expected, long value) {
        FabricChecks.checkLongOffset(checked(), offset);
        return issue(RegionOp.compareAndSwap(this, offset, expected, value));
    }

    @Override
    public CompletableFuture<Long> fetchAddAsync(long offset, long delta) {
        FabricChecks.checkLongOffset(checked(), offset);
        return issue(RegionOp.fetchAdd(this, offset, delta));
    }

    @Override
    public CompletableFuture<byte[]> readAsync(long offset, int length) {
        FabricChecks.checkTransferLength(checked(), offset, length);
        return issue(RegionOp.read(this, offset, length));
    }

    @Override
    public CompletableFuture<Void> writeAsync(long offset, byte[] src, int srcOffset, int length) {
        FabricChecks.checkRange(checked(), offset, src, srcOffset, length);
        return issue(RegionOp.write(this, offset, src, srcOffset, length)); // encoded (copied) before this returns
    }

    @Override
    public String toString() {
        return "RemoteRegion[" + describe() + ", size=" + size + ", regionId=" + regionId + ", heldBy="
                + fabric.localNode() + "]";
    }

    /** Throws if the holder is closed; returns this for the argument checks. */
    private RemoteRegion checked() {
        fabric.checkOpen();
        return this;
    }

    /** Throws if the holder is closed or the caller is an I/O thread, which must not wait for a reply. */
    private RemoteRegion blocking() {
        fabric.checkOpen();
        fabric.checkMayBlock(this);
        return this;
    }

    private <T> CompletableFuture<T> issue(RegionOp op) {
        fabric.peer(node).submitOps(List.of(op), incarnation);
        return op.future();
    }
}
