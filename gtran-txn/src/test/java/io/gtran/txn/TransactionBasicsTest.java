package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.storage.EdgeCursor;
import io.gtran.storage.EdgeDirection;
import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.ElementNotFoundException;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class TransactionBasicsTest {
    private final TxnFixture node = new TxnFixture(Map.of(TxnConfig.GC, false));
    private final int person = node.label("person");
    private final int knows = node.label("knows");
    private final int name = node.key("name");
    private final int age = node.key("age");

    @AfterEach
    void close() {
        node.close();
    }

    @Test
    void committedWritesAreVisibleToLaterTransactionsOnly() {
        Transaction before = node.begin(Isolation.SERIALIZABLE);
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        long v = t.addVertex(person);
        t.setVertexProperty(v, name, "ann");
        assertEquals("ann", t.vertexProperty(v, name), "own write visible to itself");
        t.commit();
        assertFalse(before.vertexExists(v), "a transaction that began earlier keeps its snapshot");
        before.commit();
        Transaction after = node.begin(Isolation.SERIALIZABLE);
        assertTrue(after.vertexExists(v));
        assertEquals("ann", after.vertexProperty(v, name));
        assertEquals(person, after.vertexLabel(v));
        after.commit();
    }

    @Test
    void updatesCreateVersionsAndOldSnapshotsStillSeeTheOldValue() {
        long v = committedVertex("ann", 30);
        Transaction old = node.begin(Isolation.SNAPSHOT);
        Transaction w = node.begin(Isolation.SERIALIZABLE);
        w.setVertexProperty(v, age, 31);
        assertEquals(31, w.vertexProperty(v, age));
        assertEquals(30, old.vertexProperty(v, age), "uncommitted write invisible");
        w.commit();
        assertEquals(30, old.vertexProperty(v, age), "committed after old began: still invisible");
        old.commit();
        Transaction now = node.begin(Isolation.SNAPSHOT);
        assertEquals(31, now.vertexProperty(v, age));
        assertEquals(Map.of(name, "ann", age, 31), now.vertexProperties(v));
        now.commit();
    }

    @Test
    void rollbackLeavesNothingVisible() {
        long v = committedVertex("ann", 30);
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        long w = t.addVertex(person);
        t.setVertexProperty(v, age, 99);
        t.removeVertexProperty(v, name);
        long e = t.addEdge(v, w, knows);
        t.rollback();
        Transaction r = node.begin(Isolation.SERIALIZABLE);
        assertFalse(r.vertexExists(w));
        assertFalse(r.edgeExists(e));
        assertEquals(30, r.vertexProperty(v, age));
        assertEquals("ann", r.vertexProperty(v, name));
        assertEquals(0, r.edges(v, EdgeDirection.BOTH, EdgeCursor.ANY_LABEL).length);
        r.commit();
        // and the property can be written again after the rollback
        Transaction again = node.begin(Isolation.SERIALIZABLE);
        again.setVertexProperty(v, age, 40);
        again.commit();
        Transaction check = node.begin(Isolation.SERIALIZABLE);
        assertEquals(40, check.vertexProperty(v, age));
        check.commit();
    }

    @Test
    void writeWriteConflictAbortsTheSecondWriterNamingTheFirst() {
        long v = committedVertex("ann", 30);
        Transaction a = node.begin(Isolation.SERIALIZABLE);
        Transaction b = node.begin(Isolation.SERIALIZABLE);
        a.setVertexProperty(v, age, 1);
        TransactionConflictException e = assertThrows(TransactionConflictException.class, () -> b.setVertexProperty(v, age, 2));
        assertEquals(ConflictKind.WRITE_WRITE, e.kind());
        assertEquals(a.id(), e.otherTransaction());
        assertTrue(e.getMessage().contains("WRITE_WRITE"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> b.vertexProperty(v, age), "aborted transaction refuses work");
        a.commit();
    }

    @Test
    void edgesAndVertexRemoval() {
        long a = committedVertex("a", 1);
        long b = committedVertex("b", 2);
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        long e = t.addEdge(a, b, knows);
        t.setEdgeProperty(e, name, "since-2020");
        t.commit();
        Transaction r = node.begin(Isolation.SERIALIZABLE);
        assertArrayEquals(new long[] {e}, r.edges(a, EdgeDirection.OUT, knows));
        assertArrayEquals(new long[] {e}, r.edges(b, EdgeDirection.IN, EdgeCursor.ANY_LABEL));
        assertEquals(0, r.edges(a, EdgeDirection.IN, EdgeCursor.ANY_LABEL).length);
        assertEquals("since-2020", r.edgeProperty(e, name));
        r.commit();
        Transaction d = node.begin(Isolation.SERIALIZABLE);
        d.removeVertex(a);
        assertFalse(d.edgeExists(e), "incident edge removed with its vertex");
        d.commit();
        Transaction after = node.begin(Isolation.SERIALIZABLE);
        assertFalse(after.vertexExists(a));
        assertFalse(after.edgeExists(e));
        assertEquals(0, after.edges(b, EdgeDirection.BOTH, EdgeCursor.ANY_LABEL).length);
        assertEquals(1, after.vertices(person).length);
        after.commit();
    }

    @Test
    void propertyRemovalAndRecreation() {
        long v = committedVertex("ann", 30);
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        assertTrue(t.removeVertexProperty(v, age));
        assertNull(t.vertexProperty(v, age));
        assertFalse(t.removeVertexProperty(v, age));
        t.setVertexProperty(v, age, 5);
        t.commit();
        Transaction r = node.begin(Isolation.SERIALIZABLE);
        assertEquals(5, r.vertexProperty(v, age));
        assertTrue(r.removeVertexProperty(v, age));
        r.commit();
        Transaction s = node.begin(Isolation.SERIALIZABLE);
        assertNull(s.vertexProperty(v, age));
        assertEquals(Map.of(name, "ann"), s.vertexProperties(v));
        s.commit();
    }

    @Test
    void unknownIdsGiveClearErrors() {
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        assertFalse(t.vertexExists(12345L));
        ElementNotFoundException e = assertThrows(ElementNotFoundException.class, () -> t.vertexProperty(12345L, name));
        assertTrue(e.getMessage().contains("vertex not found"), e.getMessage());
        t.rollback();
    }

    private long committedVertex(String n, int a) {
        Transaction t = node.begin(Isolation.SERIALIZABLE);
        long v = t.addVertex(person);
        t.setVertexProperty(v, name, n);
        t.setVertexProperty(v, age, a);
        t.commit();
        return v;
    }
}
