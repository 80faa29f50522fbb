package io.gtran.txn;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.ForwardingFabric;
import io.gtran.rdma.ForwardingMailbox;
import io.gtran.rdma.Mailbox;
import io.gtran.txn.protocol.CommitMessage;
import io.gtran.txn.protocol.Family;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A fabric that crashes its node at a chosen point: when the node is about to send a message the
 * {@link Trigger} picks, the message is sent or not ({@link #crashAfterSending}), and from then on
 * nothing leaves the node and its fabric closes (other nodes see it lost, its regions vanish). The
 * node's threads go on running cut off, as a crashed process's would be, from the others' view.
 * {@link #at} runs any other action at such a point (a partition).
 */
final class CrashingFabric extends ForwardingFabric {
    /** Picks the message at which the node crashes. */
    interface Trigger {
        boolean at(String mailbox, int toNode, byte[] payload);
    }

    private final AtomicBoolean dead = new AtomicBoolean();
    private volatile Thread closer;
    private volatile Trigger trigger;
    private volatile boolean afterSending;
    private volatile Runnable action;
    /** If not 0, a commit message ({@link Family#COMMIT}) triggers only if it is about this transaction. */
    private volatile long onlyTxn;

    CrashingFabric(Fabric delegate) {
        super(delegate);
    }

    /** Crashes the node when it first sends a message {@code trigger} picks; the message is lost with it. */
    void crashBeforeSending(Trigger trigger) {
        at(trigger, false, this::crash);
    }

    /** Runs {@code action} when the node first sends a message {@code trigger} picks, before or after sending it. */
    void at(Trigger trigger, boolean afterSending, Runnable action) {
        this.afterSending = afterSending;
        this.action = action;
        this.trigger = trigger;
    }

    /** Crashes the node right after it sends the first message {@code trigger} picks. */
    void crashAfterSending(Trigger trigger) {
        at(trigger, true, this::crash);
    }

    /** From now on, only commit messages about transaction {@code txn} trigger. */
    void onlyFor(long txn) {
        this.onlyTxn = txn;
    }

    private boolean about(String mailbox, byte[] payload) {
        long txn = onlyTxn;
        if (txn == 0 || Family.of(payload) != Family.COMMIT) {
            return true;
        }
        return CommitMessage.decode(payload).txn() == txn;
    }

    /** Whether a message is a commit message of {@code type}. */
    static boolean isCommit(String mailbox, byte[] payload, CommitMessage.Type type) {
        return Family.of(payload) == Family.COMMIT && CommitMessage.decode(payload).type() == type;
    }

    /** Crashes the node now. */
    void crash() {
        if (dead.compareAndSet(false, true)) {
            Thread closing = new Thread(() -> delegate().close(), "crash-" + localNode());
            closing.setDaemon(true);
            closer = closing;
            closing.start();
        }
    }

    /** Waits until a crash has closed the node's fabric: its regions are gone for the others. */
    void awaitCrashed() throws InterruptedException {
        Thread closing = closer;
        if (closing != null) {
            closing.join();
        }
    }

    boolean isDead() {
        return dead.get();
    }

    @Override
    public Mailbox openMailbox(String name, int capacity) {
        return new ForwardingMailbox(super.openMailbox(name, capacity)) {
            @Override
            public CompletableFuture<Void> send(int node, String mailbox, byte[] payload) {
                if (dead.get()) {
                    return CompletableFuture.completedFuture(null); // lost with the node
                }
                Trigger t = trigger;
                if (t != null && about(mailbox, payload) && t.at(mailbox, node, payload)) {
                    trigger = null;
                    if (afterSending) {
                        CompletableFuture<Void> sent = super.send(node, mailbox, payload);
                        action.run();
                        return sent;
                    }
                    action.run();
                    return dead.get() ? CompletableFuture.completedFuture(null) : super.send(node, mailbox, payload);
                }
                return super.send(node, mailbox, payload);
            }
        };
    }
}
