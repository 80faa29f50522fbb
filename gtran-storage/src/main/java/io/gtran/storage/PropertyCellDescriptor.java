package io.gtran.storage;

/**
 * Layout of a VP/EP cell in a property row-list: one property key of the owning element and the
 * link to that property's newest MV-tuple.
 *
 * <pre>
 *   63                 32 31                  0
 *  +---------------------+---------------------+
 *  |   property key id   |  newest MV-tuple    |
 *  +---------------------+---------------------+
 * </pre>
 *
 * Packed into one 8-byte word so that the link can be swung atomically, and so that ordering the
 * words orders cells by key id (key ids are non-negative).
 */
final class PropertyCellDescriptor {
    public static final int WORD_OFFSET = 0;
    public static final int LENGTH = WORD_OFFSET + Long.BYTES;
    public static final int KEY_SHIFT = 32;
    public static final long TUPLE_MASK = 0xFFFF_FFFFL;

    private PropertyCellDescriptor() {
    }

    public static long word(int keyId, int tupleSlot) {
        if (keyId < 0) {
            throw new IllegalArgumentException("key id must not be negative: keyId=" + keyId);
        }
        return ((long) keyId << KEY_SHIFT) | (tupleSlot & TUPLE_MASK);
    }

    public static int keyId(long word) {
        return (int) (word >>> KEY_SHIFT);
    }

    public static int tupleSlot(long word) {
        return (int) (word & TUPLE_MASK);
    }
}
