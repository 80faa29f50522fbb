package io.gtran.rdma.netty;

import static io.gtran.rdma.netty.OpDescriptor.CAS;
import static io.gtran.rdma.netty.OpDescriptor.FETCH_ADD;
import static io.gtran.rdma.netty.OpDescriptor.READ;
import static io.gtran.rdma.netty.OpDescriptor.READ_LONG;
import static io.gtran.rdma.netty.OpDescriptor.WRITE;
import static io.gtran.rdma.netty.OpDescriptor.WRITE_LONG;

import io.netty.buffer.ByteBuf;
import java.util.concurrent.CompletableFuture;

/**
 * One one-sided operation on a remote region, already checked, with the future its caller holds:
 * encoded into an {@code OPS} frame ({@link OpDescriptor}) and completed from the matching result
 * of the {@code OPS_REPLY}.
 */
final class RegionOp {
    final byte code;
    final RemoteRegion region;
    final long offset;
    private final long first;
    private final long second;
    private final int length;
    private final byte[] data;
    private final int dataOffset;
    private final CompletableFuture<Object> result = new CompletableFuture<>();

    private RegionOp(byte code, RemoteRegion region, long offset, long first, long second, int length, byte[] data,
                     int dataOffset) {
        this.code = code;
        this.region = region;
        this.offset = offset;
        this.first = first;
        this.second = second;
        this.length = length;
        this.data = data;
        this.dataOffset = dataOffset;
    }

    static RegionOp readLong(RemoteRegion region, long offset) {
        return new RegionOp(READ_LONG, region, offset, 0, 0, 0, null, 0);
    }

    static RegionOp writeLong(RemoteRegion region, long offset, long value) {
        return new RegionOp(WRITE_LONG, region, offset, value, 0, 0, null, 0);
    }

    static RegionOp compareAndSwap(RemoteRegion region, long offset, long expected, long value) {
        return new RegionOp(CAS, region, offset, expected, value, 0, null, 0);
    }

    static RegionOp fetchAdd(RemoteRegion region, long offset, long delta) {
        return new RegionOp(FETCH_ADD, region, offset, delta, 0, 0, null, 0);
    }

    static RegionOp read(RemoteRegion region, long offset, int length) {
        return new RegionOp(READ, region, offset, 0, 0, length, null, 0);
    }

    /** A write of {@code src[srcOffset..srcOffset+length)}, which must not change until the op is encoded. */
    static RegionOp write(RemoteRegion region, long offset, byte[] src, int srcOffset, int length) {
        return new RegionOp(WRITE, region, offset, 0, 0, length, src, srcOffset);
    }

    /** The future of this operation's result (Long, Boolean, byte[] or null, by code). */
    @SuppressWarnings("unchecked")
    <T> CompletableFuture<T> future() {
        return (CompletableFuture<T>) (CompletableFuture<?>) result;
    }

    /** The bytes this operation takes in an OPS body. */
    int encodedLength() {
        return OpDescriptor.opLength(code, length);
    }

    /** The bytes its result takes in an OPS_REPLY body. */
    int resultLength() {
        return OpDescriptor.resultLength(code, length);
    }

    /** Appends this operation to an OPS body. */
    void encode(ByteBuf out) {
        out.writeByte(code);
        out.writeInt(region.regionId());
        out.writeLong(offset);
        switch (code) {
            case WRITE_LONG, FETCH_ADD -> out.writeLong(first);
            case CAS -> out.writeLong(first).writeLong(second);
            case READ -> out.writeInt(length);
            case WRITE -> out.writeInt(length).writeBytes(data, dataOffset, length);
            default -> { } // READ_LONG: no arguments
        }
    }

    /** Completes this operation from its result at the reader index of {@code results}, which it advances. */
    void complete(ByteBuf results) {
        switch (code) {
            case READ_LONG, FETCH_ADD -> result.complete(results.readLong());
            case CAS -> {
                byte swapped = results.readByte();
                if (swapped != 0 && swapped != 1) {
                    throw new ProtocolException("bad CAS result: swapped=" + swapped);
                }
                result.complete(swapped == 1);
            }
            case READ -> {
                byte[] bytes = new byte[length];
                results.readBytes(bytes);
                result.complete(bytes);
            }
            default -> result.complete(null); // writes: no result
        }
    }

    /** Fails this operation's future; a no-op once it completed. */
    void fail(RuntimeException failure) {
        result.completeExceptionally(failure);
    }

    boolean isDone() {
        return result.isDone();
    }

    @Override
    public String toString() {
        return OpDescriptor.name(code) + "[" + region.describe() + ", offset=" + offset + "]";
    }
}
