package io.gtran.rdma;

import java.util.concurrent.CompletableFuture;

/**
 * A handle to a registered memory region of some node, addressed by byte offset; obtained from
 * {@link Fabric#register} or {@link Fabric#connect}. Every synchronous operation is complete when
 * it returns; each has an asynchronous form ({@code ...Async}) returning a future, and
 * {@link Fabric#batch} gathers many into one request per node.
 *
 * <p><b>Long operations</b> ({@link #readLong}, {@link #writeLong}, {@link #compareAndSwap},
 * {@link #fetchAdd}) need an 8-byte aligned offset with {@code offset + 8 <= size()}. Each is
 * atomic, and all of them are sequentially consistent with respect to each other, from every
 * node, as Java {@code volatile} accesses are. Because that is the only ordering a region offers
 * (RDMA atomics have no weaker or stronger form), the names carry no ordering suffix; read every
 * one as "volatile". A long is stored in the owning node's native byte order.
 *
 * <p><b>Bulk operations</b> ({@link #read}, {@link #write}) take any offset and length inside the
 * region. They are not atomic as a whole and may tear against concurrent writes to the same
 * bytes. A bulk write that returned before a long write, CAS or fetch-add by the same thread is
 * visible to anyone who observed that long operation's effect: write the data, then publish it
 * through a long word.
 *
 * <p>Misuse throws {@link IllegalArgumentException} whose message names the region,
 * {@code offset=} and {@code size=} (and {@code length=} for bulk operations); an array range
 * outside the caller's array throws {@link IndexOutOfBoundsException}. A handle to a region of a
 * closed or unreachable node throws {@link RegionAccessException}; a handle obtained from a
 * fabric that has since been closed throws {@link IllegalStateException}. The asynchronous forms
 * throw misuse and a closed fabric at once, and put every other failure ({@link RegionAccessException}
 * for a dead peer or a time-out) in the future. Bulk lengths are at most
 * {@link Fabric#MAX_TRANSFER_BYTES}.
 */
public interface Region {
    /** The id of the node that owns this region's memory. */
    int node();

    /** The name the region was registered under. */
    String name();

    /** The region's size in bytes, a positive multiple of 8. */
    long size();

    /** Reads the long at {@code offset} (volatile read). */
    long readLong(long offset);

    /** Writes {@code value} at {@code offset} (volatile write). */
    void writeLong(long offset, long value);

    /**
     * Atomically sets the long at {@code offset} to {@code value} if it equals {@code expected}.
     *
     * @return whether the swap happened
     */
    boolean compareAndSwap(long offset, long expected, long value);

    /**
     * Atomically adds {@code delta} to the long at {@code offset} (wrapping on overflow).
     *
     * @return the value before the addition
     */
    long fetchAdd(long offset, long delta);

    /** Copies {@code length} bytes from the region at {@code offset} into {@code dst[dstOffset..]}. */
    void read(long offset, byte[] dst, int dstOffset, int length);

    /** Copies {@code length} bytes from {@code src[srcOffset..]} into the region at {@code offset}. */
    void write(long offset, byte[] src, int srcOffset, int length);

    /** {@link #readLong}, completing when the value has arrived. */
    CompletableFuture<Long> readLongAsync(long offset);

    /** {@link #writeLong}, completing when the write has been applied. */
    CompletableFuture<Void> writeLongAsync(long offset, long value);

    /** {@link #compareAndSwap}, completing with whether the swap happened. */
    CompletableFuture<Boolean> compareAndSwapAsync(long offset, long expected, long value);

    /** {@link #fetchAdd}, completing with the value before the addition. */
    CompletableFuture<Long> fetchAddAsync(long offset, long delta);

    /** {@link #read} of {@code length} bytes into a new array. */
    CompletableFuture<byte[]> readAsync(long offset, int length);

    /** {@link #write} of a copy of {@code src[srcOffset..srcOffset+length)}, taken before this returns. */
    CompletableFuture<Void> writeAsync(long offset, byte[] src, int srcOffset, int length);
}
