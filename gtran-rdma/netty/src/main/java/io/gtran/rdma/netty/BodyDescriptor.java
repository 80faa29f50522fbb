package io.gtran.rdma.netty;

import io.gtran.rdma.Fabric;

/**
 * The bodies of every frame type but {@link FrameDescriptor#OPS} and
 * {@link FrameDescriptor#OPS_REPLY} (those are in {@link OpDescriptor}); offsets are from the
 * start of the body. {@code PING}, {@code PONG} and {@code GOODBYE} have empty bodies.
 *
 * <pre>
 * HELLO (client to server, the first frame of a connection)
 *  +-------------------------------+-------------------------------+
 *  |     sender node (int32)       |                               |  0
 *  +-------------------------------+  sender incarnation (int64)   +
 *  |                               |                               |
 *  +-------------------------------+-------------------------------+
 *  |     target node (int32)       |                                 12, length 16
 *  +-------------------------------+
 *
 * HELLO_ACK
 *  +-------------------------------+-------------------------------+
 *  |         node (int32)          |                               |  0
 *  +-------------------------------+      incarnation (int64)      +
 *  |                               |                                  length 12
 *  +-------------------------------+
 *
 * LOOKUP                                  LOOKUP_REPLY
 *  +---------------+-------------...      +-------+-----------------+----------------+
 *  | name length   | name (UTF-8)         |status | region id int32 |  size (int64)  |
 *  | (uint16)      | 0..65535 bytes       |0 found|                 |                |
 *  +---------------+-------------...      +-------+-----------------+----------------+
 *   0               2                      0       1                 5                13
 *
 * SEND
 *  +-------+------------...+-------+--------------...+-------------------------...
 *  |to len | to mailbox    |from   | from mailbox    | payload (the rest of the body)
 *  |(uint8)| (UTF-8, 1..255|len    | (UTF-8, 1..255) |
 *  +-------+------------...+-------+--------------...+-------------------------...
 *   0       1               1+to    2+to              2+to+from
 *
 * SEND_REPLY
 *  +-------+---------------+------------------...
 *  |status | reason length | reason (UTF-8), empty when delivered
 *  |0 ok   | (uint16)      |
 *  +-------+---------------+------------------...
 *   0       1               3
 * </pre>
 *
 * <p>An incarnation is a random non-zero number a node draws at every start: a peer that answers
 * with another incarnation than a region handle was made under has restarted, and the handle's
 * region ids mean nothing there any more.
 */
final class BodyDescriptor {
    static final int HELLO_NODE_OFFSET = 0;
    static final int HELLO_INCARNATION_OFFSET = HELLO_NODE_OFFSET + Integer.BYTES;
    static final int HELLO_TARGET_OFFSET = HELLO_INCARNATION_OFFSET + Long.BYTES;
    static final int HELLO_LENGTH = HELLO_TARGET_OFFSET + Integer.BYTES;

    static final int HELLO_ACK_NODE_OFFSET = 0;
    static final int HELLO_ACK_INCARNATION_OFFSET = HELLO_ACK_NODE_OFFSET + Integer.BYTES;
    static final int HELLO_ACK_LENGTH = HELLO_ACK_INCARNATION_OFFSET + Long.BYTES;

    /** The longest region name a lookup carries, in UTF-8 bytes; {@code NettyFabric.register} refuses longer ones. */
    static final int MAX_REGION_NAME_BYTES = 0xFFFF;
    static final int LOOKUP_NAME_LENGTH_OFFSET = 0;
    static final int LOOKUP_NAME_OFFSET = LOOKUP_NAME_LENGTH_OFFSET + Short.BYTES;

    static final byte LOOKUP_FOUND = 0;
    static final byte LOOKUP_UNKNOWN = 1;
    static final int LOOKUP_REPLY_STATUS_OFFSET = 0;
    static final int LOOKUP_REPLY_REGION_ID_OFFSET = LOOKUP_REPLY_STATUS_OFFSET + Byte.BYTES;
    static final int LOOKUP_REPLY_SIZE_OFFSET = LOOKUP_REPLY_REGION_ID_OFFSET + Integer.BYTES;
    static final int LOOKUP_REPLY_LENGTH = LOOKUP_REPLY_SIZE_OFFSET + Long.BYTES;

    static final int SEND_TO_LENGTH_OFFSET = 0;
    static final int SEND_TO_OFFSET = SEND_TO_LENGTH_OFFSET + Byte.BYTES;
    /** The most a SEND body holds besides the payload: two length bytes and two longest names. */
    static final int SEND_MAX_HEADER_LENGTH = 2 + 2 * Fabric.MAX_MAILBOX_NAME_BYTES;

    static final byte SEND_DELIVERED = 0;
    static final byte SEND_REFUSED = 1;
    /** The longest refusal reason sent back; longer ones are cut. */
    static final int MAX_REASON_BYTES = 1024;
    static final int SEND_REPLY_STATUS_OFFSET = 0;
    static final int SEND_REPLY_REASON_LENGTH_OFFSET = SEND_REPLY_STATUS_OFFSET + Byte.BYTES;
    static final int SEND_REPLY_REASON_OFFSET = SEND_REPLY_REASON_LENGTH_OFFSET + Short.BYTES;

    private BodyDescriptor() {
    }
}
