package io.gtran.txn;

import io.gtran.txn.common.ElementKind;
import io.gtran.txn.protocol.Op;

/**
 * Many edges added by one call of a coordinator's transaction, with one request per other node
 * for each kind of half ({@link Op.Many}; docs/cluster-transactions.md, "Execution": batched
 * writes) where {@link Transaction#addEdge} sends one per edge. Each edge gets the same halves,
 * checks and conflict keys as {@code addEdge} gives it; only the order between edges differs,
 * which one transaction's writes do not see.
 */
final class BulkEdges {
    private final Transaction txn;

    BulkEdges(Transaction txn) {
        this.txn = txn;
    }

    /** See {@link Transaction#addEdges}. */
    long[] add(long[] outs, long[] ins, int[] labels) {
        if (outs.length != ins.length || outs.length != labels.length) {
            throw new IllegalArgumentException("addEdges needs as many in-vertices and labels as out-vertices: " + outs.length
                    + ", " + ins.length + ", " + labels.length);
        }
        txn.ensureActive();
        long[] edges = new long[outs.length];
        if (!txn.spansNodes()) {
            for (int i = 0; i < outs.length; i++) {
                edges[i] = txn.addEdge(outs[i], ins[i], labels[i]);
            }
            return edges;
        }
        int here = txn.store.nodeId();
        OpsByNode adds = new OpsByNode();
        for (int i = 0; i < outs.length; i++) {
            int outHome = txn.home(outs[i]);
            int inHome = txn.home(ins[i]);
            txn.requireMember(outHome, outs[i]);
            txn.requireMember(inHome, ins[i]);
            if (outHome == here) {
                edges[i] = txn.addEdgeHere(outs[i], ins[i], labels[i], inHome == here);
            } else {
                adds.add(outHome, i, new Op.AddEdge(outs[i], ins[i], labelName(labels[i])));
            }
        }
        adds.run(txn.remote, (i, in) -> edges[i] = in.getLong());
        OpsByNode mirrors = new OpsByNode();
        for (int i = 0; i < outs.length; i++) {
            int outHome = txn.home(outs[i]);
            int inHome = txn.home(ins[i]);
            if (outHome == inHome) {
                continue;
            }
            if (inHome == here) {
                txn.crossEdges.addMirror(edges[i], outs[i], ins[i], labels[i]);
            } else {
                mirrors.add(inHome, i, new Op.AddMirror(edges[i], outs[i], ins[i], labelName(labels[i])));
            }
        }
        mirrors.run(txn.remote); // an ADD_MIRROR answers nothing
        return edges;
    }

    /** See {@link Transaction#setEdgeProperties}. */
    void setProperties(long[] edges, int[] keys, Object[] values) {
        if (edges.length != keys.length || edges.length != values.length) {
            throw new IllegalArgumentException("setEdgeProperties needs as many keys and values as edges: " + edges.length + ", "
                    + keys.length + ", " + values.length);
        }
        txn.ensureActive();
        txn.forgetReadAhead();
        OpsByNode writes = new OpsByNode();
        for (int i = 0; i < edges.length; i++) {
            if (values[i] == null) {
                throw new IllegalArgumentException("setEdgeProperties sets values, not null: edge " + edges[i]);
            }
            int owner = txn.owner(edges[i]);
            if (owner < 0) {
                txn.rules.writeProperty(ElementKind.EDGE, edges[i], keys[i], values[i]);
            } else {
                writes.add(owner, i, new Op.WriteProperty(ElementKind.EDGE, edges[i], txn.store.propertyKeys().name(keys[i]), values[i],
                        false));
            }
        }
        writes.run(txn.remote); // a SET_PROPERTY answers nothing
    }

    private String labelName(int label) {
        return txn.store.labels().name(label);
    }
}
