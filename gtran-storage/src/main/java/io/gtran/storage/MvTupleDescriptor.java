package io.gtran.storage;

/**
 * Layout of an MV-tuple: one version of one property, in the MV-KVS tuple region.
 *
 * <pre>
 *   0                   8                   16                  24        28   29        32
 *  +-------------------+-------------------+-------------------+---------+----+---------+
 *  |    begin time     |     end time      |    value word     |  older  |type| unused  |
 *  +-------------------+-------------------+-------------------+---------+----+---------+
 * </pre>
 *
 * Versions of a property form a chain from newest to oldest through the older link
 * ({@link #NO_TUPLE} at the oldest, or a {@link BaseVersionDescriptor base version}).
 *
 * <p>A version is named by an int handle: a full tuple's slot, or {@link #BASE_FLAG} plus the
 * slot of a base version; {@link #isBase} tells them apart. The value word holds scalars inline (see {@link ValueType});
 * strings and byte arrays hold a value-region link there. Begin/end time are 8-byte aligned CAS
 * targets for the MV-OCC layer.
 */
public final class MvTupleDescriptor {
    public static final int NO_TUPLE = -1;
    /** Set in a version handle that names a base version rather than a full tuple. */
    public static final int BASE_FLAG = 1 << 30;
    /** Largest slot either kind of version can have, so a handle stays positive and unambiguous. */
    public static final int MAX_SLOT = BASE_FLAG - 1;
    public static final int BEGIN_TIME_OFFSET = 0;
    public static final int END_TIME_OFFSET = BEGIN_TIME_OFFSET + Long.BYTES;
    public static final int VALUE_OFFSET = END_TIME_OFFSET + Long.BYTES;
    public static final int OLDER_OFFSET = VALUE_OFFSET + Long.BYTES;
    public static final int TYPE_OFFSET = OLDER_OFFSET + Integer.BYTES;
    public static final int LENGTH = 32;

    private MvTupleDescriptor() {
    }

    public static boolean isBase(int handle) {
        return handle != NO_TUPLE && (handle & BASE_FLAG) != 0;
    }

    public static int baseHandle(int slot) {
        return BASE_FLAG | slot;
    }

    /** The pool slot a handle names, of whichever kind. */
    public static int slot(int handle) {
        return handle & MAX_SLOT;
    }
}
