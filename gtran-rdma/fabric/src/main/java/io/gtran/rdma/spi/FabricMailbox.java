package io.gtran.rdma.spi;

import io.gtran.rdma.Mailbox;
import io.gtran.rdma.Message;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The mailbox of every {@link AbstractFabric}: arrived messages wait in a {@link MailboxQueue};
 * a send is checked here and handed to the fabric's {@link AbstractFabric#send}, which carries it
 * to the receiving node (or straight into the queue of a mailbox of this node).
 */
final class FabricMailbox implements Mailbox {
    private final AbstractFabric fabric;
    private final byte[] nameUtf8;
    final MailboxQueue queue;

    FabricMailbox(AbstractFabric fabric, String name, byte[] nameUtf8, int capacity) {
        this.fabric = fabric;
        this.nameUtf8 = nameUtf8;
        this.queue = new MailboxQueue(name, capacity);
    }

    @Override
    public int node() {
        return fabric.localNode();
    }

    @Override
    public String name() {
        return queue.name();
    }

    @Override
    public CompletableFuture<Void> send(int node, String mailbox, byte[] payload) {
        fabric.checkOpen();
        if (queue.isClosed()) {
            throw new IllegalStateException(closedMessage());
        }
        byte[] toUtf8 = FabricChecks.checkMailboxName(mailbox);
        FabricChecks.checkPayload(payload);
        return fabric.send(queue.name(), nameUtf8, node, mailbox, toUtf8, payload);
    }

    @Override
    public Message receive(long timeout, TimeUnit unit) throws InterruptedException {
        return queue.receive(timeout, unit);
    }

    @Override
    public Message poll() {
        return queue.poll();
    }

    @Override
    public boolean handOnArrival(Arrival arrival) {
        queue.handOnArrival(arrival);
        return true;
    }

    @Override
    public void close() {
        if (!queue.isClosed()) {
            queue.close(closedMessage());
            fabric.mailboxClosed(this);
        }
    }

    @Override
    public String toString() {
        return "Mailbox[node=" + node() + ", mailbox=" + queue.name() + ", waiting=" + queue.size() + "]";
    }

    private String closedMessage() {
        return "mailbox is closed: node=" + node() + ", mailbox=" + queue.name();
    }
}
