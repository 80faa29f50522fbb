package io.gtran.txn.protocol;

/**
 * The membership messages (docs/cluster-transactions.md, "Members" and "Rejoining after a
 * partition heals"), on a node's mailbox ({@link NodeMailbox}), and their one encoding: a type
 * byte ({@link Family#MEMBER}'s), the sender's incarnation, then the fields of the type (an
 * {@link Announce}'s restored flag last).
 */
public sealed interface MemberMessage {
    int PING = 16;
    int HELLO = 17;
    int HELLO_ACK = 18;
    int REJOIN = 19;
    int REJOIN_ACK = 20;
    int EXCLUDED = 21;

    /** Whether a message of type byte {@code type} is membership's. */
    static boolean isMembership(int type) {
        return type == PING || type == HELLO || type == HELLO_ACK || type == REJOIN || type == REJOIN_ACK || type == EXCLUDED;
    }

    /** The sender's incarnation. */
    long incarnation();

    /** The type byte. */
    int type();

    /**
     * What announces the sender's incarnation: with {@code restored} when the sender restarted on the
     * data of an earlier process of its node (docs/durability.md, "A member restarted alone").
     */
    sealed interface Announce extends MemberMessage {
        boolean restored();
    }

    /** A heartbeat, five per lease. */
    record Ping(long incarnation, boolean restored) implements Announce {
        public Ping(long incarnation) {
            this(incarnation, false);
        }

        @Override
        public int type() {
            return PING;
        }
    }

    /** At start: the sender's cluster description, for the receiver to compare with its own. */
    record Hello(long incarnation, String description, boolean restored) implements Announce {
        public Hello(long incarnation, String description) {
            this(incarnation, description, false);
        }

        @Override
        public int type() {
            return HELLO;
        }
    }

    /** The answer to HELLO: "" when the descriptions agree, else how they differ. */
    record HelloAck(long incarnation, String verdict, boolean restored) implements Announce {
        public HelloAck(long incarnation, String verdict) {
            this(incarnation, verdict, false);
        }

        @Override
        public int type() {
            return HELLO_ACK;
        }
    }

    /**
     * The rejoin handshake: the incarnation the sender knows of the receiver, its fence, and the
     * clock master it follows (-1: none) with its epoch.
     */
    sealed interface Handshake extends MemberMessage {
        long yours();

        long fence();

        int master();

        long epoch();
    }

    /** Asks a member counted lost to take this node back. */
    record Rejoin(long incarnation, long yours, long fence, int master, long epoch) implements Handshake {
        @Override
        public int type() {
            return REJOIN;
        }
    }

    /** Answers REJOIN. */
    record RejoinAck(long incarnation, long yours, long fence, int master, long epoch) implements Handshake {
        @Override
        public int type() {
            return REJOIN_ACK;
        }
    }

    /** To a restarted member: its incarnation {@code yours} is out. */
    record Excluded(long incarnation, long yours) implements MemberMessage {
        @Override
        public int type() {
            return EXCLUDED;
        }
    }

    /** The bytes of {@code message}, header included. */
    static byte[] encode(MemberMessage message) {
        Wire.Writer w = new Wire.Writer().putByte(message.type()).putLong(message.incarnation());
        if (message instanceof Hello m) {
            w.putString(m.description());
        } else if (message instanceof HelloAck m) {
            w.putString(m.verdict());
        }
        if (message instanceof Announce m) {
            w.putByte(m.restored() ? 1 : 0);
        } else if (message instanceof Handshake m) {
            w.putLong(m.yours()).putLong(m.fence()).putInt(m.master()).putLong(m.epoch());
        } else if (message instanceof Excluded m) {
            w.putLong(m.yours());
        }
        return w.bytes();
    }

    /**
     * The message {@code bytes} encode.
     *
     * @throws IllegalArgumentException if they are not a membership message, or a field is missing
     */
    static MemberMessage decode(byte[] bytes) {
        Wire.Reader in = new Wire.Reader(bytes);
        int type;
        long incarnation;
        try {
            type = in.getByte();
            incarnation = in.getLong();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a membership message (" + bytes.length + " bytes): " + e, e);
        }
        return decode(type, incarnation, in);
    }

    /**
     * The message of type {@code type} whose header carried {@code incarnation}, the rest in {@code in}.
     *
     * @throws IllegalArgumentException if it is not a membership message, or a field is missing
     */
    static MemberMessage decode(int type, long incarnation, Wire.Reader in) {
        try {
            return switch (type) {
                case PING -> new Ping(incarnation, restored(in));
                case HELLO -> new Hello(incarnation, in.getString(), restored(in));
                case HELLO_ACK -> new HelloAck(incarnation, in.getString(), restored(in));
                case REJOIN -> new Rejoin(incarnation, in.getLong(), in.getLong(), in.getInt(), in.getLong());
                case REJOIN_ACK -> new RejoinAck(incarnation, in.getLong(), in.getLong(), in.getInt(), in.getLong());
                case EXCLUDED -> new Excluded(incarnation, in.getLong());
                default -> throw new IllegalArgumentException("type " + type);
            };
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a membership message: " + e, e);
        }
    }

    private static boolean restored(Wire.Reader in) {
        int flag = in.getByte();
        if (flag != 0 && flag != 1) {
            throw new IllegalArgumentException("restored flag " + flag);
        }
        return flag == 1;
    }
}
