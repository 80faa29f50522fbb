package io.gtran.storage;

/**
 * A {@link GraphStore}'s {@link ElementTable} for one kind of element: its header table, its
 * properties and its external-id map. One class serves both kinds (the header table knows where
 * its layout keeps each word), so a call through {@link ElementTable} has one receiver class.
 */
final class StoreElementTable implements ElementTable {
    private final HeaderTable table;
    private final ElementProperties properties;
    private final MvStore mvStore;
    private final ExternalIdMap externalIds;

    StoreElementTable(HeaderTable table, ElementProperties properties, MvStore mvStore, ExternalIdMap externalIds) {
        this.table = table;
        this.properties = properties;
        this.mvStore = mvStore;
        this.externalIds = externalIds;
    }

    @Override
    public boolean contains(long id) {
        return table.contains(id);
    }

    @Override
    public int label(long id) {
        int slot = table.slotOf(id);
        int value = table.label(slot);
        table.recheck(slot, id);
        return value;
    }

    @Override
    public long beginTime(long id) {
        int slot = table.slotOf(id);
        long value = table.beginTime(slot);
        table.recheck(slot, id);
        return value;
    }

    @Override
    public long endTime(long id) {
        int slot = table.slotOf(id);
        long value = table.endTime(slot);
        table.recheck(slot, id);
        return value;
    }

    @Override
    public boolean compareAndSetBeginTime(long id, long expected, long value) {
        return table.compareAndSetBeginTime(table.slotOf(id), expected, value);
    }

    @Override
    public boolean compareAndSetEndTime(long id, long expected, long value) {
        return table.compareAndSetEndTime(table.slotOf(id), expected, value);
    }

    @Override
    public int count() {
        return table.live();
    }

    /**
     * An allocated slot is not yet (or no longer) live while its id word holds the previous
     * element's dead marker: between allocation and publication of the new id, and between the
     * marker and the free on removal.
     */
    @Override
    public long idAtSlot(int slot) {
        if (!table.headers.isAllocated(slot)) {
            return ElementIds.NONE;
        }
        long id = table.idOfSlot(slot);
        return ElementIds.isWellFormed(id) ? id : ElementIds.NONE;
    }

    @Override
    public long lastIdAtSlot(int slot) {
        if (slot == HeaderTable.RESERVED_SLOT || !table.headers.inRange(slot)) {
            return ElementIds.NONE;
        }
        long id = table.idOfSlot(slot) & Long.MAX_VALUE; // a dead marker is the id with the sign bit set
        return id != 0 && ElementIds.isWellFormed(id) ? id : ElementIds.NONE;
    }

    @Override
    public int slotLimit() {
        return table.headers.highWater();
    }

    @Override
    public int addPropertyVersion(long id, int keyId, Object value, long beginTime, long endTime) {
        return properties.addVersion(id, keyId, older -> mvStore.createVersion(value, beginTime, endTime, older));
    }

    @Override
    public int addSerializedPropertyVersion(long id, int keyId, byte[] serialized, long beginTime, long endTime) {
        return properties.addVersion(id, keyId, older -> mvStore.createSerializedVersion(serialized, beginTime, endTime, older));
    }

    @Override
    public int addPropertyBase(long id, int keyId, Object value) {
        return properties.addBase(id, keyId, () -> mvStore.createHeldBaseVersion(value));
    }

    @Override
    public int addSerializedPropertyBase(long id, int keyId, byte[] serialized) {
        return properties.addBase(id, keyId, () -> mvStore.createSerializedBaseVersion(serialized));
    }

    @Override
    public boolean replacePropertyVersion(long id, int keyId, int expected, int replacement) {
        return properties.replaceVersion(id, keyId, expected, replacement);
    }

    @Override
    public boolean linkPropertyVersion(long id, int keyId, int expectedNewest, int version) {
        return properties.linkVersion(id, keyId, expectedNewest, version);
    }

    @Override
    public boolean unlinkProperty(long id, int keyId, int expectedNewest) {
        return properties.unlink(id, keyId, expectedNewest);
    }

    @Override
    public int propertyVersion(long id, int keyId) {
        return properties.newestVersion(id, keyId);
    }

    @Override
    public PropertyCursor newPropertyCursor() {
        return properties.newCursor();
    }

    @Override
    public boolean removeProperty(long id, int keyId) {
        return properties.remove(id, keyId);
    }

    @Override
    public ExternalIdMap externalIds() {
        return externalIds;
    }
}
