package io.gtran.txn;

import io.gtran.storage.Dictionary;
import io.gtran.storage.ElementIds;
import io.gtran.storage.ElementTable;
import io.gtran.storage.GraphStore;
import io.gtran.txn.commit.CommitMessenger;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import io.gtran.txn.durable.RedoRecord;
import io.gtran.txn.durable.SnapshotTaker;
import io.gtran.txn.protocol.Outcome;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Writes this node's graph as one read-only SI transaction sees it, as the records of a snapshot
 * (docs/durability.md, "Snapshots", step 3): names, index definitions, every vertex and then every
 * edge visible at the transaction's begin time with their properties, and the last id of every
 * slot that holds no element visible then. The transaction's begin time is the snapshot's cut. It
 * commits at the end, so a pre-read of a writer that then aborted fails the snapshot rather than
 * putting that writer's values in it.
 */
final class StoreCut {
    /** Changes per commit record: small records, so a replay never holds a large one. */
    static final int OPS_PER_RECORD = 1024;
    /** Ids per slot record. */
    private static final int IDS_PER_RECORD = 8192;

    private final TransactionEngine engine;
    private final GraphStore store;
    private final SnapshotTaker.Sink sink;
    private final List<RedoRecord.Op> ops = new ArrayList<>(OPS_PER_RECORD + 64);
    private final long[] ids = new long[IDS_PER_RECORD];
    private int idCount;
    private long cut;

    private StoreCut(TransactionEngine engine, SnapshotTaker.Sink sink) {
        this.engine = engine;
        this.store = engine.store();
        this.sink = sink;
    }

    /**
     * Writes the graph to {@code sink} and returns the cut.
     *
     * @throws TransactionConflictException if a value it read was a pre-read of
     *     a writer that then aborted (take the snapshot again)
     */
    static long write(TransactionEngine engine, SnapshotTaker.Sink sink, List<RedoRecord.IndexDefinition> indexes)
            throws IOException {
        return new StoreCut(engine, sink).write(indexes);
    }

    private long write(List<RedoRecord.IndexDefinition> indexes) throws IOException {
        try (Transaction txn = engine.begin(Isolation.SNAPSHOT)) {
            cut = txn.beginTime();
            names(false, store.labels());
            names(true, store.propertyKeys());
            for (RedoRecord.IndexDefinition index : indexes) {
                sink.record(index.encode());
            }
            elements(txn, ElementKind.VERTEX);
            elements(txn, ElementKind.EDGE);
            userIdClaims();
            sequenceCeiling();
            owedDecisions();
            txn.commit();
            return cut;
        }
    }

    private void names(boolean keys, Dictionary names) throws IOException {
        int size = names.size();
        for (int id = 0, found = 0; found < size && id < Integer.MAX_VALUE; id++) {
            if (names.knows(id)) {
                sink.record(new RedoRecord.Name(keys, id, names.name(id)).encode());
                found++;
            }
        }
    }

    private void elements(Transaction txn, ElementKind kind) throws IOException {
        ElementTable table = kind.table(store);
        int limit = table.slotLimit();
        for (int slot = 1; slot < limit; slot++) {
            long id = table.idAtSlot(slot);
            if (id != ElementIds.NONE && txn.exists(kind, id)) {
                element(txn, kind, table, id);
            } else {
                long last = table.lastIdAtSlot(slot);
                if (last != ElementIds.NONE) {
                    slotUsed(last);
                }
            }
        }
        flushOps();
        flushIds();
    }

    private void element(Transaction txn, ElementKind kind, ElementTable table, long id) throws IOException {
        Object externalId = table.externalIds().externalId(id);
        Map<Integer, Object> properties;
        if (kind == ElementKind.VERTEX) {
            ops.add(new RedoRecord.AddVertex(id, txn.vertexLabel(id), externalId));
            properties = txn.vertexProperties(id);
        } else if (engine.mirrors().isMirror(store.edgeOutVertex(id))) {
            ops.add(new RedoRecord.AddMirror(id, engine.mirrors().edgeOf(id), store.edges().label(id), store.edgeOutVertex(id),
                    store.edgeInVertex(id)));
            properties = Map.of(); // the edge's properties live with the edge
        } else {
            ops.add(new RedoRecord.AddEdge(id, txn.edgeLabel(id), txn.edgeOutVertex(id), txn.edgeInVertex(id), externalId));
            properties = txn.edgeProperties(id);
        }
        properties.forEach((key, value) -> ops.add(new RedoRecord.SetProperty(id, key, value)));
        if (ops.size() >= OPS_PER_RECORD) {
            flushOps();
        }
    }

    /**
     * The claims of user-supplied edge ids whose home is this node, and the edge ids reserved here,
     * as they are now (they are not versioned: one made after the cut by a transaction that then
     * aborts names an edge that is gone, which a later claim may replace).
     */
    private void userIdClaims() throws IOException {
        engine.externalIds().claims().forEach((canonical, edge) -> ops.add(new RedoRecord.Claim(canonical, edge)));
        for (long number : engine.externalIds().reservations()) {
            ops.add(new RedoRecord.Reserve(number));
        }
        flushOps();
    }

    /**
     * A member's transaction sequence ceiling: the ceiling records before the mark may be purged
     * behind this snapshot, and a restart must start above it (docs/durability.md, C5').
     */
    private void sequenceCeiling() throws IOException {
        long ceiling = engine.statusTable().sequenceCeiling();
        if (ceiling != Long.MAX_VALUE) {
            sink.record(new RedoRecord.SequenceCeiling(ceiling).encode());
        }
    }

    /**
     * The decisions of transactions this node coordinated that not every participant has
     * acknowledged: their Decision records may be purged behind this snapshot, and a participant
     * that restarts in doubt needs them (docs/durability.md, "Nodes of a cluster", C3).
     */
    private void owedDecisions() throws IOException {
        ClusterParts cluster = engine.clusterParts();
        if (cluster == null) {
            return;
        }
        for (CommitMessenger.Undelivered owed : cluster.messenger().undelivered()) {
            sink.record(new RedoRecord.Pending(owed.txn(), owed.commitTime(), owed.participants(),
                    owed.outcome() == Outcome.COMMIT).encode());
        }
    }

    private void slotUsed(long id) throws IOException {
        ids[idCount++] = id;
        if (idCount == ids.length) {
            flushIds();
        }
    }

    private void flushOps() throws IOException {
        if (!ops.isEmpty()) {
            sink.record(new RedoRecord.Commit(cut, List.copyOf(ops)).encode());
            ops.clear();
        }
    }

    private void flushIds() throws IOException {
        if (idCount > 0) {
            sink.record(new RedoRecord.SlotsUsed(Arrays.copyOf(ids, idCount)).encode());
            idCount = 0;
        }
    }
}
