package io.gtran.txn.protocol;

import java.nio.ByteBuffer;

/**
 * The clock synchronisation's messages (docs/cluster-transactions.md, "Time"), on a node's
 * mailbox ({@link NodeMailbox}), and their one encoding: a type ({@link Family#CLOCK}'s
 * {@value #REQUEST} request, {@value #REPLY} reply, {@value #RELAYED} relayed reply) and a sequence
 * number; a request and a reply then carry the master's time in microseconds (0 in a request),
 * {@value #LENGTH} bytes in all; a relayed reply carries the master and epoch the relay follows
 * and its interval {@code [L, U]} of the master's time, {@value #RELAYED_LENGTH} bytes.
 */
public sealed interface ClockMessage {
    int LENGTH = 17;
    int RELAYED_LENGTH = 37;
    int REQUEST = 48;
    int REPLY = 49;
    int RELAYED = 50;

    /** Which request a reply answers. */
    long sequence();

    /** A follower asks the master for its time, or another member for its bounds on it. */
    record Request(long sequence) implements ClockMessage {
    }

    /** The master's time when it answered request {@code sequence}. */
    record Reply(long sequence, long masterMicros) implements ClockMessage {
    }

    /**
     * A member that follows {@code master} in {@code epoch} answers request {@code sequence} with
     * where it knew the master's time to be when it answered: {@code [loMicros, hiMicros]}.
     */
    record Relayed(long sequence, int master, long epoch, long loMicros, long hiMicros) implements ClockMessage {
    }

    static byte[] encode(ClockMessage message) {
        if (message instanceof Relayed r) {
            return ByteBuffer.allocate(RELAYED_LENGTH).put((byte) RELAYED).putLong(r.sequence()).putInt(r.master())
                    .putLong(r.epoch()).putLong(r.loMicros()).putLong(r.hiMicros()).array();
        }
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
        if (bytes.length == 0) {
            throw new IllegalArgumentException("not a clock message: 0 bytes");
        }
        int expected = bytes[0] == RELAYED ? RELAYED_LENGTH : LENGTH;
        if (bytes.length != expected) {
            throw new IllegalArgumentException("not a clock message: " + bytes.length + " bytes, not " + expected);
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        byte kind = in.get();
        long sequence = in.getLong();
        if (kind == RELAYED) {
            int master = in.getInt();
            long epoch = in.getLong();
            long lo = in.getLong();
            long hi = in.getLong();
            if (lo > hi) {
                throw new IllegalArgumentException("not a clock message: relayed interval [" + lo + ", " + hi + "] is empty");
            }
            return new Relayed(sequence, master, epoch, lo, hi);
        }
        long micros = in.getLong();
        return switch (kind) {
            case REQUEST -> new Request(sequence);
            case REPLY -> new Reply(sequence, micros);
            default -> throw new IllegalArgumentException("not a clock message: type " + kind);
        };
    }
}
