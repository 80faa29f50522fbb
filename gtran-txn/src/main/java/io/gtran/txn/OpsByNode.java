package io.gtran.txn;

import io.gtran.txn.protocol.Op;
import io.gtran.txn.protocol.Wire;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Operations of one bulk step gathered per node, each with the caller's index of the element it
 * is for, then sent with {@link RemoteParts#callMany} (one {@code MANY} per node) and their
 * results handed back by index (docs/cluster-transactions.md, "Execution": batched writes).
 */
final class OpsByNode {
    /** Reads what a node answered for the operation of element {@code index}. */
    interface Reading {
        void read(int index, Wire.Reader result);
    }

    private final Map<Integer, List<Op>> ops = new TreeMap<>();
    private final Map<Integer, List<Integer>> indexes = new TreeMap<>();

    /** Gathers {@code op}, for element {@code index}, to run at {@code node}. */
    void add(int node, int index, Op op) {
        ops.computeIfAbsent(node, n -> new ArrayList<>()).add(op);
        indexes.computeIfAbsent(node, n -> new ArrayList<>()).add(index);
    }

    /** Runs the gathered operations (none: sends nothing); for operations that answer nothing. */
    void run(RemoteParts remote) {
        remote.callMany(ops);
    }

    /** Runs the gathered operations and hands each one's result to {@code reading}, node by node, in order. */
    void run(RemoteParts remote, Reading reading) {
        remote.callMany(ops).forEach((node, results) -> {
            List<Integer> at = indexes.get(node);
            for (int k = 0; k < at.size(); k++) {
                reading.read(at.get(k), results.get(k));
            }
        });
    }
}
