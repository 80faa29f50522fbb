package io.gtran.rdma.spi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The memory behind one registered region, in any transport: a zero-filled, 8-byte aligned direct
 * buffer in native byte order. Accessed only through region handles and transport servers, which
 * check state and arguments first; the methods here take checked offsets.
 *
 * <p>Long words go through a byte-buffer view {@link VarHandle} (volatile get/set, CAS, get-and-add),
 * so they are atomic and sequentially consistent; bulk copies use the buffer's absolute bulk
 * methods, which leave its position alone and are safe from any thread.
 */
public final class RegionMemory {
    /** The largest region: the largest multiple of 8 a buffer can index. */
    public static final long MAX_BYTES = Integer.MAX_VALUE & ~7L;

    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

    private final String name;
    private final ByteBuffer buffer;

    /** Allocates {@code bytes} bytes; the caller has checked them ({@code 0 < bytes <= MAX_BYTES}, multiple of 8). */
    public RegionMemory(String name, long bytes) {
        this.name = name;
        // alignedSlice: atomic access modes need an aligned address, which allocateDirect does not promise.
        this.buffer = ByteBuffer.allocateDirect((int) bytes + 7).alignedSlice(Long.BYTES).limit((int) bytes)
                .slice().order(ByteOrder.nativeOrder());
    }

    /** The buffer itself (position 0, limit {@link #size()}), for transports that register it with a NIC. */
    public ByteBuffer buffer() {
        return buffer;
    }

    public String name() {
        return name;
    }

    public long size() {
        return buffer.capacity();
    }

    public long getLongVolatile(long offset) {
        return (long) LONGS.getVolatile(buffer, (int) offset);
    }

    public void putLongVolatile(long offset, long value) {
        LONGS.setVolatile(buffer, (int) offset, value);
    }

    public boolean compareAndSetLong(long offset, long expected, long value) {
        return LONGS.compareAndSet(buffer, (int) offset, expected, value);
    }

    public long getAndAddLong(long offset, long delta) {
        return (long) LONGS.getAndAdd(buffer, (int) offset, delta);
    }

    public void getBytes(long offset, byte[] dst, int dstOffset, int length) {
        buffer.get((int) offset, dst, dstOffset, length);
    }

    public void putBytes(long offset, byte[] src, int srcOffset, int length) {
        buffer.put((int) offset, src, srcOffset, length);
    }
}
