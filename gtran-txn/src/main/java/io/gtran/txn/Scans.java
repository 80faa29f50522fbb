package io.gtran.txn;

import static io.gtran.txn.common.TxnWords.NEVER;

import io.gtran.storage.EdgeCursor;
import io.gtran.storage.ElementIds;
import io.gtran.storage.ElementTable;
import io.gtran.storage.UnknownElementException;
import io.gtran.txn.common.ConflictKey;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.local.ElementCounts;
import io.gtran.txn.local.Visibility;
import io.gtran.txn.protocol.Op;
import io.gtran.txn.protocol.Wire;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A transaction's scans and counts of the elements with a label, and its visibility checks of
 * candidates a layer above found: this node's table, then every other member's. Each records the
 * label's scan key on the node it reads (phantom protection).
 */
final class Scans {
    private final Transaction txn;

    Scans(Transaction txn) {
        this.txn = txn;
    }

    /** The candidates this transaction sees, in order, on this node or across the members that own them. */
    long[] visible(ElementKind kind, long[] candidates) {
        return txn.remote.otherMembersEmpty() ? visibleHere(kind, candidates) : visibleAcross(kind, candidates);
    }

    long[] scan(ElementKind kind, int label) {
        long[] here = scanHere(kind, label);
        if (txn.remote.otherMembersEmpty()) {
            return here;
        }
        Transaction.LongList all = new Transaction.LongList();
        all.addAll(here);
        for (Wire.Reader reply : txn.remote.callEach(txn.remote.otherMembers(),
                i -> new Op.Scan(kind, RemoteOp.labelName(txn.store, label), false))) {
            all.addAll(reply.getLongs());
        }
        return all.toArray();
    }

    private long[] scanHere(ElementKind kind, int label) {
        Transaction.LongList result = new Transaction.LongList();
        scanHere(kind, label, 0, Integer.MAX_VALUE, result);
        return result.toArray();
    }

    long[] scanPageHere(ElementKind kind, int label, int fromSlot, int max, int[] nextSlot) {
        Transaction.LongList result = new Transaction.LongList();
        nextSlot[0] = scanHere(kind, label, fromSlot, max, result);
        return result.toArray();
    }

    /**
     * Adds the visible elements from slot {@code fromSlot} on to {@code result}, at most {@code max};
     * returns the slot to go on from, or -1 at the end of the table.
     */
    private int scanHere(ElementKind kind, int label, int fromSlot, int max, Transaction.LongList result) {
        txn.ensureActive();
        txn.recordRead(kind == ElementKind.VERTEX ? ConflictKey.vertexScan(label) : ConflictKey.edgeScan(label));
        ElementTable table = kind.table(txn.store);
        int limit = table.slotLimit();
        int found = 0;
        for (int slot = fromSlot; slot < limit; slot++) {
            if (found == max) {
                return slot;
            }
            long element = table.idAtSlot(slot);
            if (element == ElementIds.NONE) {
                continue;
            }
            try {
                if ((label == EdgeCursor.ANY_LABEL || table.label(element) == label) && txn.visibility.visible(kind, element)
                        && !(kind == ElementKind.EDGE && txn.engine.mirrors().isMirror(txn.store.edgeOutVertex(element)))) {
                    result.add(element);
                    found++;
                }
            } catch (UnknownElementException freed) {
                // removed by GC since the slot was read: dead to every running transaction
            }
        }
        return -1;
    }

    long count(ElementKind kind, int label) {
        long total = countHere(kind, label);
        for (Wire.Reader reply : txn.remote.callEach(txn.remote.otherMembers(),
                i -> new Op.Scan(kind, RemoteOp.labelName(txn.store, label), true))) {
            total += reply.getLong();
        }
        return total;
    }

    private long countHere(ElementKind kind, int label) {
        txn.ensureActive();
        ConflictKey.Kind scan = kind == ElementKind.VERTEX ? ConflictKey.Kind.VERTEX_SCAN : ConflictKey.Kind.EDGE_SCAN;
        txn.recordRead(new ConflictKey(scan, label, 0));
        long[] own = txn.ownCount(ElementCounts.key(kind, label));
        long total = own == null ? 0 : own[0];
        ElementCounts.Counter counter = txn.engine.counts().find(kind, label);
        if (counter == null) {
            return total;
        }
        for (ElementCounts.Delta d = counter.head(); d != null; d = d.next) {
            long time = txn.visibility.readDelta(d, scan, label);
            if (time != Visibility.OWN && time != NEVER && time <= txn.beginTime()) {
                total += d.delta; // OWN: published at commit; counted above from countDeltas
            }
        }
        return total;
    }

    /** {@link #visible} over candidates on several nodes, in their order. */
    private long[] visibleAcross(ElementKind kind, long[] candidates) {
        Map<Integer, Transaction.LongList> byNode = new TreeMap<>();
        for (long candidate : candidates) {
            byNode.computeIfAbsent(txn.owner(candidate), n -> new Transaction.LongList()).add(candidate);
        }
        Set<Long> visible = new HashSet<>();
        Transaction.LongList here = byNode.remove(-1);
        for (long id : here == null ? new long[0] : visibleHere(kind, here.toArray())) {
            visible.add(id);
        }
        int[] nodes = byNode.keySet().stream().mapToInt(Integer::intValue).toArray();
        long[][] asked = byNode.values().stream().map(Transaction.LongList::toArray).toArray(long[][]::new);
        for (Wire.Reader reply : txn.remote.callEach(nodes, i -> new Op.Visible(kind, asked[i]))) {
            for (long id : reply.getLongs()) {
                visible.add(id);
            }
        }
        Transaction.LongList result = new Transaction.LongList();
        for (long candidate : candidates) {
            if (visible.contains(candidate)) {
                result.add(candidate);
            }
        }
        return result.toArray();
    }

    private long[] visibleHere(ElementKind kind, long[] candidates) {
        Transaction.LongList result = new Transaction.LongList();
        for (long id : candidates) {
            if (ElementIds.isWellFormed(id) && txn.visibility.visible(kind, id)) {
                result.add(id);
            }
        }
        return result.toArray();
    }
}
