package io.gtran.txn.agent;

/** A running {@link Agent}, as {@link AgentHost#start} returned it. */
public interface AgentHandle extends AutoCloseable {
    /** Stops the agent and waits up to {@code waitMillis} for a step in progress to end; idempotent. */
    void close(long waitMillis);

    /** Stops the agent without waiting; idempotent. */
    @Override
    void close();
}
