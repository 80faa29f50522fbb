package io.gtran.txn.protocol;

/**
 * Which of a node's roles a message on its one mailbox ({@link NodeMailbox}) is for, told by the
 * message's first byte, its type: each family owns sixteen type numbers, so the one receive path
 * hands every message to its role without a byte more on the wire.
 */
public enum Family {
    /** A transaction's operations, a pushed chain's traversers, name look-ups ({@link OpsMessage}): types 0-15. */
    OPS,
    /** Heartbeats, greetings and rejoins ({@link MemberMessage}): types 16-31. */
    MEMBER,
    /** The commit protocol ({@link CommitMessage}): types 32-47. */
    COMMIT,
    /** Clock synchronisation ({@link ClockMessage}): types 48-63. */
    CLOCK;

    private static final int TYPES = 16;
    private static final Family[] ALL = values();

    /** The family's first type number. */
    public int base() {
        return ordinal() * TYPES;
    }

    /** The family of a message whose first byte is {@code type}, or null if it is none's. */
    public static Family of(int type) {
        int family = (type & 0xff) / TYPES;
        return family < ALL.length ? ALL[family] : null;
    }

    /** The family of the message {@code payload}, or null if it is none's (or empty). */
    public static Family of(byte[] payload) {
        return payload.length == 0 ? null : of(payload[0]);
    }
}
