package io.gtran.rdma;

import io.gtran.rdma.spi.FabricChecks;
import io.gtran.rdma.spi.OpBatch;
import java.util.concurrent.CompletableFuture;

/**
 * Region operations gathered to be issued together, as one request per node (one frame over TCP,
 * one chain of work requests over RDMA). Obtained from {@link Fabric#batch}; not thread-safe.
 *
 * <p>Each method checks its arguments at once (as the {@link Region} method of the same name
 * would, throwing the same exceptions) and returns a future that completes after {@link #flush}.
 * Nothing is issued before {@code flush}. Operations on different nodes run in parallel. A failure
 * (a dead peer, a time-out) fails the futures of the operations it touched, with a
 * {@link RegionAccessException}.
 *
 * <p><b>Order within one node.</b> Writes and atomics on one node's regions take effect in the
 * order they were added, and each read sees every write and atomic added before it and none added
 * after it. What is not promised without a {@link #fence}: that several <em>reads</em> of a batch
 * sample memory in the order added against stores made meanwhile by others (the owning node's CPU,
 * other nodes). A read added after another read may observe memory as it was before the earlier
 * read did. Where that matters (read a word, then a word it guards, then the first word again),
 * put a {@code fence()} between them. By implementation:
 * <ul>
 *   <li>in-JVM, and decorators ({@link OpBatch}): each operation is issued through its region
 *       handle's asynchronous method, in the order added. In-JVM ones complete at once, so every
 *       operation, reads included, is applied in order and a fence costs nothing. Over a networked
 *       fabric a fence waits for the operations before it to complete: a round trip.
 *   <li>TCP (Netty): a node's operations travel in one frame and the owner applies them one after
 *       the other, reads included, in the order added; a fence costs nothing and sends nothing.
 *   <li>RDMA (DiSNI): a node's operations go out as one chain of work requests. A WRITE after a
 *       READ or atomic is fenced by the transport; READs and atomics after WRITEs are executed in
 *       order. Several READs in flight at once (a responder allowing more than one outstanding
 *       READ) are not promised to sample memory in order against concurrent CPU stores. A fence
 *       sets {@code IBV_SEND_FENCE} on the next work request, which then waits for every earlier
 *       READ and atomic of its queue pair to complete: still one chain, one post, but the fenced
 *       request waits for the round trip before it.
 * </ul>
 *
 * <pre>{@code
 * Batch batch = fabric.batch();
 * CompletableFuture<Long> a = batch.readLong(statusOfNode1, 64);
 * CompletableFuture<Long> b = batch.readLong(statusOfNode2, 128);
 * batch.flushAndWait();         // both reads went out at once; refused on a fabric thread
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

    /**
     * Adds an ordering point: on each node, the operations added after it start only after the
     * operations on that node added before it have completed, so a read after it samples memory no
     * earlier than every read before it did. Operations on different nodes stay unordered. Not an
     * operation: {@link #size} does not count it; a fence with nothing before or after it on a node
     * does nothing there. See the class comment for what it costs on each transport.
     *
     * @return this batch
     */
    Batch fence();

    /** The number of operations added since the last flush (fences not counted). */
    int size();

    /**
     * Issues every operation added since the last flush and empties this batch, which may then be
     * reused.
     *
     * @return a future that completes when all of them have completed, exceptionally if any failed
     * @throws IllegalStateException if the fabric is closed
     */
    CompletableFuture<Void> flush();

    /**
     * {@link #flush} and waits for every operation, as the synchronous {@link Region} methods wait:
     * it throws the first failure unwrapped ({@link RegionAccessException}, ...), and it is refused
     * where a synchronous remote operation is, on the fabric's own threads (TCP's I/O threads,
     * DiSNI's completion-queue, connection-manager and frame threads), with the same
     * {@link IllegalStateException} naming the nodes. A decorator's batch ({@link OpBatch}) waits
     * wherever it is called: the wrapped fabric sees only asynchronous operations.
     *
     * @throws IllegalStateException if the fabric is closed, or on a fabric's own thread
     */
    default void flushAndWait() {
        FabricChecks.awaitFlush(flush());
    }
}
