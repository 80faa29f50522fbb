package io.gtran.check.sim;

import io.gtran.rdma.Mailbox;
import io.gtran.txn.agent.Agent;
import io.gtran.txn.agent.AgentHandle;
import io.gtran.txn.agent.AgentHost;
import io.gtran.txn.agent.TimeSource;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A simulated node's {@link AgentHost}: its agents' steps and its workers' tasks are events of the
 * simulator's {@link Scheduler}, told the node's own (drifting) virtual time. A step asks for its
 * next time in the node's time, which the host turns into the simulator's.
 */
final class SimHost implements AgentHost {
    /** Tasks handed to a worker pool start within this much virtual time (their order is then the scheduler's). */
    private static final long WORKER_JITTER_NANOS = 200_000;

    private final SimNode node;
    private final Scheduler scheduler;

    SimHost(SimNode node, Scheduler scheduler) {
        this.node = node;
        this.scheduler = scheduler;
    }

    @Override
    public TimeSource time() {
        return node.time();
    }

    @Override
    public AgentHandle start(Agent agent) {
        Running running = new Running(agent);
        scheduler.at(scheduler.now(), node, running::step);
        return running;
    }

    @Override
    public AgentHandle start(Agent agent, Mailbox mailbox) {
        Running running = (Running) start(agent);
        node.receive(mailbox.name(), running);
        return running;
    }

    @Override
    public ExecutorService workers(String role) {
        return new Workers(role);
    }

    /** An agent whose steps are scheduled events, and which takes its mailbox's messages. */
    final class Running implements AgentHandle {
        private final Agent agent;
        private boolean closed;

        Running(Agent agent) {
            this.agent = agent;
        }

        void step() {
            if (closed) {
                return;
            }
            long nodeNow = node.time().nanos();
            long next;
            try {
                next = agent.doWork(nodeNow);
            } catch (RuntimeException e) {
                node.failed(agent.roleName(), e);
                next = nodeNow + TimeUnit.MILLISECONDS.toNanos(10);
            }
            scheduler.at(Math.max(node.toSimulatorTime(next), scheduler.now() + 1_000), node, this::step);
        }

        void deliver(io.gtran.rdma.Message message) {
            if (closed) {
                return;
            }
            try {
                agent.onMessage(message, node.time().nanos());
            } catch (RuntimeException e) {
                node.failed(agent.roleName(), e);
            }
        }

        @Override
        public void close(long waitMillis) {
            close();
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    /** A worker pool: each task an event a little later, on this node. */
    private final class Workers extends AbstractExecutorService {
        private final String role;
        private boolean shutdown;

        Workers(String role) {
            this.role = role;
        }

        @Override
        public void execute(Runnable task) {
            if (shutdown) {
                throw new java.util.concurrent.RejectedExecutionException(role + " is shut down");
            }
            long delay = node.random().nextLong(WORKER_JITTER_NANOS);
            scheduler.at(scheduler.now() + delay, node, () -> {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    node.failed(role, e);
                }
            });
        }

        @Override
        public void shutdown() {
            shutdown = true;
        }

        @Override
        public List<Runnable> shutdownNow() {
            shutdown = true;
            return List.of();
        }

        @Override
        public boolean isShutdown() {
            return shutdown;
        }

        @Override
        public boolean isTerminated() {
            return shutdown;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return shutdown;
        }
    }
}
