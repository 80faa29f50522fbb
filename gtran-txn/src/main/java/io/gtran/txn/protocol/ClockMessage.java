package io.gtran.txn.protocol;

import java.nio.ByteBuffer;

/**
 * The clock synchronisation's messages (docs/cluster-transactions.md, "Time"), on a node's
 * mailbox ({@link NodeMailbox}), and their one encoding: 17 bytes, a type ({@link Family#CLOCK}'s
 * {@value #REQUEST} request, {@value #REPLY} reply), a sequence number, and the master's time in
 * microseconds (0 in a request).
 */
public sealed interface ClockMessage {
    int LENGTH = 17;
    int REQUEST = 48;
    int REPLY = 49;

    /** Which request a reply answers. */
    long sequence();

    /** A follower asks the master for its time. */
    record Request(long sequence) implements ClockMessage {
    }

    /** The master's time when it answered request {@code sequence}. */
    record Reply(long sequence, long masterMicros) implements ClockMessage {
    }

    static byte[] encode(ClockMessage message) {
        ByteBuffer out = ByteBuffer.allocate(LENGTH);
        if (message instanceof Reply r) {
            out.put((byte) REPLY).putLong(r.sequence()).putLong(r.masterMicros());
        } else {
            out.put((byte) REQUEST).putLong(message.sequence()).putLong(0);
        }
        return out.array();
    }

    /**
     * The message {@code bytes} encode.
     *
     * @throws IllegalArgumentException if they are not a clock message
     */
    static ClockMessage decode(byte[] bytes) {
        if (bytes.length != LENGTH) {
            throw new IllegalArgumentException("not a clock message: " + bytes.length + " bytes, not " + LENGTH);
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        byte kind = in.get();
        long sequence = in.getLong();
        long micros = in.getLong();
        return switch (kind) {
            case REQUEST -> new Request(sequence);
            case REPLY -> new Reply(sequence, micros);
            default -> throw new IllegalArgumentException("not a clock message: type " + kind);
        };
    }
}
