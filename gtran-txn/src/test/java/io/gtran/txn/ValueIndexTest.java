package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.txn.common.ConflictKey;
import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.Isolation;
import io.gtran.txn.common.TransactionConflictException;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** One node's property-value indexes: entries, look-ups and the keys they record. */
class ValueIndexTest {
    private final TxnFixture node = new TxnFixture();

    @AfterEach
    void close() {
        node.close();
    }

    private ValueIndex ready(String key, boolean ordered) {
        ValueIndex index = node.engine.valueIndexes().define(ElementKind.VERTEX, key, ordered);
        node.engine.valueIndexes().ready(ElementKind.VERTEX, key);
        return index;
    }

    private static long[] sorted(long[] ids) {
        long[] copy = ids.clone();
        Arrays.sort(copy);
        return copy;
    }

    @Test
    void numbersGremlinFindsEqualShareAnEntryAndRangesIncludeTheirBounds() {
        ValueIndex index = ready("age", true);
        index.add(1, 10);
        index.add(1L, 11);
        index.add(1.0, 12);
        index.add(2.5f, 13);
        index.add("1", 14);
        index.add(true, 15);
        index.add(null, 16);
        Transaction txn = node.begin(Isolation.SERIALIZABLE);
        assertArrayEquals(new long[] {10, 11, 12}, sorted(index.lookUp(txn, ValueIndex.EQUAL, new Object[] {1L}, id -> true)));
        assertArrayEquals(new long[] {10, 11, 12, 14}, sorted(index.lookUp(txn, ValueIndex.EQUAL, new Object[] {1, "1"}, id -> true)));
        assertArrayEquals(new long[] {13}, index.lookUp(txn, ValueIndex.AT_LEAST, new Object[] {2.5}, id -> true), "inclusive");
        assertArrayEquals(new long[] {10, 11, 12}, sorted(index.lookUp(txn, ValueIndex.AT_MOST, new Object[] {1}, id -> true)));
        assertArrayEquals(new long[] {14}, index.lookUp(txn, ValueIndex.AT_LEAST, new Object[] {""}, id -> true),
                "strings compare with strings only");
        assertArrayEquals(new long[] {15}, index.lookUp(txn, ValueIndex.EQUAL, new Object[] {true}, id -> true));
        assertEquals(6, index.entryCount(), "null has no entry");
        assertThrows(IllegalArgumentException.class, () -> index.lookUp(txn, ValueIndex.AT_LEAST, new Object[] {true}, id -> true));
        txn.rollback();
    }

    @Test
    void anOrderedIndexKeepsStringsBooleansAndOtherValuesApart() {
        ValueIndex index = ready("v", true);
        java.util.UUID id = java.util.UUID.randomUUID();
        index.add("a", 1);
        index.add("b", 2);
        index.add(true, 3);
        index.add(false, 4);
        index.add(id, 5);
        Transaction txn = node.begin(Isolation.SERIALIZABLE);
        assertArrayEquals(new long[] {2}, index.lookUp(txn, ValueIndex.AT_LEAST, new Object[] {"b"}, x -> true));
        assertArrayEquals(new long[] {3}, index.lookUp(txn, ValueIndex.EQUAL, new Object[] {true}, x -> true));
        assertArrayEquals(new long[] {5}, index.lookUp(txn, ValueIndex.EQUAL, new Object[] {id}, x -> true));
        assertArrayEquals(new long[] {1, 2, 3}, sorted(index.lookUp(txn, ValueIndex.EQUAL, new Object[] {"a", "b", true, "a"}, x -> true)),
                "each element once");
        txn.rollback();
    }

    @Test
    void aWriteAddsItsNewValuesEntries() {
        ValueIndex index = ready("name", false);
        Transaction writer = node.begin(Isolation.SERIALIZABLE);
        index.written(writer, 42, new Object[] {"old"}, new Object[] {"new"});
        assertArrayEquals(new long[] {42}, index.lookUp(writer, ValueIndex.EQUAL, new Object[] {"new"}, x -> true));
        assertSame(index, node.engine.valueIndexes().get(ElementKind.VERTEX, "name"));
        writer.rollback();
    }

    @Test
    void theSameValueInTwoIndexesIsTwoKeys() {
        ValueIndex a = ready("a", false);
        ValueIndex b = ready("b", false);
        Transaction reader = node.begin(Isolation.SERIALIZABLE);
        a.lookUp(reader, ValueIndex.EQUAL, new Object[] {"v"}, x -> true);
        Transaction writer = node.begin(Isolation.SERIALIZABLE);
        b.written(writer, 1, new Object[0], new Object[] {"v"});
        writer.commit();
        reader.recordWrite(ConflictKey.custom(0, 0));
        reader.commit();
        assertTrue(reader.isCommitted(), "a write of b's value is no phantom of a's look-up");
    }

    @Test
    void entriesOfElementsTheStoreFreedAreDroppedByALookUp() {
        ValueIndex index = ready("name", false);
        index.add("x", 1);
        index.add("x", 2);
        Transaction txn = node.begin(Isolation.SERIALIZABLE);
        assertArrayEquals(new long[] {2}, index.lookUp(txn, ValueIndex.EQUAL, new Object[] {"x"}, id -> id == 2));
        assertEquals(1, index.entryCount());
        assertThrows(IllegalArgumentException.class, () -> index.lookUp(txn, ValueIndex.AT_MOST, new Object[] {"x"}, id -> true),
                "a hash index answers equality only");
        txn.rollback();
    }

    @Test
    void aLookUpAbortsAtSrWhenAConcurrentWriteChangesWhatItAsked() {
        for (boolean ordered : new boolean[] {false, true}) {
            ValueIndex index = ready(ordered ? "o" : "h", ordered);
            Transaction reader = node.begin(Isolation.SERIALIZABLE);
            int mode = ordered ? ValueIndex.AT_LEAST : ValueIndex.EQUAL;
            assertEquals(0, index.lookUp(reader, mode, new Object[] {5}, id -> true).length);
            Transaction writer = node.begin(Isolation.SERIALIZABLE);
            index.written(writer, 99, new Object[0], new Object[] {ordered ? 7 : 5L});
            writer.commit();
            reader.recordWrite(ConflictKey.custom(0, 0)); // a reader that writes validates its reads
            TransactionConflictException e = assertThrows(TransactionConflictException.class, reader::commit, "ordered=" + ordered);
            assertEquals(ConflictKind.READ_WRITE, e.kind());
        }
    }

    @Test
    void aWriteOfAnotherValueLeavesALookUpAlone() {
        ValueIndex index = ready("name", false);
        Transaction reader = node.begin(Isolation.SERIALIZABLE);
        index.lookUp(reader, ValueIndex.EQUAL, new Object[] {"a"}, id -> true);
        Transaction writer = node.begin(Isolation.SERIALIZABLE);
        index.written(writer, 1, new Object[] {"b"}, new Object[] {"c"});
        writer.commit();
        reader.recordWrite(ConflictKey.custom(0, 0));
        reader.commit();
        assertTrue(reader.isCommitted());
    }

    @Test
    void removingAValueWritesItsKey() {
        ValueIndex index = ready("name", false);
        Transaction reader = node.begin(Isolation.SERIALIZABLE);
        index.lookUp(reader, ValueIndex.EQUAL, new Object[] {"gone"}, id -> true);
        Transaction writer = node.begin(Isolation.SERIALIZABLE);
        index.written(writer, 1, new Object[] {"gone"}, new Object[0]);
        writer.commit();
        reader.recordWrite(ConflictKey.custom(0, 0));
        assertThrows(TransactionConflictException.class, reader::commit);
    }

    @Test
    void definitionsAreIdempotentAndRefuseTheOtherType() {
        ValueIndexes indexes = node.engine.valueIndexes();
        ValueIndex first = indexes.define(ElementKind.EDGE, "w", true);
        assertSame(first, indexes.define(ElementKind.EDGE, "w", true));
        assertFalse(first.isReady());
        assertNull(indexes.get(ElementKind.VERTEX, "w"), "vertex and edge indexes are apart");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> indexes.define(ElementKind.EDGE, "w", false));
        assertTrue(e.getMessage().contains("another type: key=w type=ordered"), e.getMessage());
        assertTrue(indexes.ready(ElementKind.EDGE, "w"));
        assertTrue(first.isReady());
        assertTrue(indexes.drop(ElementKind.EDGE, "w"));
        assertFalse(indexes.ready(ElementKind.EDGE, "w"));
        assertFalse(indexes.drop(ElementKind.EDGE, "w"));
    }

    @Test
    void onlyValuesTheWireCarriesTravel() {
        for (Object v : new Object[] {true, 1, 2L, 1.5, java.math.BigDecimal.ONE, 'c', "s", java.util.UUID.randomUUID()}) {
            assertTrue(ValueIndex.travels(v), String.valueOf(v));
        }
        for (Object v : new Object[] {null, new java.util.Date(0), java.util.List.of(1), new byte[1]}) {
            assertFalse(ValueIndex.travels(v), String.valueOf(v));
        }
    }
}
