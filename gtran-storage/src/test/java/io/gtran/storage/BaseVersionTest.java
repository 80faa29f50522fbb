package io.gtran.storage;

import static io.gtran.storage.MvTupleDescriptor.NO_TUPLE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Base versions: the time-less first version of a property written together with its element. */
class BaseVersionTest {
    private static final long BEGIN = 10L;
    private static final long OPEN = Long.MAX_VALUE;

    private GraphStore store;
    private MvStore mv;
    private int label;
    private int name;
    private int age;

    @BeforeEach
    void open() {
        store = GraphStore.open(StoreConfig.defaults());
        mv = store.mvStore();
        label = store.labels().intern("person");
        name = store.propertyKeys().intern("name");
        age = store.propertyKeys().intern("age");
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void aBaseVersionHoldsItsValueAndHasNoTimesOfItsOwn() {
        long v = store.addVertex(label, BEGIN, OPEN);
        int nameVersion = store.vertices().addPropertyBase(v, name, "Ada Lovelace");
        int ageVersion = store.vertices().addPropertyBase(v, age, 36);

        assertTrue(MvStore.isBase(nameVersion));
        assertTrue(MvStore.isBase(ageVersion));
        assertEquals(nameVersion, store.vertices().propertyVersion(v, name));
        assertEquals("Ada Lovelace", mv.value(nameVersion));
        assertEquals(36, mv.value(ageVersion));
        assertEquals(ValueType.STRING, mv.type(nameVersion));
        assertEquals(MvTupleDescriptor.NO_TUPLE, mv.older(nameVersion));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> mv.beginTime(nameVersion));
        assertTrue(e.getMessage().contains("inherits its element"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> mv.compareAndSetEndTime(ageVersion, OPEN, 99L));
    }

    @Test
    void aBaseVersionMustBeThePropertysFirst() {
        long v = store.addVertex(label, BEGIN, OPEN);
        store.vertices().addPropertyVersion(v, age, 1, BEGIN, OPEN);
        int liveBefore = mv.liveVersions();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> store.vertices().addPropertyBase(v, age, 2));
        assertTrue(e.getMessage().contains("key=age"), e.getMessage());
        assertEquals(liveBefore, mv.liveVersions(), "the refused base version was freed");
        assertEquals(1, mv.value(store.vertices().propertyVersion(v, age)));
    }

    @Test
    void materializingGivesAFullTupleThatNewVersionsChainOnto() {
        long e = store.addEdge(store.addVertex(label, BEGIN, OPEN), store.addVertex(label, BEGIN, OPEN), label, BEGIN, OPEN);
        int weight = store.propertyKeys().intern("weight");
        int base = store.edges().addPropertyBase(e, weight, 0.5d);

        int full = mv.materialize(base, BEGIN, OPEN);
        assertFalse(MvStore.isBase(full));
        assertEquals(0.5d, mv.value(full));
        assertEquals(BEGIN, mv.beginTime(full));
        assertTrue(store.edges().replacePropertyVersion(e, weight, base, full));
        assertFalse(store.edges().replacePropertyVersion(e, weight, base, full), "the link has already moved");
        assertTrue(mv.isLive(base), "readers holding the base version still read it until GC frees it");
        assertEquals(0.5d, mv.value(base));
        mv.freeVersion(base);

        assertTrue(mv.compareAndSetEndTime(full, OPEN, 20L));
        int newer = store.edges().addPropertyVersion(e, weight, 0.75d, 20L, OPEN);
        assertEquals(full, mv.older(newer));
        assertEquals(newer, store.edges().propertyVersion(e, weight));
        assertEquals(0.75d, mv.value(newer));
    }

    @Test
    void aStringBaseVersionAndItsMaterializedCopyOwnSeparateValues() {
        long v = store.addVertex(label, BEGIN, OPEN);
        int base = store.vertices().addPropertyBase(v, name, "Grace Hopper");
        long valuesBefore = mv.liveValues();
        int full = mv.materialize(base, BEGIN, OPEN);
        assertEquals(valuesBefore + 1, mv.liveValues());
        mv.freeVersion(base);
        assertEquals("Grace Hopper", mv.value(full), "freeing the base version must not free the copy's value");
        mv.freeVersion(full);
        assertEquals(valuesBefore - 1, mv.liveValues());
    }

    @Test
    void aFullVersionMayChainOntoABaseVersionAndGcFreesBoth() {
        long v = store.addVertex(label, BEGIN, OPEN);
        int base = store.vertices().addPropertyBase(v, name, "first");
        int second = store.vertices().addPropertyVersion(v, name, "second", 20L, OPEN);
        assertEquals(base, mv.older(second));
        assertEquals(1, store.freeVersionsOlderThan(second));
        assertFalse(mv.isLive(base));
        assertEquals(MvTupleDescriptor.NO_TUPLE, mv.older(second));
        assertEquals(MvTupleDescriptor.NO_TUPLE, mv.truncateAfter(base), "nothing is older than a base version");
    }

    @Test
    void removingTheElementFreesBaseVersionsAndTheirValues() {
        Map<String, Long> before = store.liveSlots();
        long a = store.addVertex(label, BEGIN, OPEN);
        long b = store.addVertex(label, BEGIN, OPEN);
        store.vertices().addPropertyBase(a, name, "a");
        store.vertices().addSerializedPropertyBase(a, age, new byte[] {1, 2, 3});
        long e = store.addEdge(a, b, label, BEGIN, OPEN);
        store.edges().addPropertyBase(e, name, "edge");
        int serialized = store.vertices().propertyVersion(a, age);
        assertEquals(ValueType.SERIALIZED, mv.type(serialized));
        assertArrayEquals(new byte[] {1, 2, 3}, ((SerializedValue) mv.value(serialized)).bytes());

        store.removeEdge(e);
        store.removeVertex(a);
        store.removeVertex(b);
        assertEquals(before, store.liveSlots());
    }

    @Test
    void baseVersionsTakeAValueWordAndATypeByte() {
        assertEquals(Long.BYTES, BaseVersionDescriptor.LENGTH);
        assertEquals(Byte.BYTES, BaseVersionDescriptor.SIDE_LENGTH);
        assertEquals(0, BaseVersionDescriptor.VALUE_OFFSET % 8);
    }

    @Test
    void versionHandlesOfBothKindsNeverCollide() {
        long v = store.addVertex(label, BEGIN, OPEN);
        int base = store.vertices().addPropertyBase(v, name, "x");
        int full = store.vertices().addPropertyVersion(v, age, 1, BEGIN, OPEN);
        assertEquals(0, MvTupleDescriptor.slot(base), "first base slot");
        assertEquals(0, full, "first tuple slot");
        assertTrue(base != full);
        assertTrue(base > 0, "handles stay positive, so NO_TUPLE (-1) is never a handle");
    }

    /**
     * A freed base version's slot holds a free-list link where its value word was, over the old
     * link's size class. Materializing it copied whatever value now sits in the slot that link
     * names: here another property's string.
     */
    @Test
    void materializingAFreedBaseVersionIsRefusedRatherThanCopyingAnotherValue() {
        try (GraphStore store = GraphStore.open(StoreConfig.defaults())) {
            MvStore mv = store.mvStore();
            int base = mv.createBaseVersion("mine");
            mv.freeVersion(base);
            mv.createVersion("someone else's", 1, 2, NO_TUPLE); // reuses the freed value slot
            Map<String, Long> before = store.liveSlots();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> mv.materialize(base, 1, 2));
            assertTrue(e.getMessage().contains("not live") && e.getMessage().contains("version=" + base), e.getMessage());
            assertEquals(before, store.liveSlots(), "nothing is created");
            assertThrows(IllegalArgumentException.class, () -> mv.materialize(MvTupleDescriptor.baseHandle(1000), 1, 2),
                    "a base slot never handed out");
        }
    }
}
