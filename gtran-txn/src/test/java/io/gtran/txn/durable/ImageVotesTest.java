package io.gtran.txn.durable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.storage.ElementIds;
import io.gtran.storage.GraphStore;
import io.gtran.storage.StoreConfig;
import io.gtran.txn.common.TxnWords;
import io.gtran.txn.local.ElementCounts;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Votes and decisions in a replayed log (docs/durability.md, "Nodes of a cluster", restart step
 * 1): a vote's changes are in the image at once; a COMMIT keeps them, an ABORT takes back exactly
 * them; a vote without a decision is in doubt until settled; decisions this node coordinated are
 * owed until released.
 */
class ImageVotesTest {
    private final GraphStore store = GraphStore.open(StoreConfig.from(Map.of(StoreConfig.CHUNK_BYTES, 1 << 16,
            StoreConfig.EDGE_ROW_CHUNK_BYTES, 1 << 16)));
    private final StoreImage image = new StoreImage(store);

    private static final long A = ElementIds.vertexId(0, 0, 1);
    private static final long B = ElementIds.vertexId(0, 0, 2);
    private static final long REMOTE = ElementIds.vertexId(1, 0, 1);
    private static final long AR = ElementIds.edgeId(0, 0, 1);
    /** A transaction node 1 coordinates, and one this node (0) does. */
    private static final long T1 = TxnWords.txnId(1, 3, 7);
    private static final long T0 = TxnWords.txnId(0, 2, 9);

    @AfterEach
    void close() {
        store.close();
    }

    private void apply(RedoRecord record) {
        image.apply(record.encode());
    }

    private Object property(long element) {
        return store.mvStore().value(store.vertices().propertyVersion(element, 0));
    }

    private void base() {
        apply(new RedoRecord.Name(false, 0, "v"));
        apply(new RedoRecord.Name(true, 0, "k"));
        apply(new RedoRecord.Commit(10, List.of(new RedoRecord.AddVertex(A, 0, "a"), new RedoRecord.SetProperty(A, 0, "before"))));
    }

    private static RedoRecord.Vote vote(long txn, long time) {
        return new RedoRecord.Vote(txn, time, new int[] {2}, List.of(new RedoRecord.SetProperty(A, 0, "voted"),
                new RedoRecord.AddVertex(B, 0, null), new RedoRecord.AddEdge(AR, 0, A, REMOTE, null)));
    }

    @Test
    void anAbortedVoteLeavesExactlyWhatWasThereAndItsIdsUsed() {
        base();
        apply(vote(T1, 20));
        apply(new RedoRecord.Commit(21, List.of(new RedoRecord.AddVertex(ElementIds.vertexId(0, 0, 3), 0, null))));
        apply(new RedoRecord.Decision(T1, 20, false));
        assertTrue(image.votes().inDoubt().isEmpty());
        image.writeInto(new ElementCounts(() -> null));
        assertEquals("before", property(A));
        assertFalse(store.vertices().contains(B));
        assertFalse(store.edges().contains(AR));
        assertTrue(store.vertices().contains(ElementIds.vertexId(0, 0, 3)));
        long next = store.addVertex(0, 30, 40);
        assertTrue(next != B, "the aborted vote's vertex id is not handed out again");
    }

    @Test
    void aCommittedVoteKeepsItsChanges() {
        base();
        apply(vote(T1, 20));
        apply(new RedoRecord.Decision(T1, 20, true));
        image.writeInto(new ElementCounts(() -> null));
        assertEquals("voted", property(A));
        assertTrue(store.vertices().contains(B));
        assertEquals(REMOTE, store.edgeInVertex(AR));
    }

    @Test
    void aVoteWithoutADecisionIsInDoubtUntilSettled() {
        base();
        apply(vote(T1, 20));
        List<ImageVotes.InDoubt> doubts = image.votes().inDoubt();
        assertEquals(1, doubts.size());
        assertEquals(T1, doubts.get(0).txn());
        assertEquals(20, doubts.get(0).commitTime());
        assertThrows(IllegalStateException.class, () -> image.writeInto(new ElementCounts(() -> null)), "not before it is settled");
        image.votes().settle(T1, false);
        assertThrows(IllegalArgumentException.class, () -> image.votes().settle(T1, true), "settled once");
        image.writeInto(new ElementCounts(() -> null));
        assertEquals("before", property(A));
    }

    @Test
    void aDecisionThisNodeCoordinatedIsOwedUntilReleased() {
        base();
        apply(vote(T0, 20));
        apply(new RedoRecord.Decision(T0, 20, true));
        assertEquals(List.of(T0), image.votes().owed().stream().map(RedoRecord.Pending::txn).toList());
        assertEquals(9, image.votes().highestSequence());
        apply(new RedoRecord.Released(T0));
        assertTrue(image.votes().owed().isEmpty());
        apply(new RedoRecord.Pending(TxnWords.txnId(0, 5, 11), 30, new int[] {1}, false));
        assertEquals(11, image.votes().highestSequence());
        assertEquals(1, image.votes().owed().size());
    }

    @Test
    void aVoteAtOrBeforeTheSnapshotIsInItAndItsDecisionIsIgnored() {
        base();
        image.snapshotRead(20);
        apply(vote(T1, 20));
        apply(new RedoRecord.Decision(T1, 20, false));
        assertTrue(image.votes().inDoubt().isEmpty());
        image.writeInto(new ElementCounts(() -> null));
        assertEquals("before", property(A), "the snapshot said what it was at its cut");
    }
}
