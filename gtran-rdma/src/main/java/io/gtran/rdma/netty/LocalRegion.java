package io.gtran.rdma.netty;

import io.gtran.rdma.FabricChecks;
import io.gtran.rdma.Region;
import io.gtran.rdma.RegionMemory;
import java.util.concurrent.CompletableFuture;

/**
 * A handle to a region of this node: operations go straight to the {@link RegionMemory}, with no
 * socket and no thread hop, after the same checks as every transport. The asynchronous forms run
 * at once and return completed futures.
 */
final class LocalRegion implements Region {
    private final NettyFabric fabric;
    private final RegionMemory memory;

    LocalRegion(NettyFabric fabric, RegionMemory memory) {
        this.fabric = fabric;
        this.memory = memory;
    }

    /** The fabric whose handle this is. */
    NettyFabric holder() {
        return fabric;
    }

    @Override
    public int node() {
        return fabric.localNode();
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
        fabric.checkOpen();
        FabricChecks.checkRange(this, offset, dst, dstOffset, length);
        memory.getBytes(offset, dst, dstOffset, length);
    }

    @Override
    public void write(long offset, byte[] src, int srcOffset, int length) {
        fabric.checkOpen();
        FabricChecks.checkRange(this, offset, src, srcOffset, length);
        memory.putBytes(offset, src, srcOffset, length);
    }

    @Override
    public CompletableFuture<Long> readLongAsync(long offset) {
        return CompletableFuture.completedFuture(readLong(offset));
    }

    @Override
    public CompletableFuture<Void> writeLongAsync(long offset, long value) {
        writeLong(offset, value);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<Boolean> compareAndSwapAsync(long offset, long expected, long value) {
        return CompletableFuture.completedFuture(compareAndSwap(offset, expected, value));
    }

    @Override
    public CompletableFuture<Long> fetchAddAsync(long offset, long delta) {
        return CompletableFuture.completedFuture(fetchAdd(offset, delta));
    }

    @Override
    public CompletableFuture<byte[]> readAsync(long offset, int length) {
        fabric.checkOpen();
        FabricChecks.checkTransferLength(this, offset, length);
        byte[] bytes = new byte[length];
        memory.getBytes(offset, bytes, 0, length);
        return CompletableFuture.completedFuture(bytes);
    }

    @Override
    public CompletableFuture<Void> writeAsync(long offset, byte[] src, int srcOffset, int length) {
        write(offset, src, srcOffset, length);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public String toString() {
        return "LocalRegion[" + FabricChecks.describe(this) + ", size=" + size() + "]";
    }

    private RegionMemory longWord(long offset) {
        fabric.checkOpen();
        FabricChecks.checkLongOffset(this, offset);
        return memory;
    }
}
