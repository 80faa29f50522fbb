package io.gtran.rdma.disni;

import com.ibm.disni.verbs.IbvSendWR;
import io.gtran.rdma.RegionAccessException;
import io.gtran.rdma.spi.FabricChecks;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

/**
 * One one-sided operation on a region: an RDMA READ, RDMA WRITE, compare-and-swap or fetch-and-add
 * work request against {@code region.address() + offset} with the region's rkey, completing
 * {@link #result}. Arguments were checked by the caller.
 *
 * @param <T> the result type
 */
abstract class RegionOp<T> extends WorkItem {
    final DisniRegion region;
    final long offset;
    /** Completed on the CQ thread, or by a time-out or a lost connection. */
    final CompletableFuture<T> result = new CompletableFuture<>();

    private RegionOp(DisniRegion region, long offset) {
        this.region = region;
        this.offset = offset;
    }

    @Override
    final void failed(String reason) {
        result.completeExceptionally(new RegionAccessException(reason + ": " + FabricChecks.describe(region)
                + ", offset=" + offset));
    }

    /** A request of {@code opcode} on {@code length} bytes at the remote address (RDMA form). */
    final IbvSendWR remote(int opcode, int length) {
        IbvSendWR request = request(opcode, length);
        request.getRdma().setRemote_addr(region.address() + offset);
        request.getRdma().setRkey(region.rkey());
        return request;
    }

    /** An atomic request: its operands go in the atomic member, which {@link AtomicWorkRequests} posts. */
    final IbvSendWR atomic(int opcode, long compareAdd, long swap) {
        IbvSendWR request = remote(opcode, Long.BYTES);
        IbvSendWR.Atomic atomic = request.getAtomic();
        atomic.setRemote_addr(region.address() + offset);
        atomic.setRkey(region.rkey());
        atomic.setCompare_add(compareAdd);
        atomic.setSwap(swap);
        return request;
    }

    /** The long an atomic left in the local buffer: the word's value before the operation. */
    final long atomicReply() {
        return region.fabric().atomicReply(bounce.buffer.getLong(0));
    }

    /** Reads the long at {@code offset} with an 8-byte RDMA READ, decoded in the owner's byte order. */
    static final class ReadLong extends RegionOp<Long> {
        ReadLong(DisniRegion region, long offset) {
            super(region, offset);
        }

        @Override
        void prepare(BouncePool pool) throws IOException {
            bounce = pool.acquire(Long.BYTES);
        }

        @Override
        IbvSendWR workRequest() {
            return remote(IbvSendWR.IBV_WR_RDMA_READ, Long.BYTES);
        }

        @Override
        void succeeded() {
            long value = bounce.buffer.duplicate().order(region.order()).getLong(0);
            region.saw(offset, value);
            result.complete(value);
        }
    }

    /** Compare-and-swap; the result is the value found, so the swap happened iff it equals {@code expected}. */
    static final class CompareAndSwap extends RegionOp<Long> {
        final long expected;
        private final long value;

        CompareAndSwap(DisniRegion region, long offset, long expected, long value) {
            super(region, offset);
            this.expected = expected;
            this.value = value;
        }

        @Override
        void prepare(BouncePool pool) throws IOException {
            bounce = pool.acquire(Long.BYTES);
        }

        @Override
        IbvSendWR workRequest() {
            return atomic(IbvSendWR.IBV_WR_ATOMIC_CMP_AND_SWP, expected, value);
        }

        @Override
        void succeeded() {
            long found = atomicReply();
            region.saw(offset, found == expected ? value : found);
            result.complete(found);
        }
    }

    /** Fetch-and-add; the result is the value before the addition. */
    static final class FetchAdd extends RegionOp<Long> {
        private final long delta;

        FetchAdd(DisniRegion region, long offset, long delta) {
            super(region, offset);
            this.delta = delta;
        }

        @Override
        void prepare(BouncePool pool) throws IOException {
            bounce = pool.acquire(Long.BYTES);
        }

        @Override
        IbvSendWR workRequest() {
            return atomic(IbvSendWR.IBV_WR_ATOMIC_FETCH_AND_ADD, delta, 0);
        }

        @Override
        void succeeded() {
            long found = atomicReply();
            region.saw(offset, found + delta);
            result.complete(found);
        }
    }

    /**
     * Writes a long with an aligned 8-byte RDMA WRITE, encoded in the owner's byte order: a long write
     * only where the device's atomics are global ({@link AtomicCapability#GLOB}), see {@link DisniRegion}.
     */
    static final class WriteLong extends RegionOp<Void> {
        private final long value;

        WriteLong(DisniRegion region, long offset, long value) {
            super(region, offset);
            this.value = value;
        }

        @Override
        void prepare(BouncePool pool) throws IOException {
            bounce = pool.acquire(Long.BYTES);
            bounce.buffer.duplicate().order(region.order()).putLong(0, value);
        }

        @Override
        IbvSendWR workRequest() {
            return remote(IbvSendWR.IBV_WR_RDMA_WRITE, Long.BYTES);
        }

        @Override
        void succeeded() {
            region.saw(offset, value);
            result.complete(null);
        }
    }

    /** Reads {@code length > 0} bytes with an RDMA READ into a new array. */
    static final class Read extends RegionOp<byte[]> {
        private final int length;

        Read(DisniRegion region, long offset, int length) {
            super(region, offset);
            this.length = length;
        }

        @Override
        void prepare(BouncePool pool) throws IOException {
            bounce = pool.acquire(length);
        }

        @Override
        IbvSendWR workRequest() {
            return remote(IbvSendWR.IBV_WR_RDMA_READ, length);
        }

        @Override
        void succeeded() {
            byte[] bytes = new byte[length];
            bounce.buffer.get(0, bytes);
            result.complete(bytes);
        }
    }

    /** Writes a copy of {@code length > 0} bytes, taken at construction, with an RDMA WRITE. */
    static final class Write extends RegionOp<Void> {
        private final byte[] data;

        Write(DisniRegion region, long offset, byte[] src, int srcOffset, int length) {
            super(region, offset);
            this.data = Arrays.copyOfRange(src, srcOffset, srcOffset + length);
        }

        @Override
        void prepare(BouncePool pool) throws IOException {
            bounce = pool.acquire(data.length);
            bounce.buffer.put(0, data);
        }

        @Override
        IbvSendWR workRequest() {
            return remote(IbvSendWR.IBV_WR_RDMA_WRITE, data.length);
        }

        @Override
        void succeeded() {
            result.complete(null);
        }
    }
}
