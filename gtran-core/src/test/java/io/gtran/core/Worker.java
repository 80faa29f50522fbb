package io.gtran.core;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** A thread of a test's own (transactions bind to it); each step runs there and is awaited. */
final class Worker {
    private final ExecutorService executor;

    /** Runs its steps on {@code executor}, which must have a single thread. */
    Worker(ExecutorService executor) {
        this.executor = executor;
    }

    /** Runs {@code step} and returns its result, or rethrows what it threw. */
    <V> V run(Callable<V> step) throws Exception {
        try {
            return executor.submit(step).get(20, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception ex ? ex : e;
        }
    }

    /** Runs a step that must throw; returns what it threw. */
    Throwable fails(Callable<?> step) throws Exception {
        Future<?> f = executor.submit(step);
        try {
            Object r = f.get(20, TimeUnit.SECONDS);
            throw new AssertionError("expected the step to throw, it returned " + r);
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }
}
