package io.gtran.rdma;

import java.util.concurrent.CompletableFuture;

/**
 * Region operations gathered to be issued together, as one request per node (one frame over TCP,
 * one chain of work requests over RDMA). Obtained from {@link Fabric#batch}; not thread-safe.
 *
 * <p>Each method checks its arguments at once (as the {@link Region} method of the same name
 * would, throwing the same exceptions) and returns a future that completes after {@link #flush}.
 * Nothing is issued before {@code flush}. Operations on one node's regions are applied in the
 * order they were added; operations on different nodes run in parallel. A failure (a dead peer, a
 * time-out) fails the futures of the operations it touched, with a {@link RegionAccessException}.
 *
 * <pre>{@code
 * Batch batch = fabric.batch();
 * CompletableFuture<Long> a = batch.readLong(statusOfNode1, 64);
 * CompletableFuture<Long> b = batch.readLong(statusOfNode2, 128);
 * batch.flush().join();          // both reads went out at once
 * }</pre>
 *
 * @throws IllegalArgumentException from any method given a region handle of another fabric
 */
public interface Batch {
    /** Adds a {@link Region#readLong}. */
    CompletableFuture<Long> readLong(Region region, long offset);

    /** Adds a {@link Region#writeLong}. */
    CompletableFuture<Void> writeLong(Region region, long offset, long value);

    /** Adds a {@link Region#compareAndSwap}. */
    CompletableFuture<Boolean> compareAndSwap(Region region, long offset, long expected, long value);

    /** Adds a {@link Region#fetchAdd}. */
    CompletableFuture<Long> fetchAdd(Region region, long offset, long delta);

    /** Adds a {@link Region#read} of {@code length} bytes into a new array. */
    CompletableFuture<byte[]> read(Region region, long offset, int length);

    /** Adds a {@link Region#write} of a copy of {@code src[srcOffset..srcOffset+length)}, taken now. */
    CompletableFuture<Void> write(Region region, long offset, byte[] src, int srcOffset, int length);

    /** The number of operations added since the last flush. */
    int size();

    /**
     * Issues every operation added since the last flush and empties this batch, which may then be
     * reused.
     *
     * @return a future that completes when all of them have completed, exceptionally if any failed
     * @throws IllegalStateException if the fabric is closed
     */
    CompletableFuture<Void> flush();
}
