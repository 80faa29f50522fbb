package io.gtran.rdma.disni;

import java.nio.ByteOrder;
import java.util.Objects;

/**
 * A decoded control frame (layouts in {@link FrameDescriptor}). Every frame names the node that sent
 * it and a request id; a reply carries the id of its request.
 */
sealed interface Frame {
    /** The sender's node id. */
    int node();

    /** The request this frame is or answers. */
    long requestId();

    /**
     * HELLO (first frame on a new connection, from the connecting side) or HELLO_ACK (the answer).
     *
     * @param incarnation a random id of the sender's fabric instance, different after a restart
     * @param nodes the size of the sender's cluster configuration, which must match
     * @param order the sender's native byte order
     */
    record Hello(int node, long requestId, boolean ack, long incarnation, int nodes, ByteOrder order) implements Frame {
        public Hello {
            Objects.requireNonNull(order, "order");
        }
    }

    /** Asks for the registration of region {@code name}. */
    record RegionLookup(int node, long requestId, String name) implements Frame {
        public RegionLookup {
            Objects.requireNonNull(name, "name");
        }
    }

    /**
     * Answers a {@link RegionLookup}: whether the region exists, and where it is registered.
     *
     * @param order the owner's native byte order, in which its long words are stored
     */
    record RegionInfo(int node, long requestId, boolean found, ByteOrder order, int rkey, long address, long size)
            implements Frame {
        public RegionInfo {
            Objects.requireNonNull(order, "order");
        }
    }

    /**
     * One piece of a mailbox message. The first chunk ({@code chunkOffset == 0}) names the sending and
     * receiving mailboxes; later chunks leave them null.
     *
     * @param total the whole payload's length
     * @param chunkOffset where {@code data} starts in the payload
     */
    record MessageChunk(int node, long requestId, int total, int chunkOffset, String from, String to, byte[] data)
            implements Frame {
        public MessageChunk {
            Objects.requireNonNull(data, "data");
            if ((chunkOffset == 0) != (from != null && to != null)) {
                throw new IllegalArgumentException("mailbox names go in the first chunk only: chunkOffset=" + chunkOffset
                        + ", from=" + from + ", to=" + to);
            }
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof MessageChunk that && node == that.node && requestId == that.requestId
                    && total == that.total && chunkOffset == that.chunkOffset && Objects.equals(from, that.from)
                    && Objects.equals(to, that.to) && java.util.Arrays.equals(data, that.data);
        }

        @Override
        public int hashCode() {
            return Objects.hash(node, requestId, total, chunkOffset, from, to, java.util.Arrays.hashCode(data));
        }

        @Override
        public String toString() {
            return "MessageChunk[node=" + node + ", requestId=" + requestId + ", total=" + total + ", chunkOffset="
                    + chunkOffset + ", from=" + from + ", to=" + to + ", bytes=" + data.length + "]";
        }
    }

    /** Answers a whole message: delivered into the mailbox, or why not ({@code reason} is "" when delivered). */
    record MessageResult(int node, long requestId, boolean delivered, String reason) implements Frame {
        public MessageResult {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** PING (are you there?), PONG (its answer) or GOODBYE (the sender is closing its fabric). */
    record Signal(int node, long requestId, byte type) implements Frame {
        public Signal {
            if (type != FrameDescriptor.PING && type != FrameDescriptor.PONG && type != FrameDescriptor.GOODBYE) {
                throw new IllegalArgumentException("not a signal frame type: type=" + type);
            }
        }
    }
}
