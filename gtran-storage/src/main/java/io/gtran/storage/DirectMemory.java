package io.gtran.storage;

import java.lang.reflect.Field;
import java.nio.Buffer;
import java.nio.ByteBuffer;

/**
 * Plain reads of a pool chunk's memory by address, for the one loop where {@link ByteBuffer}'s
 * per-call checks cost more than the data: {@link EdgeRowLists#readNeighbours}. A
 * {@code ByteBuffer.getLong} checks the index against the limit, the buffer's scope and its byte
 * order on every call; here the caller bounds every address once, from the row's slot and its
 * validated cell count, so all the loop does is load.
 *
 * <p>Rules for callers, which keep every read inside live memory:
 * <ul>
 *   <li>Take the address from a chunk the caller holds in a local variable, and keep that variable
 *       reachable ({@link java.lang.ref.Reference#reachabilityFence}) until the last read, so the
 *       buffer cannot be collected, and its memory freed, mid-read.</li>
 *   <li>Read only at offsets the pool's layout puts inside the chunk: a slot below the pool's
 *       high-water mark whose chunk is present (a released chunk's is null), a field inside the slot, a cell index bounded by
 *       the row's capacity.</li>
 * </ul>
 * Reads only; every write to the store still goes through the buffers.
 */
final class DirectMemory {
    private static final sun.misc.Unsafe UNSAFE;
    private static final long ADDRESS_FIELD;
    private static final long LONG_ARRAY_BASE;

    static {
        try {
            Field theUnsafe = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            theUnsafe.setAccessible(true);
            UNSAFE = (sun.misc.Unsafe) theUnsafe.get(null);
            ADDRESS_FIELD = UNSAFE.objectFieldOffset(Buffer.class.getDeclaredField("address"));
            LONG_ARRAY_BASE = UNSAFE.arrayBaseOffset(long[].class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new ExceptionInInitializerError(new IllegalStateException(
                    "gtran-storage needs sun.misc.Unsafe (module jdk.unsupported) to read direct buffers: " + e, e));
        }
    }

    private DirectMemory() {
    }

    /** The address of a direct buffer's first byte. */
    static long address(ByteBuffer direct) {
        if (!direct.isDirect()) {
            throw new IllegalArgumentException("not a direct buffer: " + direct);
        }
        return UNSAFE.getLong(direct, ADDRESS_FIELD);
    }

    static long getLong(long address) {
        return UNSAFE.getLong(address);
    }

    static int getInt(long address) {
        return UNSAFE.getInt(address);
    }

    /** Copies {@code count} 8-byte words from {@code address} into {@code dst[dstIndex..]}; the caller has checked both ranges. */
    static void copyLongs(long address, long[] dst, int dstIndex, int count) {
        UNSAFE.copyMemory(null, address, dst, LONG_ARRAY_BASE + (long) dstIndex * Long.BYTES, (long) count * Long.BYTES);
    }
}
