package io.gtran.storage;

import java.util.Arrays;

/**
 * One header table's part of a restore ({@link StoreRestorer}), worked out and checked before
 * anything is built: the live elements in slot order and, for each slot that holds no live
 * element but had dead ids declared, the dead id of the highest generation.
 */
final class SlotPlan {
    /** Builds the live element declared at {@code index}; it takes its slot with {@code passed}. */
    @FunctionalInterface
    interface LiveBuilder {
        void build(int index, PassedSlots passed);
    }

    private final LongColumn liveIds;
    /** Indexes into {@link #liveIds}, in slot order. */
    private final int[] liveOrder;
    /** One dead id a slot with no live element, in slot order. */
    private final long[] lastDead;

    private SlotPlan(LongColumn liveIds, int[] liveOrder, long[] lastDead) {
        this.liveIds = liveIds;
        this.liveOrder = liveOrder;
        this.lastDead = lastDead;
    }

    /**
     * The plan for one table from its live and dead ids, each already checked to be of the table.
     *
     * @throws IllegalArgumentException naming both ids if two live elements share a slot, or if a
     *                                  dead id is not of a lower generation than the live id at its slot
     */
    static SlotPlan of(LongColumn liveIds, LongColumn deadIds) {
        int[] liveOrder = bySlot(liveIds);
        for (int i = 1; i < liveOrder.length; i++) {
            long before = liveIds.get(liveOrder[i - 1]);
            long id = liveIds.get(liveOrder[i]);
            if (ElementIds.slot(before) == ElementIds.slot(id)) {
                throw new IllegalArgumentException("two live elements on one slot: " + ElementIds.toString(before)
                        + " and " + ElementIds.toString(id));
            }
        }
        long[] lastDead = new long[deadIds.size()];
        int count = 0;
        int live = 0;
        for (long dead : highestPerSlot(deadIds)) {
            int slot = ElementIds.slot(dead);
            while (live < liveOrder.length && ElementIds.slot(liveIds.get(liveOrder[live])) < slot) {
                live++;
            }
            long liveId = live < liveOrder.length ? liveIds.get(liveOrder[live]) : ElementIds.NONE;
            if (liveId == ElementIds.NONE || ElementIds.slot(liveId) != slot) {
                lastDead[count++] = dead; // the slot stays free, its next generation after this one
            } else if (ElementIds.generation(dead) >= ElementIds.generation(liveId)) {
                throw new IllegalArgumentException("dead " + ElementIds.toString(dead) + " is not older than the live "
                        + ElementIds.toString(liveId) + " on its slot");
            }
            // else: an element removed before the live one took the slot; the live id says more
        }
        return new SlotPlan(liveIds, liveOrder, Arrays.copyOf(lastDead, count));
    }

    /**
     * Takes the table's slots in increasing order: each live element's through {@code builder},
     * each dead-only slot into {@code passed} with its dead id, to be freed with the other passed
     * slots once every slot is taken ({@link PassedSlots#freeAll}).
     */
    void build(HeaderTable table, PassedSlots passed, LiveBuilder builder) {
        int dead = 0;
        for (int index : liveOrder) {
            int slot = ElementIds.slot(liveIds.get(index));
            for (; dead < lastDead.length && ElementIds.slot(lastDead[dead]) < slot; dead++) {
                passed.add(table.allocateSlotOf(lastDead[dead], passed), lastDead[dead]);
            }
            builder.build(index, passed);
        }
        for (; dead < lastDead.length; dead++) {
            passed.add(table.allocateSlotOf(lastDead[dead], passed), lastDead[dead]);
        }
    }

    /** The indexes of {@code ids} in slot order (equal slots in the order declared). */
    private static int[] bySlot(LongColumn ids) {
        long[] keys = new long[ids.size()];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = (long) ElementIds.slot(ids.get(i)) << Integer.SIZE | i; // a primitive sort, no object per id
        }
        Arrays.sort(keys);
        int[] order = new int[keys.length];
        for (int i = 0; i < keys.length; i++) {
            order[i] = (int) keys[i];
        }
        return order;
    }

    /** Of the ids on each slot, the one of the highest generation; in slot order. */
    private static long[] highestPerSlot(LongColumn ids) {
        int[] order = bySlot(ids);
        long[] out = new long[order.length];
        int count = 0;
        for (int index : order) {
            long id = ids.get(index);
            if (count > 0 && ElementIds.slot(out[count - 1]) == ElementIds.slot(id)) {
                if (ElementIds.generation(id) > ElementIds.generation(out[count - 1])) {
                    out[count - 1] = id;
                }
            } else {
                out[count++] = id;
            }
        }
        return Arrays.copyOf(out, count);
    }
}
