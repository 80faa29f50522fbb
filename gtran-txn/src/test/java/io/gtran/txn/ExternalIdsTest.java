package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.storage.ElementIds;
import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.ExternalIdTakenException;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * User-supplied ids bound and looked up in transactions, on the transaction layer alone: binding
 * is a write (conflicts, undone by an abort), a look-up a read (validated at SR), and an id bound
 * again after a removal still names the old element for snapshots that see it.
 */
@Timeout(60)
class ExternalIdsTest {
    private final TxnFixture node = new TxnFixture(Map.of(TxnConfig.GC, false));
    private final ExternalIds ids = node.engine.externalIds();
    private final int person = node.label("person");

    @AfterEach
    void close() {
        node.close();
    }

    private long vertexWithId(Object id) {
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        long v = t.addVertex(person);
        assertEquals(id, ids.bind(t, ElementKind.VERTEX, id, id, v));
        t.commit();
        return v;
    }

    @Test
    void aBoundIdIsFoundByItsOwnTransactionAndAfterCommitByLaterOnes() {
        Transaction before = node.begin(Isolation.SNAPSHOT);
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        long v = t.addVertex(person);
        ids.bind(t, ElementKind.VERTEX, "ann", "ann", v);
        assertEquals(v, ids.resolve(t, ElementKind.VERTEX, "ann", null));
        assertEquals("ann", ids.exposed(ElementKind.VERTEX, v));
        t.commit();
        assertFalse(before.vertexExists(ids.resolve(before, ElementKind.VERTEX, "ann", null)), "not in an older snapshot");
        Transaction after = node.begin(Isolation.SNAPSHOT);
        assertEquals(v, ids.resolve(after, ElementKind.VERTEX, "ann", null));
        assertEquals(ElementIds.NONE, ids.resolve(after, ElementKind.EDGE, "ann", null), "edge ids are apart");
        after.commit();
        before.commit();
    }

    @Test
    void anAbortUnbindsTheId() {
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        long v = t.addVertex(person);
        ids.bind(t, ElementKind.VERTEX, "gone", "gone", v);
        t.rollback();
        Transaction r = node.begin(Isolation.SERIALIZABLE);
        assertEquals(ElementIds.NONE, ids.resolve(r, ElementKind.VERTEX, "gone", null));
        assertEquals(v, ids.exposed(ElementKind.VERTEX, v), "no external id left on the element");
        r.commit();
        vertexWithId("gone"); // and the id can be bound again
    }

    @Test
    void aTakenIdIsRefusedWithoutAbortingTheBinder() {
        vertexWithId(7L);
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        long v = t.addVertex(person);
        ExternalIdTakenException taken = assertThrows(ExternalIdTakenException.class,
                () -> ids.bind(t, ElementKind.VERTEX, 7L, 7L, v));
        assertEquals(ElementKind.VERTEX, taken.kind());
        assertEquals(7L, taken.id());
        assertTrue(t.isActive(), "the caller decides what becomes of the new element");
        t.rollback();
    }

    @Test
    void twoRunningBindersOfOneIdConflictAndTheLoserUndoesOnlyItsOwn() {
        Transaction first = node.begin(Isolation.SERIALIZABLE);
        long a = first.addVertex(person);
        ids.bind(first, ElementKind.VERTEX, "x", "x", a);
        Transaction second = node.begin(Isolation.SERIALIZABLE);
        long b = second.addVertex(person);
        ids.bind(second, ElementKind.VERTEX, "y", "y", b);
        long c = second.addVertex(person);
        TransactionConflictException e = assertThrows(TransactionConflictException.class,
                () -> ids.bind(second, ElementKind.VERTEX, "x", "x", c));
        assertEquals(ConflictKind.WRITE_WRITE, e.kind());
        assertFalse(second.isActive());
        first.commit();
        Transaction r = node.begin(Isolation.SERIALIZABLE);
        assertEquals(a, ids.resolve(r, ElementKind.VERTEX, "x", null), "the winner keeps its id");
        assertEquals(ElementIds.NONE, ids.resolve(r, ElementKind.VERTEX, "y", null), "the loser's other binding is undone");
        r.commit();
    }

    @Test
    void atSerializableALookUpOfAnAbsentIdConflictsWithItsBinding() {
        Transaction reader = node.begin(Isolation.SERIALIZABLE);
        assertEquals(ElementIds.NONE, ids.resolve(reader, ElementKind.VERTEX, "later", null));
        reader.addVertex(person); // a writer, so it validates
        vertexWithId("later");
        TransactionConflictException e = assertThrows(TransactionConflictException.class, reader::commit);
        assertEquals(ConflictKind.READ_WRITE, e.kind());
    }

    @Test
    void anIdBoundAgainAfterARemovalStillNamesTheOldElementForOlderSnapshots() {
        long old = vertexWithId("r");
        Transaction older = node.begin(Isolation.SNAPSHOT); // sees the old element
        Transaction remover = node.begin(Isolation.SERIALIZABLE);
        remover.removeVertex(old);
        remover.commit();
        long fresh = vertexWithId("r");
        assertEquals(old, ids.resolve(older, ElementKind.VERTEX, "r", null), "the old binding, kept aside");
        assertEquals("r", ids.exposed(ElementKind.VERTEX, old), "the old element keeps showing its id");
        Transaction newer = node.begin(Isolation.SNAPSHOT);
        assertEquals(fresh, ids.resolve(newer, ElementKind.VERTEX, "r", null));
        assertEquals("r", ids.exposed(ElementKind.VERTEX, fresh));
        newer.commit();
        older.commit();
    }

    @Test
    void aNumberOrUuidWrittenAsAStringIsLookedUpInBothForms() {
        long v = vertexWithId(42L);
        Transaction r = node.begin(Isolation.SERIALIZABLE);
        assertEquals(v, ids.resolve(r, ElementKind.VERTEX, "42", 42L));
        assertEquals(v, ids.resolve(r, ElementKind.VERTEX, String.valueOf(v), v), "an internal id as a string");
        r.commit();
    }
}
