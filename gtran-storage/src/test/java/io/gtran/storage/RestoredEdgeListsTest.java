package io.gtran.storage;

import static io.gtran.storage.StoreTestSupport.adjacency;
import static io.gtran.storage.StoreTestSupport.ceilDiv;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The edge row-lists a restore writes in one pass hold what the original's inserts built, in the
 * same order, packed as compaction packs the original's, and take later inserts, removals and
 * compaction exactly as the original's do. Checked for every vertex of a history with hubs
 * (degrees many times the cells of a row), several labels, both directions, self-loops and
 * endpoints on another node.
 */
class RestoredEdgeListsTest {
    private static final long SEED = 20240917L;

    private final StoreHistory original = new StoreHistory(SEED);
    private final GraphStore restored = original.restore(new Random(SEED + 1));
    private final int cellsPerRow = original.config.edgeRowCells;

    @AfterEach
    void close() {
        original.close();
        restored.close();
    }

    @Test
    void theHistoryHasHubsOfManyRowsWithEveryKindOfCell() {
        long hub = hubs(1).get(0);
        List<StoreTestSupport.Cell> cells = adjacency(original.store, hub);
        assertTrue(cells.size() > 10 * cellsPerRow, "a hub of many rows: " + cells.size() + " cells");
        assertTrue(cells.stream().anyMatch(c -> c.direction() == EdgeDirection.OUT), "OUT cells");
        assertTrue(cells.stream().anyMatch(c -> c.direction() == EdgeDirection.IN), "IN cells");
        assertEquals(StoreHistory.LABELS.length, cells.stream().map(StoreTestSupport.Cell::label).distinct().count(), "every label");
        assertTrue(cells.stream().anyMatch(c -> ElementIds.node(c.neighbour()) == StoreHistory.OTHER_NODE), "a remote neighbour");
        assertTrue(original.edges.stream().anyMatch(e -> original.store.edgeOutVertex(e) == original.store.edgeInVertex(e)),
                "a self-loop");
    }

    @Test
    void everyListHoldsTheOriginalsCellsInTheSameOrder() {
        for (long v : original.vertices) {
            assertSameCells(original.store, restored, v);
        }
    }

    @Test
    void everyListIsPackedAsCompactionPacksTheOriginals() {
        for (long v : original.vertices) {
            int cells = adjacency(restored, v).size();
            assertEquals(ceilDiv(cells, cellsPerRow), restored.edgeRowCount(v), ElementIds.toString(v));
            assertTrue(restored.edgeRowCount(v) <= original.store.edgeRowCount(v), ElementIds.toString(v));
        }
        assertTrue(original.store.compactAllEdges() > 0, "the original's inserts left rows to pack");
        assertSameRows();
        assertEquals(original.store.liveSlots().get("edge-row"), restored.liveSlots().get("edge-row"));
        assertEquals(0, restored.compactAllEdges(), "nothing to pack in a restored store");
        for (long v : original.vertices) {
            assertEquals(0, restored.compactEdges(v), ElementIds.toString(v));
        }
        assertSameRows();
    }

    /**
     * Once the original is packed too, both stores hold their lists in the same rows, so the same
     * writes must leave the same rows, a full row split or handing on cells just as in the original.
     */
    @Test
    void insertsRemovalsAndCompactionAfterRestoreChangeTheListsAsInTheOriginal() {
        original.store.compactAllEdges();
        alignFreeEdgeSlots();
        Random random = new Random(SEED + 2);
        List<Long> hubs = hubs(StoreHistory.HUBS);
        List<Long> live = new ArrayList<>(original.edges);
        int[] labels = labelIds(original.store).stream().mapToInt(Integer::intValue).toArray();
        for (int op = 0; op < 2000; op++) {
            Set<Long> touched = new HashSet<>();
            int kind = random.nextInt(10);
            if (kind < 5) {
                long out = vertex(random, hubs);
                long in = random.nextInt(15) == 0 ? out : vertex(random, hubs);
                if (random.nextInt(8) == 0) {
                    in = ElementIds.vertexId(StoreHistory.OTHER_NODE, 0, 1 + random.nextInt(1000));
                }
                int label = labels[random.nextInt(labels.length)];
                long edge = original.store.addEdge(out, in, label, 0, 0);
                assertEquals(edge, restored.addEdge(out, in, label, 0, 0), "op " + op);
                live.add(edge);
                touched.addAll(List.of(out, in));
            } else if (kind < 9) {
                long edge = live.remove(random.nextInt(live.size()));
                touched.addAll(List.of(original.store.edgeOutVertex(edge), original.store.edgeInVertex(edge)));
                original.store.removeEdge(edge);
                restored.removeEdge(edge);
            } else {
                long v = vertex(random, hubs);
                assertEquals(original.store.compactEdges(v), restored.compactEdges(v), "op " + op);
                touched.add(v);
            }
            for (long v : touched) {
                if (ElementIds.node(v) == original.store.nodeId()) {
                    assertEquals(rows(original.store, v), rows(restored, v), "op " + op + " " + ElementIds.toString(v));
                }
            }
        }
        assertSameRows();
        for (long v : original.vertices) {
            assertSameCells(original.store, restored, v);
        }
        assertEquals(original.store.compactAllEdges(), restored.compactAllEdges());
        assertSameRows();
    }

    /** The {@code count} vertices with the most edge cells, most first. */
    private List<Long> hubs(int count) {
        List<Long> byDegree = new ArrayList<>(original.vertices);
        byDegree.sort(Comparator.comparingInt((Long v) -> adjacency(original.store, v).size()).reversed());
        return byDegree.subList(0, count);
    }

    /** A hub half the time, else any vertex of the history. */
    private long vertex(Random random, List<Long> hubs) {
        List<Long> among = random.nextBoolean() ? hubs : original.vertices;
        return among.get(random.nextInt(among.size()));
    }

    /**
     * Takes every free edge slot of both stores (they have the same ones) and frees them again in
     * one order, so that from here on both hand out the same edge ids in the same order.
     */
    private void alignFreeEdgeSlots() {
        int label = original.store.labels().find(StoreHistory.LABELS[0]);
        long remote = ElementIds.vertexId(StoreHistory.OTHER_NODE, 0, 1);
        long wasVertex = original.store.addVertex(label, 0, 0);
        long isVertex = restored.addVertex(label, 0, 0);
        int free = original.store.edges().slotLimit() - 1 - original.store.edges().count();
        TreeSet<Long> was = new TreeSet<>();
        TreeSet<Long> is = new TreeSet<>();
        for (int i = 0; i < free; i++) {
            was.add(original.store.addEdge(wasVertex, remote, label, 0, 0));
            is.add(restored.addEdge(isVertex, remote, label, 0, 0));
        }
        assertEquals(was, is);
        for (long edge : was) {
            original.store.removeEdge(edge);
            restored.removeEdge(edge);
        }
        original.store.removeVertex(wasVertex);
        restored.removeVertex(isVertex);
    }

    private void assertSameRows() {
        for (long v : original.vertices) {
            assertEquals(rows(original.store, v), rows(restored, v), ElementIds.toString(v));
            assertEquals(original.store.edgeRowCount(v), restored.edgeRowCount(v), ElementIds.toString(v));
        }
    }

    /** Both words of every cell of the vertex's edge list, row by row. */
    private static List<List<Long>> rows(GraphStore store, long v) {
        EdgeRowLists lists = store.edgeLists;
        List<List<Long>> out = new ArrayList<>();
        for (int row = store.vertices.headers.getInt(store.vertices.slotOf(v), VertexHeaderDescriptor.EDGE_ROW_OFFSET);
                row != RowDescriptor.NO_ROW; row = lists.next(row)) {
            List<Long> cells = new ArrayList<>();
            for (int i = 0; i < lists.count(row); i++) {
                cells.add(lists.word0(row, i));
                cells.add(lists.word1(row, i));
            }
            out.add(cells);
        }
        return out;
    }

    /** The same cells through the cursor, and the same neighbours for every direction and label. */
    private static void assertSameCells(GraphStore was, GraphStore is, long v) {
        String name = ElementIds.toString(v);
        assertEquals(adjacency(was, v), adjacency(is, v), name);
        List<Integer> labels = labelIds(was);
        labels.add(EdgeCursor.ANY_LABEL);
        for (EdgeDirection direction : EdgeDirection.values()) {
            for (int label : labels) {
                assertArrayEquals(neighbours(was, v, direction, label), neighbours(is, v, direction, label),
                        name + " " + direction + " label " + label);
            }
        }
    }

    /** Every label id of the store's dictionary. */
    private static List<Integer> labelIds(GraphStore store) {
        List<Integer> ids = new ArrayList<>();
        for (String name : store.labels().names()) {
            ids.add(store.labels().find(name));
        }
        return ids;
    }

    private static long[] neighbours(GraphStore store, long v, EdgeDirection direction, int label) {
        long[] out = new long[4];
        int n;
        while ((n = store.neighbours(v, direction, label, out)) > out.length) {
            out = new long[n];
        }
        return Arrays.copyOf(out, n);
    }
}
