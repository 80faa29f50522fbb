package io.gtran.rdma;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A named inbox on one node, usually owned by one thread (the paper's per-thread mailbox): other
 * threads anywhere in the cluster {@link #send} to it by (node, name), and its owner
 * {@link #receive}s. Obtained from {@link Fabric#openMailbox}.
 *
 * <p>Messages from one mailbox to another arrive in the order the {@code send} calls were made.
 * Sending is reliable while both nodes live: the future completes normally once the message is in
 * the receiving mailbox (not when it is received). It completes exceptionally with a
 * {@link DeliveryException} naming {@code node=} and {@code mailbox=} if the node is unknown, closed
 * or unreachable, has no open mailbox of that name, the mailbox is full, or a fault was injected.
 * Dependent stages attached with non-async methods may run on a transport thread; never block in
 * them.
 */
public interface Mailbox extends AutoCloseable {
    /** The id of the node this mailbox is on. */
    int node();

    /** This mailbox's name, unique among the open mailboxes of its node. */
    String name();

    /**
     * Sends a copy of {@code payload} to mailbox {@code mailbox} of node {@code node} (which may be
     * this node, or this mailbox), as coming from this mailbox. The payload is copied before this
     * returns, so the caller may reuse the array.
     *
     * @throws IllegalArgumentException if {@code payload} is longer than {@link Fabric#MAX_TRANSFER_BYTES}
     *     or {@code mailbox} is not a valid name (the message says which)
     * @throws IllegalStateException if this mailbox or its fabric is closed
     */
    CompletableFuture<Void> send(int node, String mailbox, byte[] payload);

    /**
     * Takes the next message, waiting up to {@code timeout} for one.
     *
     * @return the message, or null if none arrived in time
     * @throws InterruptedException if the waiting thread is interrupted
     * @throws IllegalStateException if this mailbox or its fabric is closed, also while waiting
     */
    Message receive(long timeout, TimeUnit unit) throws InterruptedException;

    /**
     * Takes the next message if one is there.
     *
     * @return the message, or null
     * @throws IllegalStateException if this mailbox or its fabric is closed
     */
    Message poll();

    /**
     * Has each message that {@code arrival} takes handed to it as the message arrives, on the
     * thread that delivers it (a transport thread, or the sender's own for a fabric that delivers
     * in the sending call), instead of queueing it for {@link #receive}; a message it does not take
     * is queued as before. The send's future completes once {@code arrival} returned. Replaces any
     * handler given before.
     *
     * <p>{@code arrival} must be thread-safe, return quickly and never block: it runs on threads
     * that deliver other messages and replies. A message it takes overtakes those still in the
     * queue, so a receiver gives it only what needs no order against them. If it throws, the
     * message counts as taken (dropped) and the failure is logged.
     *
     * @return whether this mailbox hands messages over on arrival; false if it cannot (a decorator
     *     that delays or inspects at receive, a simulated fabric), and then every message is queued
     */
    default boolean handOnArrival(Arrival arrival) {
        return false;
    }

    /** Takes messages as they arrive; see {@link #handOnArrival}. */
    @FunctionalInterface
    interface Arrival {
        /** Handles {@code message} now and returns true, or returns false to leave it for {@link #receive}. */
        boolean take(Message message);

        /**
         * Told that {@code message}, which {@link #take} left, was not queued after all (the mailbox
         * is full or closed; its sender's future fails): it will never be received.
         */
        default void notQueued(Message message) {
        }
    }

    /**
     * Closes this mailbox; idempotent. Messages not yet received are dropped, later sends to it fail
     * as if it never existed, and its name may be opened again.
     */
    @Override
    void close();
}
