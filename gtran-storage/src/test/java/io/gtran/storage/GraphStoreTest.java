package io.gtran.storage;

import static io.gtran.storage.MvTupleDescriptor.NO_TUPLE;
import static io.gtran.storage.StoreTestSupport.adjacency;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The GraphStore facade: edges and their cells, cursor filters, removal rules, id checks, dictionaries. */
class GraphStoreTest {
    private final GraphStore store = GraphStore.open(StoreConfig.defaults());
    private final int knows = store.labels().intern("knows");
    private final int likes = store.labels().intern("likes");
    private final int hates = store.labels().intern("hates");

    @AfterEach
    void close() {
        store.close();
    }

    private long vertex() {
        return store.addVertex(knows, 1, Long.MAX_VALUE);
    }

    private long edge(long out, long in, int label) {
        return store.addEdge(out, in, label, 1, Long.MAX_VALUE);
    }

    /** "edgeId/OUT" or "edgeId/IN" for each cell the cursor returns. */
    private static List<String> scan(EdgeCursor cursor) {
        List<String> out = new ArrayList<>();
        while (cursor.next()) {
            out.add(cursor.edgeId() + "/" + cursor.direction());
        }
        return out;
    }

    private static String cell(long edgeId, EdgeDirection direction) {
        return edgeId + "/" + direction;
    }

    @Test
    void addEdgeWithAnUnknownEndpointLeavesNothing() {
        long a = vertex();
        long b = vertex();
        long ghost = vertex();
        store.removeVertex(ghost);
        long existing = edge(a, b, knows);
        List<StoreTestSupport.Cell> before = adjacency(store, a);
        Map<String, Long> live = store.liveSlots();
        long neverIssued = ElementIds.vertexId(0, 1, 999);
        for (long unknown : new long[] {ghost, neverIssued}) {
            assertThrows(UnknownElementException.class, () -> edge(a, unknown, knows));
            assertThrows(UnknownElementException.class, () -> edge(unknown, a, likes));
            assertThrows(UnknownElementException.class, () -> edge(unknown, unknown, likes));
        }
        assertEquals(1, store.edges().count());
        assertEquals(live, store.liveSlots());
        assertEquals(before, adjacency(store, a));
        EdgeCursor cursor = store.newEdgeCursor().open(a, EdgeDirection.OUT);
        assertTrue(cursor.next());
        assertEquals(existing, cursor.edgeId());
        assertFalse(cursor.next());
    }

    @Test
    void selfLoopHasOneOutAndOneInCell() {
        long v = vertex();
        long loop = edge(v, v, likes);
        EdgeCursor cursor = store.newEdgeCursor();
        assertEquals(List.of(cell(loop, EdgeDirection.OUT)), scan(cursor.open(v, EdgeDirection.OUT, EdgeCursor.ANY_LABEL)));
        assertEquals(List.of(cell(loop, EdgeDirection.IN)), scan(cursor.open(v, EdgeDirection.IN, EdgeCursor.ANY_LABEL)));
        assertEquals(List.of(cell(loop, EdgeDirection.OUT), cell(loop, EdgeDirection.IN)),
                scan(cursor.open(v, EdgeDirection.BOTH, likes)));
        cursor.open(v, EdgeDirection.BOTH);
        assertTrue(cursor.next());
        assertEquals(v, cursor.neighbour());
        assertEquals(likes, cursor.label());
        assertEquals(ElementIds.slot(loop), cursor.edgeSlot());
        assertEquals(v, store.edgeOutVertex(loop));
        assertEquals(v, store.edgeInVertex(loop));
        assertEquals(1, store.edgeRowCount(v));
        assertThrows(IllegalStateException.class, () -> store.removeVertex(v));
        store.removeEdge(loop);
        assertEquals(List.of(), adjacency(store, v));
        assertEquals(0, store.edgeRowCount(v));
        assertEquals(0L, store.liveSlots().get("edge-row"));
        store.removeVertex(v);
        assertEquals(0, store.vertices().count());
    }

    @Test
    void cursorsFilterByDirectionAndLabel() {
        long a = vertex();
        long b = vertex();
        long c = vertex();
        long d = vertex();
        long e = vertex();
        long ab = edge(a, b, knows);
        long ac = edge(a, c, likes);
        long da = edge(d, a, knows);
        long ea = edge(e, a, hates);
        long aa = edge(a, a, likes);
        long ab2 = edge(a, b, hates); // a parallel edge
        String abOut = cell(ab, EdgeDirection.OUT);
        String ab2Out = cell(ab2, EdgeDirection.OUT);
        String acOut = cell(ac, EdgeDirection.OUT);
        String daIn = cell(da, EdgeDirection.IN);
        String eaIn = cell(ea, EdgeDirection.IN);
        String aaOut = cell(aa, EdgeDirection.OUT);
        String aaIn = cell(aa, EdgeDirection.IN);
        EdgeCursor cursor = store.newEdgeCursor();
        // OUT cells first, then IN cells, each in (neighbour id, edge slot) order; a was created first.
        assertEquals(List.of(aaOut, abOut, ab2Out, acOut, aaIn, daIn, eaIn), scan(cursor.open(a, EdgeDirection.BOTH, EdgeCursor.ANY_LABEL)));
        assertEquals(List.of(aaOut, abOut, ab2Out, acOut), scan(cursor.open(a, EdgeDirection.OUT, EdgeCursor.ANY_LABEL)));
        assertEquals(List.of(aaIn, daIn, eaIn), scan(cursor.open(a, EdgeDirection.IN)));
        assertEquals(List.of(abOut), scan(cursor.open(a, EdgeDirection.OUT, knows)));
        assertEquals(List.of(daIn), scan(cursor.open(a, EdgeDirection.IN, knows)));
        assertEquals(List.of(aaOut, acOut, aaIn), scan(cursor.open(a, EdgeDirection.BOTH, likes)));
        assertEquals(List.of(), scan(cursor.open(c, EdgeDirection.OUT, likes, knows)));
        assertEquals(List.of(cell(ac, EdgeDirection.IN)), scan(cursor.open(c, EdgeDirection.IN, likes)));
        assertEquals(List.of(abOut, ab2Out, daIn, eaIn), scan(cursor.open(a, EdgeDirection.BOTH, knows, hates)));
        assertEquals(List.of(ab2Out), scan(cursor.open(a, EdgeDirection.OUT, hates, 12345)));
        assertEquals(List.of(aaIn, daIn, eaIn), scan(cursor.open(a, EdgeDirection.IN, new int[0])), "no labels: any label");
        // Reopening with one label drops the earlier label set.
        cursor.open(a, EdgeDirection.BOTH, knows, hates);
        assertEquals(List.of(aaOut, acOut, aaIn), scan(cursor.open(a, EdgeDirection.BOTH, likes)));
        assertEquals(List.of(), scan(cursor.open(a, EdgeDirection.OUT, 999)), "an unknown label matches nothing");
        // The other endpoints see the matching opposite cells.
        assertEquals(List.of(cell(ab, EdgeDirection.IN), cell(ab2, EdgeDirection.IN)), scan(cursor.open(b, EdgeDirection.IN)));
        assertEquals(List.of(cell(da, EdgeDirection.OUT)), scan(cursor.open(d, EdgeDirection.BOTH, knows)));
        assertEquals(List.of(), scan(cursor.open(d, EdgeDirection.IN)));
        cursor.open(e, EdgeDirection.OUT, hates);
        assertTrue(cursor.next());
        assertEquals(a, cursor.neighbour());
        assertEquals(hates, cursor.label());
        assertEquals(EdgeDirection.OUT, cursor.direction());
        assertFalse(cursor.next());
    }

    @Test
    void removingAVertexWithEdgesFailsNamingIt() {
        long a = vertex();
        long b = vertex();
        long ab = edge(a, b, knows);
        for (long v : new long[] {a, b}) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> store.removeVertex(v));
            assertTrue(e.getMessage().contains(ElementIds.toString(v)), e.getMessage());
            assertTrue(store.vertices().contains(v), "a refused removal keeps the vertex");
        }
        assertTrue(store.edges().contains(ab));
        assertEquals(1, adjacency(store, a).size());
        store.removeEdge(ab);
        store.removeVertex(a);
        store.removeVertex(b);
        assertEquals(0, store.vertices().count());
    }

    @Test
    void removeEdgeRemovesBothCellsAndItsProperties() {
        int weight = store.propertyKeys().intern("weight");
        long a = vertex();
        long b = vertex();
        long keep = edge(b, a, likes);
        long ab = edge(a, b, knows);
        store.edges().addPropertyVersion(ab, weight, 0.5, 1, 2);
        store.edges().addPropertyVersion(ab, weight, "heavy", 2, 3);
        assertEquals(2, adjacency(store, a).size());
        store.removeEdge(ab);
        assertFalse(store.edges().contains(ab));
        assertEquals(List.of(new StoreTestSupport.Cell(b, EdgeDirection.IN, likes, ElementIds.slot(keep))), adjacency(store, a));
        assertEquals(List.of(new StoreTestSupport.Cell(a, EdgeDirection.OUT, likes, ElementIds.slot(keep))), adjacency(store, b));
        assertThrows(UnknownElementException.class, () -> store.removeEdge(ab));
        Map<String, Long> live = store.liveSlots();
        assertEquals(0L, live.get("mv-tuple"));
        assertEquals(0L, live.get("value"));
        assertEquals(0L, live.get("edge-property-row"));
        assertEquals(1L, live.get("edge-header"));
        assertEquals(1, store.edges().count());
    }

    @Test
    void edgesToAnotherNodeKeepOnlyTheLocalCell() {
        long a = vertex();
        long remote = ElementIds.vertexId(3, 1, 42);
        long out = edge(a, remote, knows);
        long in = edge(remote, a, likes);
        assertEquals(remote, store.edgeInVertex(out));
        assertEquals(remote, store.edgeOutVertex(in));
        assertEquals(List.of(new StoreTestSupport.Cell(remote, EdgeDirection.OUT, knows, ElementIds.slot(out)),
                new StoreTestSupport.Cell(remote, EdgeDirection.IN, likes, ElementIds.slot(in))), adjacency(store, a));
        assertFalse(store.vertices().contains(remote));
        store.removeEdge(out);
        store.removeEdge(in);
        assertEquals(List.of(), adjacency(store, a));
        assertEquals(0L, store.liveSlots().get("edge-row"));
        // A remote endpoint must still be a well-formed id.
        assertThrows(UnknownElementException.class, () -> edge(a, -5L, knows));
        assertEquals(0, store.edges().count());
    }

    @Test
    void unknownLabelAndKeyIdsAreRejected() {
        long a = vertex();
        for (int label : new int[] {-1, 3, 1000}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> store.addVertex(label, 1, 2));
            assertTrue(e.getMessage().contains("unknown label id: " + label), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> store.addEdge(a, a, label, 1, 2));
        }
        assertEquals(1, store.vertices().count());
        assertEquals(0, store.edges().count());
        assertEquals(0L, store.liveSlots().get("edge-row"));
        long e = edge(a, a, knows);
        int key = store.propertyKeys().intern("k");
        for (int bad : new int[] {-1, key + 1}) {
            IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> store.vertices().addPropertyVersion(a, bad, 1, 1, 2));
            assertTrue(ex.getMessage().contains("unknown property key id: " + bad), ex.getMessage());
            assertThrows(IllegalArgumentException.class, () -> store.vertices().addSerializedPropertyVersion(a, bad, new byte[1], 1, 2));
            assertThrows(IllegalArgumentException.class, () -> store.edges().addPropertyVersion(e, bad, 1, 1, 2));
            assertThrows(IllegalArgumentException.class, () -> store.edges().addSerializedPropertyVersion(e, bad, new byte[1], 1, 2));
        }
        assertEquals(0, store.mvStore().liveVersions());
        // A storable key with an unstorable value stores nothing either.
        assertThrows(IllegalArgumentException.class, () -> store.vertices().addPropertyVersion(a, key, new Object(), 1, 2));
        assertEquals(NO_TUPLE, store.vertices().propertyVersion(a, key));
        assertEquals(0L, store.liveSlots().get("vertex-property-row"));
    }

    @Test
    void propertyCursorsListKeysInKeyOrder() {
        List<Integer> keys = new ArrayList<>();
        for (int i = 0; i < 11; i++) {
            keys.add(store.propertyKeys().intern("p" + i));
        }
        long v = vertex();
        assertFalse(store.vertices().newPropertyCursor().open(v).next(), "no properties yet");
        int[] order = {7, 2, 9, 0, 10, 4, 1, 8, 3, 6, 5};
        int[] newest = new int[11];
        for (int i : order) {
            newest[i] = store.vertices().addPropertyVersion(v, keys.get(i), i, 1, 2);
        }
        newest[4] = store.vertices().addPropertyVersion(v, keys.get(4), "four", 2, 3);
        PropertyCursor cursor = store.vertices().newPropertyCursor();
        for (int round = 0; round < 2; round++) {
            cursor.open(v);
            for (int i = 0; i < 11; i++) {
                assertTrue(cursor.next());
                assertEquals(keys.get(i), cursor.keyId());
                assertEquals(newest[i], cursor.newestVersion());
                assertEquals(newest[i], store.vertices().propertyVersion(v, keys.get(i)));
            }
            assertFalse(cursor.next());
        }
        assertEquals("four", store.mvStore().value(newest[4]));
        assertTrue(store.liveSlots().get("vertex-property-row") >= 3);
        store.removeVertex(v);
        Map<String, Long> live = store.liveSlots();
        for (Map.Entry<String, Long> entry : live.entrySet()) {
            assertEquals(0L, entry.getValue(), entry.getKey() + " after removing everything");
        }
    }

    @Test
    void dictionariesInternDensely() {
        Dictionary labels = store.labels();
        assertEquals(List.of("knows", "likes", "hates"), labels.names());
        assertEquals(likes, labels.intern("likes"));
        assertEquals(hates, labels.find("hates"));
        assertEquals(Dictionary.ABSENT, labels.find("loves"));
        for (int i = 0; i < 40; i++) {
            assertEquals(3 + i, labels.intern("label-" + i), "ids are dense and grow past the first table");
        }
        assertEquals(43, labels.size());
        assertEquals("label-39", labels.name(42));
        assertEquals("knows", labels.name(knows));
        assertThrows(IllegalArgumentException.class, () -> labels.name(43));
        assertThrows(IllegalArgumentException.class, () -> labels.name(-1));
        assertThrows(IllegalArgumentException.class, () -> labels.intern(null));
        assertEquals(0, store.propertyKeys().size(), "labels and keys are separate dictionaries");
        assertEquals(0, store.propertyKeys().intern("knows"));
        long v = store.addVertex(42, 1, 2);
        assertEquals(42, store.vertices().label(v));
    }

    /** Null serialized bytes and null dictionary names failed with bare NullPointerExceptions. */
    @Test
    void nullBytesAndNamesAreRefusedNamingWhatWasNull() {
        try (GraphStore store = GraphStore.open(StoreConfig.defaults())) {
            int key = store.propertyKeys().intern("k");
            long v = store.addVertex(store.labels().intern("v"), 1, 2);
            Map<String, Long> before = store.liveSlots();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> store.vertices().addSerializedPropertyVersion(v, key, null, 1, 2));
            assertTrue(e.getMessage().contains("serialized"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> store.vertices().addSerializedPropertyBase(v, key, null));
            assertThrows(IllegalArgumentException.class, () -> store.mvStore().createSerializedVersion(null, 1, 2, NO_TUPLE));
            assertEquals(before, store.liveSlots());
            e = assertThrows(IllegalArgumentException.class, () -> store.labels().find(null));
            assertTrue(e.getMessage().contains("label"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> store.propertyKeys().find(null));
        }
    }
}
