package io.gtran.rdma;

import java.util.Objects;

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
     * Checks a message channel.
     *
     * @throws IllegalArgumentException unless {@code 0 <= channel <=} {@link Fabric#MAX_CHANNEL}
     */
    public static void checkChannel(int channel) {
        if (channel < 0 || channel > Fabric.MAX_CHANNEL) {
            throw new IllegalArgumentException("channel out of range: channel=" + channel + ", max=" + Fabric.MAX_CHANNEL);
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
        long size = region.size();
        if (length < 0 || offset < 0 || offset > size - length) {
            throw new IllegalArgumentException("range out of bounds: " + describe(region) + ", offset=" + offset
                    + ", length=" + length + ", size=" + size);
        }
        Objects.checkFromIndexSize(arrayOffset, length, array.length);
    }

    /** {@code "node=N, region=NAME"}, the prefix every region message uses. */
    public static String describe(Region region) {
        return "node=" + region.node() + ", region=" + region.name();
    }
}
