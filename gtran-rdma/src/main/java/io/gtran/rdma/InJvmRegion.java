package io.gtran.rdma;

/**
 * A handle held by node {@code local} to a region whose memory another (or the same) in-JVM node
 * owns. Every operation first checks that the holder is open ({@link IllegalStateException}) and
 * that the owner is open ({@link RegionAccessException}: a dead peer), then its arguments with
 * {@link FabricChecks}. {@link #node()}, {@link #name()} and {@link #size()} always answer.
 */
final class InJvmRegion implements Region {
    private final InJvmFabric local;
    private final InJvmMemory memory;

    InJvmRegion(InJvmFabric local, InJvmMemory memory) {
        this.local = local;
        this.memory = memory;
    }

    @Override
    public int node() {
        return memory.owner().localNode();
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
    public String toString() {
        return "InJvmRegion[" + FabricChecks.describe(this) + ", size=" + size() + ", heldBy=" + local.localNode() + "]";
    }

    private InJvmMemory longWord(long offset) {
        reachable();
        FabricChecks.checkLongOffset(this, offset);
        return memory;
    }

    private void reachable() {
        local.checkOpen();
        if (memory.owner().isClosed()) {
            throw new RegionAccessException("node is closed: " + FabricChecks.describe(this));
        }
    }
}
