package io.gtran.storage;

/**
 * Layout of a slot in the value region, which holds variable-length property values (strings,
 * byte arrays) in size classes.
 *
 * <pre>
 *   0         4
 *  +---------+------------------------------------------+
 *  | length  |  bytes (length of them, rest unused)     |
 *  +---------+------------------------------------------+
 * </pre>
 *
 * A value link (the MV-tuple's value word) names the size class and the slot:
 * {@code (sizeClass << 32) | slot}.
 */
final class ValueSlotDescriptor {
    public static final int LENGTH_OFFSET = 0;
    public static final int BYTES_OFFSET = LENGTH_OFFSET + Integer.BYTES;

    private ValueSlotDescriptor() {
    }

    public static long link(int sizeClass, int slot) {
        return ((long) sizeClass << 32) | (slot & 0xFFFF_FFFFL);
    }

    public static int sizeClass(long link) {
        return (int) (link >>> 32);
    }

    public static int slot(long link) {
        return (int) link;
    }
}
