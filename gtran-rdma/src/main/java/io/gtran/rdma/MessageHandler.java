package io.gtran.rdma;

/** Receives the messages sent to one channel of a node; see {@link Fabric#onMessage}. */
@FunctionalInterface
public interface MessageHandler {
    /**
     * Handles one message. Runs on the receiving node's delivery thread; the sender's future
     * completes when this returns, or fails with a {@link DeliveryException} if this throws.
     *
     * @param fromNode the sender's node id
     * @param payload the message, owned by the handler (a copy of what the sender passed)
     */
    void onMessage(int fromNode, byte[] payload);
}
