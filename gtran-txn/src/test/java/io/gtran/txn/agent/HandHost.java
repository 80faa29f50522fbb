package io.gtran.txn.agent;

import io.gtran.rdma.Mailbox;
import java.util.concurrent.ExecutorService;

/**
 * An {@link AgentHost} that runs nothing: it keeps the last agent started for a test to step by
 * hand ({@link Agent#doWork}) at the times it chooses. Agents with a mailbox and work pools are
 * refused.
 */
public final class HandHost implements AgentHost {
    private final TimeSource time;
    private volatile Agent agent;

    public HandHost(TimeSource time) {
        this.time = time;
    }

    /** The last agent started, or null. */
    public Agent agent() {
        return agent;
    }

    @Override
    public TimeSource time() {
        return time;
    }

    @Override
    public AgentHandle start(Agent started) {
        agent = started;
        return new AgentHandle() {
            @Override
            public void close(long waitMillis) {
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public AgentHandle start(Agent started, Mailbox mailbox) {
        throw new UnsupportedOperationException("a hand host runs no mailbox");
    }

    @Override
    public ExecutorService workers(String role) {
        throw new UnsupportedOperationException("a hand host has no work pool");
    }
}
