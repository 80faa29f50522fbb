package io.gtran.rdma.disni;

import io.gtran.rdma.Region;
import io.gtran.rdma.RegionAccessException;
import io.gtran.rdma.spi.FabricChecks;
import java.nio.ByteOrder;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A handle to a registered region: its owner's node, the NIC address and rkey the owner registered it
 * under, and the owner's byte order. Every operation is a one-sided work request through a
 * {@link Connection}, also on this node's own regions (see {@link DisniFabric} on atomics), and the
 * synchronous forms wait for the asynchronous ones.
 *
 * <p>A handle to another node's region is bound to the connection it was looked up through: once that
 * connection is lost (the node closed, crashed or became unreachable) the handle stays dead and
 * throws {@link RegionAccessException}, even if the node comes back, because its registration
 * (address, rkey) died with it; {@link io.gtran.rdma.Fabric#connect} again. A handle to this node's
 * own region uses the current loopback connection.
 *
 * <p><b>Long writes</b> must stay atomic against RDMA atomics ({@link AtomicCapability}). Where the
 * device reports {@code IBV_ATOMIC_GLOB} a long write is an aligned 8-byte RDMA WRITE: one request,
 * in order with the others of its queue pair. Elsewhere an atomic is atomic only against other
 * atomics of the same HCA and a plain write landing between an atomic's read and write would be
 * lost, so a long write is a compare-and-swap loop: its first guess is the value this handle last
 * saw in the word ({@link LastSeenWords}; usually right, so one round trip), then whatever each
 * failed swap found. The loop runs in program order ({@link Connection#inOrder}): the caller's later
 * operations on the connection wait until it has succeeded. Long reads are 8-byte RDMA READs of
 * aligned words, which current HCAs perform as single accesses (the InfiniBand specification does
 * not promise it).
 */
final class DisniRegion implements Region {
    private final DisniFabric fabric;
    private final Connection bound; // null: this node's own region, reached through the loopback connection
    private final int node;
    private final String name;
    private final long size;
    private final long address;
    private final int rkey;
    private final ByteOrder order;
    private final LastSeenWords seen = new LastSeenWords();

    DisniRegion(DisniFabric fabric, Connection bound, int node, String name, long size, long address, int rkey,
                ByteOrder order) {
        this.fabric = fabric;
        this.bound = bound;
        this.node = node;
        this.name = name;
        this.size = size;
        this.address = address;
        this.rkey = rkey;
        this.order = order;
    }

    DisniFabric fabric() {
        return fabric;
    }

    long address() {
        return address;
    }

    int rkey() {
        return rkey;
    }

    ByteOrder order() {
        return order;
    }

    /** Remembers what a completed operation saw or left in the word at {@code offset}: a long write's next guess. */
    void saw(long offset, long value) {
        seen.saw(offset, value);
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
        blocking();
        return DisniFabric.await(readLongAsync(offset));
    }

    @Override
    public void writeLong(long offset, long value) {
        blocking();
        DisniFabric.await(writeLongAsync(offset, value));
    }

    @Override
    public boolean compareAndSwap(long offset, long expected, long value) {
        blocking();
        return DisniFabric.await(compareAndSwapAsync(offset, expected, value));
    }

    @Override
    public long fetchAdd(long offset, long delta) {
        blocking();
        return DisniFabric.await(fetchAddAsync(offset, delta));
    }

    @Override
    public void read(long offset, byte[] dst, int dstOffset, int length) {
        blocking();
        FabricChecks.checkRange(this, offset, dst, dstOffset, length);
        byte[] bytes = DisniFabric.await(readAsync(offset, length));
        System.arraycopy(bytes, 0, dst, dstOffset, length);
    }

    @Override
    public void write(long offset, byte[] src, int srcOffset, int length) {
        blocking();
        DisniFabric.await(writeAsync(offset, src, srcOffset, length));
    }

    @Override
    public CompletableFuture<Long> readLongAsync(long offset) {
        checkLong(offset);
        return issue(new RegionOp.ReadLong(this, offset));
    }

    @Override
    public CompletableFuture<Void> writeLongAsync(long offset, long value) {
        checkLong(offset);
        if (fabric.plainLongWrites()) {
            return issue(new RegionOp.WriteLong(this, offset, value));
        }
        Connection connection;
        try {
            connection = connection();
        } catch (RegionAccessException e) {
            return CompletableFuture.failedFuture(e);
        }
        return writeLongVia(connection, offset, value);
    }

    @Override
    public CompletableFuture<Boolean> compareAndSwapAsync(long offset, long expected, long value) {
        checkLong(offset);
        return issue(new RegionOp.CompareAndSwap(this, offset, expected, value)).thenApply(found -> found == expected);
    }

    @Override
    public CompletableFuture<Long> fetchAddAsync(long offset, long delta) {
        checkLong(offset);
        return issue(new RegionOp.FetchAdd(this, offset, delta));
    }

    @Override
    public CompletableFuture<byte[]> readAsync(long offset, int length) {
        fabric.checkOpen();
        FabricChecks.checkTransferLength(this, offset, length);
        if (length == 0) {
            return reachableOrFailed().thenApply(ignored -> new byte[0]);
        }
        return issue(new RegionOp.Read(this, offset, length));
    }

    @Override
    public CompletableFuture<Void> writeAsync(long offset, byte[] src, int srcOffset, int length) {
        fabric.checkOpen();
        FabricChecks.checkRange(this, offset, src, srcOffset, length);
        if (length == 0) {
            return reachableOrFailed();
        }
        return issue(new RegionOp.Write(this, offset, src, srcOffset, length));
    }

    /**
     * Writes {@code value} atomically with respect to RDMA atomics by compare-and-swap, in program
     * order on {@code connection}: from the last value seen in the word, then from whatever each
     * failed attempt found, until one succeeds or the operation time-out passes.
     */
    CompletableFuture<Void> writeLongVia(Connection connection, long offset, long value) {
        return connection.inOrder(() -> {
            CompletableFuture<Void> written = new CompletableFuture<>();
            long deadline = System.nanoTime() + fabric.operationTimeoutMillis() * 1_000_000L;
            swapUntilWritten(connection, offset, seen.guess(offset), value, deadline, written);
            return written;
        });
    }

    /** The connection to issue on; throws {@link RegionAccessException} for a dead handle. */
    Connection connection() {
        fabric.checkOpen();
        Connection connection = bound != null ? bound : fabric.loopback();
        String lost = connection.lostBecause();
        if (lost != null) {
            throw new RegionAccessException(lost + ": " + FabricChecks.describe(this));
        }
        return connection;
    }

    @Override
    public String toString() {
        return "DisniRegion[" + FabricChecks.describe(this) + ", size=" + size + ", heldBy=" + fabric.localNode()
                + ", rkey=" + Integer.toHexString(rkey) + (bound == null ? ", local" : ", via=" + bound) + "]";
    }

    private void swapUntilWritten(Connection connection, long offset, long guess, long value, long deadline,
                                  CompletableFuture<Void> written) {
        RegionOp.CompareAndSwap attempt = new RegionOp.CompareAndSwap(this, offset, guess, value);
        connection.postNow(List.of(attempt), fabric.operationTimeoutMillis()); // the loop is what later posts wait for
        attempt.result.whenCompleteAsync((found, failure) -> {
            if (failure != null) {
                written.completeExceptionally(failure);
            } else if (found == guess) {
                written.complete(null);
            } else if (System.nanoTime() - deadline > 0) {
                written.completeExceptionally(new RegionAccessException("long write kept losing races for "
                        + fabric.operationTimeoutMillis() + " ms: " + FabricChecks.describe(this) + ", offset=" + offset));
            } else {
                swapUntilWritten(connection, offset, found, value, deadline, written);
            }
        }, fabric.continuations());
    }

    private <T> CompletableFuture<T> issue(RegionOp<T> op) {
        Connection connection;
        try {
            connection = connection();
        } catch (RegionAccessException e) {
            return CompletableFuture.failedFuture(e);
        }
        connection.post(List.of(op));
        return op.result;
    }

    private CompletableFuture<Void> reachableOrFailed() {
        try {
            connection();
            return CompletableFuture.completedFuture(null);
        } catch (RegionAccessException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Throws if the fabric is closed or the caller is one of its own threads: every operation, on
     * this node's own regions too, completes on the CQ thread ({@link FabricThreads}).
     */
    private void blocking() {
        fabric.checkOpen();
        FabricThreads.checkMayBlock(FabricChecks.describe(this));
    }

    private void checkLong(long offset) {
        fabric.checkOpen();
        FabricChecks.checkLongOffset(this, offset);
    }
}
