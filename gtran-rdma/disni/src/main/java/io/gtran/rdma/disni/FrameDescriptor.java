package io.gtran.rdma.disni;

import java.nio.ByteOrder;

/**
 * The layout of a control frame: one SEND of at most {@link #FRAME_BYTES} bytes into one of the
 * peer's pre-posted receive buffers. Fields are big-endian ({@link #ORDER}) whatever the hosts'
 * order; region words themselves are never in frames.
 *
 * <p>Header (every frame):
 * <pre>
 *  0       2       3       4               8                              16
 *  +-------+-------+-------+---------------+-------------------------------+
 *  | magic |version| type  | node (i32)    | requestId (i64)               |
 *  +-------+-------+-------+---------------+-------------------------------+
 * </pre>
 * {@code node} is the sender's node id; {@code requestId} pairs a reply with its request (the
 * reply carries the request's id).
 *
 * <p>Bodies, from offset {@link #BODY_OFFSET}:
 * <pre>
 *  HELLO, HELLO_ACK       16               24          28        29
 *                         | incarnation i64| nodes i32 | order u8 |
 *
 *  REGION_LOOKUP          16            18
 *                         | nameLen u16 | name (UTF-8) ...
 *
 *  REGION_INFO            16      17      18      20          24              32              40
 *                         |found u8|order u8| pad |  rkey i32 | address i64   |  size i64     |
 *
 *  MESSAGE (a chunk)      16               20              24
 *                         | total i32      | chunkOffset i32| [first chunk only: fromLen u8, from,
 *                                                             toLen u8, to] data ... (to the frame's end)
 *
 *  MESSAGE_RESULT         16        17    18            20
 *                         |delivered u8|pad| reasonLen u16| reason (UTF-8) ...
 *
 *  PING, PONG, GOODBYE    (no body)
 * </pre>
 * {@code order} is the sender's native byte order of region words: 0 big-endian, 1 little-endian.
 */
final class FrameDescriptor {
    /** The size of every receive buffer, so the most one frame may hold. */
    static final int FRAME_BYTES = 8192;
    /** Field byte order. */
    static final ByteOrder ORDER = ByteOrder.BIG_ENDIAN;
    /** "GT". */
    static final short MAGIC = 0x4754;
    static final byte VERSION = 1;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = MAGIC_OFFSET + Short.BYTES;
    static final int TYPE_OFFSET = VERSION_OFFSET + Byte.BYTES;
    static final int NODE_OFFSET = TYPE_OFFSET + Byte.BYTES;
    static final int REQUEST_ID_OFFSET = NODE_OFFSET + Integer.BYTES;
    static final int HEADER_LENGTH = REQUEST_ID_OFFSET + Long.BYTES;
    static final int BODY_OFFSET = HEADER_LENGTH;

    static final byte HELLO = 1;
    static final byte HELLO_ACK = 2;
    static final byte REGION_LOOKUP = 3;
    static final byte REGION_INFO = 4;
    static final byte MESSAGE = 5;
    static final byte MESSAGE_RESULT = 6;
    static final byte PING = 7;
    static final byte PONG = 8;
    static final byte GOODBYE = 9;

    static final int HELLO_INCARNATION_OFFSET = BODY_OFFSET;
    static final int HELLO_NODES_OFFSET = HELLO_INCARNATION_OFFSET + Long.BYTES;
    static final int HELLO_ORDER_OFFSET = HELLO_NODES_OFFSET + Integer.BYTES;
    static final int HELLO_LENGTH = HELLO_ORDER_OFFSET + Byte.BYTES;

    static final int LOOKUP_NAME_LENGTH_OFFSET = BODY_OFFSET;
    static final int LOOKUP_NAME_OFFSET = LOOKUP_NAME_LENGTH_OFFSET + Short.BYTES;
    /** The longest region name a lookup frame carries (and so the longest a region may have). */
    static final int MAX_REGION_NAME_BYTES = 1024;

    static final int INFO_FOUND_OFFSET = BODY_OFFSET;
    static final int INFO_ORDER_OFFSET = INFO_FOUND_OFFSET + Byte.BYTES;
    static final int INFO_RKEY_OFFSET = INFO_ORDER_OFFSET + Byte.BYTES + 2;
    static final int INFO_ADDRESS_OFFSET = INFO_RKEY_OFFSET + Integer.BYTES;
    static final int INFO_SIZE_OFFSET = INFO_ADDRESS_OFFSET + Long.BYTES;
    static final int INFO_LENGTH = INFO_SIZE_OFFSET + Long.BYTES;

    static final int MESSAGE_TOTAL_OFFSET = BODY_OFFSET;
    static final int MESSAGE_CHUNK_OFFSET_OFFSET = MESSAGE_TOTAL_OFFSET + Integer.BYTES;
    static final int MESSAGE_DATA_OFFSET = MESSAGE_CHUNK_OFFSET_OFFSET + Integer.BYTES;

    static final int RESULT_DELIVERED_OFFSET = BODY_OFFSET;
    static final int RESULT_REASON_LENGTH_OFFSET = RESULT_DELIVERED_OFFSET + Byte.BYTES + 1;
    static final int RESULT_REASON_OFFSET = RESULT_REASON_LENGTH_OFFSET + Short.BYTES;
    /** Longer failure reasons are cut to this many bytes. */
    static final int MAX_REASON_BYTES = 1024;

    static final byte ORDER_BIG_ENDIAN = 0;
    static final byte ORDER_LITTLE_ENDIAN = 1;

    private FrameDescriptor() {
    }

    static byte orderCode(ByteOrder order) {
        return order == ByteOrder.BIG_ENDIAN ? ORDER_BIG_ENDIAN : ORDER_LITTLE_ENDIAN;
    }

    static ByteOrder order(byte code) {
        return switch (code) {
            case ORDER_BIG_ENDIAN -> ByteOrder.BIG_ENDIAN;
            case ORDER_LITTLE_ENDIAN -> ByteOrder.LITTLE_ENDIAN;
            default -> throw new IllegalArgumentException("corrupt frame: unknown byte order code: order=" + code);
        };
    }
}
