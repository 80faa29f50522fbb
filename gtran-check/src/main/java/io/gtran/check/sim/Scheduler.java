package io.gtran.check.sim;

import java.util.PriorityQueue;
import java.util.function.BooleanSupplier;

/**
 * The simulator's one thread of control: a queue of events in virtual time (nanoseconds since the
 * schedule began), run one at a time in (time, order of scheduling) order, so a schedule is a
 * function of its seed. An event of a node does not run while the node is crashed, and waits
 * while it is paused.
 */
final class Scheduler {
    private final PriorityQueue<Event> queue = new PriorityQueue<>();
    private long now;
    private long order;
    private long events;

    private record Event(long at, long order, SimNode node, Runnable action) implements Comparable<Event> {
        @Override
        public int compareTo(Event other) {
            int byTime = Long.compare(at, other.at);
            return byTime != 0 ? byTime : Long.compare(order, other.order);
        }
    }

    /** Virtual time now, in nanoseconds. */
    long now() {
        return now;
    }

    /** How many events ran so far. */
    long events() {
        return events;
    }

    /** Runs {@code action} at virtual time {@code at} (now, if that has passed), as an event of {@code node} (null: the simulator's own). */
    void at(long at, SimNode node, Runnable action) {
        queue.add(new Event(Math.max(at, now), order++, node, action));
    }

    /** Runs events up to and including time {@code end}, then sets the time to {@code end}. */
    void runUntil(long end) {
        runUntil(end, () -> false);
    }

    /**
     * Runs events up to time {@code end}, or until {@code done} holds (asked after each event);
     * returns whether it does.
     */
    boolean runUntil(long end, BooleanSupplier done) {
        while (!queue.isEmpty() && queue.peek().at <= end) {
            Event event = queue.poll();
            now = event.at;
            SimNode node = event.node;
            if (node != null) {
                if (node.isCrashed()) {
                    continue;
                }
                if (node.pausedUntil() > now) {
                    queue.add(new Event(node.pausedUntil(), order++, node, event.action));
                    continue;
                }
            }
            events++;
            event.action.run();
            if (done.getAsBoolean()) {
                return true;
            }
        }
        now = Math.max(now, end);
        return done.getAsBoolean();
    }
}
