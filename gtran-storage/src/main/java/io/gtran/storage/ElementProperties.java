package io.gtran.storage;

import static io.gtran.storage.MvTupleDescriptor.NO_TUPLE;

import java.util.function.IntSupplier;

/**
 * The properties of one kind of element (vertices or edges): each element's VP/EP row-list, whose
 * cells link to version chains in the MV-KVS. {@link GraphStore} holds one instance per kind, each
 * behind that kind's {@link ElementTable}, so the vertex and edge paths share this code rather than
 * repeat it.
 */
final class ElementProperties {
    private final PropertyRowLists lists;
    private final HeaderTable owners;
    private final int headField;
    private final MvStore mvStore;
    private final Dictionary keys;

    ElementProperties(PropertyRowLists lists, HeaderTable owners, int headField, MvStore mvStore, Dictionary keys) {
        this.lists = lists;
        this.owners = owners;
        this.headField = headField;
        this.mvStore = mvStore;
        this.keys = keys;
    }

    @FunctionalInterface
    interface VersionFactory {
        /** Creates a version linking to {@code older} and returns its handle. */
        int create(int older);
    }

    /** Links a new full version as the newest of the property; see {@link ElementTable#addPropertyVersion}. */
    int addVersion(long ownerId, int keyId, VersionFactory factory) {
        checkKey(keyId);
        int ownerSlot = owners.slotOf(ownerId);
        while (true) {
            long cell = lists.find(owners.headers, ownerSlot, headField, keyId);
            int older = cell == PropertyRowLists.NOT_FOUND ? NO_TUPLE : PropertyCellDescriptor.tupleSlot(cell);
            int tuple;
            try {
                tuple = factory.create(older);
            } catch (IllegalArgumentException e) {
                // The GC may have removed the property, freeing `older`, since the cell was read
                // ("older version is not live"); the version then belongs in a new cell: read again.
                if (older != NO_TUPLE && lists.find(owners.headers, ownerSlot, headField, keyId) != cell) {
                    continue;
                }
                throw e;
            }
            boolean linked;
            try {
                linked = older == NO_TUPLE
                        ? lists.insert(owners.headers, ownerSlot, headField, PropertyCellDescriptor.word(keyId, tuple), 0L)
                        : lists.replaceTuple(owners.headers, ownerSlot, headField, keyId, older, tuple);
            } catch (RuntimeException e) {
                mvStore.freeVersion(tuple);
                throw e;
            }
            if (linked) {
                return tuple;
            }
            // Another writer linked a version first; build ours on top of theirs.
            mvStore.freeVersion(tuple);
        }
    }

    /** Gives the property its first version as a base version; see {@link ElementTable#addPropertyBase}. */
    int addBase(long ownerId, int keyId, IntSupplier factory) {
        checkKey(keyId);
        int ownerSlot = owners.slotOf(ownerId);
        int version = factory.getAsInt();
        boolean linked;
        try {
            linked = lists.insert(owners.headers, ownerSlot, headField, PropertyCellDescriptor.word(keyId, version), 0L);
        } catch (RuntimeException e) {
            mvStore.freeVersion(version);
            throw e;
        }
        if (!linked) {
            mvStore.freeVersion(version);
            throw new IllegalStateException("property already has a version; a base version must be the first: key="
                    + keys.name(keyId) + " element=" + ElementIds.toString(ownerId));
        }
        return version;
    }

    /**
     * Swings the property's newest-version link; see {@link ElementTable#replacePropertyVersion}.
     * The replacement must be a live version: a cell linking to {@link MvTupleDescriptor#NO_TUPLE}
     * would look absent to {@link #newestVersion} yet refuse a new cell, so {@link #addVersion}
     * would retry forever.
     *
     * @throws IllegalArgumentException if {@code replacement} is not a live version
     */
    boolean replaceVersion(long ownerId, int keyId, int expected, int replacement) {
        checkKey(keyId);
        if (!mvStore.isLive(replacement)) {
            throw new IllegalArgumentException("replacement version is not live: replacement=" + replacement
                    + " key=" + keys.name(keyId) + " element=" + ElementIds.toString(ownerId));
        }
        return lists.replaceTuple(owners.headers, owners.slotOf(ownerId), headField, keyId, expected, replacement);
    }

    /**
     * Links {@code version} as the property's newest version if the newest is still
     * {@code expectedNewest} ({@link MvTupleDescriptor#NO_TUPLE}: the property has no cell). A
     * compare-and-link: false, changing nothing, if another writer got there first.
     *
     * @throws IllegalArgumentException if {@code version} is not a live version, or the key id is unknown
     */
    boolean linkVersion(long ownerId, int keyId, int expectedNewest, int version) {
        checkKey(keyId);
        if (!mvStore.isLive(version)) {
            throw new IllegalArgumentException("version to link is not live: version=" + version
                    + " key=" + keys.name(keyId) + " element=" + ElementIds.toString(ownerId));
        }
        int ownerSlot = owners.slotOf(ownerId);
        if (expectedNewest == NO_TUPLE) {
            return lists.insert(owners.headers, ownerSlot, headField, PropertyCellDescriptor.word(keyId, version), 0L);
        }
        return lists.replaceTuple(owners.headers, ownerSlot, headField, keyId, expectedNewest, version);
    }

    /**
     * Removes the property's cell if it still links {@code expectedNewest}, freeing nothing: the
     * caller (GC, or a transaction undoing its own write) frees the unlinked chain once no reader
     * can hold it. False if the cell is gone or links another version.
     */
    boolean unlink(long ownerId, int keyId, int expectedNewest) {
        checkKey(keyId);
        long cell = lists.removeCellIf(owners.headers, owners.slotOf(ownerId), headField,
                PropertyCellDescriptor.word(keyId, 0), 0L, PropertyCellDescriptor.word(keyId, expectedNewest));
        return cell != RowLists.NOT_REMOVED;
    }

    /** The newest version, or {@link MvTupleDescriptor#NO_TUPLE}. */
    int newestVersion(long ownerId, int keyId) {
        long cell = lists.find(owners.headers, owners.slotOf(ownerId), headField, keyId);
        return cell == PropertyRowLists.NOT_FOUND ? NO_TUPLE : PropertyCellDescriptor.tupleSlot(cell);
    }

    /** Removes the property's cell and frees its whole chain; false if it had none. */
    boolean remove(long ownerId, int keyId) {
        checkKey(keyId);
        // Cell and version chain come out under one lock: a version linked concurrently is
        // either in the chain freed here or was linked after the removal, into a new cell.
        long cell = lists.removeCell(owners.headers, owners.slotOf(ownerId), headField, PropertyCellDescriptor.word(keyId, 0), 0L);
        if (cell == RowLists.NOT_REMOVED) {
            return false;
        }
        mvStore.freeChain(PropertyCellDescriptor.tupleSlot(cell));
        return true;
    }

    /** Frees every property of the element in header slot {@code ownerSlot} and empties its list. */
    void freeAll(int ownerSlot) {
        RowCursor cursor = new RowCursor(lists);
        cursor.open(owners.headers, ownerSlot, headField);
        while (cursor.advance()) {
            mvStore.freeChain(PropertyCellDescriptor.tupleSlot(cursor.word0));
        }
        lists.clear(owners.headers, ownerSlot, headField);
    }

    PropertyCursor newCursor() {
        return new PropertyCursor(lists, owners, headField);
    }

    private void checkKey(int keyId) {
        if (!keys.knows(keyId)) {
            throw new IllegalArgumentException("unknown property key id: " + keyId + "; intern keys through propertyKeys()");
        }
    }
}
