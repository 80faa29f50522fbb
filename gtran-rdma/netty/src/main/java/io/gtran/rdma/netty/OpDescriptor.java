package io.gtran.rdma.netty;

/**
 * The bodies of {@link FrameDescriptor#OPS} (one or more one-sided region operations, applied in
 * order) and {@link FrameDescriptor#OPS_REPLY} (their results, in the same order).
 *
 * <pre>
 * OPS body                               one operation
 *  +-----------------+---------...        +-------+-----------------+------------------+-------...
 *  |  count (int32)  | op 0 | op 1 ...    | code  | region id int32 |  offset (int64)  | args
 *  +-----------------+---------...        +-------+-----------------+------------------+-------...
 *   0                 4                    0       1                 5                  13
 *
 * args by code                            result in OPS_REPLY by code
 *   1 READ_LONG   -                         int64 value
 *   2 WRITE_LONG  value int64               -
 *   3 CAS         expected int64, value     uint8 1 if swapped, else 0
 *   4 FETCH_ADD   delta int64               int64 value before the add
 *   5 READ        length int32              the length bytes
 *   6 WRITE       length int32, the bytes   -
 *
 * OPS_REPLY body
 *  +-----------------+-----------...
 *  |  count (int32)  | result 0 | result 1 ...
 *  +-----------------+-----------...
 * </pre>
 *
 * <p>Region ids come from a {@code LOOKUP_REPLY} of the same incarnation of the server. The
 * server checks every operation of a frame (code, region id, alignment and bounds, lengths, that
 * the body holds exactly the operations counted) before applying any of them; a client never
 * sends an operation its own checks refused, so a failed check means a broken or hostile peer,
 * and the connection is closed.
 */
final class OpDescriptor {
    static final int COUNT_OFFSET = 0;
    static final int FIRST_OP_OFFSET = COUNT_OFFSET + Integer.BYTES;

    static final int CODE_OFFSET = 0;
    static final int REGION_ID_OFFSET = CODE_OFFSET + Byte.BYTES;
    static final int OFFSET_OFFSET = REGION_ID_OFFSET + Integer.BYTES;
    static final int ARGS_OFFSET = OFFSET_OFFSET + Long.BYTES;
    /** The length of the part every operation has; its arguments follow. */
    static final int HEADER_LENGTH = ARGS_OFFSET;

    static final byte READ_LONG = 1;
    static final byte WRITE_LONG = 2;
    static final byte CAS = 3;
    static final byte FETCH_ADD = 4;
    static final byte READ = 5;
    static final byte WRITE = 6;

    private OpDescriptor() {
    }

    /** Whether {@code code} is a known operation code. */
    static boolean isKnown(int code) {
        return code >= READ_LONG && code <= WRITE;
    }

    /** The length of the fixed arguments of {@code code} (for WRITE, without the bytes). */
    static int argsLength(int code) {
        return switch (code) {
            case WRITE_LONG, FETCH_ADD -> Long.BYTES;
            case CAS -> 2 * Long.BYTES;
            case READ, WRITE -> Integer.BYTES;
            default -> 0; // READ_LONG
        };
    }

    /** The encoded length of one operation of code {@code code} moving {@code length} bytes (bulk only). */
    static int opLength(int code, int length) {
        return HEADER_LENGTH + argsLength(code) + (code == WRITE ? length : 0);
    }

    /** The length of the result of one operation of code {@code code} moving {@code length} bytes (bulk only). */
    static int resultLength(int code, int length) {
        return switch (code) {
            case READ_LONG, FETCH_ADD -> Long.BYTES;
            case CAS -> Byte.BYTES;
            case READ -> length;
            default -> 0; // WRITE_LONG, WRITE
        };
    }

    /** {@code "READ_LONG"} and the like, for messages. */
    static String name(int code) {
        return switch (code) {
            case READ_LONG -> "READ_LONG";
            case WRITE_LONG -> "WRITE_LONG";
            case CAS -> "CAS";
            case FETCH_ADD -> "FETCH_ADD";
            case READ -> "READ";
            case WRITE -> "WRITE";
            default -> Integer.toString(code);
        };
    }
}
