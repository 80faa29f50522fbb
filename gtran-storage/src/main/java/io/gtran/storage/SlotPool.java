// Over 600 lines: one accessor per field width and memory ordering (plain, acquire/release, CAS) over the same slot arithmetic.
package io.gtran.storage;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A pool of fixed-size slots carved out of large direct {@link ByteBuffer} chunks.
 *
 * <p>Slots are named by a non-negative {@code int} index. A chunk of {@code slotsPerChunk} slots is
 * allocated the first time an index in it is handed out, so an idle pool costs one chunk at most.
 * Freed slots go onto an intrusive lock-free free list (the link lives in the freed slot's first
 * four bytes) and are handed out again before fresh ones. A bitmap of allocated slots catches
 * double frees and lets callers reject references to slots that are not live.
 *
 * <p>Field access takes a slot and a byte offset within it; the memory ordering is part of the
 * method name. Words used as CAS targets must sit at 8-byte (long) or 4-byte (int) aligned
 * offsets; slot sizes are multiples of 8 so that an aligned field offset is aligned in every slot.
 *
 * <p>A pool made by {@link #withSideParts} gives every slot a second, <em>side</em> part, kept
 * apart from the slots themselves so that a reader walking slots does not pull the side parts
 * into its caches. A chunk of S slots is laid out
 *
 * <pre>
 *  +--------+--------+-----+----------+--------+--------+-----+----------+
 *  | slot 0 | slot 1 | ... | slot S-1 | side 0 | side 1 | ... | side S-1 |
 *  +--------+--------+-----+----------+--------+--------+-----+----------+
 *  ^ offset(slot) = (slot mod S) * slotSize
 *                                     ^ sideOffset(slot) = S * slotSize + (slot mod S) * sideSize
 * </pre>
 *
 * A side part is allocated, zeroed and freed with its slot; it is never on its own.
 *
 * <p>{@link #allocate()} returns {@link #NO_SLOT} when the pool is full rather than throwing: the
 * caller knows what the pool holds and turns that into a {@link StoreCapacityException} naming it.
 *
 * <p>A chunk every slot of which is on the free list can be released
 * ({@link #releaseWhollyFreeChunks}): its memory is dropped and its index kept, and both
 * {@link #allocate} (once the free list is empty) and {@link #allocateRun} recreate it before
 * they take fresh memory above the high-water mark. A slot of a released chunk stays below the high-water mark with no memory behind it:
 * {@link #buffer(int)} returns null for it, which optimistic readers, who may follow a stale link
 * there, treat like any other sign that a writer moved the data (they retry).
 */
final class SlotPool implements AutoCloseable {
    /** Returned by {@link #allocate()} when the pool has no free slot left. */
    public static final int NO_SLOT = -1;

    static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());
    static final VarHandle INTS = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());

    /** Offset of the long word that survives free and re-allocation, or {@link #NO_PRESERVED_WORD}. */
    public static final int NO_PRESERVED_WORD = -1;
    private static final long TAG_INCREMENT = 1L << 32;
    private static final long LINK_MASK = 0xFFFF_FFFFL;

    private final String name;
    private final int slotSize;
    /** Bytes of each slot's side part; 0 for a pool without side parts. */
    private final int sideSize;
    /** Byte offset of the side parts within a chunk: after all of its slots. */
    private final int sideBase;
    private final int preservedWord;
    private final int freeLinkOffset;
    private final int chunkShift;
    private final int chunkMask;
    private final int maxSlots;
    /** Grown under the pool's monitor; readers see a complete array through the volatile read. */
    private volatile ByteBuffer[] chunks = new ByteBuffer[4];
    private volatile AtomicLongArray[] allocatedBits = new AtomicLongArray[4];
    /** Number of slots ever handed out from fresh memory; indexes below it belong to existing chunks. */
    private final AtomicInteger highWater = new AtomicInteger();
    /** Free-list head: ABA tag in the high 32 bits, (slot + 1) in the low 32 bits, 0 meaning empty. */
    private final AtomicLong freeHead = new AtomicLong();
    private final AtomicInteger liveSlots = new AtomicInteger();
    private final AtomicInteger chunkCount = new AtomicInteger();
    /** Set while {@link #releaseWhollyFreeChunks} holds the whole free list: {@link #allocate} waits rather than go fresh. */
    private volatile boolean releasing;
    /**
     * Whether {@link #takeReleased} may find something: a released chunk, or slots of the chunk
     * being filled by runs. Written under the pool's monitor; read without it, so that an
     * allocation in a pool that never released anything does not take the monitor.
     */
    private volatile boolean recyclable;
    /** Indexes of released chunks, to recreate before taking fresh memory; guarded by the pool's monitor. */
    private int[] releasedChunks = new int[4];
    /** How many of {@link #releasedChunks} are in use; the next to recreate is the last. Guarded by the pool's monitor. */
    private int releasedCount;
    /** The recreated chunk {@link #allocateRun} is filling, or -1; guarded by the pool's monitor. */
    private int refillChunk = -1;
    /** The next slot {@link #allocateRun} hands out of {@link #refillChunk}; guarded by the pool's monitor. */
    private int refillNext;
    private volatile boolean closed;

    /**
     * @param name          shown in errors and statistics, e.g. {@code "vertex-header"}
     * @param slotSize      bytes per slot, a positive multiple of 8
     * @param slotsPerChunk slots per direct buffer, a power of two
     * @param maxSlots      capacity of the pool; {@link #allocate()} fails past it
     */
    public SlotPool(String name, int slotSize, int slotsPerChunk, int maxSlots) {
        this(name, slotSize, slotsPerChunk, maxSlots, NO_PRESERVED_WORD);
    }

    /**
     * @param preservedWord offset of one 8-byte word that {@link #allocate()} does not zero and the
     *                      free list does not use, so a table can keep, e.g., a generation across
     *                      reuse of a slot; {@link #NO_PRESERVED_WORD} for none
     */
    public SlotPool(String name, int slotSize, int slotsPerChunk, int maxSlots, int preservedWord) {
        this(name, slotSize, 0, slotsPerChunk, maxSlots, preservedWord);
    }

    /**
     * A pool whose slots each have a {@code sideSize}-byte side part, stored after all the slots of
     * their chunk (see the class comment); {@link #sideOffset(int)} locates it.
     *
     * @param sideSize bytes of each side part, positive; a multiple of 8 if the side parts hold
     *                 words ({@link #getSideLong}), any size if they hold bytes only ({@link #getSideByte})
     */
    public static SlotPool withSideParts(String name, int slotSize, int sideSize, int slotsPerChunk, int maxSlots) {
        if (sideSize <= 0) {
            throw new IllegalArgumentException("sideSize must be positive: pool=" + name + " sideSize=" + sideSize);
        }
        return new SlotPool(name, slotSize, sideSize, slotsPerChunk, maxSlots, NO_PRESERVED_WORD);
    }

    private SlotPool(String name, int slotSize, int sideSize, int slotsPerChunk, int maxSlots, int preservedWord) {
        if (slotSize <= 0 || slotSize % 8 != 0) {
            throw new IllegalArgumentException("slotSize must be a positive multiple of 8: pool=" + name + " slotSize=" + slotSize);
        }
        if (slotsPerChunk <= 0 || Integer.bitCount(slotsPerChunk) != 1) {
            throw new IllegalArgumentException("slotsPerChunk must be a power of two: pool=" + name + " slotsPerChunk=" + slotsPerChunk);
        }
        if (sideSize < 0) {
            throw new IllegalArgumentException("sideSize must not be negative: pool=" + name + " sideSize=" + sideSize);
        }
        if (((long) slotSize + sideSize) * slotsPerChunk > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("chunk too large: pool=" + name + " slotSize=" + slotSize + " sideSize=" + sideSize
                    + " slotsPerChunk=" + slotsPerChunk);
        }
        if (maxSlots <= 0) {
            throw new IllegalArgumentException("maxSlots must be positive: pool=" + name + " maxSlots=" + maxSlots);
        }
        if (preservedWord != NO_PRESERVED_WORD && (preservedWord < 0 || preservedWord % 8 != 0 || preservedWord + 8 > slotSize)) {
            throw new IllegalArgumentException("preservedWord must be an aligned word inside the slot: pool=" + name + " preservedWord=" + preservedWord);
        }
        if (preservedWord == 0 && slotSize < 16) {
            throw new IllegalArgumentException("slot too small to hold a preserved word and a free link: pool=" + name);
        }
        this.name = name;
        this.slotSize = slotSize;
        this.sideSize = sideSize;
        this.sideBase = slotSize * slotsPerChunk;
        this.preservedWord = preservedWord;
        this.freeLinkOffset = preservedWord == 0 ? 8 : 0;
        this.chunkShift = Integer.numberOfTrailingZeros(slotsPerChunk);
        this.chunkMask = slotsPerChunk - 1;
        this.maxSlots = maxSlots;
    }

    public String name() {
        return name;
    }

    public int slotSize() {
        return slotSize;
    }

    /** Bytes of each slot's side part; 0 if the pool has none. */
    public int sideSize() {
        return sideSize;
    }

    public int maxSlots() {
        return maxSlots;
    }

    /** Slots currently allocated and not yet freed. */
    public int liveSlots() {
        return liveSlots.get();
    }

    /** Bytes of direct memory this pool has reserved (whole chunks). */
    public long reservedBytes() {
        return (long) chunkCount.get() * (chunkMask + 1) * (slotSize + sideSize);
    }

    /**
     * Takes a slot, zero-filled except for the preserved word. Returns {@link #NO_SLOT} when all {@code maxSlots} slots are live.
     */
    public int allocate() {
        ensureOpen();
        int slot;
        while (true) {
            slot = popFree();
            if (slot != NO_SLOT) {
                break;
            }
            if (releasing) {
                Thread.onSpinWait(); // the free list is out for a moment (releaseWhollyFreeChunks)
                continue;
            }
            if ((freeHead.get() & LINK_MASK) != 0) {
                continue; // a release put the free list back between the pop and the check above
            }
            slot = recyclable ? takeReleased() : NO_SLOT;
            if (slot != NO_SLOT) {
                break;
            }
            slot = takeFresh();
            if (slot == NO_SLOT) {
                return NO_SLOT;
            }
            break;
        }
        zero(slot);
        markAllocated(slot);
        liveSlots.incrementAndGet();
        return slot;
    }

    /**
     * Takes {@code count} consecutive fresh slots, zero-filled, all in one chunk, and returns the
     * first; slots {@code first .. first + count - 1} are then allocated. Fresh memory only (the
     * free list is unordered), so callers use it where adjacency in memory is the point: a
     * released chunk, recreated (see {@link #releaseWhollyFreeChunks}), filled front to back, or
     * else memory above the high-water mark. Consecutive calls give consecutive runs while they fit
     * in the chunk being filled. Slots skipped to start the run on a new chunk go onto the free
     * list. Returns {@link #NO_SLOT} if the run does not fit in the pool or is longer than a chunk.
     */
    public int allocateRun(int count) {
        return allocateRunFrom(NO_SLOT, count);
    }

    /**
     * As {@link #allocateRun}, for laying parts out one after another: the run starts at
     * {@code wanted} if that is where the pool's next run starts and the run fits there, and
     * otherwise at the start of a chunk ({@link #startsChunk}). So whoever reads the layout later
     * can tell a run that follows the one before {@code wanted} from one that had to jump.
     * {@link #NO_SLOT}: no wanted start, as {@link #allocateRun}. Leaving the chunk being filled
     * puts the rest of it onto the free list, as does skipping the rest of the chunk at the
     * high-water mark.
     */
    public int allocateRunFrom(int wanted, int count) {
        ensureOpen();
        if (count <= 0) {
            throw new IllegalArgumentException("run length must be positive: pool=" + name + " count=" + count);
        }
        if (count > chunkMask + 1) {
            return NO_SLOT;
        }
        int refilled = refillRun(wanted, count);
        if (refilled != NO_SLOT) {
            return handOutRun(refilled, count);
        }
        int current;
        int start;
        while (true) {
            current = highWater.get();
            start = runStart(current, count);
            if (wanted != NO_SLOT && start != wanted && !startsChunk(start)) {
                start = (current | chunkMask) + 1; // not where wanted: start a chunk
            }
            if ((long) start + count > maxSlots) {
                return NO_SLOT;
            }
            ByteBuffer[] table = chunks;
            int chunk = start >>> chunkShift;
            if (chunk >= table.length || table[chunk] == null) {
                createFreshChunk(chunk);
            }
            if (highWater.compareAndSet(current, start + count)) {
                break;
            }
        }
        freeUnused(current, start); // the tail of the previous chunk, skipped to keep the run in one chunk
        return handOutRun(start, count);
    }

    /** Zeroes and marks allocated the run of {@code count} slots at {@code start}, which no one else has; returns start. */
    private int handOutRun(int start, int count) {
        for (int slot = start; slot < start + count; slot++) {
            zero(slot);
            markAllocated(slot);
        }
        liveSlots.addAndGet(count);
        return start;
    }

    /** Puts slots {@code from .. to - 1}, never handed out and owned by the caller, onto the free list. */
    private void freeUnused(int from, int to) {
        for (int slot = from; slot < to; slot++) {
            markAllocated(slot);
            liveSlots.incrementAndGet();
            free(slot);
        }
    }

    /**
     * A run of {@code count} slots from a released chunk, recreated, or {@link #NO_SLOT} if none is
     * left. The slots are not yet marked allocated. When the run does not fit in what is left of
     * the chunk being filled, or does not start at {@code wanted} there (see
     * {@link #allocateRunFrom}), that rest goes onto the free list and the next released chunk is
     * recreated.
     */
    private synchronized int refillRun(int wanted, int count) {
        try {
            return refillRunLocked(wanted, count);
        } finally {
            updateRecyclable();
        }
    }

    /** Called under the pool's monitor after the released chunks or the chunk being filled changed. */
    private void updateRecyclable() {
        recyclable = releasedCount > 0 || refillHasRoom();
    }

    private int refillRunLocked(int wanted, int count) {
        while (true) {
            if (refillChunk >= 0) {
                int end = (refillChunk + 1) << chunkShift;
                boolean placed = wanted == NO_SLOT || refillNext == wanted || startsChunk(refillNext);
                if (refillNext + count <= end && placed) {
                    int start = refillNext;
                    refillNext += count;
                    return start;
                }
                freeUnused(refillNext, end);
                refillChunk = -1;
            }
            if (!refillFromReleased()) {
                return NO_SLOT;
            }
        }
    }

    /** Whether the chunk being filled has slots not handed out yet. Under the pool's monitor. */
    private boolean refillHasRoom() {
        return refillChunk >= 0 && refillNext < (refillChunk + 1) << chunkShift;
    }

    /** Recreates the next released chunk as the chunk being filled; false if none is released. Under the pool's monitor. */
    private boolean refillFromReleased() {
        if (releasedCount == 0) {
            return false;
        }
        int released = releasedChunks[releasedCount - 1];
        createChunk(released); // first: if it fails, the index stays queued
        releasedCount--;
        refillChunk = released;
        refillNext = released << chunkShift;
        return true;
    }

    /**
     * For {@link #allocate} with the free list empty: a slot the chunk being filled by runs has
     * not handed out yet, or else the first of the first released chunk, recreated, which becomes
     * the chunk being filled; {@link #NO_SLOT} if there is neither. The slot is not yet marked
     * allocated.
     */
    private synchronized int takeReleased() {
        try {
            if (!refillHasRoom() && !refillFromReleased()) {
                return NO_SLOT;
            }
            return refillNext++;
        } finally {
            updateRecyclable();
        }
    }

    /**
     * Releases every chunk all of whose slots are on the free list: drops its memory (the buffer
     * goes when no reader holds it any more) and keeps its index for {@link #allocate} and
     * {@link #allocateRun} to recreate. Returns how many chunks it released.
     *
     * <p>Safe while other threads allocate and free: it takes the whole free list at once, so
     * every slot it counts is owned by no one, and puts back the slots of the chunks it keeps. A
     * slot being handed out or freed at that moment is not on the list, so its chunk is kept.
     * Meanwhile allocations that find the free list empty wait for it to come back; so call it
     * when the pool is quiet, e.g. after a compaction has moved rows out of whole chunks.
     */
    public synchronized int releaseWhollyFreeChunks() {
        ensureOpen();
        releasing = true;
        try {
            long head;
            do {
                head = freeHead.get();
            } while (!freeHead.compareAndSet(head, (head & ~LINK_MASK) + TAG_INCREMENT));
            return releaseFrom((int) (head & LINK_MASK));
        } finally {
            releasing = false;
        }
    }

    /**
     * {@link #releaseWhollyFreeChunks} once it holds the free list that starts at {@code link}: if
     * anything fails (out of memory) before the chunk table changes, every slot goes back.
     */
    private int releaseFrom(int link) {
        boolean published = false;
        try {
            int[] taken = new int[16];
            int takenCount = 0;
            int[] freePerChunk = new int[chunks.length];
            for (int l = link; l != 0; ) {
                int slot = l - 1;
                if (takenCount == taken.length) {
                    taken = Arrays.copyOf(taken, takenCount * 2);
                }
                taken[takenCount++] = slot;
                freePerChunk[slot >>> chunkShift]++;
                l = getIntAcquire(slot, freeLinkOffset);
            }
            int slots = chunkMask + 1;
            boolean refillSpent = !refillHasRoom();
            ByteBuffer[] newChunks = chunks.clone();
            AtomicLongArray[] newBits = allocatedBits.clone();
            int[] newReleased = Arrays.copyOf(releasedChunks, Math.max(releasedChunks.length, releasedCount + freePerChunk.length));
            int newReleasedCount = releasedCount;
            // Descending, so that chunks are recreated (from the end of the queue) in ascending order.
            for (int chunk = freePerChunk.length - 1; chunk >= 0; chunk--) {
                if (freePerChunk[chunk] == slots && (chunk != refillChunk || refillSpent)) {
                    newChunks[chunk] = null;
                    newBits[chunk] = null;
                    newReleased[newReleasedCount++] = chunk;
                }
            }
            int released = newReleasedCount - releasedCount;
            int kept = 0;
            for (int i = 0; i < takenCount; i++) {
                if (newChunks[taken[i] >>> chunkShift] != null) {
                    taken[kept++] = taken[i];
                }
            }
            if (released > 0) {
                // Nothing below allocates, so nothing can fail between here and the put-back.
                releasedChunks = newReleased;
                releasedCount = newReleasedCount;
                if (refillChunk >= 0 && newChunks[refillChunk] == null) {
                    refillChunk = -1;
                }
                chunks = newChunks;
                allocatedBits = newBits;
                chunkCount.addAndGet(-released);
                updateRecyclable();
            }
            published = true;
            pushFreeChain(taken, kept);
            return released;
        } finally {
            if (!published) {
                for (int l = link; l != 0; ) {
                    int slot = l - 1;
                    l = getIntAcquire(slot, freeLinkOffset);
                    pushFree(slot);
                }
            }
        }
    }

    /** Chunks released and not yet recreated: their indexes are below the high-water mark, with no memory. */
    public synchronized int releasedChunks() {
        return releasedCount;
    }

    /**
     * Where {@link #allocateRun} places a run of {@code count} slots when its high-water mark is
     * {@code from}: there, or at the start of the next chunk if the run would straddle a chunk.
     */
    int runStart(int from, int count) {
        int chunkEnd = (from | chunkMask) + 1;
        return from + count <= chunkEnd ? from : chunkEnd;
    }

    /**
     * Returns a slot to the pool. The caller must hold the only remaining reference to it.
     *
     * @throws IllegalArgumentException if the slot is outside the pool
     * @throws IllegalStateException    if the slot is not currently allocated (a double free)
     */
    public void free(int slot) {
        ensureOpen();
        checkRange(slot);
        if (!clearAllocated(slot)) {
            throw new IllegalStateException("slot is not allocated: pool=" + name + " slot=" + slot);
        }
        liveSlots.decrementAndGet();
        pushFree(slot);
    }

    /** True when {@code slot} is inside the pool's range and currently allocated. */
    public boolean isAllocated(int slot) {
        if (slot < 0 || slot >= highWater.get()) {
            return false;
        }
        AtomicLongArray[] table = allocatedBits;
        int chunk = slot >>> chunkShift;
        if (chunk >= table.length) {
            ensureOpen(); // only a closed pool has dropped the table below its high-water mark
            return false;
        }
        AtomicLongArray bits = table[chunk];
        int local = slot & chunkMask;
        return bits != null && (bits.get(local >>> 6) & (1L << local)) != 0;
    }

    /** Slots per chunk: the longest run {@link #allocateRun} can give. */
    public int slotsPerChunk() {
        return chunkMask + 1;
    }

    /** One past the highest slot ever handed out; every allocated slot is below it. */
    public int highWater() {
        return highWater.get();
    }

    /** True when {@code slot} names memory of this pool (allocated or not); cheap bound for optimistic readers. */
    public boolean inRange(int slot) {
        return slot >= 0 && slot < highWater.get();
    }

    /** The chunk holding {@code slot}; pair it with {@link #offset(int)} to wrap a flyweight. */
    public ByteBuffer buffer(int slot) {
        ByteBuffer[] table = chunks;
        int chunk = slot >>> chunkShift;
        if (chunk >= table.length) {
            throw outside(slot);
        }
        return table[chunk];
    }

    /** True when {@code slot} is the first of its chunk. */
    public boolean startsChunk(int slot) {
        return (slot & chunkMask) == 0;
    }

    /** Byte offset of {@code slot} within {@link #buffer(int)}. */
    public int offset(int slot) {
        return (slot & chunkMask) * slotSize;
    }

    /** Byte offset of {@code slot}'s side part within {@link #buffer(int)}; only for a pool {@link #withSideParts with side parts}. */
    public int sideOffset(int slot) {
        return sideBase + (slot & chunkMask) * sideSize;
    }

    public long getLong(int slot, int field) {
        return buffer(slot).getLong(offset(slot) + field);
    }

    /** A word at byte {@code field} of the slot's side part; the pool's side parts must be a multiple of 8 bytes. */
    public long getSideLong(int slot, int field) {
        return buffer(slot).getLong(sideOffset(slot) + field);
    }

    public void putSideLong(int slot, int field, long value) {
        buffer(slot).putLong(sideOffset(slot) + field, value);
    }

    /** The byte at {@code field} of the slot's side part. */
    public byte getSideByte(int slot, int field) {
        return buffer(slot).get(sideOffset(slot) + field);
    }

    public void putSideByte(int slot, int field, byte value) {
        buffer(slot).put(sideOffset(slot) + field, value);
    }

    public void putLong(int slot, int field, long value) {
        buffer(slot).putLong(offset(slot) + field, value);
    }

    /**
     * A load with acquire semantics: a plain read followed by an acquire fence, which orders it
     * before every later load and store exactly as {@code getAcquire} would, without the byte-buffer
     * VarHandle's per-call alignment and access checks.
     */
    public long getLongAcquire(int slot, int field) {
        long value = buffer(slot).getLong(offset(slot) + field);
        VarHandle.acquireFence();
        return value;
    }

    public long getLongVolatile(int slot, int field) {
        return (long) LONGS.getVolatile(buffer(slot), offset(slot) + field);
    }

    public void putLongRelease(int slot, int field, long value) {
        LONGS.setRelease(buffer(slot), offset(slot) + field, value);
    }

    public boolean compareAndSetLong(int slot, int field, long expected, long value) {
        return LONGS.compareAndSet(buffer(slot), offset(slot) + field, expected, value);
    }

    public long getAndAddLong(int slot, int field, long delta) {
        return (long) LONGS.getAndAdd(buffer(slot), offset(slot) + field, delta);
    }

    public int getInt(int slot, int field) {
        return buffer(slot).getInt(offset(slot) + field);
    }

    public void putInt(int slot, int field, int value) {
        buffer(slot).putInt(offset(slot) + field, value);
    }

    /** As {@link #getLongAcquire}, for an int. */
    public int getIntAcquire(int slot, int field) {
        int value = buffer(slot).getInt(offset(slot) + field);
        VarHandle.acquireFence();
        return value;
    }

    public void putIntRelease(int slot, int field, int value) {
        INTS.setRelease(buffer(slot), offset(slot) + field, value);
    }

    public boolean compareAndSetInt(int slot, int field, int expected, int value) {
        return INTS.compareAndSet(buffer(slot), offset(slot) + field, expected, value);
    }

    public byte getByte(int slot, int field) {
        return buffer(slot).get(offset(slot) + field);
    }

    public void putByte(int slot, int field, byte value) {
        buffer(slot).put(offset(slot) + field, value);
    }

    /** Copies {@code length} bytes of {@code slot} starting at {@code field} into {@code dst}. */
    public void getBytes(int slot, int field, byte[] dst, int dstOffset, int length) {
        buffer(slot).get(offset(slot) + field, dst, dstOffset, length);
    }

    public void putBytes(int slot, int field, byte[] src, int srcOffset, int length) {
        buffer(slot).put(offset(slot) + field, src, srcOffset, length);
    }

    /** Drops every chunk; later calls fail. Direct memory is returned when the buffers are collected. */
    @Override
    public void close() {
        closed = true;
        synchronized (this) {
            chunks = new ByteBuffer[0];
            allocatedBits = new AtomicLongArray[0];
            chunkCount.set(0);
        }
    }

    @Override
    public String toString() {
        return "SlotPool[name=" + name + ", slotSize=" + slotSize + ", live=" + liveSlots.get()
                + ", maxSlots=" + maxSlots + ", reservedBytes=" + reservedBytes() + "]";
    }

    private int popFree() {
        while (true) {
            long head = freeHead.get();
            int link = (int) (head & LINK_MASK);
            if (link == 0) {
                return NO_SLOT;
            }
            int slot = link - 1;
            // The slot is free, so its first word holds the next link; a concurrent pop may have
            // taken it already, in which case the tag changed and the CAS below fails. A concurrent
            // release may have taken the whole list and dropped the slot's chunk: start again.
            ByteBuffer memory = buffer(slot);
            if (memory == null) {
                continue;
            }
            int next = memory.getInt(offset(slot) + freeLinkOffset);
            VarHandle.acquireFence();
            long newHead = ((head & ~LINK_MASK) + TAG_INCREMENT) | (next & LINK_MASK);
            if (freeHead.compareAndSet(head, newHead)) {
                return slot;
            }
        }
    }

    /** Puts {@code slots[0 .. count)} onto the free list with one CAS; the first is popped first. */
    private void pushFreeChain(int[] slots, int count) {
        if (count == 0) {
            return;
        }
        for (int i = 0; i < count - 1; i++) {
            putInt(slots[i], freeLinkOffset, slots[i + 1] + 1);
        }
        int last = slots[count - 1];
        while (true) {
            long head = freeHead.get();
            putIntRelease(last, freeLinkOffset, (int) (head & LINK_MASK));
            long newHead = ((head & ~LINK_MASK) + TAG_INCREMENT) | ((slots[0] + 1) & LINK_MASK);
            if (freeHead.compareAndSet(head, newHead)) {
                return;
            }
        }
    }

    private void pushFree(int slot) {
        while (true) {
            long head = freeHead.get();
            putIntRelease(slot, freeLinkOffset, (int) (head & LINK_MASK));
            long newHead = ((head & ~LINK_MASK) + TAG_INCREMENT) | ((slot + 1) & LINK_MASK);
            if (freeHead.compareAndSet(head, newHead)) {
                return;
            }
        }
    }

    private int takeFresh() {
        while (true) {
            int current = highWater.get();
            if (current >= maxSlots) {
                return NO_SLOT;
            }
            int chunk = current >>> chunkShift;
            ByteBuffer[] table = chunks;
            if (chunk >= table.length || table[chunk] == null) {
                createFreshChunk(chunk);
            }
            if (highWater.compareAndSet(current, current + 1)) {
                return current;
            }
        }
    }

    /**
     * {@link #createChunk} for the fresh paths, which read the high-water mark without the monitor:
     * a chunk wholly below the mark by now is a released one, which only the paths that recreate
     * released chunks may bring back, so a caller acting on a stale mark gets nothing (its CAS on
     * the mark then fails and it reads it again).
     */
    private synchronized void createFreshChunk(int chunk) {
        if (((long) chunk + 1) << chunkShift <= highWater.get()) {
            return;
        }
        createChunk(chunk);
    }

    private synchronized void createChunk(int chunk) {
        ensureOpen();
        if (chunk < chunks.length && chunks[chunk] != null) {
            return;
        }
        int slots = chunkMask + 1;
        ByteBuffer buffer = ByteBuffer.allocateDirect(slots * (slotSize + sideSize)).order(ByteOrder.nativeOrder());
        ByteBuffer[] newChunks = Arrays.copyOf(chunks, Math.max(chunks.length, Integer.highestOneBit(chunk) * 2));
        AtomicLongArray[] newBits = Arrays.copyOf(allocatedBits, newChunks.length);
        newBits[chunk] = new AtomicLongArray((slots + 63) >>> 6);
        newChunks[chunk] = buffer;
        // Bits before chunks: a reader that finds the chunk also finds its bitmap.
        allocatedBits = newBits;
        chunks = newChunks;
        chunkCount.incrementAndGet();
    }

    private void zero(int slot) {
        ByteBuffer buffer = buffer(slot);
        int base = offset(slot);
        for (int i = 0; i < slotSize; i += 8) {
            if (i != preservedWord) {
                buffer.putLong(base + i, 0L);
            }
        }
        int side = sideOffset(slot);
        int i = 0;
        for (; i + 8 <= sideSize; i += 8) {
            buffer.putLong(side + i, 0L);
        }
        for (; i < sideSize; i++) {
            buffer.put(side + i, (byte) 0); // a side part of bytes (see withSideParts)
        }
    }

    private void markAllocated(int slot) {
        AtomicLongArray bits = allocatedBits[slot >>> chunkShift];
        int local = slot & chunkMask;
        long bit = 1L << local;
        int word = local >>> 6;
        long old;
        do {
            old = bits.get(word);
            if ((old & bit) != 0) {
                throw new IllegalStateException("slot handed out twice: pool=" + name + " slot=" + slot);
            }
        } while (!bits.compareAndSet(word, old, old | bit));
    }

    private boolean clearAllocated(int slot) {
        AtomicLongArray bits = allocatedBits[slot >>> chunkShift];
        if (bits == null) {
            return false; // a released chunk: nothing in it is allocated
        }
        int local = slot & chunkMask;
        long bit = 1L << local;
        int word = local >>> 6;
        long old;
        do {
            old = bits.get(word);
            if ((old & bit) == 0) {
                return false;
            }
        } while (!bits.compareAndSet(word, old, old & ~bit));
        return true;
    }

    private void checkRange(int slot) {
        if (slot < 0 || slot >= highWater.get()) {
            throw new IllegalArgumentException("slot out of range: pool=" + name + " slot=" + slot + " highWater=" + highWater.get());
        }
    }

    /** The error for a slot with no memory behind it: the pool is closed, or the slot was never handed out. */
    private RuntimeException outside(int slot) {
        ensureOpen();
        return new IllegalArgumentException("slot out of range: pool=" + name + " slot=" + slot + " highWater=" + highWater.get());
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("pool is closed: pool=" + name);
        }
    }
}
