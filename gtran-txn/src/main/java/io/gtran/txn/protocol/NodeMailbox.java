package io.gtran.txn.protocol;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.Mailbox;
import io.gtran.rdma.Message;
import io.gtran.txn.agent.AgentHandle;
import io.gtran.txn.agent.AgentHost;
import io.gtran.txn.agent.MessageAgent;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's one mailbox, {@value #NAME}, and its one receive path: an agent that takes each
 * message, tells the listener whom it heard from, and hands the message to the role its first
 * byte names ({@link Family}). Every role sends through it.
 *
 * <p>Handlers run on the receiving agent, one message after another: one that may wait (for a
 * lock, for another message) hands its work to a pool. A message of a family no role has taken
 * yet is dropped (it is resent or answered late, as a lost one would be), and so is one whose
 * first byte names no family, with a log line.
 *
 * <p>A role may also take messages as they arrive ({@link #onArrival}), on the transport's thread,
 * where the fabric can hand them over ({@link Mailbox#handOnArrival}): an answer a thread waits
 * for, or a request the role hands to its pool anyway, then skips the receiving agent, one thread
 * hand-off fewer. The handler is told whether an earlier message of the same sender is still
 * queued for the agent or in its hands: a message that must not overtake it (a request after
 * the sender's first ping since it restarted) is then left to the agent. What the handler leaves,
 * and everything where the fabric cannot hand messages over (a simulated one), goes the agent's
 * way to {@link #on}'s handler, which must therefore handle every message of its family.
 */
public final class NodeMailbox implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NodeMailbox.class);

    /** The mailbox's name on every node. */
    public static final String NAME = "gtran";
    /** Messages it holds undelivered. */
    private static final int CAPACITY = 1 << 16;

    /** A role's receive path: handles message {@code payload} of node {@code from}, arrived at {@code nowNanos}. */
    @FunctionalInterface
    public interface Handler {
        void onMessage(int from, byte[] payload, long nowNanos);
    }

    /**
     * A role's handler of messages as they arrive: thread-safe, quick, never blocking (it runs on
     * the transport's threads, concurrently with itself and with the receiving agent).
     */
    @FunctionalInterface
    public interface ArrivalHandler {
        /**
         * Handles message {@code payload} of node {@code from} now and returns true, or returns
         * false to leave it to the agent; {@code afterQueued} if an earlier message of {@code from}
         * is still queued for the agent or being handled by it (taking this one overtakes it).
         */
        boolean take(int from, byte[] payload, long nowNanos, boolean afterQueued);
    }

    /** Told of every message's sender before its role handles it (membership: whom this node hears). */
    @FunctionalInterface
    public interface Heard {
        void heard(int from, long nowNanos);
    }

    private final int node;
    private final AgentHost host;
    private final Mailbox mailbox;
    private final AtomicReferenceArray<Handler> handlers = new AtomicReferenceArray<>(Family.values().length);
    private final AtomicReferenceArray<ArrivalHandler> arrivals = new AtomicReferenceArray<>(Family.values().length);
    /**
     * Per sender, its messages queued for the agent or in its hands (counted only where the fabric
     * hands messages over: {@link #handsOver}).
     */
    private final Map<Integer, AtomicInteger> queued = new ConcurrentHashMap<>();
    private final boolean handsOver;
    private volatile Heard heard = (from, nowNanos) -> { };
    private volatile AgentHandle receiver;
    private volatile boolean closed;

    /** Opens the mailbox on {@code fabric}; it receives once {@link #start()}ed, on {@code host}. */
    public NodeMailbox(Fabric fabric, AgentHost host) {
        this.node = fabric.localNode();
        this.host = host;
        this.mailbox = fabric.openMailbox(NAME, CAPACITY);
        this.handsOver = mailbox.handOnArrival(new Arrivals()); // from the first message: every one queued is counted
    }

    /** The node it is on. */
    public int node() {
        return node;
    }

    /**
     * Hands the messages of {@code family} to {@code handler} from now on.
     *
     * @throws IllegalStateException if a role took the family already
     */
    public void on(Family family, Handler handler) {
        if (!handlers.compareAndSet(family.ordinal(), null, handler)) {
            throw new IllegalStateException("node=" + node + " already hands " + family + " messages to a role");
        }
    }

    /**
     * Offers the messages of {@code family} to {@code handler} as they arrive, from {@link #start}
     * on, where the fabric hands messages over; what it does not take goes to {@link #on}'s handler.
     *
     * @throws IllegalStateException if a role took the family's arrivals already
     */
    public void onArrival(Family family, ArrivalHandler handler) {
        if (!arrivals.compareAndSet(family.ordinal(), null, handler)) {
            throw new IllegalStateException("node=" + node + " already hands " + family + " messages to a role on arrival");
        }
    }

    /** Tells {@code listener} the sender of every message from now on, before its role handles it. */
    public void onHeard(Heard listener) {
        this.heard = listener;
    }

    /** Starts receiving. */
    public synchronized void start() {
        if (receiver == null && !closed) {
            receiver = host.start(new Receiver(), mailbox);
        }
    }

    /**
     * Sends {@code payload}, a message whose first byte names its family, to node {@code to}'s
     * mailbox; the future fails if it was not delivered. A failure shows as a missing answer.
     *
     * @throws IllegalStateException if this node's mailbox or fabric is closed
     */
    public CompletableFuture<Void> send(int to, byte[] payload) {
        return mailbox.send(to, NAME, payload);
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (receiver != null) {
            receiver.close();
        }
        mailbox.close();
    }

    private AtomicInteger queuedFrom(int from) {
        return queued.computeIfAbsent(from, n -> new AtomicInteger());
    }

    /**
     * On the transport's thread: offers each message to its family's arrival handler once the
     * mailbox is started (before, as on the agent's way, nothing is handled: a role may still be
     * setting up), counts those left to the agent.
     */
    private final class Arrivals implements Mailbox.Arrival {
        @Override
        public boolean take(Message message) {
            int from = message.fromNode();
            AtomicInteger fromQueued = queuedFrom(from);
            byte[] payload = message.payload();
            Family family = Family.of(payload);
            ArrivalHandler handler = family == null ? null : arrivals.get(family.ordinal());
            if (handler != null && receiver != null && !closed) {
                long nowNanos = host.time().nanos();
                heard.heard(from, nowNanos); // as the agent would, before the role sees it (again there if left)
                if (handler.take(from, payload, nowNanos, fromQueued.get() > 0)) {
                    return true;
                }
            }
            fromQueued.incrementAndGet(); // before the queue holds it: a later message sees it
            return false;
        }

        @Override
        public void notQueued(Message message) {
            queuedFrom(message.fromNode()).decrementAndGet();
        }
    }

    private final class Receiver implements MessageAgent {
        @Override
        public void onMessage(Message message, long nowNanos) {
            try {
                handle(message, nowNanos);
            } finally {
                if (handsOver) {
                    queuedFrom(message.fromNode()).decrementAndGet(); // handled: a later message may overtake nothing now
                }
            }
        }

        private void handle(Message message, long nowNanos) {
            int from = message.fromNode();
            byte[] payload = message.payload();
            Family family = Family.of(payload);
            if (family == null) {
                LOG.warn("node={} ignored a message from node {} on {}: first byte names no family ({} bytes)", node, from,
                        NAME, payload.length);
                return;
            }
            heard.heard(from, nowNanos);
            Handler handler = handlers.get(family.ordinal());
            if (handler == null) {
                LOG.debug("node={} dropped a {} message from node {}: no role takes them yet", node, family, from);
                return;
            }
            handler.onMessage(from, payload, nowNanos); // one that throws is the host's to log (a simulator's to count)
        }

        @Override
        public String roleName() {
            return "receive-" + node;
        }
    }
}
