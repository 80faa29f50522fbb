package io.gtran.core.process.traversal.step;

import io.gtran.txn.Transaction;
import java.util.Map;
import java.util.TreeSet;
import org.apache.tinkerpop.gremlin.process.traversal.util.MutableMetrics;

/**
 * What one step of a traversal asked of other nodes, for {@code profile()}: the annotation {@code
 * remoteNodes} (the other nodes it sent operations to) and the count {@code remoteRequests} (how many),
 * taken from the transaction's per-node request counts around each piece of the step's work.
 * Inactive (costing nothing) unless the traversal is profiled.
 */
final class RemoteCallProfile {
    private final TreeSet<Integer> nodes = new TreeSet<>();
    private MutableMetrics metrics;

    void setMetrics(MutableMetrics metrics) {
        this.metrics = metrics;
    }

    boolean active() {
        return metrics != null;
    }

    /** The transaction's counts before a piece of work; null when not profiled. */
    Map<Integer, Integer> before(Transaction txn) {
        return metrics == null ? null : txn.remoteCalls();
    }

    /** Adds what {@code txn} sent since {@code before} (from {@link #before}) to the step's metrics. */
    void after(Transaction txn, Map<Integer, Integer> before) {
        if (metrics == null || before == null) {
            return;
        }
        long requests = 0;
        for (Map.Entry<Integer, Integer> e : txn.remoteCalls().entrySet()) {
            int sent = e.getValue() - before.getOrDefault(e.getKey(), 0);
            if (sent > 0) {
                nodes.add(e.getKey());
                requests += sent;
            }
        }
        if (nodes.isEmpty()) {
            return; // nothing asked of other nodes (a single node's graph, or this node's elements only)
        }
        metrics.setAnnotation("remoteNodes", nodes.toString());
        metrics.incrementCount("remoteRequests", requests);
    }
}
