package io.gtran.rdma;

/**
 * A message that was not acknowledged: the receiving node is unknown or closed, has no handler for
 * the channel, the handler threw (the cause), or a fault was injected. The message names
 * {@code node=} and {@code channel=}. Found as the cause of the failed future from
 * {@link Fabric#send}.
 */
public final class DeliveryException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Creates the exception with a message naming the node and channel. */
    public DeliveryException(String message) {
        super(message);
    }

    /** Creates the exception with a message naming the node and channel, and the handler's exception. */
    public DeliveryException(String message, Throwable cause) {
        super(message, cause);
    }
}
