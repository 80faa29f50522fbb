package io.gtran.rdma.netty;

import io.gtran.rdma.Fabric;
import io.netty.buffer.ByteBuf;

/**
 * The header every frame of the Netty fabric starts with, and the frame types. All integers on
 * the wire are big-endian (Netty's default); a region's long words travel as values, so the byte
 * order of the nodes does not matter except for bulk bytes, which are copied as they are.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                     Magic 0x4754524E "GTRN"                   |  0
 *  +---------------+---------------+-------------------------------+
 *  |    Version    |     Type      |        Flags (must be 0)      |  4
 *  +---------------+---------------+-------------------------------+
 *  |                                                               |  8
 *  +                      Request Id (int64)                       +
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                   Body Length (int32, bytes)                  | 16
 *  +---------------------------------------------------------------+
 *  |                          Body ...                           ... 20
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>A request carries an id its connection chose; the reply carries the same id. The body
 * length is checked against {@link #maxBodyLength(int)} of the frame's type as soon as the
 * header has arrived, before any of the body is buffered. Body layouts: {@link BodyDescriptor}
 * and {@link OpDescriptor}.
 *
 * <p>Frame types, by direction (a connection has a client end, which sends requests, and a
 * server end, which answers them):
 * <ul>
 *   <li>{@link #HELLO} → {@link #HELLO_ACK}: the handshake; nothing else may precede it;
 *   <li>{@link #LOOKUP} → {@link #LOOKUP_REPLY}: a region's id and size, by name;
 *   <li>{@link #OPS} → {@link #OPS_REPLY}: one or more one-sided region operations, applied in order;
 *   <li>{@link #SEND} → {@link #SEND_REPLY}: one mailbox message, answered once it is in the mailbox (or refused);
 *   <li>{@link #PING} → {@link #PONG}: a heartbeat on an idle connection;
 *   <li>{@link #GOODBYE}: either way, unanswered: the sending node is closing (so the other end
 *       reports it {@code "node is closed"} rather than a broken connection).
 * </ul>
 */
final class FrameDescriptor {
    /** "GTRN" in ASCII. */
    static final int MAGIC = 0x4754_524E;
    /** The only protocol version this code speaks. */
    static final byte VERSION = 1;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = MAGIC_OFFSET + Integer.BYTES;
    static final int TYPE_OFFSET = VERSION_OFFSET + Byte.BYTES;
    static final int FLAGS_OFFSET = TYPE_OFFSET + Byte.BYTES;
    static final int REQUEST_ID_OFFSET = FLAGS_OFFSET + Short.BYTES;
    static final int BODY_LENGTH_OFFSET = REQUEST_ID_OFFSET + Long.BYTES;
    /** The header's length; the body follows. */
    static final int LENGTH = BODY_LENGTH_OFFSET + Integer.BYTES;

    static final byte HELLO = 1;
    static final byte HELLO_ACK = 2;
    static final byte LOOKUP = 3;
    static final byte LOOKUP_REPLY = 4;
    static final byte OPS = 5;
    static final byte OPS_REPLY = 6;
    static final byte SEND = 7;
    static final byte SEND_REPLY = 8;
    static final byte PING = 9;
    static final byte PONG = 10;
    static final byte GOODBYE = 11;
    /** The largest type number. */
    static final byte MAX_TYPE = GOODBYE;

    /** Room for everything in a body besides the transferred bytes (names, op headers, counts). */
    static final int BODY_OVERHEAD = 64 << 10;
    /** The largest body of any frame: a {@link Fabric#MAX_TRANSFER_BYTES} transfer plus {@link #BODY_OVERHEAD}. */
    static final int MAX_BODY_LENGTH = Fabric.MAX_TRANSFER_BYTES + BODY_OVERHEAD;

    private static final String[] NAMES = {"0", "HELLO", "HELLO_ACK", "LOOKUP", "LOOKUP_REPLY", "OPS", "OPS_REPLY",
        "SEND", "SEND_REPLY", "PING", "PONG", "GOODBYE"};

    private FrameDescriptor() {
    }

    /** Whether {@code type} is a known frame type. */
    static boolean isKnownType(int type) {
        return type >= HELLO && type <= MAX_TYPE;
    }

    /** {@code "OPS"} and the like, or the number of an unknown type. */
    static String typeName(int type) {
        return isKnownType(type) ? NAMES[type] : Integer.toString(type);
    }

    /** The bit of {@code type} in a set of types (see {@link FrameDecoder}). */
    static int bit(byte type) {
        return 1 << type;
    }

    /**
     * The largest body a frame of known type {@code type} may have; a header announcing more is
     * refused before the body is read.
     */
    static int maxBodyLength(int type) {
        return switch (type) {
            case HELLO -> BodyDescriptor.HELLO_LENGTH;
            case HELLO_ACK -> BodyDescriptor.HELLO_ACK_LENGTH;
            case LOOKUP -> BodyDescriptor.LOOKUP_NAME_OFFSET + BodyDescriptor.MAX_REGION_NAME_BYTES;
            case LOOKUP_REPLY -> BodyDescriptor.LOOKUP_REPLY_LENGTH;
            case SEND -> BodyDescriptor.SEND_MAX_HEADER_LENGTH + Fabric.MAX_TRANSFER_BYTES;
            case SEND_REPLY -> BodyDescriptor.SEND_REPLY_REASON_OFFSET + BodyDescriptor.MAX_REASON_BYTES;
            case OPS, OPS_REPLY -> MAX_BODY_LENGTH;
            default -> 0; // PING, PONG, GOODBYE
        };
    }

    static int magic(ByteBuf buffer, int frameOffset) {
        return buffer.getInt(frameOffset + MAGIC_OFFSET);
    }

    static byte version(ByteBuf buffer, int frameOffset) {
        return buffer.getByte(frameOffset + VERSION_OFFSET);
    }

    static byte type(ByteBuf buffer, int frameOffset) {
        return buffer.getByte(frameOffset + TYPE_OFFSET);
    }

    static short flags(ByteBuf buffer, int frameOffset) {
        return buffer.getShort(frameOffset + FLAGS_OFFSET);
    }

    static long requestId(ByteBuf buffer, int frameOffset) {
        return buffer.getLong(frameOffset + REQUEST_ID_OFFSET);
    }

    static int bodyLength(ByteBuf buffer, int frameOffset) {
        return buffer.getInt(frameOffset + BODY_LENGTH_OFFSET);
    }

    /**
     * Writes a header for a body of {@code bodyLength} bytes at the buffer's writer index and
     * advances it; the caller writes the body next.
     */
    static void writeHeader(ByteBuf buffer, byte type, long requestId, int bodyLength) {
        int at = buffer.writerIndex();
        buffer.ensureWritable(LENGTH);
        buffer.setInt(at + MAGIC_OFFSET, MAGIC);
        buffer.setByte(at + VERSION_OFFSET, VERSION);
        buffer.setByte(at + TYPE_OFFSET, type);
        buffer.setShort(at + FLAGS_OFFSET, 0);
        buffer.setLong(at + REQUEST_ID_OFFSET, requestId);
        buffer.setInt(at + BODY_LENGTH_OFFSET, bodyLength);
        buffer.writerIndex(at + LENGTH);
    }
}
