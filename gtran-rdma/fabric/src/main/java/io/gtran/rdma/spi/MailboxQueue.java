package io.gtran.rdma.spi;

import io.gtran.rdma.DeliveryException;
import io.gtran.rdma.Mailbox;
import io.gtran.rdma.Message;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The receiving side of a mailbox, shared by every transport: a bounded queue of arrived messages
 * that transports {@link #deliver} into (from any thread, without blocking) and the owner takes
 * from, or first offered to the owner's {@link Mailbox.Arrival}. Closing wakes every waiting
 * receiver, which then throws the close reason.
 */
final class MailboxQueue {
    private static final Logger LOG = LoggerFactory.getLogger(MailboxQueue.class);
    /** Put in the queue at close to wake receivers; never handed out. */
    private static final Message CLOSED = new Message(-1, "closed", new byte[0]);

    private final String name;
    private final int capacity;
    private final LinkedBlockingQueue<Message> queue = new LinkedBlockingQueue<>();
    private final AtomicInteger held = new AtomicInteger();
    private volatile String closedBecause;
    private volatile Mailbox.Arrival arrival;

    /** An open, empty queue for mailbox {@code name} holding up to {@code capacity} messages. */
    MailboxQueue(String name, int capacity) {
        FabricChecks.checkCapacity(name, capacity);
        this.name = name;
        this.capacity = capacity;
    }

    String name() {
        return name;
    }

    int capacity() {
        return capacity;
    }

    /** The number of messages waiting to be received. */
    int size() {
        return Math.max(0, held.get());
    }

    /**
     * Adds {@code message}; never blocks.
     *
     * @return null if it was added, otherwise why not ({@code "mailbox is full"} or
     *     {@code "mailbox is closed"}), for the sender's {@link DeliveryException}
     */
    String deliver(Message message) {
        if (closedBecause != null) {
            return "mailbox is closed";
        }
        Mailbox.Arrival taker = arrival;
        if (taker != null && taken(taker, message)) {
            return null;
        }
        if (held.incrementAndGet() > capacity) {
            held.decrementAndGet();
            notQueued(taker, message);
            return "mailbox is full: capacity=" + capacity;
        }
        queue.add(message);
        if (closedBecause != null) {
            queue.clear(); // closed while we added: drop it as close drops the rest
            queue.add(CLOSED);
        }
        return null;
    }

    private static void notQueued(Mailbox.Arrival taker, Message message) {
        if (taker != null) {
            taker.notQueued(message);
        }
    }

    /** Offers every message {@link #deliver}ed from now on to {@code arrival} first ({@link Mailbox#handOnArrival}). */
    void handOnArrival(Mailbox.Arrival arrival) {
        this.arrival = arrival;
    }

    /** Whether {@code taker} took {@code message}; one that throws took it (it is dropped, and logged). */
    private boolean taken(Mailbox.Arrival taker, Message message) {
        try {
            return taker.take(message);
        } catch (RuntimeException e) {
            LOG.warn("mailbox={} dropped a message from node {} (mailbox {}): its arrival handler failed", name,
                    message.fromNode(), message.fromMailbox(), e);
            return true;
        }
    }

    /** The next message, waiting up to {@code timeout}; null if none came. */
    Message receive(long timeout, TimeUnit unit) throws InterruptedException {
        checkOpen();
        Message message = queue.poll(timeout, unit);
        return taken(message);
    }

    /** The next message, or null. */
    Message poll() {
        checkOpen();
        return taken(queue.poll());
    }

    /** Whether {@link #close} was called. */
    boolean isClosed() {
        return closedBecause != null;
    }

    /**
     * Closes the queue, dropping what it holds; idempotent (the first reason stays). Receivers,
     * including those waiting now, throw {@code IllegalStateException(reason)}.
     */
    void close(String reason) {
        synchronized (this) {
            if (closedBecause != null) {
                return;
            }
            closedBecause = reason;
        }
        queue.clear();
        queue.add(CLOSED);
    }

    private Message taken(Message message) {
        if (message == CLOSED) {
            queue.add(CLOSED); // for the next receiver
            checkOpen();
        }
        if (message != null) {
            held.decrementAndGet();
        }
        return message;
    }

    private void checkOpen() {
        String reason = closedBecause;
        if (reason != null) {
            throw new IllegalStateException(reason);
        }
    }
}
