package io.gtran.rdma.disni;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * Program order of region operations on one queue pair across a long write's compare-and-swap loop
 * ({@link DisniRegion}): the loop may take several round trips, and a thread's later operations must
 * not be applied between its attempts. A {@link #loop} starts after everything issued before it and
 * holds everything issued after it until it has succeeded or failed; a {@link #post} goes out at once
 * unless a loop is holding, then right after what holds it, in the order issued. Frames (heartbeats,
 * lookups, messages) are outside program order and go out at once ({@link #bypass}), so a long
 * contended loop never silences the node.
 *
 * <p>Held work waits in a queue. The thread that ends a loop drains it iteratively, in order, until
 * the queue is empty or the next held loop has not ended yet: never by chaining futures, whose
 * callbacks would run nested, one stack frame per held post. Nothing runs under the lock. Once the
 * connection is {@link #release released} (lost), everything held runs at once (posting then fails
 * fast, naming the loss) and later work is never held.
 */
final class PostOrder {
    private final Object lock = new Object();
    private final ArrayDeque<Held> held = new ArrayDeque<>(); // guarded by lock
    private boolean holding; // a loop runs or the queue is being drained; guarded by lock
    private boolean released; // guarded by lock

    /**
     * Runs {@code post} (which posts and returns the posted work's outcome) now, or after the loops
     * and posts issued before it if a loop is holding.
     */
    <T> CompletableFuture<T> post(Supplier<CompletableFuture<T>> post) {
        CompletableFuture<T> outcome = new CompletableFuture<>();
        synchronized (lock) {
            if (holding && !released) {
                held.add(new Held(() -> started(post).whenComplete((value, failure) -> relay(value, failure, outcome)),
                        false));
                return outcome;
            }
        }
        return post.get();
    }

    /** Runs {@code post} now, whether or not a loop holds: for frames, which are outside program order. */
    <T> CompletableFuture<T> bypass(Supplier<CompletableFuture<T>> post) {
        return post.get();
    }

    /**
     * Runs {@code loop} after everything issued before it, and holds everything issued after it
     * until the loop's outcome is known (success or failure alike).
     */
    CompletableFuture<Void> loop(Supplier<CompletableFuture<Void>> loop) {
        CompletableFuture<Void> outcome = new CompletableFuture<>();
        Supplier<CompletableFuture<Void>> start = () -> {
            // a loop that cannot start fails at once and never holds later posts
            return started(loop).whenComplete((value, failure) -> relay(value, failure, outcome));
        };
        synchronized (lock) {
            if (released) {
                holding = false;
            } else if (holding) {
                held.add(new Held(start, true));
                return outcome;
            } else {
                holding = true;
            }
        }
        CompletableFuture<?> running = start.get();
        if (running.isDone()) {
            drain();
        } else {
            running.whenComplete((ignored, failure) -> drain());
        }
        return outcome;
    }

    /**
     * The connection is gone: runs everything held now, on this thread (posting fails fast, naming
     * the loss), and holds nothing from now on.
     */
    void release() {
        synchronized (lock) {
            released = true;
        }
        drain();
    }

    /**
     * Runs held work in order on this thread until the queue is empty (then nothing holds) or a held
     * loop has not ended yet (its end drains the rest).
     */
    private void drain() {
        while (true) {
            Held next;
            synchronized (lock) {
                next = held.poll();
                if (next == null) {
                    holding = false;
                    return;
                }
            }
            CompletableFuture<?> ran = next.work.get(); // never throws: started() turns a throw into a failure
            if (next.loop && !ran.isDone() && !isReleased()) {
                ran.whenComplete((ignored, failure) -> drain());
                return;
            }
        }
    }

    private boolean isReleased() {
        synchronized (lock) {
            return released;
        }
    }

    /** What {@code work} returned, or a failed future if it threw. */
    private static <T> CompletableFuture<T> started(Supplier<CompletableFuture<T>> work) {
        try {
            return work.get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static <T> void relay(T value, Throwable failure, CompletableFuture<T> to) {
        if (failure == null) {
            to.complete(value);
        } else {
            to.completeExceptionally(failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure);
        }
    }

    /** Work held behind a loop: a post, or a loop that holds what comes after it. */
    private record Held(Supplier<? extends CompletableFuture<?>> work, boolean loop) {
    }
}
