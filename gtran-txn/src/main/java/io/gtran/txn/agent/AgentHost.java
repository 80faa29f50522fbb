package io.gtran.txn.agent;

import io.gtran.rdma.Mailbox;
import java.util.concurrent.ExecutorService;

/**
 * Where a node's {@link Agent}s run and its background work is done, and the time they read: in
 * production a thread per agent and thread pools ({@link #threads}); under a simulator, its one
 * scheduler with virtual time. Code that takes a host never makes threads or reads a clock of its
 * own, so the simulator runs it unchanged.
 */
public interface AgentHost {
    /** The time every agent of this host is told, and every wait of its owner reads. */
    TimeSource time();

    /** Runs {@code agent}'s steps from now on, until the returned handle is closed. */
    AgentHandle start(Agent agent);

    /** As {@link #start(Agent)}, also handing the agent each message that arrives in {@code mailbox}. */
    AgentHandle start(Agent agent, Mailbox mailbox);

    /**
     * A pool for work that may block (validation, applying a decision, serving a request), named
     * for {@code role}; its caller shuts it down.
     */
    ExecutorService workers(String role);

    /** Threads reading {@code time}: an {@link AgentRunner} per agent and a cached daemon pool per {@link #workers}. */
    static AgentHost threads(TimeSource time) {
        return new ThreadHost(time);
    }
}
