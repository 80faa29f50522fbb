package io.gtran.rdma.disni;

import io.gtran.rdma.spi.RegionMemory;

/**
 * The start-up check of RDMA atomics on a node's loopback connection: a fetch-and-add of 0, a
 * compare-and-swap, an 8-byte read and a long write (an RDMA WRITE or a compare-and-swap loop, see
 * {@link DisniRegion}) of a word whose bytes are all different, compared with what the CPU sees. It catches devices or drivers without remote atomics (the swap does not happen,
 * or the queue pair fails) and HCAs that return atomic results in big-endian order on a
 * little-endian host (reported through {@code swapReplies}, after which replies are byte-swapped).
 */
final class AtomicsProbe {
    static final long VALUE = 0x0102030405060708L;

    private AtomicsProbe() {
    }

    /**
     * Runs the probe on {@code handle}, a loopback handle to {@code memory}.
     *
     * @throws IllegalStateException naming what went wrong
     * @throws io.gtran.rdma.RegionAccessException if a request failed outright
     */
    static void run(DisniRegion handle, RegionMemory memory, Runnable swapReplies) {
        memory.putLongVolatile(0, VALUE);
        long fetched = handle.fetchAdd(0, 0);
        if (fetched == Long.reverseBytes(VALUE)) {
            swapReplies.run();
        } else if (fetched != VALUE) {
            throw failed(handle, "fetch-and-add of 0 returned 0x" + Long.toHexString(fetched));
        }
        if (!handle.compareAndSwap(0, VALUE, VALUE + 1) || memory.getLongVolatile(0) != VALUE + 1) {
            throw failed(handle, "compare-and-swap did not swap; memory holds 0x" + Long.toHexString(memory.getLongVolatile(0)));
        }
        long read = handle.readLong(0);
        if (read != VALUE + 1) {
            throw failed(handle, "an 8-byte RDMA READ returned 0x" + Long.toHexString(read));
        }
        handle.writeLong(0, VALUE + 2);
        if (memory.getLongVolatile(0) != VALUE + 2) {
            throw failed(handle, "a long write left 0x" + Long.toHexString(memory.getLongVolatile(0)));
        }
    }

    private static IllegalStateException failed(DisniRegion handle, String what) {
        return new IllegalStateException("RDMA atomics probe failed on node=" + handle.node() + ": " + what
                + " (the word was 0x" + Long.toHexString(VALUE) + "); this device cannot serve gtran regions");
    }
}
