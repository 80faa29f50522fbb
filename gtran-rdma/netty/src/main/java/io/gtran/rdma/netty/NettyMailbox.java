package io.gtran.rdma.netty;

import io.gtran.rdma.Mailbox;
import io.gtran.rdma.Message;
import io.gtran.rdma.spi.FabricChecks;
import io.gtran.rdma.spi.MailboxQueue;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A mailbox of the Netty fabric. Arriving messages are put into its {@link MailboxQueue} by the
 * I/O thread of the connection they came on (or, from this node, by the sending thread); sends
 * go out as SEND frames over the connection to the receiving node, whose reply completes the
 * future once the message is in the receiving queue.
 */
final class NettyMailbox implements Mailbox {
    private final NettyFabric fabric;
    private final byte[] nameUtf8;
    final MailboxQueue queue;

    NettyMailbox(NettyFabric fabric, String name, int capacity) {
        this.fabric = fabric;
        this.nameUtf8 = name.getBytes(StandardCharsets.UTF_8);
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
        byte[] to = FabricChecks.checkMailboxName(mailbox);
        FabricChecks.checkPayload(payload);
        return fabric.send(queue.name(), nameUtf8, node, mailbox, to, payload);
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
            queue.close(closedMessage());
            fabric.mailboxClosed(this);
        }
    }

    @Override
    public String toString() {
        return "NettyMailbox[node=" + fabric.localNode() + ", mailbox=" + queue.name() + ", waiting=" + queue.size() + "]";
    }

    private String closedMessage() {
        return "mailbox is closed: node=" + fabric.localNode() + ", mailbox=" + queue.name();
    }
}
