package io.gtran.storage;

import static io.gtran.storage.StoreTestSupport.config;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Runs of consecutive slots, and compaction that moves row-lists into them for locality. */
class RelocationTest {
    private static final int CELLS = 4;

    @Test
    void aRunIsConsecutiveFreshSlotsInOneChunk() {
        try (SlotPool pool = new SlotPool("runs", 16, 8, 64)) {
            assertEquals(0, pool.allocate());
            int run = pool.allocateRun(5);
            assertEquals(1, run);
            for (int s = run; s < run + 5; s++) {
                assertTrue(pool.isAllocated(s));
            }
            // 6 slots used in chunk 0 (slots 0..7): a run of 4 cannot fit, so it starts at slot 8
            // and the two skipped slots go onto the free list.
            int next = pool.allocateRun(4);
            assertEquals(8, next);
            assertEquals(1 + 5 + 4, pool.liveSlots());
            assertFalse(pool.isAllocated(6));
            assertFalse(pool.isAllocated(7));
            List<Integer> reused = List.of(pool.allocate(), pool.allocate());
            assertTrue(reused.containsAll(List.of(6, 7)), "skipped slots are reused: " + reused);
            assertEquals(SlotPool.NO_SLOT, pool.allocateRun(9), "longer than a chunk");
        }
    }

    @Test
    void aRunFailsCleanlyWhenThePoolIsFull() {
        try (SlotPool pool = new SlotPool("full", 16, 8, 10)) {
            assertEquals(0, pool.allocateRun(8));
            assertEquals(SlotPool.NO_SLOT, pool.allocateRun(3), "only 2 slots left");
            assertEquals(8, pool.liveSlots());
            assertEquals(8, pool.allocateRun(2));
        }
    }

    /**
     * compactAllEdges packs every list and splits it in two parts, each laid out list after list
     * in vertex order: the front part (the rows an OUT scan reads: up to and including the row with
     * the first IN cell) in one region, the rest (rows of IN cells only) in another.
     */
    @Test
    void compactingAllEdgesLaysOutFrontPartsThenBackPartsInConsecutiveFullRows() {
        try (GraphStore store = GraphStore.open(StoreTestSupport.config(StoreConfig.EDGE_ROW_CELLS, CELLS))) {
            int label = store.labels().intern("l");
            Random random = new Random(17);
            long[] vertices = new long[60];
            for (int i = 0; i < vertices.length; i++) {
                vertices[i] = store.addVertex(label, 1, Long.MAX_VALUE);
            }
            List<Long> edges = new ArrayList<>();
            for (int i = 0; i < 1_500; i++) {
                edges.add(store.addEdge(vertices[random.nextInt(60)], vertices[random.nextInt(60)], label, 1, Long.MAX_VALUE));
            }
            for (int i = 0; i < 500; i++) {
                store.removeEdge(edges.remove(random.nextInt(edges.size())));
            }
            // Vertex 7 gets only IN cells, vertex 8 only OUT cells (its neighbours on node 1), and
            // vertex 9 exactly CELLS OUT cells, so its front part ends at its first IN cell's row.
            for (long e : new ArrayList<>(edges)) {
                long source = store.edgeOutVertex(e);
                long target = store.edgeInVertex(e);
                if (source == vertices[7] || source == vertices[8] || target == vertices[8] || source == vertices[9]) {
                    store.removeEdge(e);
                    edges.remove(e);
                }
            }
            for (int i = 0; i < 3 * CELLS + 1; i++) {
                store.addEdge(vertices[8], ElementIds.vertexId(1, 1, i), label, 1, Long.MAX_VALUE);
            }
            for (int i = 0; i < CELLS; i++) {
                store.addEdge(vertices[9], ElementIds.vertexId(1, 1, i), label, 1, Long.MAX_VALUE);
            }
            List<List<StoreTestSupport.Cell>> before = new ArrayList<>();
            for (long v : vertices) {
                before.add(StoreTestSupport.adjacency(store, v));
            }

            long shrunk = store.compactAllEdges();
            assertTrue(shrunk >= 0);

            long rows = 0;
            int frontEnd = -1; // the row after the previous list's front part
            int backEnd = -1;
            int maxFront = -1;
            int minBack = Integer.MAX_VALUE;
            for (int i = 0; i < vertices.length; i++) {
                assertEquals(before.get(i), StoreTestSupport.adjacency(store, vertices[i]), "vertex " + i + " keeps its cells in order");
                List<Integer> chain = rowChain(store, store.vertices.slotOf(vertices[i]));
                int cells = before.get(i).size();
                assertEquals(StoreTestSupport.ceilDiv(cells, CELLS), chain.size(), "vertex " + i + " is densely packed");
                int firstIn = 0;
                while (firstIn < cells && before.get(i).get(firstIn).direction() == EdgeDirection.OUT) {
                    firstIn++;
                }
                int front = firstIn == cells ? chain.size() : firstIn / CELLS + 1;
                for (int r = 1; r < chain.size(); r++) {
                    if (r != front) {
                        assertEquals(chain.get(r - 1) + 1, chain.get(r), "vertex " + i + " rows of one part are consecutive: " + chain
                                + " front=" + front);
                    }
                }
                if (front > 0) {
                    assertTrue(frontEnd < 0 || chain.get(0) == frontEnd, "vertex " + i + "'s front part follows the previous one: " + chain);
                    frontEnd = chain.get(front - 1) + 1;
                    maxFront = Math.max(maxFront, chain.get(front - 1));
                }
                if (front < chain.size()) {
                    assertTrue(backEnd < 0 || chain.get(front) == backEnd, "vertex " + i + "'s back part follows the previous one: " + chain);
                    backEnd = chain.get(chain.size() - 1) + 1;
                    minBack = Math.min(minBack, chain.get(front));
                }
                rows += chain.size();
            }
            assertTrue(maxFront < minBack, "every back part lies after every front part: last front row " + maxFront
                    + ", first back row " + minBack);
            assertEquals(List.of(EdgeDirection.IN), directions(before.get(7)), "vertex 7: IN cells only");
            assertEquals(List.of(EdgeDirection.OUT), directions(before.get(8)), "vertex 8: OUT cells only");
            assertEquals(List.of(EdgeDirection.OUT, EdgeDirection.IN), directions(before.get(9)), "vertex 9: OUT then IN cells");
            assertEquals(rows, (long) store.liveSlots().get("edge-row"), "no row leaked or lost");
            int highWater = store.edgeLists.rows.highWater();
            assertEquals(0, store.compactAllEdges(), "a compacted store is left where it is");
            assertEquals(highWater, store.edgeLists.rows.highWater(), "a second pass takes no fresh rows");
        }
    }

    /**
     * Two ways the first list used to anchor a region wherever it lay: a first
     * list of one row was "laid out" where it was loaded, and a back part of one row was "laid out"
     * in the old row the first pass packed it into. Every later list then had to move, on every
     * pass, growing the row pool each time. A compacted store must stay where it is.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void repeatedPassesMoveNothingWhateverTheFirstListLooksLike(boolean firstListInOneRow) {
        try (GraphStore store = GraphStore.open(StoreTestSupport.config(StoreConfig.EDGE_ROW_CELLS, CELLS))) {
            int label = store.labels().intern("l");
            long[] vertices = new long[4];
            for (int i = 0; i < vertices.length; i++) {
                vertices[i] = store.addVertex(label, 1, Long.MAX_VALUE);
            }
            // 4 OUT cells and 5 IN cells each (neighbours on node 1): one front row plus one back
            // row, inserted shuffled so that no list starts out laid out.
            List<long[]> edges = new ArrayList<>();
            for (int i = 0; i < vertices.length; i++) {
                if (i == 0 && firstListInOneRow) {
                    edges.add(new long[] {vertices[0], ElementIds.vertexId(1, 1, 0)}); // 3 cells: one row from the start
                    edges.add(new long[] {vertices[0], ElementIds.vertexId(1, 1, 1)});
                    edges.add(new long[] {ElementIds.vertexId(1, 1, 2), vertices[0]});
                    continue;
                }
                for (int k = 0; k < 4; k++) {
                    edges.add(new long[] {vertices[i], ElementIds.vertexId(1, 1, 100 * i + k)});
                }
                for (int k = 0; k < 5; k++) {
                    edges.add(new long[] {ElementIds.vertexId(1, 1, 100 * i + 50 + k), vertices[i]});
                }
            }
            Collections.shuffle(edges, new Random(1));
            for (long[] e : edges) {
                store.addEdge(e[0], e[1], label, 1, Long.MAX_VALUE);
            }
            List<List<StoreTestSupport.Cell>> before = new ArrayList<>();
            for (long v : vertices) {
                before.add(StoreTestSupport.adjacency(store, v));
            }

            store.compactAllEdges();
            List<List<Integer>> laidOut = new ArrayList<>();
            for (long v : vertices) {
                laidOut.add(rowChain(store, store.vertices.slotOf(v)));
            }
            int highWater = store.edgeLists.rows.highWater();
            // 4 OUT cells fill a front row, so the first IN cell starts a second one: front parts of
            // two rows, then one back row (one front row and no back row for a first list of one row).
            int frontEnd = laidOut.get(0).get(0);
            int backEnd = -1;
            for (int i = 0; i < vertices.length; i++) {
                assertEquals(before.get(i), StoreTestSupport.adjacency(store, vertices[i]));
                List<Integer> chain = laidOut.get(i);
                int front = i == 0 && firstListInOneRow ? 1 : 2;
                assertEquals(front + (i == 0 && firstListInOneRow ? 0 : 1), chain.size(), "vertex " + i + ": " + laidOut);
                for (int r = 0; r < front; r++) {
                    assertEquals(frontEnd++, chain.get(r), "vertex " + i + "'s front rows follow the previous ones: " + laidOut);
                }
                if (chain.size() > front) {
                    assertTrue(backEnd < 0 || chain.get(front) == backEnd, "back rows follow each other: " + laidOut);
                    backEnd = chain.get(front) + 1;
                }
            }
            int frontRegionEnd = frontEnd;
            assertTrue(laidOut.stream().filter(c -> c.size() > 2).allMatch(c -> c.get(2) >= frontRegionEnd),
                    "back rows lie after the front region: " + laidOut);

            for (int pass = 2; pass <= 3; pass++) {
                assertEquals(0, store.compactAllEdges());
                for (int i = 0; i < vertices.length; i++) {
                    assertEquals(laidOut.get(i), rowChain(store, store.vertices.slotOf(vertices[i])), "pass " + pass + " moved vertex " + i);
                }
                assertEquals(highWater, store.edgeLists.rows.highWater(), "pass " + pass + " took fresh rows");
            }
        }
    }

    @Test
    void aListLongerThanAChunkMovesIntoOneRunPerChunk() {
        // 4 KiB chunks of 72-byte rows hold 32 rows: 200 cells need 50 rows, so two runs.
        try (GraphStore store = GraphStore.open(StoreTestSupport.config(StoreConfig.EDGE_ROW_CELLS, CELLS,
                StoreConfig.CHUNK_BYTES, 4096, StoreConfig.EDGE_ROW_CHUNK_BYTES, 4096))) {
            long hub = hubWithRemovals(store, 300, 100);
            List<StoreTestSupport.Cell> before = StoreTestSupport.adjacency(store, hub);
            store.compactEdges(hub);
            assertEquals(before, StoreTestSupport.adjacency(store, hub));
            List<Integer> chain = rowChain(store, store.vertices.slotOf(hub));
            assertEquals(StoreTestSupport.ceilDiv(200, CELLS), chain.size());
            int jumps = 0;
            for (int r = 1; r < chain.size(); r++) {
                jumps += chain.get(r) == chain.get(r - 1) + 1 ? 0 : 1;
            }
            assertTrue(jumps <= 1, "at most one jump, between the two runs: " + chain);
            assertEquals(0, store.compactEdges(hub), "already laid out: nothing moves");
            assertEquals(chain, rowChain(store, store.vertices.slotOf(hub)));
        }
    }

    /**
     * A pass leaves the chunks it moved rows out of wholly free and releases them, so compaction
     * does not grow the pool: not the first pass over a store as loaded, nor passes repeated under
     * churn, which before took fresh memory for every list they moved. And a pass over a store
     * just compacted moves nothing, even when its runs came from recreated chunks or had to jump
     * because the list before them stayed (seed 15 caught both).
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(ints = {15, 41, 77})
    void compactionReleasesTheChunksItEmptiesSoRepeatedPassesDoNotGrowThePool(int seed) {
        // 4 KiB chunks of 72-byte rows (with their side parts): 32 rows a chunk.
        try (GraphStore store = GraphStore.open(StoreTestSupport.config(StoreConfig.EDGE_ROW_CELLS, CELLS,
                StoreConfig.EDGE_ROW_CHUNK_BYTES, 4096))) {
            int label = store.labels().intern("l");
            long chunkBytes = 32L * RowDescriptor.length(CELLS, EdgeCellDescriptor.LENGTH);
            long[] vertices = new long[200];
            for (int i = 0; i < vertices.length; i++) {
                vertices[i] = store.addVertex(label, 1, Long.MAX_VALUE);
            }
            Random random = new Random(seed);
            List<Long> edges = new ArrayList<>();
            for (int i = 0; i < 3000; i++) {
                edges.add(store.addEdge(vertices[random.nextInt(200)], vertices[random.nextInt(200)], label, 1, Long.MAX_VALUE));
            }
            long asLoaded = store.reservedBytes().get("edge-row");

            store.compactAllEdges();
            long compacted = store.reservedBytes().get("edge-row");
            long live = store.liveSlots().get("edge-row");
            assertTrue(compacted <= asLoaded, "compaction shrank or kept the pool: " + asLoaded + " -> " + compacted);
            // A run never straddles two chunks, so a chunk's tail may stay empty: allow a tenth.
            assertTrue(compacted <= (long) (live * 1.1 / 32 + 2) * chunkBytes,
                    "the pool holds about what its " + live + " rows take: " + asLoaded + " -> " + compacted);

            for (int pass = 1; pass <= 8; pass++) {
                for (int i = 0; i < 200; i++) {
                    store.removeEdge(edges.remove(random.nextInt(edges.size())));
                    edges.add(store.addEdge(vertices[random.nextInt(200)], vertices[random.nextInt(200)], label, 1, Long.MAX_VALUE));
                }
                List<List<StoreTestSupport.Cell>> before = new ArrayList<>();
                for (long v : vertices) {
                    before.add(StoreTestSupport.adjacency(store, v));
                }
                store.compactAllEdges();
                for (int i = 0; i < vertices.length; i++) {
                    assertEquals(before.get(i), StoreTestSupport.adjacency(store, vertices[i]), "pass " + pass + ", vertex " + i);
                }
                long reserved = store.reservedBytes().get("edge-row");
                long liveNow = store.liveSlots().get("edge-row");
                assertTrue(reserved <= (long) (liveNow * 1.1 / 32 + 2) * chunkBytes,
                        "pass " + pass + " left the pool larger than its " + liveNow + " rows take: " + compacted + " -> " + reserved);

                // Runs of this pass came from recreated chunks and jumped between them: a pass
                // right after it still finds everything laid out and moves nothing.
                List<List<Integer>> chains = new ArrayList<>();
                for (long v : vertices) {
                    chains.add(rowChain(store, store.vertices.slotOf(v)));
                }
                int highWater = store.edgeLists.rows.highWater();
                store.compactAllEdges();
                for (int i = 0; i < vertices.length; i++) {
                    assertEquals(chains.get(i), rowChain(store, store.vertices.slotOf(vertices[i])), "pass " + pass + " again moved vertex " + i);
                }
                assertEquals(highWater, store.edgeLists.rows.highWater());
                assertEquals(reserved, (long) store.reservedBytes().get("edge-row"));
            }
        }
    }

    @Test
    void withoutFreshRowsCompactionPacksInPlaceAndLeaksNothing() {
        // 40 rows in all, every one taken by 160 appends: no fresh slot is left for a run.
        try (GraphStore store = GraphStore.open(StoreTestSupport.config(StoreConfig.EDGE_ROW_CELLS, CELLS,
                StoreConfig.EDGE_ROWS_MAX, 40))) {
            long hub = hubWithRemovals(store, 160, 140);
            long liveBefore = store.liveSlots().get("edge-row");
            List<StoreTestSupport.Cell> before = StoreTestSupport.adjacency(store, hub);
            int shrunk = store.compactEdges(hub);
            assertEquals(before, StoreTestSupport.adjacency(store, hub));
            assertEquals(StoreTestSupport.ceilDiv(20, CELLS), store.edgeRowCount(hub));
            assertEquals(liveBefore - shrunk, (long) store.liveSlots().get("edge-row"), "no row leaked");
            assertEquals(StoreTestSupport.ceilDiv(20, CELLS), (long) store.liveSlots().get("edge-row"));
        }
    }

    /**
     * {@link GraphStore#compactAllEdges} promises that a second pass over a compacted store moves
     * nothing. But a run never straddles a chunk: a list that does not fit in what is left of the
     * current chunk starts on the next one, and the next pass, expecting it right after the previous
     * list, moved it again (and every list after it), growing the row pool on every pass.
     */
    @Test
    void aSecondCompactionPassMovesNothingWhenAListStartedOnANewChunk() {
        // 4 KiB chunks of 72-byte rows: 32 rows a chunk.
        try (GraphStore store = GraphStore.open(config(StoreConfig.EDGE_ROW_CELLS, 4, StoreConfig.CHUNK_BYTES, 4096,
                StoreConfig.EDGE_ROW_CHUNK_BYTES, 4096))) {
            int label = store.labels().intern("l");
            long[] hubs = new long[4];
            for (int i = 0; i < hubs.length; i++) {
                hubs[i] = store.addVertex(label, 1, Long.MAX_VALUE);
            }
            // Round robin, so the hubs' rows interleave; 48 cells = 12 rows each; neighbours on node 1.
            for (int n = 0; n < 48; n++) {
                for (long hub : hubs) {
                    store.addEdge(hub, ElementIds.vertexId(1, 1, n), label, 1, Long.MAX_VALUE);
                }
            }
            store.compactAllEdges();
            List<List<Integer>> laidOut = chains(store, hubs);
            int highWater = store.edgeLists.rows.highWater();

            store.compactAllEdges();

            assertEquals(laidOut, chains(store, hubs), "a compacted store is left where it is");
            assertEquals(highWater, store.edgeLists.rows.highWater(), "no fresh rows taken by a pass that has nothing to do");
        }
    }

    /**
     * A hub with {@code edges} out-edges to vertices of another node (so only the hub's list holds
     * cells), {@code removed} of them then removed at random.
     */
    private static long hubWithRemovals(GraphStore store, int edges, int removed) {
        int label = store.labels().intern("l");
        long hub = store.addVertex(label, 1, Long.MAX_VALUE);
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < edges; i++) {
            ids.add(store.addEdge(hub, ElementIds.vertexId(1, 1, i), label, 1, Long.MAX_VALUE));
        }
        Random random = new Random(5);
        for (int i = 0; i < removed; i++) {
            store.removeEdge(ids.remove(random.nextInt(ids.size())));
        }
        return hub;
    }

    /** The directions of the cells, each once, in order. */
    private static List<EdgeDirection> directions(List<StoreTestSupport.Cell> cells) {
        return cells.stream().map(StoreTestSupport.Cell::direction).distinct().toList();
    }

    private static List<Integer> rowChain(GraphStore store, int vertexSlot) {
        List<Integer> chain = new ArrayList<>();
        for (int row = store.vertices.headers.getInt(vertexSlot, VertexHeaderDescriptor.EDGE_ROW_OFFSET);
             row != RowDescriptor.NO_ROW; row = store.edgeLists.next(row)) {
            chain.add(row);
        }
        return chain;
    }

    /** The row chain of each vertex's edge list. */
    private static List<List<Integer>> chains(GraphStore store, long[] vertices) {
        List<List<Integer>> out = new ArrayList<>();
        for (long v : vertices) {
            out.add(rowChain(store, store.vertices.slotOf(v)));
        }
        return out;
    }
}
