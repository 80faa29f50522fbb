package io.gtran.storage;

/**
 * Layout of a base version: the version a property was created with, in the same write that
 * created its element. It has no begin/end time words of its own; its validity is its element's
 * (the element header's begin and end time), so it costs half an MV-tuple. A base version is
 * always the oldest version of its property. The MV-OCC layer replaces it with a full
 * {@link MvTupleDescriptor MV-tuple} (same value, the element's begin time) before the first update
 * or removal of the property, since only full tuples carry end-time words to lock.
 *
 * <pre>
 *   0                   8    9                  16
 *  +-------------------+----+-------------------+
 *  |    value word     |type|      unused       |
 *  +-------------------+----+-------------------+
 * </pre>
 */
public final class BaseVersionDescriptor {
    public static final int VALUE_OFFSET = 0;
    public static final int TYPE_OFFSET = VALUE_OFFSET + Long.BYTES;
    public static final int LENGTH = 16;

    private BaseVersionDescriptor() {
    }
}
