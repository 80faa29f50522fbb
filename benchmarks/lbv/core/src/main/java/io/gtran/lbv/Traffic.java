package io.gtran.lbv;

/**
 * Messages a system's nodes sent each other, and their payload bytes, cumulative since the system
 * started ({@link LbvSystem#traffic}); {@link #NONE} for a system that does not count them. For a
 * gtran cluster: the operation requests and replies and commit messages every member sent another
 * (gtran's {@code QueryTraffic}), not heartbeats, clock samples or watermark reads.
 */
public record Traffic(long messages, long bytes) {
    /** What a system that counts no messages reports. */
    public static final Traffic NONE = new Traffic(-1, -1);

    /** Whether the system counts its messages (this is not {@link #NONE}). */
    public boolean counted() {
        return messages >= 0;
    }

    /** What was sent between {@code earlier} and this reading; {@link #NONE} if either is. */
    public Traffic since(Traffic earlier) {
        if (!counted() || !earlier.counted()) {
            return NONE;
        }
        return new Traffic(messages - earlier.messages, bytes - earlier.bytes);
    }
}
