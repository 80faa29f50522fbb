package io.gtran.rdma;

/**
 * A handle to a registered memory region of some node, addressed by byte offset; obtained from
 * {@link Fabric#register} or {@link Fabric#connect}. Every operation is complete when it returns.
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
 * fabric that has since been closed throws {@link IllegalStateException}.
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
}
