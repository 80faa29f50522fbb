package io.gtran.rdma.disni;

import java.util.HashMap;
import java.util.Map;

/**
 * Puts mailbox messages back together from their chunks, for one connection. A reliable connection
 * delivers one message's chunks in order, but chunks of messages sent by different threads may
 * interleave, so pieces are kept per request id. Used by one thread at a time (the fabric's frame
 * thread).
 */
final class MessageAssembly {
    /** A whole message, ready for its mailbox. */
    record Assembled(long requestId, String from, String to, byte[] payload) {
    }

    private final Map<Long, Partial> partials = new HashMap<>();

    /**
     * Takes the next chunk.
     *
     * @return the whole message if this chunk completed it, else null
     * @throws IllegalArgumentException {@code "corrupt frame: ..."} if the chunk does not continue its
     *     message where the previous one ended
     */
    Assembled accept(Frame.MessageChunk chunk) {
        Partial partial;
        if (chunk.chunkOffset() == 0) {
            if (partials.containsKey(chunk.requestId())) {
                throw new IllegalArgumentException("corrupt frame: message started twice: requestId=" + chunk.requestId());
            }
            if (chunk.data().length == chunk.total()) {
                return new Assembled(chunk.requestId(), chunk.from(), chunk.to(), chunk.data());
            }
            partial = new Partial(chunk.from(), chunk.to(), new byte[chunk.total()]);
            partials.put(chunk.requestId(), partial);
        } else {
            partial = partials.get(chunk.requestId());
            if (partial == null) {
                throw new IllegalArgumentException("corrupt frame: chunk of an unknown message: requestId="
                        + chunk.requestId() + ", chunkOffset=" + chunk.chunkOffset());
            }
        }
        if (chunk.chunkOffset() != partial.filled || chunk.total() != partial.payload.length) {
            partials.remove(chunk.requestId());
            throw new IllegalArgumentException("corrupt frame: chunk out of order: requestId=" + chunk.requestId()
                    + ", chunkOffset=" + chunk.chunkOffset() + ", expected=" + partial.filled + ", total=" + chunk.total());
        }
        System.arraycopy(chunk.data(), 0, partial.payload, partial.filled, chunk.data().length);
        partial.filled += chunk.data().length;
        if (partial.filled < partial.payload.length) {
            return null;
        }
        partials.remove(chunk.requestId());
        return new Assembled(chunk.requestId(), partial.from, partial.to, partial.payload);
    }

    /** The number of messages begun and not finished. */
    int pending() {
        return partials.size();
    }

    /** Forgets every unfinished message (their connection is gone). */
    void clear() {
        partials.clear();
    }

    private static final class Partial {
        final String from;
        final String to;
        final byte[] payload;
        int filled;

        Partial(String from, String to, byte[] payload) {
            this.from = from;
            this.to = to;
            this.payload = payload;
        }
    }
}
