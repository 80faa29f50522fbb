package io.gtran.storage;

/**
 * The header slots a restore took only to get past them on its way to the slots it wants (see
 * {@link HeaderTable#allocateSlotOf}), each with the last id it carried before, or
 * {@link ElementIds#NONE} if it never carried one. They stay taken until the restore has taken
 * every slot it wants: freed earlier, the next allocation would hand them out again.
 */
final class PassedSlots {
    private final LongColumn slots = new LongColumn();
    private final LongColumn lastIds = new LongColumn();

    /** Slots must come in increasing order, as {@link HeaderTable#allocateSlotOf} takes them. */
    void add(int slot, long lastId) {
        slots.add(slot);
        lastIds.add(lastId);
    }

    /**
     * Frees every slot: one that carried an id gets that id's dead marker, so the next element
     * there takes the next generation (or the slot retires, its generation spent); one that did
     * not stays fresh. Highest slot first, so that the free list hands out the lowest first.
     */
    void freeAll(HeaderTable table) {
        for (int i = slots.size() - 1; i >= 0; i--) {
            int slot = (int) slots.get(i);
            long lastId = lastIds.get(i);
            if (lastId == ElementIds.NONE) {
                table.freeUnused(slot);
            } else {
                table.freeAfter(slot, lastId);
            }
        }
    }
}
