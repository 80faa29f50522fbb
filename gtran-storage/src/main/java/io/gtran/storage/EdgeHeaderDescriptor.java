package io.gtran.storage;

/**
 * Layout of an edge header, one fixed-size slot of the edge table.
 *
 * <pre>
 *   0                   8                   16                  24
 *  +-------------------+-------------------+-------------------+
 *  |        id         |   out-vertex id   |    in-vertex id   |
 *  +-------------------+-------------------+---------+---------+
 *  |    begin time     |     end time      |  label  | prop row|
 *  +-------------------+-------------------+---------+---------+
 *  24                  32                  40        44        48
 * </pre>
 *
 * Begin/end time words are 8-byte aligned CAS targets for the MV-OCC layer. Prop row is the head
 * of the edge's EP row-list.
 */
final class EdgeHeaderDescriptor {
    public static final int ID_OFFSET = 0;
    public static final int OUT_VERTEX_OFFSET = ID_OFFSET + Long.BYTES;
    public static final int IN_VERTEX_OFFSET = OUT_VERTEX_OFFSET + Long.BYTES;
    public static final int BEGIN_TIME_OFFSET = IN_VERTEX_OFFSET + Long.BYTES;
    public static final int END_TIME_OFFSET = BEGIN_TIME_OFFSET + Long.BYTES;
    public static final int LABEL_OFFSET = END_TIME_OFFSET + Long.BYTES;
    public static final int PROPERTY_ROW_OFFSET = LABEL_OFFSET + Integer.BYTES;
    public static final int LENGTH = PROPERTY_ROW_OFFSET + Integer.BYTES;

    private EdgeHeaderDescriptor() {
    }
}
