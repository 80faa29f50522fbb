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
 * ({@link #NO_TUPLE} at the oldest). The value word holds scalars inline (see {@link ValueType});
 * strings and byte arrays hold a value-region link there. Begin/end time are 8-byte aligned CAS
 * targets for the MV-OCC layer.
 */
public final class MvTupleDescriptor {
    public static final int NO_TUPLE = -1;
    public static final int BEGIN_TIME_OFFSET = 0;
    public static final int END_TIME_OFFSET = BEGIN_TIME_OFFSET + Long.BYTES;
    public static final int VALUE_OFFSET = END_TIME_OFFSET + Long.BYTES;
    public static final int OLDER_OFFSET = VALUE_OFFSET + Long.BYTES;
    public static final int TYPE_OFFSET = OLDER_OFFSET + Integer.BYTES;
    public static final int LENGTH = 32;

    private MvTupleDescriptor() {
    }
}
