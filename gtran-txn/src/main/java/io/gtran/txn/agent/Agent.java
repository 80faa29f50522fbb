package io.gtran.txn.agent;

import io.gtran.rdma.Message;

/**
 * One of a node's loops (heartbeat, commit resend, clock synchronisation, GC scan, a mailbox's
 * receive path) written as steps that are told the time, as Agrona's {@code Agent}: the agent
 * never reads a clock or sleeps itself. In production an {@link AgentRunner} gives it a thread
 * and the node's {@link io.gtran.txn.agent.TimeSource}; a simulator calls the same methods one at a
 * time with virtual time, so the code it runs is the code that ships.
 *
 * <p>Both methods run on the agent's one thread (never concurrently with each other), must not
 * block for long, and may throw: the runner logs the failure and carries on at the next step.
 */
public interface Agent {
    /**
     * Does whatever is due at {@code nowNanos} (the node's monotonic time) and says when the agent
     * next has something to do.
     *
     * @return the time, on the same scale as {@code nowNanos}, at which {@code doWork} should run
     *     again; a time not after {@code nowNanos} asks to run again at once
     */
    long doWork(long nowNanos);

    /**
     * Handles a message that arrived in the agent's mailbox at {@code nowNanos}; only agents run
     * with a mailbox receive any.
     */
    default void onMessage(Message message, long nowNanos) {
        throw new UnsupportedOperationException(roleName() + " takes no messages");
    }

    /** What the agent does, for thread names and logs, e.g. {@code "commit-tick-3"}. */
    String roleName();

    /** Runs once on the agent's thread after its last step. */
    default void onClose() {
    }
}
