package io.gtran.check.fabric;

import io.gtran.rdma.Fabric;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The rules of one ordered pair of nodes in a {@link FaultPlan}, and the traffic they hold back:
 * messages gathered for a reorder window, and messages and operations waiting out a delay.
 *
 * <p>Delayed traffic waits in one FIFO queue whose due times never decrease, so a pair's traffic
 * leaves in the order it entered (reorder windows are shuffled before they enter). Entries are
 * issued to the wrapped fabric under this object's lock, which keeps that order across threads;
 * their callers' futures are completed after the lock is released, so no caller code runs under
 * it. Wrapped fabrics do not block in the methods issued here (asynchronous operations and sends).
 */
final class LinkFaults {
    private final FaultPlan plan;
    private final int from;
    private final int to;
    private final Random random; // guarded by this
    private long delayMinNanos; // guarded by this, as is everything below
    private long delayMaxNanos;
    private int dropNext;
    private double dropProbability;
    private volatile boolean regionsFailing;
    private int reorderWindow;
    private long reorderHoldNanos;
    private final List<Entry<?>> held = new ArrayList<>();
    private long heldGeneration;
    private final ArrayDeque<Entry<?>> delayed = new ArrayDeque<>();
    private long lastDueNanos;

    LinkFaults(FaultPlan plan, int from, int to, long seed) {
        this.plan = plan;
        this.from = from;
        this.to = to;
        // A stream of its own per pair: what one pair meets does not depend on other pairs' traffic.
        this.random = new Random(seed ^ (0x9E3779B97F4A7C15L * (1 + (long) from * (Fabric.MAX_NODE + 1) + to)));
    }

    int from() {
        return from;
    }

    int to() {
        return to;
    }

    synchronized void delay(long minNanos, long maxNanos) {
        delayMinNanos = minNanos;
        delayMaxNanos = maxNanos;
    }

    synchronized void dropNext(int count) {
        dropNext = count;
    }

    synchronized void dropProbability(double probability) {
        dropProbability = probability;
    }

    void failRegions(boolean failing) {
        regionsFailing = failing;
    }

    boolean regionsFailing() {
        return regionsFailing;
    }

    void reorder(int window, long holdNanos) {
        List<Entry<?>> started;
        synchronized (this) {
            reorderWindow = window;
            reorderHoldNanos = holdNanos;
            started = held.size() >= window ? release() : List.of();
        }
        finish(started);
    }

    void stopReordering() {
        List<Entry<?>> started;
        synchronized (this) {
            reorderWindow = 0;
            started = release();
        }
        finish(started);
    }

    /** Lifts every rule, releasing held messages; delayed ones keep their due time. */
    void clear() {
        List<Entry<?>> started;
        synchronized (this) {
            delayMinNanos = 0;
            delayMaxNanos = 0;
            dropNext = 0;
            dropProbability = 0;
            regionsFailing = false;
            reorderWindow = 0;
            started = release();
        }
        finish(started);
    }

    /** Whether to drop the next message: a counted drop first, else a draw if a probability is set. */
    synchronized boolean dropNow() {
        if (dropNext > 0) {
            dropNext--;
            return true;
        }
        return dropProbability > 0 && random.nextDouble() < dropProbability;
    }

    /** The delay of the next operation, drawn from the pair's random if a range is set. */
    synchronized long nextDelayNanos() {
        return delayMinNanos == delayMaxNanos ? delayMinNanos : random.nextLong(delayMinNanos, delayMaxNanos + 1);
    }

    /**
     * Issues {@code attempt} (which starts the operation in the wrapped fabric) now, or later if the
     * pair delays or, for a {@code message}, holds it; the future completes as the operation does.
     */
    <T> CompletableFuture<T> issue(Supplier<CompletableFuture<T>> attempt, boolean message) {
        Entry<T> entry = new Entry<>(attempt);
        List<Entry<?>> started;
        synchronized (this) {
            if (message && reorderWindow >= 2) {
                started = hold(entry);
            } else {
                enqueue(entry);
                started = startDue();
            }
        }
        finish(started);
        return entry.result;
    }

    /** The rules in force, for {@link FaultPlan#toString}; empty if none. */
    synchronized String describe() {
        List<String> rules = new ArrayList<>();
        if (delayMaxNanos > 0) {
            rules.add("delay=" + Duration.ofNanos(delayMinNanos) + ".." + Duration.ofNanos(delayMaxNanos));
        }
        if (reorderWindow >= 2) {
            rules.add("reorder=" + reorderWindow + "/" + Duration.ofNanos(reorderHoldNanos) + " holding " + held.size());
        }
        if (dropNext > 0) {
            rules.add("dropNext=" + dropNext);
        }
        if (dropProbability > 0) {
            rules.add("dropProbability=" + dropProbability);
        }
        if (regionsFailing) {
            rules.add("regionsFailing");
        }
        if (!delayed.isEmpty()) {
            rules.add("delayed=" + delayed.size());
        }
        return String.join(" ", rules);
    }

    // ---- under the lock -----------------------------------------------------------------------

    private List<Entry<?>> hold(Entry<?> entry) {
        held.add(entry);
        if (held.size() >= reorderWindow) {
            return release();
        }
        if (held.size() == 1) {
            long generation = heldGeneration;
            schedule(() -> releaseAfterHold(generation), reorderHoldNanos);
        }
        return List.of();
    }

    private void releaseAfterHold(long generation) {
        List<Entry<?>> started;
        synchronized (this) {
            started = generation == heldGeneration ? release() : List.of(); // else that window went already
        }
        finish(started);
    }

    /** Shuffles what is held into the delay queue and starts what is due. */
    private List<Entry<?>> release() {
        heldGeneration++;
        if (held.isEmpty()) {
            return List.of();
        }
        Collections.shuffle(held, random);
        held.forEach(this::enqueue);
        held.clear();
        return startDue();
    }

    private void enqueue(Entry<?> entry) {
        long now = System.nanoTime();
        long delay = nextDelayNanos();
        // Never before what entered earlier: a pair's traffic keeps its order through delays.
        entry.due = delayed.isEmpty() ? now + delay : Math.max(now + delay, lastDueNanos);
        lastDueNanos = entry.due;
        delayed.add(entry);
        if (entry.due - now > 0) {
            schedule(this::issueDue, entry.due - now);
        }
    }

    /** Starts, in order, every queued entry that is due. */
    private List<Entry<?>> startDue() {
        List<Entry<?>> started = new ArrayList<>();
        long now = System.nanoTime();
        while (!delayed.isEmpty() && delayed.peek().due - now <= 0) {
            Entry<?> entry = delayed.poll();
            entry.start();
            started.add(entry);
        }
        return started;
    }

    private void schedule(Runnable task, long delayNanos) {
        try {
            plan.scheduler().schedule(task, delayNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) { // the plan closed as this was delayed: wait elsewhere
            CompletableFuture.delayedExecutor(delayNanos, TimeUnit.NANOSECONDS).execute(task);
        }
    }

    // ---- outside the lock ---------------------------------------------------------------------

    private void issueDue() {
        List<Entry<?>> started;
        synchronized (this) {
            started = startDue();
        }
        finish(started);
    }

    private static void finish(List<Entry<?>> started) {
        started.forEach(Entry::finish);
    }

    /** One message or operation: what starts it, and the future its caller holds. */
    private static final class Entry<T> {
        final Supplier<CompletableFuture<T>> attempt;
        final CompletableFuture<T> result = new CompletableFuture<>();
        CompletableFuture<T> outcome;
        long due;

        Entry(Supplier<CompletableFuture<T>> attempt) {
            this.attempt = attempt;
        }

        void start() {
            try {
                outcome = attempt.get();
            } catch (RuntimeException e) { // the wrapped fabric closed meanwhile, or the like
                outcome = CompletableFuture.failedFuture(e);
            }
        }

        void finish() {
            outcome.whenComplete((value, failure) -> {
                if (failure == null) {
                    result.complete(value);
                } else {
                    result.completeExceptionally(failure);
                }
            });
        }
    }
}
