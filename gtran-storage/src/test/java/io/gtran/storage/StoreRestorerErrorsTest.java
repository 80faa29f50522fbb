package io.gtran.storage;

import static io.gtran.storage.StoreTestSupport.config;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** What a restorer refuses, and that a refused finish builds nothing. */
class StoreRestorerErrorsTest extends RestorerTestCase {
    StoreRestorerErrorsTest() {
        super(config(StoreConfig.NODE_ID, 2, StoreConfig.VERTICES_MAX, 100));
    }

    /** Asserts that {@code call} throws {@code type} with a message naming every one of {@code ids}. */
    private static <T extends RuntimeException> void assertRefused(Class<T> type, Executable call, long... ids) {
        T e = assertThrows(type, call);
        for (long id : ids) {
            assertTrue(e.getMessage().contains(ElementIds.toString(id)), e.getMessage());
        }
    }

    /** Asserts that finish refuses what was declared, naming {@code ids}, and that the store is still untouched. */
    private void assertFinishRefused(long... ids) {
        assertRefused(IllegalArgumentException.class, restorer::finish, ids);
        assertEquals(0, store.vertices().count());
        assertEquals(0, store.edges().count());
        store.restorer(); // the store is still fresh
    }

    @Test
    void idsThatNoHeaderHereCanCarryAreRefused() {
        assertRefused(IllegalArgumentException.class, () -> restorer.vertex(-4097, label, 0, 0), -4097);
        assertRefused(IllegalArgumentException.class, () -> restorer.vertex(ElementIds.LIMIT + 1, label, 0, 0), ElementIds.LIMIT + 1);
        assertRefused(IllegalArgumentException.class, () -> restorer.vertex(edge(0, 1), label, 0, 0), edge(0, 1));
        assertRefused(IllegalArgumentException.class, () -> restorer.edge(vertex(0, 1), vertex(0, 2), vertex(0, 3), label, 0, 0),
                vertex(0, 1));
        long foreign = ElementIds.vertexId(3, 0, 1);
        assertRefused(IllegalArgumentException.class, () -> restorer.vertex(foreign, label, 0, 0), foreign);
        assertRefused(IllegalArgumentException.class, () -> restorer.dead(foreign), foreign);
        assertRefused(IllegalArgumentException.class, () -> restorer.vertex(vertex(0, 0), label, 0, 0), vertex(0, 0));
        assertRefused(IllegalArgumentException.class, () -> restorer.dead(edge(4, 0)), edge(4, 0));
        IllegalArgumentException beyond = assertThrows(IllegalArgumentException.class, () -> restorer.vertex(vertex(0, 101), label, 0, 0));
        assertTrue(beyond.getMessage().contains(StoreConfig.VERTICES_MAX + "=100"), beyond.getMessage());
        restorer.vertex(vertex(0, 100), label, 0, 0); // the last slot the capacity allows
    }

    @Test
    void edgeEndpointsMustBeVertexIdsAndOneOfThemLocal() {
        long remote = ElementIds.vertexId(3, 0, 1);
        assertRefused(IllegalArgumentException.class, () -> restorer.edge(edge(0, 1), vertex(0, 1), edge(0, 2), label, 0, 0),
                edge(0, 1), edge(0, 2));
        assertRefused(IllegalArgumentException.class, () -> restorer.edge(edge(0, 1), remote, remote, label, 0, 0),
                edge(0, 1), remote);
        restorer.vertex(vertex(0, 1), label, 0, 0);
        restorer.edge(edge(0, 1), remote, vertex(0, 1), label, 0, 0);
        restorer.finish();
        assertEquals(remote, store.edgeOutVertex(edge(0, 1)));
        assertEquals(1, store.edgeRowCount(vertex(0, 1)));
    }

    @Test
    void twoLiveElementsOnOneSlotAreRefusedNamingBoth() {
        restorer.vertex(vertex(1, 3), label, 0, 0);
        restorer.vertex(vertex(0, 1), label, 0, 0);
        restorer.vertex(vertex(2, 3), label, 0, 0);
        assertFinishRefused(vertex(1, 3), vertex(2, 3));
    }

    @Test
    void anEdgeDeclaredTwiceIsRefused() {
        restorer.vertex(vertex(0, 1), label, 0, 0);
        restorer.edge(edge(0, 4), vertex(0, 1), vertex(0, 1), label, 0, 0);
        restorer.edge(edge(0, 4), vertex(0, 1), vertex(0, 1), label, 0, 0);
        assertFinishRefused(edge(0, 4));
    }

    /** Two alike cells take one edge slot declared twice, which the slot check refuses first; the cells are checked anyway. */
    @Test
    void twoAlikeEdgeCellsAreRefusedNamingTheEdge() {
        LongColumn ids = column(edge(0, 4), edge(0, 4));
        LongColumn outs = column(vertex(0, 1), vertex(0, 1));
        LongColumn ins = column(vertex(0, 2), vertex(0, 2));
        IllegalStateException twins = assertThrows(IllegalStateException.class,
                () -> AdjacencyPlan.of(store.nodeId(), store.edgeLists, ids, outs, ins, column(label, label)));
        assertTrue(twins.getMessage().contains("edge " + ElementIds.toString(edge(0, 4))), twins.getMessage());
    }

    private static LongColumn column(long... values) {
        LongColumn column = new LongColumn();
        for (long value : values) {
            column.add(value);
        }
        return column;
    }

    @Test
    void runningOutOfEdgeRowsThrowsNamingTheKey() {
        try (GraphStore small = GraphStore.open(config(StoreConfig.NODE_ID, 2, StoreConfig.EDGE_ROW_CELLS, 2,
                StoreConfig.EDGE_ROWS_MAX, 4))) {
            int thing = small.labels().intern("thing");
            StoreRestorer tight = small.restorer();
            tight.vertex(vertex(0, 1), thing, 0, 0);
            tight.vertex(vertex(0, 2), thing, 0, 0);
            for (int slot = 1; slot <= 5; slot++) {
                tight.edge(edge(0, slot), vertex(0, 1), vertex(0, 2), thing, 0, 0);
            }
            StoreCapacityException full = assertThrows(StoreCapacityException.class, tight::finish);
            assertTrue(full.getMessage().contains(StoreConfig.EDGE_ROWS_MAX), full.getMessage());
            assertEquals(3, small.edgeRowCount(vertex(0, 1)), "the lists before the one that ran out are built");
            assertEquals(0, small.edgeRowCount(vertex(0, 2)), "the one that ran out gave its rows back");
        }
    }

    @Test
    void aDeadIdAsYoungAsTheLiveOneOnItsSlotIsRefused() {
        restorer.vertex(vertex(3, 2), label, 0, 0);
        restorer.dead(vertex(3, 2));
        assertFinishRefused(vertex(3, 2));
    }

    @Test
    void aDeadIdYoungerThanTheLiveOneOnItsSlotIsRefusedNamingBoth() {
        restorer.vertex(vertex(3, 2), label, 0, 0);
        restorer.dead(vertex(1, 2));
        restorer.dead(vertex(4, 2));
        assertFinishRefused(vertex(3, 2), vertex(4, 2));
    }

    @Test
    void anEdgeWhoseLocalEndpointIsNotDeclaredLiveIsRefused() {
        restorer.vertex(vertex(0, 1), label, 0, 0);
        restorer.dead(vertex(0, 2));
        restorer.edge(edge(0, 1), vertex(0, 1), vertex(0, 2), label, 0, 0);
        assertFinishRefused(edge(0, 1), vertex(0, 2));
    }

    @Test
    void anUnknownLabelIsRefused() {
        restorer.vertex(vertex(0, 1), label, 0, 0);
        restorer.edge(edge(0, 1), vertex(0, 1), vertex(0, 1), label + 1, 0, 0);
        assertFinishRefused(edge(0, 1));
    }

    @Test
    void aRestorerIsOnlyForAStoreWithNothingAllocated() {
        long v = store.addVertex(label, 0, 0);
        IllegalStateException late = assertThrows(IllegalStateException.class, restorer::finish);
        assertTrue(late.getMessage().contains("vertex slots used=1"), late.getMessage());
        store.removeVertex(v);
        IllegalStateException used = assertThrows(IllegalStateException.class, store::restorer);
        assertTrue(used.getMessage().contains("vertex slots used=1"), used.getMessage());
    }

    @Test
    void aRestorerIsUsedOnce() {
        restorer.vertex(vertex(0, 1), label, 0, 0);
        restorer.finish();
        assertThrows(IllegalStateException.class, restorer::finish);
        assertThrows(IllegalStateException.class, () -> restorer.vertex(vertex(0, 2), label, 0, 0));
        assertThrows(IllegalStateException.class, () -> restorer.dead(vertex(0, 2)));
        assertThrows(IllegalStateException.class, store::restorer);
        assertEquals(1, store.vertices().count());
    }
}
