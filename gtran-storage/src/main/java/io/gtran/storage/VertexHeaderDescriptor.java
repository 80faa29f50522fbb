package io.gtran.storage;

/**
 * Layout of a vertex header, one fixed-size slot of the vertex table.
 *
 * <pre>
 *   0                   8                   16                  24
 *  +-------------------+-------------------+-------------------+
 *  |        id         |    begin time     |     end time      |
 *  +---------+---------+---------+---------+-------------------+
 *  |  label  | edge row| prop row| unused  |
 *  +---------+---------+---------+---------+
 *  24        28        32        36        40
 * </pre>
 *
 * The begin/end time words are 8-byte aligned CAS targets: the MV-OCC layer writes transaction
 * ids and commit times into them. Edge row and property row are the heads of the vertex's edge
 * row-list and VP row-list ({@link RowDescriptor#NO_ROW} when empty).
 */
final class VertexHeaderDescriptor {
    public static final int ID_OFFSET = 0;
    public static final int BEGIN_TIME_OFFSET = ID_OFFSET + Long.BYTES;
    public static final int END_TIME_OFFSET = BEGIN_TIME_OFFSET + Long.BYTES;
    public static final int LABEL_OFFSET = END_TIME_OFFSET + Long.BYTES;
    public static final int EDGE_ROW_OFFSET = LABEL_OFFSET + Integer.BYTES;
    public static final int PROPERTY_ROW_OFFSET = EDGE_ROW_OFFSET + Integer.BYTES;
    public static final int UNUSED_OFFSET = PROPERTY_ROW_OFFSET + Integer.BYTES;
    public static final int LENGTH = UNUSED_OFFSET + Integer.BYTES;

    private VertexHeaderDescriptor() {
    }
}
