package io.gtran.txn.agent;

import io.gtran.rdma.Mailbox;
import io.gtran.rdma.Message;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one {@link Agent} on a daemon thread of its own, reading time from one {@link TimeSource}:
 * calls {@link Agent#doWork} whenever the time it asked for comes, and, if the agent has a mailbox,
 * hands it each message as it arrives in between. This is the production driver; a simulator
 * drives agents without it.
 *
 * <p>Waiting is in real time (the thread parks, or waits on the mailbox) for the difference the
 * agent asked for; the agent is then told the time source's own reading, so a source that runs
 * fast or slow changes what the agent sees, not how often it wakes by more than that rate.
 */
public final class AgentRunner implements AgentHandle {
    private static final Logger LOG = LoggerFactory.getLogger(AgentRunner.class);
    /** The longest a runner waits before it looks at the time again (a source may jump). */
    private static final long MAX_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final Agent agent;
    private final TimeSource time;
    private final Mailbox mailbox;
    private final Thread thread;
    private volatile boolean closed;

    private AgentRunner(Agent agent, TimeSource time, Mailbox mailbox) {
        this.agent = agent;
        this.time = time;
        this.mailbox = mailbox;
        this.thread = new Thread(this::run, "gtran-" + agent.roleName());
        thread.setDaemon(true);
    }

    /** A runner for an agent that takes no messages; call {@link #start}. */
    public static AgentRunner of(Agent agent, TimeSource time) {
        return new AgentRunner(agent, time, null);
    }

    /**
     * A runner that also receives from {@code mailbox} and hands each message to {@link
     * Agent#onMessage}; the runner stops when the mailbox or its fabric closes. Call {@link #start}.
     */
    public static AgentRunner receiving(Agent agent, TimeSource time, Mailbox mailbox) {
        return new AgentRunner(agent, time, mailbox);
    }

    public AgentRunner start() {
        thread.start();
        return this;
    }

    private void run() {
        long next = time.nanos();
        try {
            while (!closed) {
                long now = time.nanos();
                if (now - next >= 0) {
                    next = step(now);
                    continue;
                }
                long wait = Math.min(next - now, MAX_WAIT_NANOS);
                if (mailbox == null) {
                    LockSupport.parkNanos(this, wait);
                    Thread.interrupted(); // close's wake-up; the loop checks closed
                    continue;
                }
                Message message;
                try {
                    message = mailbox.receive(wait, TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    return;
                } catch (IllegalStateException closedForGood) {
                    // The mailbox or its fabric is closed (Mailbox#receive), for good: nothing arrives any more.
                    if (!closed) {
                        LOG.debug("{} stops: {}", agent.roleName(), closedForGood.getMessage());
                    }
                    return;
                }
                if (message != null) {
                    deliver(message);
                }
            }
        } finally {
            try {
                agent.onClose();
            } catch (RuntimeException e) {
                LOG.warn("{} failed to close", agent.roleName(), e);
            }
        }
    }

    private long step(long now) {
        try {
            return agent.doWork(now);
        } catch (RuntimeException e) {
            if (!closed) {
                LOG.warn("{} failed a step; it runs again shortly", agent.roleName(), e);
            }
            return now + TimeUnit.MILLISECONDS.toNanos(100); // a step that keeps failing logs ten times a second, not more
        }
    }

    private void deliver(Message message) {
        try {
            agent.onMessage(message, time.nanos());
        } catch (RuntimeException e) {
            if (!closed) {
                LOG.warn("{} could not handle a message from node {}", agent.roleName(), message.fromNode(), e);
            }
        }
    }

    /**
     * Stops the thread (interrupting a wait) and waits up to {@code timeoutMillis} for it to end;
     * idempotent. A step in progress finishes first, unless it waits interruptibly.
     */
    @Override
    public void close(long timeoutMillis) {
        closed = true;
        thread.interrupt();
        if (Thread.currentThread() == thread) {
            return;
        }
        try {
            thread.join(timeoutMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@link #close(long)} without waiting for the thread. */
    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
