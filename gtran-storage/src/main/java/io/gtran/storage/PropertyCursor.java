package io.gtran.storage;

/**
 * Scans the property keys of one vertex or edge, in key-id order, with the newest version of each.
 * Obtain one from {@link ElementTable#newPropertyCursor()}; reusable, not thread-safe.
 */
public final class PropertyCursor extends RowCursor {
    private final HeaderTable owners;
    private final int headField;

    PropertyCursor(PropertyRowLists lists, HeaderTable owners, int headField) {
        super(lists);
        this.owners = owners;
        this.headField = headField;
    }

    /** @throws UnknownElementException if the element is not live on this node */
    public PropertyCursor open(long elementId) {
        open(owners.headers, owners.slotOf(elementId), headField);
        return this;
    }

    public boolean next() {
        return advance();
    }

    public int keyId() {
        return PropertyCellDescriptor.keyId(word0);
    }

    /** The newest MV-tuple of the current key; older ones follow through {@link MvStore#older(int)}. */
    public int newestVersion() {
        return PropertyCellDescriptor.tupleSlot(word0);
    }
}
