package io.gtran.rdma.disni;

import io.gtran.rdma.DeliveryException;
import io.gtran.rdma.Mailbox;
import io.gtran.rdma.Message;
import io.gtran.rdma.RegionAccessException;
import io.gtran.rdma.spi.FabricChecks;
import io.gtran.rdma.spi.MailboxQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A mailbox of a {@link DisniFabric}: arriving messages wait in a {@link MailboxQueue}; sends go as
 * SEND/RECV chunks over the connection to the receiving node (or straight into the queue for this
 * node's own mailboxes).
 * A message to another node counts as delivered only when the receiver answers that it is in the
 * mailbox; a lost connection, no answer within the operation time-out, a missing or full mailbox
 * fail the send's future with a {@link DeliveryException} naming {@code node=} and {@code mailbox=}.
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
        return deliver(node, mailbox, payload.clone());
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

    /**
     * Delivers {@code payload} (already copied) to mailbox {@code mailbox} of node {@code to}: straight
     * into the queue on this node, else as chunks over the connection to {@code to}, completing when
     * the receiver's MESSAGE_RESULT says it is in the mailbox.
     */
    private CompletableFuture<Void> deliver(int to, String mailbox, byte[] payload) {
        String where = ": node=" + to + ", mailbox=" + mailbox;
        if (to < 0 || to >= fabric.clusterSize()) {
            return CompletableFuture.failedFuture(new DeliveryException("unknown node" + where));
        }
        if (to == node()) {
            DisniMailbox target = fabric.mailbox(mailbox);
            String failure = target == null ? "no such mailbox" : target.queue.deliver(new Message(to, name(), payload));
            return failure == null ? CompletableFuture.completedFuture(null)
                    : CompletableFuture.failedFuture(new DeliveryException(failure + where));
        }
        Connection connection;
        try {
            connection = fabric.reach(to, "mailbox=" + mailbox);
        } catch (RegionAccessException e) {
            return CompletableFuture.failedFuture(new DeliveryException("node is unreachable" + where + " ("
                    + e.getMessage() + ")"));
        }
        CompletableFuture<Void> delivered = new CompletableFuture<>();
        connection.sendMessage(name(), mailbox, payload).whenComplete((reply, failure) -> {
            if (failure != null) {
                String what = Connection.NODE_CLOSED.equals(connection.lostBecause()) ? "node is closed" : "node is unreachable";
                delivered.completeExceptionally(new DeliveryException(what + where + " (" + failure.getMessage() + ")",
                        failure));
            } else if (reply instanceof Frame.MessageResult result && result.delivered()) {
                delivered.complete(null);
            } else {
                String reason = reply instanceof Frame.MessageResult result ? result.reason() : "unexpected answer " + reply;
                delivered.completeExceptionally(new DeliveryException(reason + where));
            }
        });
        return delivered;
    }

    private void checkMailboxOpen() {
        if (queue.isClosed()) {
            throw new IllegalStateException("mailbox is closed: node=" + node() + ", mailbox=" + queue.name());
        }
    }
}
