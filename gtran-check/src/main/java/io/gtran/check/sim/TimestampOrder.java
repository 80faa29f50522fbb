package io.gtran.check.sim;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The clocks' promise, checked over a schedule: a timestamp a node's real {@code SyncedClock}
 * hands out exceeds every timestamp any node was handed before it asked (FaRMv2's and Spanner's
 * external order), across master changes, cuts and heals. A request that overlaps another in the
 * simulator's time may be ordered either way.
 */
final class TimestampOrder {
    private record Stamp(long asked, long handed, int node, long timestamp) {
    }

    private final List<Stamp> stamps = new ArrayList<>();

    /** Node {@code node} asked for a timestamp at simulator time {@code asked} and was handed {@code timestamp} at {@code handed}. */
    void handed(long asked, long handed, int node, long timestamp) {
        stamps.add(new Stamp(asked, handed, node, timestamp));
    }

    /** Reports to {@code ledger} the first timestamp that does not exceed one handed out before it was asked for. */
    void check(Ledger ledger) {
        List<Stamp> byHanded = new ArrayList<>(stamps);
        byHanded.sort(Comparator.comparingLong(Stamp::handed));
        List<Stamp> byAsked = new ArrayList<>(stamps);
        byAsked.sort(Comparator.comparingLong(Stamp::asked));
        Stamp highest = null; // the largest timestamp handed out before the current request was made
        int next = 0;
        for (Stamp s : byAsked) {
            while (next < byHanded.size() && byHanded.get(next).handed() < s.asked()) {
                Stamp done = byHanded.get(next++);
                if (highest == null || done.timestamp() > highest.timestamp()) {
                    highest = done;
                }
            }
            if (highest != null && s.timestamp() <= highest.timestamp()) {
                ledger.violation("timestamp order: node " + s.node() + " asked at " + s.asked() + " ns and was handed "
                        + s.timestamp() + ", not above " + highest.timestamp() + " that node " + highest.node()
                        + " was handed at " + highest.handed() + " ns");
                return;
            }
        }
    }
}
