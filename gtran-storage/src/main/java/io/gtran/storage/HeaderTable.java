package io.gtran.storage;

/**
 * Shared core of the vertex and edge tables: a pool of fixed-size headers whose first word is the
 * element's id. The id word survives recycling (it is the pool's preserved word) so each reuse of
 * a slot issues a new generation, and an id kept past its element's removal is refused rather than
 * silently naming the element that reused the slot. A freed header's id word holds a dead marker
 * (the id with the sign bit set), which no id equals, until the next element publishes its id.
 * Every header also has a label and a begin and an end time word; each subclass says where its
 * layout keeps them.
 */
abstract class HeaderTable implements AutoCloseable {
    static final int ID_OFFSET = 0;
    /** Never handed out (see {@link ElementIds}); it holds a dead marker for good. */
    static final int RESERVED_SLOT = 0;

    final SlotPool headers;
    final int nodeId;
    private final String kind;
    private final boolean edges;
    private final String capacityKey;
    /** Where this table's header layout keeps the label, begin time and end time. */
    private final int labelOffset;
    private final int beginTimeOffset;
    private final int endTimeOffset;
    /** Slots never handed out again: slot 0, and slots whose generation is spent (see {@link #free}). */
    private final java.util.concurrent.atomic.AtomicInteger retired = new java.util.concurrent.atomic.AtomicInteger();

    HeaderTable(String kind, boolean edges, int headerLength, int labelOffset, int beginTimeOffset, int endTimeOffset,
                StoreConfig config, int maxSlots, String capacityKey) {
        this.kind = kind;
        this.edges = edges;
        this.capacityKey = capacityKey;
        this.labelOffset = labelOffset;
        this.beginTimeOffset = beginTimeOffset;
        this.endTimeOffset = endTimeOffset;
        this.nodeId = config.nodeId;
        this.headers = new SlotPool(kind + "-header", headerLength, config.slotsPerChunk(headerLength),
                maxSlots == Integer.MAX_VALUE ? maxSlots : maxSlots + 1, ID_OFFSET); // + the reserved slot
        int first = headers.allocate();
        if (first != RESERVED_SLOT) {
            throw new IllegalStateException("a new header pool must hand out slot 0 first: slot=" + first);
        }
        headers.putLongRelease(RESERVED_SLOT, ID_OFFSET, Long.MIN_VALUE);
        retired.incrementAndGet();
    }

    /** Takes a header slot and returns the element id it now carries; the id word is published last by the caller. */
    final long allocateId() {
        int slot = allocateSlot();
        long previous = headers.getLong(slot, ID_OFFSET);
        // A fresh slot holds 0; a freed one its last id's dead marker, whose generation is not spent.
        int generation = previous == 0 ? 0 : ElementIds.generation(previous) + 1;
        return ElementIds.compose(edges ? ElementIds.EDGE : ElementIds.VERTEX, nodeId, generation, slot);
    }

    /**
     * For a restore ({@link StoreRestorer}): takes the slot of {@code id} and returns it, not yet
     * published. Fresh slots come in increasing order while nothing has been freed (see
     * {@link SlotPool#allocate}), so the slots below it not taken yet are taken on the way and
     * added to {@code passed}, still taken: freed now, they would be the next handed out.
     *
     * @throws IllegalStateException if the slot was taken already or the table has freed a slot
     */
    final int allocateSlotOf(long id, PassedSlots passed) {
        int wanted = ElementIds.slot(id);
        while (true) {
            int slot = allocateSlot();
            if (slot == wanted) {
                return slot;
            }
            if (slot > wanted) {
                throw new IllegalStateException(kind + " slots must be taken in increasing order: wanted=" + wanted
                        + " got=" + slot);
            }
            passed.add(slot, ElementIds.NONE);
        }
    }

    private int allocateSlot() {
        int slot = headers.allocate();
        if (slot == SlotPool.NO_SLOT) {
            throw StoreCapacityException.poolExhausted(headers.name(), headers.maxSlots() - 1, capacityKey); // less slot 0
        }
        return slot;
    }

    /**
     * For a restore: throws unless {@code id} could be an id this table issued, of its kind and node
     * and naming a slot it can have; {@code what} says what the id was declared as.
     *
     * @throws IllegalArgumentException naming the id and what is wrong with it
     */
    final void checkIssuable(long id, String what) {
        if (!ElementIds.isWellFormed(id) || ElementIds.isEdge(id) != edges) {
            throw new IllegalArgumentException(what + " " + ElementIds.toString(id) + " is not a " + kind + " id");
        }
        if (ElementIds.node(id) != nodeId) {
            throw new IllegalArgumentException(what + " " + ElementIds.toString(id) + " belongs to node " + ElementIds.node(id)
                    + ", not to this node " + nodeId);
        }
        int slot = ElementIds.slot(id);
        if (slot == RESERVED_SLOT || slot >= headers.maxSlots()) {
            throw new IllegalArgumentException(what + " " + ElementIds.toString(id) + " names a slot no " + kind
                    + " has: slot 0 is reserved and " + capacityKey + "=" + (headers.maxSlots() - 1));
        }
    }

    final void publishId(int slot, long id) {
        headers.putLongRelease(slot, ID_OFFSET, id);
    }

    /**
     * The header slot of a live element of this table.
     *
     * @throws UnknownElementException naming the id and why it names nothing here
     */
    final int slotOf(long id) {
        int slot = slotOrNoSlot(id);
        if (slot == SlotPool.NO_SLOT) {
            throw unknown(id);
        }
        return slot;
    }

    /**
     * The header slot of a live element, or {@link SlotPool#NO_SLOT}. The id word decides: a header
     * not yet published holds 0 or its previous dead marker there, a freed one its dead marker,
     * neither of which is a well-formed id; so no allocation bitmap needs reading.
     */
    final int slotOrNoSlot(long id) {
        if (!ElementIds.isWellFormed(id) || ElementIds.node(id) != nodeId) {
            return SlotPool.NO_SLOT;
        }
        int slot = ElementIds.slot(id);
        if (!headers.inRange(slot) || headers.getLongAcquire(slot, ID_OFFSET) != id) {
            return SlotPool.NO_SLOT;
        }
        return slot;
    }

    /**
     * Throws unless {@code slot} still holds {@code id}: call after reading a header word, so a
     * word read from a slot that was freed and reused meanwhile is never taken for the old element's.
     */
    final void recheck(int slot, long id) {
        java.lang.invoke.VarHandle.loadLoadFence(); // the word read before stays before this check
        if (headers.getLongAcquire(slot, ID_OFFSET) != id) {
            throw unknown(id);
        }
    }

    final int label(int slot) {
        return headers.getInt(slot, labelOffset);
    }

    final long beginTime(int slot) {
        return headers.getLongAcquire(slot, beginTimeOffset);
    }

    final long endTime(int slot) {
        return headers.getLongAcquire(slot, endTimeOffset);
    }

    final boolean compareAndSetBeginTime(int slot, long expected, long value) {
        return headers.compareAndSetLong(slot, beginTimeOffset, expected, value);
    }

    final boolean compareAndSetEndTime(int slot, long expected, long value) {
        return headers.compareAndSetLong(slot, endTimeOffset, expected, value);
    }

    final boolean contains(long id) {
        return slotOrNoSlot(id) != SlotPool.NO_SLOT;
    }

    final long idOfSlot(int slot) {
        return headers.getLongAcquire(slot, ID_OFFSET);
    }

    /**
     * Frees a header. Its id word becomes the dead marker before the slot can be handed out again, so
     * the removed id is refused throughout the slot's reuse (the word would otherwise still hold it
     * between {@link #allocateId()} and {@link #publishId}); the marker keeps the generation. A slot
     * whose generation is spent is retired instead: it keeps the marker and is never handed out
     * again, so no id is ever issued twice.
     */
    final void free(int slot) {
        freeAfter(slot, headers.getLong(slot, ID_OFFSET));
    }

    /**
     * {@link #free} for a slot whose last element had {@code id}, whatever its id word holds now: a
     * restore frees so a slot it took only to pass it, with the last id the slot carried before.
     */
    final void freeAfter(int slot, long id) {
        headers.putLongRelease(slot, ID_OFFSET, id | Long.MIN_VALUE);
        if (ElementIds.generation(id) == ElementIds.MAX_GENERATION) {
            retired.incrementAndGet();
            return;
        }
        headers.free(slot);
    }

    /** Frees a slot taken and never published: no id was issued there, so it stays fresh (generation 0 next). */
    final void freeUnused(int slot) {
        headers.free(slot);
    }

    final int live() {
        return headers.liveSlots() - retired.get();
    }

    /** Slots taken out of use for good: slot 0 and those whose generation is spent. */
    final int retired() {
        return retired.get();
    }

    UnknownElementException unknown(long id) {
        if (!ElementIds.isWellFormed(id)) {
            return new UnknownElementException("no " + kind + " with id=" + id + ": not a gtran element id");
        }
        if (ElementIds.node(id) != nodeId) {
            return new UnknownElementException("no " + kind + " with " + ElementIds.toString(id)
                    + " on node " + nodeId + ": it belongs to node " + ElementIds.node(id));
        }
        return new UnknownElementException("no " + kind + " with " + ElementIds.toString(id) + ": removed or never created");
    }

    @Override
    public void close() {
        headers.close();
    }
}
