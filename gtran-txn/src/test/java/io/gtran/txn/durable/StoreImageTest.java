package io.gtran.txn.durable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.storage.ElementIds;
import io.gtran.storage.GraphStore;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.common.ConflictKey;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.local.ElementCounts;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The replay target: records applied in log order give the graph they describe, written into an
 * empty store at the old ids; records that name what the log never made stop the replay.
 */
class StoreImageTest {
    private final GraphStore store = GraphStore.open(StoreConfig.from(Map.of(StoreConfig.CHUNK_BYTES, 1 << 16,
            StoreConfig.EDGE_ROW_CHUNK_BYTES, 1 << 16)));
    private final StoreImage image = new StoreImage(store);
    private final ElementCounts counts = new ElementCounts(() -> null);

    private static final long A = ElementIds.vertexId(0, 0, 1);
    private static final long B = ElementIds.vertexId(0, 0, 2);
    private static final long C = ElementIds.vertexId(0, 2, 3);
    private static final long AB = ElementIds.edgeId(0, 0, 1);

    @AfterEach
    void close() {
        store.close();
    }

    private void apply(RedoRecord record) {
        image.apply(record.encode());
    }

    private static RedoRecord.Commit commit(long time, RedoRecord.Op... ops) {
        return new RedoRecord.Commit(time, List.of(ops));
    }

    @Test
    void recordsInLogOrderGiveTheLastStateAtTheOldIds() {
        apply(new RedoRecord.Name(false, 0, "person"));
        apply(new RedoRecord.Name(false, 1, "knows"));
        apply(new RedoRecord.Name(true, 0, "name"));
        apply(commit(10, new RedoRecord.AddVertex(A, 0, "ann"), new RedoRecord.AddVertex(B, 0, null),
                new RedoRecord.AddEdge(AB, 1, A, B, null), new RedoRecord.SetProperty(A, 0, "a")));
        apply(commit(11, new RedoRecord.AddVertex(C, 0, null), new RedoRecord.SetProperty(A, 0, "ann")));
        apply(commit(12, new RedoRecord.Remove(C), new RedoRecord.RemoveProperty(B, 0)));
        image.writeInto(counts);
        assertEquals(0, store.labels().find("person"));
        assertEquals(1, store.labels().find("knows"));
        assertTrue(store.vertices().contains(A));
        assertTrue(store.vertices().contains(B));
        assertFalse(store.vertices().contains(C));
        assertEquals(A, store.edgeOutVertex(AB));
        assertEquals(B, store.edgeInVertex(AB));
        assertEquals("ann", store.mvStore().value(store.vertices().propertyVersion(A, 0)));
        assertEquals(A, store.vertices().externalIds().internalId("ann"));
        assertEquals(StoreImage.RESTORED_TIME, store.vertices().beginTime(A));
        assertEquals(2, total(ElementKind.VERTEX, ConflictKey.ANY_LABEL));
        assertEquals(2, total(ElementKind.VERTEX, 0));
        assertEquals(1, total(ElementKind.EDGE, 1));
        long next = store.addVertex(0, 20, 30);
        assertNotEquals(A, next);
        assertNotEquals(B, next);
        if (ElementIds.slot(next) == ElementIds.slot(C)) {
            assertEquals(3, ElementIds.generation(next), "the removed vertex's slot gives its next generation");
        }
    }

    private long total(ElementKind kind, long label) {
        long sum = 0;
        for (ElementCounts.Delta d = counts.find(kind, label).head(); d != null; d = d.next) {
            sum += d.delta;
        }
        return sum;
    }

    @Test
    void aRecordNamingAnElementTheLogNeverMadeStopsTheReplayNamingIt() {
        apply(new RedoRecord.Name(false, 0, "person"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> apply(commit(7, new RedoRecord.SetProperty(A, 0, 1))));
        assertTrue(e.getMessage().contains("commit at 7") && e.getMessage().contains(ElementIds.toString(A)), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> apply(commit(8, new RedoRecord.Remove(B))));
        assertThrows(IllegalArgumentException.class, () -> apply(commit(9, new RedoRecord.AddEdge(AB, 0, A, B, null))),
                "an edge whose local ends were never made");
        apply(commit(10, new RedoRecord.AddVertex(A, 0, null)));
        assertThrows(IllegalArgumentException.class, () -> apply(commit(11, new RedoRecord.AddVertex(A, 0, null))),
                "made twice");
        assertThrows(IllegalArgumentException.class, () -> image.apply(new byte[] {1, 0, 0}), "a torn record");
    }

    @Test
    void anEdgeToAnotherNodesVertexNeedsOnlyItsLocalEnd() {
        long remote = ElementIds.vertexId(4, 0, 1);
        apply(new RedoRecord.Name(false, 0, "v"));
        apply(commit(1, new RedoRecord.AddVertex(A, 0, null), new RedoRecord.AddEdge(AB, 0, A, remote, null)));
        image.writeInto(counts);
        assertEquals(remote, store.edgeInVertex(AB));
    }

    @Test
    void afterASnapshotCommitsAtOrBeforeItsTimeAreSkippedAndLaterOnesApplied() {
        apply(new RedoRecord.Name(false, 0, "v"));
        apply(new RedoRecord.Name(true, 0, "k"));
        apply(commit(50, new RedoRecord.AddVertex(A, 0, null), new RedoRecord.SetProperty(A, 0, "cut"))); // the snapshot's
        image.snapshotRead(50);
        apply(new RedoRecord.Name(false, 0, "v")); // logged again after the mark: applies as before
        apply(commit(49, new RedoRecord.AddVertex(A, 0, null))); // committed before the cut, logged after the mark
        apply(commit(50, new RedoRecord.SetProperty(A, 0, "cut")));
        apply(commit(51, new RedoRecord.SetProperty(A, 0, "after")));
        assertEquals(2, image.skipped());
        image.writeInto(counts);
        assertEquals("after", store.mvStore().value(store.vertices().propertyVersion(A, 0)));
    }

    @Test
    void aSlotASnapshotNamesGivesTheGenerationAfterItUnlessTheLogMakesThatIdLater() {
        long usedAtCut = ElementIds.vertexId(0, 4, 5); // removed before the cut, its slot not yet freed
        long pending = ElementIds.vertexId(0, 1, 6); // created but not committed at the cut, committed after
        apply(new RedoRecord.Name(false, 0, "v"));
        apply(new RedoRecord.SlotsUsed(new long[] {usedAtCut, pending}));
        image.snapshotRead(50);
        apply(commit(51, new RedoRecord.AddVertex(pending, 0, null)));
        image.writeInto(counts);
        assertTrue(store.vertices().contains(pending));
        for (int i = 0; i < 8; i++) {
            long next = store.addVertex(0, 60, 70);
            if (ElementIds.slot(next) == 5) {
                assertEquals(5, ElementIds.generation(next), "the slot named at the cut gives the generation after it");
                return;
            }
        }
        throw new AssertionError("slot 5 was never handed out");
    }
}
