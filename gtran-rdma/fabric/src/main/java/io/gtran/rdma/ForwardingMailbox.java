package io.gtran.rdma;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A {@link Mailbox} that passes every call to another: the base of the fabric decorators' mailboxes. */
public class ForwardingMailbox implements Mailbox {
    private final Mailbox delegate;

    public ForwardingMailbox(Mailbox delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** The wrapped mailbox. */
    protected Mailbox delegate() {
        return delegate;
    }

    @Override
    public int node() {
        return delegate.node();
    }

    @Override
    public String name() {
        return delegate.name();
    }

    @Override
    public CompletableFuture<Void> send(int node, String mailbox, byte[] payload) {
        return delegate.send(node, mailbox, payload);
    }

    @Override
    public Message receive(long timeout, TimeUnit unit) throws InterruptedException {
        return delegate.receive(timeout, unit);
    }

    @Override
    public Message poll() {
        return delegate.poll();
    }

    /**
     * False: a message taken on arrival would bypass this decorator's {@link #receive} and
     * {@link #poll}. A decorator that does nothing there overrides this to pass it on.
     */
    @Override
    public boolean handOnArrival(Arrival arrival) {
        return false;
    }

    @Override
    public void close() {
        delegate.close();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + delegate + "]";
    }
}
