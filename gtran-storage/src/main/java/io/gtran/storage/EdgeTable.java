package io.gtran.storage;

import static io.gtran.storage.EdgeHeaderDescriptor.BEGIN_TIME_OFFSET;
import static io.gtran.storage.EdgeHeaderDescriptor.END_TIME_OFFSET;
import static io.gtran.storage.EdgeHeaderDescriptor.IN_VERTEX_OFFSET;
import static io.gtran.storage.EdgeHeaderDescriptor.LABEL_OFFSET;
import static io.gtran.storage.EdgeHeaderDescriptor.OUT_VERTEX_OFFSET;
import static io.gtran.storage.EdgeHeaderDescriptor.PROPERTY_ROW_OFFSET;

/** The edge table: fixed-size {@link EdgeHeaderDescriptor edge headers}. */
final class EdgeTable extends HeaderTable {
    EdgeTable(StoreConfig config) {
        super("edge", true, EdgeHeaderDescriptor.LENGTH, LABEL_OFFSET, BEGIN_TIME_OFFSET, END_TIME_OFFSET, 
                config, config.edgesMax, StoreConfig.EDGES_MAX);
        headers.putInt(RESERVED_SLOT, PROPERTY_ROW_OFFSET, RowDescriptor.NO_ROW); // so a walk over every slot finds no rows
    }

    long create(long outVertex, long inVertex, int label, long beginTime, long endTime) {
        long id = allocateId();
        fill(ElementIds.slot(id), id, outVertex, inVertex, label, beginTime, endTime);
        return id;
    }

    /** {@link #create} at exactly {@code id}, for a restore: see {@link #allocateSlotOf}. */
    void createAt(long id, PassedSlots passed, long outVertex, long inVertex, int label, long beginTime, long endTime) {
        fill(allocateSlotOf(id, passed), id, outVertex, inVertex, label, beginTime, endTime);
    }

    private void fill(int slot, long id, long outVertex, long inVertex, int label, long beginTime, long endTime) {
        headers.putLong(slot, OUT_VERTEX_OFFSET, outVertex);
        headers.putLong(slot, IN_VERTEX_OFFSET, inVertex);
        headers.putInt(slot, LABEL_OFFSET, label);
        headers.putInt(slot, PROPERTY_ROW_OFFSET, RowDescriptor.NO_ROW);
        headers.putLong(slot, END_TIME_OFFSET, endTime);
        headers.putLong(slot, BEGIN_TIME_OFFSET, beginTime);
        publishId(slot, id);
    }

    long outVertex(int slot) {
        return headers.getLong(slot, OUT_VERTEX_OFFSET);
    }

    long inVertex(int slot) {
        return headers.getLong(slot, IN_VERTEX_OFFSET);
    }
}
