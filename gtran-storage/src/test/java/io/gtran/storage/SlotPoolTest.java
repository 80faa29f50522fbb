package io.gtran.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;

class SlotPoolTest {

    @Test
    void allocatesDistinctSlotsAndReusesFreedOnes() {
        try (SlotPool pool = new SlotPool("test", 16, 8, 100)) {
            Set<Integer> slots = new HashSet<>();
            for (int i = 0; i < 20; i++) {
                int slot = pool.allocate();
                assertTrue(slot >= 0, "slot " + slot);
                assertTrue(slots.add(slot), "slot handed out twice: " + slot);
                assertTrue(pool.isAllocated(slot));
            }
            assertEquals(20, pool.liveSlots());
            assertEquals(20, pool.highWater());
            pool.free(7);
            pool.free(3);
            assertFalse(pool.isAllocated(7));
            assertEquals(18, pool.liveSlots());
            // Freed slots come back (LIFO) before fresh memory is touched.
            assertEquals(3, pool.allocate());
            assertEquals(7, pool.allocate());
            assertEquals(20, pool.highWater());
            assertEquals(20, pool.allocate());
            assertEquals(21, pool.highWater());
        }
    }

    /**
     * Side parts: each slot's side part sits after all the slots of its chunk, apart from every
     * slot, is zeroed with its slot on reuse, and is counted in the reserved bytes.
     */
    @Test
    void sidePartsLieAfterTheChunksSlotsAndAreZeroedWithTheirSlot() {
        try (SlotPool pool = SlotPool.withSideParts("sided", 24, 16, 4, 100)) {
            assertEquals(24, pool.slotSize());
            assertEquals(16, pool.sideSize());
            int[] slots = new int[6]; // two chunks of 4
            for (int i = 0; i < slots.length; i++) {
                slots[i] = pool.allocate();
                for (int field = 0; field < 24; field += 8) {
                    pool.putLong(slots[i], field, 1000L * i + field);
                }
                pool.putSideLong(slots[i], 0, -1L - i);
                pool.putSideLong(slots[i], 8, -100L - i);
            }
            for (int i = 0; i < slots.length; i++) {
                int local = slots[i] % 4;
                assertEquals(4 * 24 + local * 16, pool.sideOffset(slots[i]), "side part after the chunk's four slots");
                for (int field = 0; field < 24; field += 8) {
                    assertEquals(1000L * i + field, pool.getLong(slots[i], field), "slot words untouched by side writes");
                }
                assertEquals(-1L - i, pool.getSideLong(slots[i], 0));
                assertEquals(-100L - i, pool.getSideLong(slots[i], 8));
            }
            assertEquals(2L * 4 * (24 + 16), pool.reservedBytes());
            pool.free(slots[5]);
            assertEquals(slots[5], pool.allocate());
            assertEquals(0L, pool.getSideLong(slots[5], 0), "a reused slot's side part is zeroed");
            assertEquals(0L, pool.getSideLong(slots[5], 8));
            assertEquals(-1L - 4, pool.getSideLong(slots[4], 0), "the neighbouring side part is untouched");
        }
        assertThrows(IllegalArgumentException.class, () -> SlotPool.withSideParts("bad", 24, 0, 4, 10));
        assertThrows(IllegalArgumentException.class, () -> SlotPool.withSideParts("bad", 24, -8, 4, 10));
        assertThrows(IllegalArgumentException.class, () -> SlotPool.withSideParts("bad", 1 << 30, 1 << 30, 4, 10));
    }

    /**
     * Side parts of bytes (a base version's type tag is one): any size, packed with no padding, and
     * a reused slot's side part is zeroed to its last byte without touching its neighbours'.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 3, 12})
    void sidePartsOfBytesArePackedAndZeroedExactly(int sideSize) {
        try (SlotPool pool = SlotPool.withSideParts("bytes", 8, sideSize, 8, 100)) {
            int[] slots = new int[8];
            for (int i = 0; i < slots.length; i++) {
                slots[i] = pool.allocate();
                pool.putLong(slots[i], 0, 1000L + i);
                for (int b = 0; b < sideSize; b++) {
                    pool.putSideByte(slots[i], b, (byte) (i * 16 + b + 1));
                }
            }
            for (int i = 0; i < slots.length; i++) {
                assertEquals(8 * 8 + i * sideSize, pool.sideOffset(slots[i]), "side parts packed after the chunk's eight slots");
                assertEquals(1000L + i, pool.getLong(slots[i], 0), "slot word untouched by side writes");
            }
            assertEquals(8L * (8 + sideSize), pool.reservedBytes());
            pool.free(slots[3]);
            assertEquals(slots[3], pool.allocate());
            for (int b = 0; b < sideSize; b++) {
                assertEquals(0, pool.getSideByte(slots[3], b), "a reused slot's side part is zeroed: byte " + b);
                assertEquals((byte) (2 * 16 + b + 1), pool.getSideByte(slots[2], b), "the side part before is untouched");
                assertEquals((byte) (4 * 16 + b + 1), pool.getSideByte(slots[4], b), "the side part after is untouched");
            }
        }
    }

    @Test
    void allocateZeroesEverythingButThePreservedWord() {
        try (SlotPool pool = new SlotPool("preserving", 32, 4, 10, 16)) {
            int slot = pool.allocate();
            for (int field = 0; field < 32; field += 8) {
                assertEquals(0L, pool.getLong(slot, field));
                pool.putLong(slot, field, 0x1111_0000L + field);
            }
            pool.free(slot);
            assertEquals(slot, pool.allocate());
            assertEquals(0L, pool.getLong(slot, 0));
            assertEquals(0L, pool.getLong(slot, 8));
            assertEquals(0x1111_0000L + 16, pool.getLong(slot, 16), "preserved word survives");
            assertEquals(0L, pool.getLong(slot, 24));
        }
        // A preserved word at offset 0 moves the free link to offset 8, so the word survives the free list.
        try (SlotPool pool = new SlotPool("preserving-first", 16, 4, 10, 0)) {
            int a = pool.allocate();
            int b = pool.allocate();
            pool.putLong(a, 0, -42L);
            pool.putLong(b, 0, Long.MAX_VALUE);
            pool.putLong(a, 8, 99L);
            pool.free(a);
            pool.free(b);
            assertEquals(b, pool.allocate());
            assertEquals(a, pool.allocate());
            assertEquals(-42L, pool.getLong(a, 0));
            assertEquals(Long.MAX_VALUE, pool.getLong(b, 0));
            assertEquals(0L, pool.getLong(a, 8));
        }
    }

    @Test
    void doubleFreeNamesPoolAndSlot() {
        try (SlotPool pool = new SlotPool("dbl", 8, 4, 10)) {
            int a = pool.allocate();
            pool.allocate();
            pool.free(a);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> pool.free(a));
            assertTrue(e.getMessage().contains("pool=dbl"), e.getMessage());
            assertTrue(e.getMessage().contains("slot=" + a), e.getMessage());
            assertEquals(1, pool.liveSlots(), "failed free changes nothing");
            // The free list is intact: exactly one reuse of a, then fresh memory.
            assertEquals(a, pool.allocate());
            assertEquals(2, pool.allocate());
        }
    }

    @Test
    void freeOutOfRangeIsRejected() {
        try (SlotPool pool = new SlotPool("range", 8, 4, 10)) {
            pool.allocate();
            IllegalArgumentException high = assertThrows(IllegalArgumentException.class, () -> pool.free(1));
            assertTrue(high.getMessage().contains("pool=range") && high.getMessage().contains("slot=1"), high.getMessage());
            assertThrows(IllegalArgumentException.class, () -> pool.free(-1));
            assertThrows(IllegalArgumentException.class, () -> pool.free(Integer.MAX_VALUE));
            assertEquals(1, pool.liveSlots());
            assertFalse(pool.isAllocated(-1));
            assertFalse(pool.isAllocated(1));
            assertFalse(pool.inRange(1));
            assertTrue(pool.inRange(0));
        }
    }

    @Test
    void exhaustionReturnsNoSlotUntilSomethingIsFreed() {
        try (SlotPool pool = new SlotPool("small", 8, 4, 5)) {
            for (int i = 0; i < 5; i++) {
                assertEquals(i, pool.allocate());
            }
            assertEquals(SlotPool.NO_SLOT, pool.allocate());
            assertEquals(SlotPool.NO_SLOT, pool.allocate());
            assertEquals(5, pool.liveSlots());
            assertEquals(5, pool.highWater(), "a failed allocation does not move the high-water mark");
            pool.free(2);
            assertEquals(2, pool.allocate());
            assertEquals(SlotPool.NO_SLOT, pool.allocate());
        }
    }

    @Test
    void reservedBytesGrowsByWholeChunks() {
        int slotSize = 24;
        int perChunk = 4;
        try (SlotPool pool = new SlotPool("chunks", slotSize, perChunk, 1000)) {
            assertEquals(0, pool.reservedBytes(), "an idle pool reserves nothing");
            long chunk = (long) slotSize * perChunk;
            for (int i = 1; i <= 13; i++) {
                pool.allocate();
                assertEquals(StoreTestSupport.ceilDiv(i, perChunk) * chunk, pool.reservedBytes(), "after " + i + " slots");
            }
            for (int i = 0; i < 13; i++) {
                pool.free(i);
            }
            assertEquals(4 * chunk, pool.reservedBytes(), "chunks are kept for reuse");
            for (int i = 0; i < 13; i++) {
                pool.allocate();
            }
            assertEquals(4 * chunk, pool.reservedBytes(), "reused slots reserve nothing new");
            assertTrue(pool.toString().contains("reservedBytes=" + 4 * chunk), pool.toString());
        }
    }

    @Test
    void slotsAreSplitAcrossChunksWithoutOverlap() {
        try (SlotPool pool = new SlotPool("overlap", 16, 2, 64)) {
            for (int i = 0; i < 64; i++) {
                int slot = pool.allocate();
                pool.putLong(slot, 0, slot);
                pool.putLong(slot, 8, ~(long) slot);
            }
            for (int slot = 0; slot < 64; slot++) {
                assertEquals(slot, pool.getLong(slot, 0));
                assertEquals(~(long) slot, pool.getLong(slot, 8));
            }
            byte[] bytes = {1, 2, 3, 4, 5};
            pool.putBytes(9, 3, bytes, 1, 4);
            byte[] back = new byte[4];
            pool.getBytes(9, 3, back, 0, 4);
            assertEquals(List.of((byte) 2, (byte) 3, (byte) 4, (byte) 5), List.of(back[0], back[1], back[2], back[3]));
            assertEquals(8L, pool.getLong(8, 0), "neighbouring slot untouched");
            assertEquals(10L, pool.getLong(10, 0), "neighbouring slot untouched");
        }
    }

    /** What a restore relies on (see {@link HeaderTable#allocateSlotOf}): with nothing freed, slots come in order. */
    @Test
    void freshSlotsComeInIncreasingOrderAcrossChunks() {
        try (SlotPool pool = new SlotPool("ordered", 16, 4, 64, 0)) {
            for (int expected = 0; expected < 64; expected++) {
                assertEquals(expected, pool.allocate());
            }
            assertEquals(SlotPool.NO_SLOT, pool.allocate());
            assertEquals(0, pool.releasedChunks());
        }
    }

    @Test
    void casTargetsAreAlignedInEverySlot() {
        assertAligned("vertex-header", VertexHeaderDescriptor.LENGTH, new int[] {VertexHeaderDescriptor.ID_OFFSET,
                VertexHeaderDescriptor.BEGIN_TIME_OFFSET, VertexHeaderDescriptor.END_TIME_OFFSET});
        assertAligned("edge-header", EdgeHeaderDescriptor.LENGTH, new int[] {EdgeHeaderDescriptor.ID_OFFSET,
                EdgeHeaderDescriptor.BEGIN_TIME_OFFSET, EdgeHeaderDescriptor.END_TIME_OFFSET});
        assertAligned("mv-tuple", MvTupleDescriptor.LENGTH, new int[] {MvTupleDescriptor.BEGIN_TIME_OFFSET,
                MvTupleDescriptor.END_TIME_OFFSET, MvTupleDescriptor.VALUE_OFFSET});
        // Row cells are single long words too (edge cells: two of them); every row size keeps them aligned.
        for (int cells : new int[] {2, 3, 5, 8}) {
            assertAligned("edge-row", RowDescriptor.rowLength(cells), new int[] {RowDescriptor.cellOffset(cells - 1)});
            assertAligned("edge-row side part", RowDescriptor.sideLength(cells, EdgeCellDescriptor.LENGTH),
                    new int[] {RowDescriptor.sideCellOffset(cells - 1)});
            assertAligned("property-row", RowDescriptor.length(cells, PropertyCellDescriptor.LENGTH),
                    new int[] {RowDescriptor.cellOffset(cells - 1)});
        }
    }

    private static void assertAligned(String name, int slotSize, int[] fields) {
        assertEquals(0, slotSize % 8, name + " slot size " + slotSize);
        for (int field : fields) {
            assertEquals(0, field % 8, name + " field offset " + field);
        }
        // Odd slots-per-chunk counts are impossible (power of two), but several chunks and every slot are covered.
        try (SlotPool pool = new SlotPool(name, slotSize, 16, 80)) {
            for (int i = 0; i < 80; i++) {
                int slot = pool.allocate();
                for (int field : fields) {
                    int index = pool.offset(slot) + field;
                    assertEquals(0, pool.buffer(slot).alignmentOffset(index, 8), name + " slot " + slot + " field " + field);
                    // A misaligned VarHandle CAS would throw IllegalStateException here.
                    assertTrue(pool.compareAndSetLong(slot, field, 0L, 7L));
                    assertFalse(pool.compareAndSetLong(slot, field, 0L, 8L));
                    assertEquals(7L, pool.getAndAddLong(slot, field, 1));
                    assertEquals(8L, pool.getLongVolatile(slot, field));
                }
            }
        }
    }

    @Test
    void intAndByteAccessors() {
        try (SlotPool pool = new SlotPool("ints", 16, 4, 4)) {
            int slot = pool.allocate();
            assertTrue(pool.compareAndSetInt(slot, 4, 0, 5));
            assertFalse(pool.compareAndSetInt(slot, 4, 0, 6));
            assertEquals(5, pool.getIntAcquire(slot, 4));
            pool.putIntRelease(slot, 8, -3);
            assertEquals(-3, pool.getInt(slot, 8));
            pool.putByte(slot, 15, (byte) -1);
            assertEquals((byte) -1, pool.getByte(slot, 15));
            pool.putLongRelease(slot, 0, 77L);
            assertEquals(77L, pool.getLongAcquire(slot, 0));
        }
    }

    @Test
    void constructorRejectsBadGeometryNamingThePool() {
        assertPoolArg("slotSize", () -> new SlotPool("p", 12, 4, 10));
        assertPoolArg("slotSize", () -> new SlotPool("p", 0, 4, 10));
        assertPoolArg("slotsPerChunk", () -> new SlotPool("p", 8, 3, 10));
        assertPoolArg("slotsPerChunk", () -> new SlotPool("p", 8, 0, 10));
        assertPoolArg("maxSlots", () -> new SlotPool("p", 8, 4, 0));
        assertPoolArg("chunk too large", () -> new SlotPool("p", 1 << 16, 1 << 16, 10));
        assertPoolArg("preservedWord", () -> new SlotPool("p", 16, 4, 10, 4));
        assertPoolArg("preservedWord", () -> new SlotPool("p", 16, 4, 10, 16));
        assertPoolArg("too small", () -> new SlotPool("p", 8, 4, 10, 0));
    }

    private static void assertPoolArg(String expected, Runnable constructor) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, constructor::run);
        assertTrue(e.getMessage().contains(expected) && e.getMessage().contains("pool=p"), e.getMessage());
    }

    @Test
    void closedPoolRefusesWork() {
        SlotPool pool = new SlotPool("closing", 8, 4, 10);
        int slot = pool.allocate();
        pool.close();
        assertEquals(0, pool.reservedBytes());
        IllegalStateException a = assertThrows(IllegalStateException.class, pool::allocate);
        assertTrue(a.getMessage().contains("pool=closing"), a.getMessage());
        assertThrows(IllegalStateException.class, () -> pool.free(slot));
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void concurrentAllocateAndFreeNeverShareASlot() throws Exception {
        int threads = 6;
        int maxSlots = 40; // fewer than threads * held: allocate() also runs dry under contention
        int held = 8;
        int rounds = 40_000;
        try (SlotPool pool = new SlotPool("concurrent", 16, 8, maxSlots)) {
            AtomicIntegerArray owner = new AtomicIntegerArray(maxSlots);
            ExecutorService executor = Executors.newFixedThreadPool(threads);
            try {
                List<Future<Integer>> futures = new ArrayList<>();
                for (int t = 1; t <= threads; t++) {
                    int me = t;
                    futures.add(executor.submit(() -> churn(pool, owner, me, held, rounds, new Random(1234 + me), true)));
                }
                int total = 0;
                for (Future<Integer> f : futures) {
                    total += f.get(50, TimeUnit.SECONDS);
                }
                assertEquals(threads * rounds, total);
            } finally {
                executor.shutdownNow();
            }
            assertEquals(0, pool.liveSlots());
            for (int slot = 0; slot < maxSlots; slot++) {
                assertEquals(0, owner.get(slot), "slot " + slot + " still owned");
            }
            // The free list survived the contention: every slot comes back exactly once.
            Set<Integer> all = new HashSet<>();
            for (int i = 0; i < pool.highWater(); i++) {
                assertTrue(all.add(pool.allocate()));
            }
            assertTrue(pool.highWater() <= maxSlots);
        }
    }

    /**
     * A chunk whose every slot is free is released: its memory goes, its slots read as not
     * allocated and cannot be freed, and the free list keeps only the other chunks' slots. Once
     * the free list is empty, a single allocation recreates it (its other slots going onto the
     * free list) before taking memory above the high-water mark.
     */
    @Test
    void releasedChunksLoseTheirMemoryAndAllocationsRecreateThem() {
        try (SlotPool pool = new SlotPool("releasing", 16, 4, 100)) {
            for (int i = 0; i < 12; i++) {
                assertEquals(i, pool.allocate()); // chunks 0 (slots 0-3), 1 (4-7) and 2 (8-11)
            }
            for (int slot : new int[] {4, 5, 6, 7, 9, 0}) {
                pool.free(slot);
            }
            assertEquals(3 * 4 * 16, pool.reservedBytes());

            assertEquals(1, pool.releaseWhollyFreeChunks(), "only chunk 1 is wholly free");
            assertEquals(2 * 4 * 16, pool.reservedBytes());
            assertEquals(1, pool.releasedChunks());
            assertNull(pool.buffer(5), "no memory behind a released chunk");
            assertFalse(pool.isAllocated(5));
            assertThrows(IllegalStateException.class, () -> pool.free(5), "nothing in a released chunk is allocated");
            assertEquals(0, pool.releaseWhollyFreeChunks(), "a second release finds nothing more");
            assertEquals(Set.of(0, 9), Set.of(pool.allocate(), pool.allocate()), "the kept chunks' free slots stay on the free list");

            pool.putLong(8, 0, -1L);
            assertEquals(4, pool.allocate(), "the free list is empty: the released chunk is recreated");
            assertEquals(0, pool.releasedChunks());
            assertEquals(3 * 4 * 16, pool.reservedBytes());
            assertEquals(List.of(5, 6, 7), List.of(pool.allocate(), pool.allocate(), pool.allocate()), "its other slots, in order");
            for (int slot = 4; slot < 8; slot++) {
                assertEquals(0L, pool.getLong(slot, 0), "slot " + slot + " zeroed");
            }
            assertEquals(-1L, pool.getLong(8, 0), "the neighbouring chunk is untouched");
            assertEquals(12, pool.allocate(), "then memory above the high-water mark");
        }
    }

    /** Runs recreate a released chunk too, filling it front to back before fresh memory. */
    @Test
    void runsFillARecreatedChunkFrontToBack() {
        try (SlotPool pool = new SlotPool("runs", 16, 4, 100)) {
            for (int i = 0; i < 13; i++) {
                pool.allocate();
            }
            for (int slot = 4; slot < 8; slot++) {
                pool.free(slot);
            }
            assertEquals(1, pool.releaseWhollyFreeChunks());
            assertEquals(4, pool.allocateRun(3), "a run recreates the released chunk");
            assertEquals(0, pool.releasedChunks());
            for (int slot = 4; slot < 7; slot++) {
                assertTrue(pool.isAllocated(slot));
                assertEquals(0L, pool.getLong(slot, 0));
                assertEquals(0L, pool.getLong(slot, 8));
            }
            assertEquals(7, pool.allocateRun(1), "the next run follows it");
            assertEquals(13, pool.allocateRun(2), "the recreated chunk is full: then memory above the high-water mark");
        }
    }

    /** A run that does not fit in what is left of the recreated chunk leaves that rest on the free list. */
    @Test
    void theRestOfARecreatedChunkGoesOntoTheFreeList() {
        try (SlotPool pool = new SlotPool("refilling", 16, 4, 100)) {
            for (int i = 0; i < 8; i++) {
                pool.allocate();
            }
            for (int slot = 0; slot < 4; slot++) {
                pool.free(slot);
            }
            assertEquals(1, pool.releaseWhollyFreeChunks());
            assertEquals(0, pool.allocateRun(3));
            assertEquals(8, pool.allocateRun(2), "slot 3 alone cannot hold it: fresh memory");
            assertFalse(pool.isAllocated(3));
            assertEquals(3, pool.allocate(), "the rest went onto the free list");
            assertEquals(4 + 3 + 2 + 1, pool.liveSlots(), "slots 4-7, the two runs and slot 3");
        }
    }

    /**
     * Threads allocate and free single slots while another releases chunks and takes and returns
     * runs: no slot is ever handed to two holders, no allocation finds the pool dry while it has
     * room (a release holds the whole free list for a moment), and afterwards every slot of the
     * pool comes back exactly once, whether from the free list, fresh memory or a recreated chunk.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void releasingChunksUnderConcurrentAllocationNeverSharesASlot() throws Exception {
        int threads = 3;
        int maxSlots = 64; // 16 chunks of 4; at most 3 * 8 single slots and one run of 4 are held
        int held = 8;
        int rounds = 40_000;
        try (SlotPool pool = new SlotPool("concurrent-release", 16, 4, maxSlots)) {
            AtomicIntegerArray owner = new AtomicIntegerArray(maxSlots);
            ExecutorService executor = Executors.newFixedThreadPool(threads + 1);
            AtomicBoolean done = new AtomicBoolean();
            try {
                List<Future<Integer>> futures = new ArrayList<>();
                for (int t = 1; t <= threads; t++) {
                    int me = t;
                    futures.add(executor.submit(() -> churn(pool, owner, me, held, rounds, new Random(4321 + me), false)));
                }
                Future<Integer> releaser = executor.submit(() -> releaseAndTakeRuns(pool, owner, threads + 1, done));
                int total = 0;
                for (Future<Integer> f : futures) {
                    total += f.get(50, TimeUnit.SECONDS);
                }
                done.set(true);
                assertTrue(releaser.get(50, TimeUnit.SECONDS) > 0, "the releaser released chunks while the others churned");
                assertEquals(threads * rounds, total);
            } finally {
                executor.shutdownNow();
            }
            assertEquals(0, pool.liveSlots());
            pool.releaseWhollyFreeChunks();
            Set<Integer> all = new HashSet<>();
            for (int slot = pool.allocate(); slot != SlotPool.NO_SLOT; slot = pool.allocate()) {
                assertTrue(all.add(slot), "slot " + slot + " handed out twice");
            }
            for (int slot = pool.allocateRun(1); slot != SlotPool.NO_SLOT; slot = pool.allocateRun(1)) {
                assertTrue(all.add(slot), "slot " + slot + " handed out twice");
            }
            assertEquals(maxSlots, all.size(), "every slot came back exactly once");
        }
    }

    /** Until {@code done}: releases wholly free chunks, takes a run, checks and frees it. Returns the chunks released. */
    private static int releaseAndTakeRuns(SlotPool pool, AtomicIntegerArray owner, int me, AtomicBoolean done) {
        Random random = new Random(99);
        int released = 0;
        while (!done.get()) {
            released += pool.releaseWhollyFreeChunks();
            int length = 1 + random.nextInt(4);
            int run = pool.allocateRun(length);
            if (run == SlotPool.NO_SLOT) {
                continue;
            }
            for (int slot = run; slot < run + length; slot++) {
                assertTrue(owner.compareAndSet(slot, 0, me), "run slot " + slot + " owned by " + owner.get(slot));
                assertEquals(0L, pool.getLong(slot, 8), "run slot not zeroed");
            }
            for (int slot = run; slot < run + length; slot++) {
                assertTrue(owner.compareAndSet(slot, me, 0));
                pool.free(slot);
            }
        }
        return released;
    }

    /**
     * Allocates and frees slots, claiming each in {@code owner} and stamping it; returns the
     * allocations done. Unless {@code mayRunDry}, the pool has room for every holder, so an
     * allocation that finds none fails the test.
     */
    private static int churn(SlotPool pool, AtomicIntegerArray owner, int me, int held, int rounds, Random random, boolean mayRunDry) {
        int[] mine = new int[held];
        int count = 0;
        int allocations = 0;
        while (allocations < rounds || count > 0) {
            boolean allocate = allocations < rounds && (count == 0 || (count < held && random.nextBoolean()));
            if (allocate) {
                int slot = pool.allocate();
                if (slot == SlotPool.NO_SLOT) {
                    assertTrue(mayRunDry, "no slot for " + me + " although the pool has room: live=" + pool.liveSlots());
                    continue; // others hold the rest; retry
                }
                assertTrue(owner.compareAndSet(slot, 0, me), "slot " + slot + " handed to " + me + " while owned by " + owner.get(slot));
                assertEquals(0L, pool.getLong(slot, 8), "fresh slot not zeroed");
                pool.putLong(slot, 8, ((long) me << 32) | allocations);
                mine[count++] = slot;
                allocations++;
            } else {
                int index = random.nextInt(count);
                int slot = mine[index];
                mine[index] = mine[--count];
                long stamp = pool.getLong(slot, 8);
                assertEquals(me, (int) (stamp >>> 32), "slot " + slot + " overwritten by another holder");
                assertTrue(owner.compareAndSet(slot, me, 0));
                pool.free(slot);
            }
        }
        assertNotEquals(0, allocations);
        return allocations;
    }
}
