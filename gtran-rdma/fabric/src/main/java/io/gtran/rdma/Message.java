package io.gtran.rdma;

import java.util.Objects;

/**
 * One message taken from a {@link Mailbox}: who sent it (node and mailbox, so the receiver can
 * answer) and the payload, which the receiver owns.
 *
 * @param fromNode the sender's node id
 * @param fromMailbox the name of the mailbox the sender sent from
 * @param payload the bytes sent (a copy of what the sender passed)
 */
public record Message(int fromNode, String fromMailbox, byte[] payload) {
    public Message {
        Objects.requireNonNull(fromMailbox, "fromMailbox");
        Objects.requireNonNull(payload, "payload");
    }

    @Override
    public String toString() {
        return "Message[fromNode=" + fromNode + ", fromMailbox=" + fromMailbox + ", bytes=" + payload.length + "]";
    }
}
