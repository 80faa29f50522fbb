package io.gtran.txn.agent;

import io.gtran.rdma.Mailbox;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/** The production {@link AgentHost}: a daemon thread per agent, a cached daemon pool per role. */
final class ThreadHost implements AgentHost {
    private final TimeSource time;

    ThreadHost(TimeSource time) {
        this.time = time;
    }

    @Override
    public TimeSource time() {
        return time;
    }

    @Override
    public AgentHandle start(Agent agent) {
        return AgentRunner.of(agent, time).start();
    }

    @Override
    public AgentHandle start(Agent agent, Mailbox mailbox) {
        return AgentRunner.receiving(agent, time, mailbox).start();
    }

    @Override
    public ExecutorService workers(String role) {
        AtomicInteger n = new AtomicInteger();
        return Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "gtran-" + role + "-" + n.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }
}
