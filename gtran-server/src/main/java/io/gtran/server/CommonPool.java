package io.gtran.server;

import java.util.concurrent.ForkJoinPool;

/**
 * The JDK's common fork-join pool, which runs {@code CompletableFuture}'s {@code *Async} steps that name
 * no executor. On a machine with two cores its default size is one, and then {@code CompletableFuture}
 * does not use it: it starts a new thread for every such step. Ratis takes one of those steps for every
 * AppendEntries a follower of the membership group receives, heartbeats included, so an idle node
 * started about ten threads a second. A node asks for at least {@link #MIN_PARALLELISM} workers before
 * anything builds the pool, unless the operator set the size ({@value #PARALLELISM}).
 */
final class CommonPool {

    static final String PARALLELISM = "java.util.concurrent.ForkJoinPool.common.parallelism";
    static final int MIN_PARALLELISM = 2;

    private CommonPool() {
    }

    /**
     * Sets the common pool's size to at least two workers (a processor less than the machine has, as the
     * JDK would) when the operator set none; call it before anything uses the pool.
     *
     * @return the pool's size now
     */
    static int ensureWorkers() {
        if (System.getProperty(PARALLELISM) == null) {
            int size = Math.max(MIN_PARALLELISM, Runtime.getRuntime().availableProcessors() - 1);
            System.setProperty(PARALLELISM, Integer.toString(size));
        }
        return ForkJoinPool.getCommonPoolParallelism();
    }
}
