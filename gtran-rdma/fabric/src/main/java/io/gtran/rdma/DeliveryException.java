package io.gtran.rdma;

/**
 * A message that was not delivered: the receiving node is unknown, closed or unreachable, has no
 * open mailbox of that name, the mailbox is full, or a fault was injected. The message names
 * {@code node=} and {@code mailbox=}. Found as the cause of the failed future from
 * {@link Mailbox#send}.
 */
public final class DeliveryException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Creates the exception with a message naming the node and mailbox. */
    public DeliveryException(String message) {
        super(message);
    }

    /** Creates the exception with a message naming the node and mailbox, and what caused the failure. */
    public DeliveryException(String message, Throwable cause) {
        super(message, cause);
    }
}
