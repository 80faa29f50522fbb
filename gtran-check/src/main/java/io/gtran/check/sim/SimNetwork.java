package io.gtran.check.sim;

import io.gtran.rdma.Message;
import java.util.SplittableRandom;

/**
 * The simulated network between N nodes: each ordered pair of nodes is a link that may be cut (one
 * way or both), slow, lossy, duplicating or reordering, as the schedule's faults set it. Messages
 * on a link arrive in the order sent (as the fabric promises) unless the link reorders.
 */
final class SimNetwork {
    /** Every message takes between these two delays on a healthy link. */
    private static final long MIN_DELAY_NANOS = 20_000;
    private static final long MAX_DELAY_NANOS = 300_000;

    /** One direction between two nodes. */
    static final class Link {
        /** How many faults cut this link now: overlapping faults compose, and the last to end heals it. */
        int cuts;
        long extraDelayNanos;
        double loss;
        double duplicate;
        boolean reorder;
        /** When the last message sent on it arrives: a later one arrives no earlier, unless reordered. */
        long lastArrival;

        boolean cut() {
            return cuts > 0;
        }

        void heal() {
            cuts = 0;
            extraDelayNanos = 0;
            loss = 0;
            duplicate = 0;
            reorder = false;
        }
    }

    /** A transaction whose messages are printed ({@code -Dgtran.simulate.trace=HEX}), for reading one failing schedule. */
    private static final long TRACE = Long.parseUnsignedLong(System.getProperty("gtran.simulate.trace", "0"), 16);

    private final Scheduler scheduler;
    private final SplittableRandom random;
    private final Link[][] links;
    private SimNode[] nodes;

    SimNetwork(int size, Scheduler scheduler, SplittableRandom random) {
        this.scheduler = scheduler;
        this.random = random;
        this.links = new Link[size][size];
        for (int a = 0; a < size; a++) {
            for (int b = 0; b < size; b++) {
                links[a][b] = new Link();
            }
        }
    }

    void attach(SimNode[] nodes) {
        this.nodes = nodes;
    }

    Link link(int from, int to) {
        return links[from][to];
    }

    /** Whether messages from {@code a} to {@code b} or back are cut. */
    boolean cutBetween(int a, int b) {
        return links[a][b].cut() || links[b][a].cut();
    }

    /** Sends {@code payload} from mailbox {@code fromMailbox} of {@code from} to mailbox {@code mailbox} of node {@code to}. */
    void send(SimNode from, String fromMailbox, int to, String mailbox, byte[] payload) {
        if (TRACE != 0 && payload.length >= 9 && java.nio.ByteBuffer.wrap(payload, 1, 8).getLong() == TRACE) {
            System.out.println("TRACE " + scheduler.now() / 1000 + " us " + from.id() + "->" + to + " " + mailbox + " type="
                    + payload[0] + (links[from.id()][to].cut() ? " (cut)" : ""));
        }
        Link link = links[from.id()][to];
        if (link.cut() || (link.loss > 0 && random.nextDouble() < link.loss)) {
            return;
        }
        Message message = new Message(from.id(), fromMailbox, payload);
        deliverLater(link, to, mailbox, message);
        if (link.duplicate > 0 && random.nextDouble() < link.duplicate) {
            deliverLater(link, to, mailbox, message);
        }
    }

    private void deliverLater(Link link, int to, String mailbox, Message message) {
        long delay = MIN_DELAY_NANOS + random.nextLong(MAX_DELAY_NANOS - MIN_DELAY_NANOS)
                + (link.extraDelayNanos > 0 ? random.nextLong(link.extraDelayNanos) : 0);
        long arrival = scheduler.now() + delay;
        if (!link.reorder) {
            arrival = Math.max(arrival, link.lastArrival);
            link.lastArrival = arrival;
        }
        SimNode target = nodes[to];
        scheduler.at(arrival, target, () -> target.deliver(mailbox, message));
    }
}
