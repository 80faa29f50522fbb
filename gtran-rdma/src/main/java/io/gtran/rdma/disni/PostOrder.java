package io.gtran.rdma.disni;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * Program order on one queue pair across a long write's compare-and-swap loop ({@link DisniRegion}):
 * the loop may take several round trips, and a thread's later operations must not be applied between
 * its attempts. A {@link #loop} starts after everything issued before it and holds everything issued
 * after it until it has succeeded or failed; a {@link #post} goes out at once unless a loop is
 * holding, then right after what holds it, in the order issued. Nothing waits under the lock: held
 * work runs on the thread that ends the wait.
 */
final class PostOrder {
    private final Object lock = new Object();
    private CompletableFuture<Void> issued = CompletableFuture.completedFuture(null); // guarded by lock

    /**
     * Runs {@code post} (which posts and returns the posted work's outcome) now, or after the loops
     * and posts issued before it if a loop is holding.
     */
    <T> CompletableFuture<T> post(Supplier<CompletableFuture<T>> post) {
        CompletableFuture<Void> before;
        CompletableFuture<Void> posted = new CompletableFuture<>();
        synchronized (lock) {
            before = issued;
            if (before.isDone()) {
                before = null; // nothing holds: post at once
            } else {
                issued = posted; // posts issued after this one wait until it is posted
            }
        }
        if (before == null) {
            return post.get();
        }
        CompletableFuture<T> outcome = new CompletableFuture<>();
        before.whenComplete((ignored, failure) -> {
            try {
                post.get().whenComplete((value, postFailure) -> relay(value, postFailure, outcome));
            } catch (RuntimeException e) {
                outcome.completeExceptionally(e);
            } finally {
                posted.complete(null);
            }
        });
        return outcome;
    }

    /**
     * Runs {@code loop} after everything issued before it, and holds everything issued after it
     * until the loop's outcome is known (success or failure alike).
     */
    CompletableFuture<Void> loop(Supplier<CompletableFuture<Void>> loop) {
        CompletableFuture<Void> before;
        CompletableFuture<Void> outcome = new CompletableFuture<>();
        synchronized (lock) {
            before = issued;
            issued = outcome.handle((ignored, failure) -> null);
        }
        before.whenComplete((ignored, failure) -> {
            try {
                loop.get().whenComplete((value, loopFailure) -> relay(value, loopFailure, outcome));
            } catch (RuntimeException e) {
                outcome.completeExceptionally(e); // never hold later posts for a loop that did not start
            }
        });
        return outcome;
    }

    private static <T> void relay(T value, Throwable failure, CompletableFuture<T> to) {
        if (failure == null) {
            to.complete(value);
        } else {
            to.completeExceptionally(failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure);
        }
    }
}
