package io.gtran.rdma.disni;

import io.gtran.rdma.FabricChecks;
import io.gtran.rdma.Mailbox;
import io.gtran.rdma.MailboxQueue;
import io.gtran.rdma.Message;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A mailbox of a {@link DisniFabric}: arriving messages wait in a {@link MailboxQueue}; sends go
 * through {@link DisniFabric#sendMessage} (SEND/RECV chunks and a delivery result over the
 * connection to the receiving node, or straight into the queue for this node's own mailboxes).
 */
final class DisniMailbox implements Mailbox {
    private final DisniFabric fabric;
    final MailboxQueue queue;

    DisniMailbox(DisniFabric fabric, String name, int capacity) {
        this.fabric = fabric;
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
        checkMailboxOpen();
        FabricChecks.checkMailboxName(mailbox);
        FabricChecks.checkPayload(payload);
        return fabric.sendMessage(queue.name(), node, mailbox, payload.clone());
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
    public void close() {
        if (!queue.isClosed()) {
            queue.close("mailbox is closed: node=" + node() + ", mailbox=" + queue.name());
            fabric.mailboxClosed(this);
        }
    }

    @Override
    public String toString() {
        return "DisniMailbox[node=" + node() + ", mailbox=" + queue.name() + ", waiting=" + queue.size() + "]";
    }

    private void checkMailboxOpen() {
        if (queue.isClosed()) {
            throw new IllegalStateException("mailbox is closed: node=" + node() + ", mailbox=" + queue.name());
        }
    }
}
