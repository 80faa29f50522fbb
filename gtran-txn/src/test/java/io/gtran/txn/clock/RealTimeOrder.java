package io.gtran.txn.clock;

import java.util.ArrayList;
import java.util.List;

/**
 * Checks that timestamps taken one after another in real time (each call starting after the
 * previous returned, on any node) increase: the order G-Tran's commit times must agree with.
 */
final class RealTimeOrder {
    private long last = Long.MIN_VALUE;
    private int lastNode = -1;
    private final List<String> violations = new ArrayList<>();

    /** Records a timestamp that {@code node}'s clock returned after every earlier one returned. */
    void took(int node, long timestamp) {
        if (timestamp <= last) {
            violations.add("node " + node + " gave " + timestamp + " (" + SyncedClock.micros(timestamp) + " us) after node "
                    + lastNode + " gave " + last + " (" + SyncedClock.micros(last) + " us)");
        }
        last = Math.max(last, timestamp);
        lastNode = node;
    }

    List<String> violations() {
        return violations;
    }
}
