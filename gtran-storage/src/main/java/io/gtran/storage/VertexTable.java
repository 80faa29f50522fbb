package io.gtran.storage;

import static io.gtran.storage.VertexHeaderDescriptor.BEGIN_TIME_OFFSET;
import static io.gtran.storage.VertexHeaderDescriptor.EDGE_ROW_OFFSET;
import static io.gtran.storage.VertexHeaderDescriptor.END_TIME_OFFSET;
import static io.gtran.storage.VertexHeaderDescriptor.LABEL_OFFSET;
import static io.gtran.storage.VertexHeaderDescriptor.PROPERTY_ROW_OFFSET;

/** The vertex table: fixed-size {@link VertexHeaderDescriptor vertex headers}. */
final class VertexTable extends HeaderTable {
    VertexTable(StoreConfig config) {
        super("vertex", false, VertexHeaderDescriptor.LENGTH, LABEL_OFFSET, BEGIN_TIME_OFFSET, END_TIME_OFFSET, 
                config, config.verticesMax, StoreConfig.VERTICES_MAX);
        headers.putInt(RESERVED_SLOT, EDGE_ROW_OFFSET, RowDescriptor.NO_ROW); // so a walk over every slot finds no rows
        headers.putInt(RESERVED_SLOT, PROPERTY_ROW_OFFSET, RowDescriptor.NO_ROW);
    }

    long create(int label, long beginTime, long endTime) {
        long id = allocateId();
        fill(ElementIds.slot(id), id, label, beginTime, endTime);
        return id;
    }

    /** {@link #create} at exactly {@code id}, for a restore: see {@link #allocateSlotOf}. */
    void createAt(long id, PassedSlots passed, int label, long beginTime, long endTime) {
        fill(allocateSlotOf(id, passed), id, label, beginTime, endTime);
    }

    private void fill(int slot, long id, int label, long beginTime, long endTime) {
        headers.putInt(slot, LABEL_OFFSET, label);
        headers.putInt(slot, EDGE_ROW_OFFSET, RowDescriptor.NO_ROW);
        headers.putInt(slot, PROPERTY_ROW_OFFSET, RowDescriptor.NO_ROW);
        headers.putLong(slot, END_TIME_OFFSET, endTime);
        headers.putLong(slot, BEGIN_TIME_OFFSET, beginTime);
        publishId(slot, id);
    }
}
