package io.gtran.rdma.spi;

import io.gtran.rdma.Batch;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.Region;
import io.gtran.rdma.RegionAccessException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Argument checks shared by every {@link Fabric} and {@link Region} implementation, so that all
 * transports reject misuse with the same exceptions and messages (the contract tests match them).
 * Each check returns normally or throws; none allocates on success.
 */
public final class FabricChecks {
    private FabricChecks() {
    }

    /**
     * Checks a node id.
     *
     * @throws IllegalArgumentException unless {@code 0 <= node <=} {@link Fabric#MAX_NODE}
     */
    public static void checkNodeId(int node) {
        if (node < 0 || node > Fabric.MAX_NODE) {
            throw new IllegalArgumentException("node id out of range: node=" + node + ", max=" + Fabric.MAX_NODE);
        }
    }

    /**
     * Checks a mailbox name: not empty, at most {@link Fabric#MAX_MAILBOX_NAME_BYTES} UTF-8 bytes.
     *
     * @return the name's UTF-8 bytes, which transports put in frames
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException naming {@code mailbox=} otherwise
     */
    public static byte[] checkMailboxName(String name) {
        Objects.requireNonNull(name, "mailbox");
        byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
        if (utf8.length == 0 || utf8.length > Fabric.MAX_MAILBOX_NAME_BYTES) {
            throw new IllegalArgumentException("mailbox name must be 1.." + Fabric.MAX_MAILBOX_NAME_BYTES
                    + " UTF-8 bytes: mailbox=" + (utf8.length > 64 ? name.substring(0, 32) + "..." : name)
                    + ", bytes=" + utf8.length);
        }
        return utf8;
    }

    /**
     * Checks a message payload's size.
     *
     * @throws NullPointerException if {@code payload} is null
     * @throws IllegalArgumentException naming {@code bytes=} and {@code max=} if it is larger than
     *     {@link Fabric#MAX_TRANSFER_BYTES}
     */
    public static void checkPayload(byte[] payload) {
        Objects.requireNonNull(payload, "payload");
        if (payload.length > Fabric.MAX_TRANSFER_BYTES) {
            throw new IllegalArgumentException("message too large: bytes=" + payload.length + ", max="
                    + Fabric.MAX_TRANSFER_BYTES);
        }
    }

    /**
     * Checks a mailbox capacity.
     *
     * @throws IllegalArgumentException naming {@code capacity=} unless it is positive
     */
    public static void checkCapacity(String mailbox, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("mailbox capacity must be positive: mailbox=" + mailbox + ", capacity="
                    + capacity);
        }
    }

    /**
     * Checks the arguments of {@link Fabric#register}.
     *
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is empty or {@code bytes} is not a positive
     *     multiple of 8
     */
    public static void checkRegistration(String name, long bytes) {
        Objects.requireNonNull(name, "name");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("region name is empty: bytes=" + bytes);
        }
        if (bytes <= 0 || (bytes & 7) != 0) {
            throw new IllegalArgumentException("region size must be a positive multiple of 8: name=" + name
                    + ", bytes=" + bytes);
        }
    }

    /**
     * Checks the offset of a long operation: 8-byte aligned and {@code offset + 8 <= size}.
     *
     * @throws IllegalArgumentException naming the region, {@code offset=} and {@code size=}
     */
    public static void checkLongOffset(Region region, long offset) {
        long size = region.size();
        if ((offset & 7) != 0) {
            throw new IllegalArgumentException("misaligned long offset: " + describe(region) + ", offset=" + offset
                    + ", size=" + size);
        }
        if (offset < 0 || offset > size - Long.BYTES) {
            throw new IllegalArgumentException("long offset out of range: " + describe(region) + ", offset=" + offset
                    + ", size=" + size);
        }
    }

    /**
     * Checks the arguments of a bulk operation: the region range {@code [offset, offset + length)}
     * and the array range {@code [arrayOffset, arrayOffset + length)}.
     *
     * @throws IllegalArgumentException if the region range is outside the region or {@code length}
     *     is negative, naming the region, {@code offset=}, {@code length=} and {@code size=}
     * @throws IndexOutOfBoundsException if the array range is outside {@code array}
     * @throws NullPointerException if {@code array} is null
     */
    public static void checkRange(Region region, long offset, byte[] array, int arrayOffset, int length) {
        Objects.requireNonNull(array, "array");
        checkTransferLength(region, offset, length);
        Objects.checkFromIndexSize(arrayOffset, length, array.length);
    }

    /**
     * Checks the region range {@code [offset, offset + length)} of a bulk operation and that
     * {@code length} is at most {@link Fabric#MAX_TRANSFER_BYTES}.
     *
     * @throws IllegalArgumentException naming the region, {@code offset=}, {@code length=} and
     *     {@code size=} (and {@code max=} for a length over the limit)
     */
    public static void checkTransferLength(Region region, long offset, int length) {
        long size = region.size();
        if (length > Fabric.MAX_TRANSFER_BYTES) {
            throw new IllegalArgumentException("transfer too large: " + describe(region) + ", offset=" + offset
                    + ", length=" + length + ", size=" + size + ", max=" + Fabric.MAX_TRANSFER_BYTES);
        }
        if (length < 0 || offset < 0 || offset > size - length) {
            throw new IllegalArgumentException("range out of bounds: " + describe(region) + ", offset=" + offset
                    + ", length=" + length + ", size=" + size);
        }
    }

    /** {@code "node=N, region=NAME"}, the prefix every region message uses. */
    public static String describe(Region region) {
        return "node=" + region.node() + ", region=" + region.name();
    }

    /**
     * Waits for a batch's {@code flushed} future and throws its failure unwrapped, as a synchronous
     * region operation would ({@link Batch#flushAndWait}).
     */
    public static void awaitFlush(CompletableFuture<Void> flushed) {
        try {
            flushed.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new RegionAccessException(String.valueOf(e.getCause()));
        }
    }
}
