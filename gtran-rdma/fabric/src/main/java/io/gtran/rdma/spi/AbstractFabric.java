package io.gtran.rdma.spi;

import io.gtran.rdma.DeliveryException;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.Mailbox;
import io.gtran.rdma.Message;
import io.gtran.rdma.PeerListener;
import java.util.List;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every {@link Fabric} does the same way whatever carries its bytes: this node's id, its open
 * mailboxes by name (opening, closing, delivering an arrived message into one), its peer listeners,
 * and the closed state with the order of closing. A transport extends it and supplies regions,
 * batches, how a message goes to another node ({@link #send}) and how the transport stops
 * ({@link #closeTransport}).
 *
 * <p>{@link #close()} sets the closed flag once; then every operation of the fabric, its mailboxes
 * and its own region handles throws {@code IllegalStateException("fabric is closed: node=N")}
 * ({@link #checkOpen}), every open mailbox is closed with that message (waking its receivers), and
 * {@link #closeTransport} runs. A closed fabric delivers no message and tells its peer listeners
 * nothing.
 *
 * <p>The public methods below {@link #close()} are for the transport's own classes (its I/O
 * threads, region handles, batches); code above the transport sees a {@link Fabric}.
 */
public abstract class AbstractFabric implements Fabric {
    private final Logger log = LoggerFactory.getLogger(getClass());
    private final int node;
    private final ConcurrentHashMap<String, FabricMailbox> mailboxes = new ConcurrentHashMap<>();
    private final List<PeerListener> peerListeners = new CopyOnWriteArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    /** A fabric for node {@code node}, open, with no mailboxes or listeners. */
    protected AbstractFabric(int node) {
        this.node = node;
    }

    @Override
    public final int localNode() {
        return node;
    }

    @Override
    public final Mailbox openMailbox(String name, int capacity) {
        checkOpen();
        byte[] nameUtf8 = FabricChecks.checkMailboxName(name);
        FabricChecks.checkCapacity(name, capacity);
        FabricMailbox mailbox = new FabricMailbox(this, name, nameUtf8, capacity);
        if (mailboxes.putIfAbsent(name, mailbox) != null) {
            throw new IllegalStateException("mailbox already open: node=" + node + ", mailbox=" + name);
        }
        if (closed.get()) { // closed while we opened: close() may have missed it
            mailbox.queue.close(closedMessage());
            checkOpen();
        }
        return mailbox;
    }

    @Override
    public final void onPeerLost(PeerListener listener) {
        checkOpen();
        peerListeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Leaves the cluster; idempotent. The first call marks the fabric closed, closes its mailboxes
     * and runs {@link #closeTransport}; a later one runs {@link #awaitClose}.
     */
    @Override
    public final void close() {
        if (!closed.compareAndSet(false, true)) {
            awaitClose();
            return;
        }
        String message = closedMessage();
        mailboxes.values().forEach(mailbox -> mailbox.queue.close(message));
        closeTransport();
    }

    /** Whether {@link #close()} has been called. */
    public final boolean isClosed() {
        return closed.get();
    }

    /** Throws {@code IllegalStateException("fabric is closed: node=N")} once closed. */
    public final void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException(closedMessage());
        }
    }

    /** {@code "fabric is closed: node=N"}: what operations on a closed fabric throw. */
    public final String closedMessage() {
        return "fabric is closed: node=" + node;
    }

    /**
     * Tells this node's peer listeners that {@code peer} is lost, unless this fabric is closed; a
     * listener that throws is logged and the others are still told.
     */
    public final void tellPeerLost(int peer, String reason) {
        if (closed.get()) {
            return;
        }
        for (PeerListener listener : peerListeners) {
            try {
                listener.peerLost(peer, reason);
            } catch (RuntimeException e) {
                log.warn("node={}: peer listener failed on the loss of node={}", node, peer, e);
            }
        }
    }

    /**
     * Puts a message that arrived for mailbox {@code to} of this node into it; never blocks. The
     * payload is the message's own (not copied again).
     *
     * @return null if it is in the mailbox, otherwise why not, the same text on every transport
     *     ({@code "node is closed"}, {@code "no such mailbox"}, or {@link MailboxQueue#deliver}'s),
     *     for the sender's {@link DeliveryException}
     */
    public final String deliver(int fromNode, String fromMailbox, String to, byte[] payload) {
        if (closed.get()) {
            return "node is closed";
        }
        FabricMailbox mailbox = mailboxes.get(to);
        return mailbox == null ? "no such mailbox" : mailbox.queue.deliver(new Message(fromNode, fromMailbox, payload));
    }

    /**
     * Sends a message from this node's mailbox {@code from} to mailbox {@code mailbox} of node
     * {@code to}, which may be this node ({@link #deliver} puts it in). Called by
     * {@link Mailbox#send} once the fabric and the sending mailbox are known open and the arguments
     * are checked; see there for what the future promises.
     *
     * @param fromUtf8 {@code from} in UTF-8
     * @param toUtf8 {@code mailbox} in UTF-8
     * @param payload the caller's array: copy it (or encode it) before returning
     */
    protected abstract CompletableFuture<Void> send(String from, byte[] fromUtf8, int to, String mailbox, byte[] toUtf8,
                                                    byte[] payload);

    /**
     * Stops the transport after {@link #close()} marked this fabric closed and closed its mailboxes:
     * peers must see this node as dead, and outstanding asynchronous operations fail. Runs once.
     */
    protected abstract void closeTransport();

    /**
     * What a call of {@link #close()} after the first does; by default it returns at once. A
     * transport whose close takes a while may wait here for the first call to finish.
     */
    protected void awaitClose() {
    }

    /** The names of the open mailboxes, sorted, for {@code toString()}. */
    protected final SortedSet<String> mailboxNames() {
        return new TreeSet<>(mailboxes.keySet());
    }

    /** {@code mailbox} was closed: its name is free again. */
    final void mailboxClosed(FabricMailbox mailbox) {
        mailboxes.remove(mailbox.name(), mailbox);
    }
}
