package io.gtran.storage;

/**
 * Layout of a base version: the version a property was created with, in the same write that
 * created its element. It has no begin/end time words of its own; its validity is its element's
 * (the element header's begin and end time), so it costs 9 bytes against an MV-tuple's 32. A base version is
 * always the oldest version of its property. The MV-OCC layer replaces it with a full
 * {@link MvTupleDescriptor MV-tuple} (same value, the element's begin time) before the first update
 * or removal of the property, since only full tuples carry end-time words to lock.
 *
 * <p>The value word is the slot; the type tag is a one-byte {@link SlotPool#withSideParts side
 * part}, stored with the other base versions' tags at the end of the chunk, so a base version
 * costs 9 bytes rather than the 16 an 8-byte aligned slot holding both would take.
 *
 * <pre>
 *   0                   8
 *  +-------------------+
 *  |    value word     |   the slot
 *  +-------------------+
 *
 *  +----+
 *  |type|                  its side part
 *  +----+
 * </pre>
 */
final class BaseVersionDescriptor {
    public static final int VALUE_OFFSET = 0;
    public static final int LENGTH = VALUE_OFFSET + Long.BYTES;
    /** The type tag's offset in the side part. */
    public static final int TYPE_SIDE_OFFSET = 0;
    public static final int SIDE_LENGTH = TYPE_SIDE_OFFSET + Byte.BYTES;

    private BaseVersionDescriptor() {
    }
}
