package io.gtran.txn;

import static io.gtran.storage.MvTupleDescriptor.NO_TUPLE;

import io.gtran.storage.ElementTable;
import io.gtran.storage.GraphStore;
import io.gtran.storage.MvStore;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.durable.RedoRecord;
import io.gtran.txn.local.WriteLog;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The commit record of a transaction that is about to commit on this node: what its write log
 * left in the store, in the store's terms (docs/durability.md, "What is logged"). Elements it
 * both created and removed leave nothing; writes to an element it removed are covered by the
 * removal.
 */
final class CommitRecords {
    private CommitRecords() {
    }

    static RedoRecord.Commit of(Transaction txn, long commitTime) {
        GraphStore store = txn.store;
        MvStore versions = store.mvStore();
        WriteLog log = txn.log;
        Set<Long> removed = new HashSet<>();
        for (WriteLog.ElementWrite w : log.ended) {
            removed.add(w.element());
        }
        List<RedoRecord.Op> ops = new ArrayList<>(log.created.size() + log.ended.size() + 8);
        Set<Long> createdHere = new HashSet<>();
        // Vertices before edges: an edge's endpoints exist when it is replayed.
        for (ElementKind kind : ElementKind.values()) {
            for (WriteLog.ElementWrite w : log.created) {
                long id = w.element();
                if (w.kind() != kind || !createdHere.add(id) || removed.contains(id)) {
                    continue;
                }
                ElementTable table = kind.table(store);
                Object externalId = table.externalIds().externalId(id);
                if (kind == ElementKind.VERTEX) {
                    ops.add(new RedoRecord.AddVertex(id, table.label(id), externalId));
                } else if (txn.engine.mirrors().isMirror(store.edgeOutVertex(id))) {
                    ops.add(new RedoRecord.AddMirror(id, txn.engine.mirrors().edgeOf(id), table.label(id), store.edgeOutVertex(id),
                            store.edgeInVertex(id)));
                    continue; // a mirror has no properties of its own
                } else {
                    ops.add(new RedoRecord.AddEdge(id, table.label(id), store.edgeOutVertex(id), store.edgeInVertex(id), externalId));
                }
                // A new element's properties, however they were written (some as base versions, in no write log entry).
                Map<Integer, Object> properties = kind == ElementKind.VERTEX ? txn.vertexProperties(id) : txn.edgeProperties(id);
                properties.forEach((key, value) -> ops.add(new RedoRecord.SetProperty(id, key, value)));
            }
        }
        for (WriteLog.PropertyWrite w : log.propertyWrites()) {
            if (removed.contains(w.element) || createdHere.contains(w.element)) {
                continue;
            }
            if (w.newVersion == NO_TUPLE || w.newVersionEnded) {
                ops.add(new RedoRecord.RemoveProperty(w.element, w.key));
            } else {
                ops.add(new RedoRecord.SetProperty(w.element, w.key, versions.value(w.newVersion)));
            }
        }
        Set<Long> logged = new HashSet<>();
        for (WriteLog.ElementWrite w : log.ended) {
            if (!createdHere.contains(w.element()) && logged.add(w.element())) {
                ops.add(new RedoRecord.Remove(w.element()));
            }
        }
        for (WriteLog.IdClaim claim : log.claims) {
            ops.add(new RedoRecord.Claim(claim.canonical(), claim.edge()));
        }
        for (long number : log.reserved) {
            ops.add(new RedoRecord.Reserve(number));
        }
        return new RedoRecord.Commit(commitTime, ops);
    }

    /** This node's part of cross-node transaction {@code txn}: its Vote record. */
    static RedoRecord.Vote vote(Transaction txn, long commitTime, int[] participants) {
        return new RedoRecord.Vote(txn.id(), commitTime, participants, of(txn, commitTime).ops());
    }
}
