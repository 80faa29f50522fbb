package io.gtran.storage;

/**
 * What vertices and edges have in common in a {@link GraphStore}: a header with a label and a
 * begin and an end time word, a VP/EP row-list holding a chain of versions per property key, and
 * a map of user-supplied ids. {@link GraphStore#vertices()} and {@link GraphStore#edges()} are the
 * two tables; a layer that treats both kinds alike (the MV-OCC layer does) picks one and calls the
 * same methods on it. What only one kind has stays on {@link GraphStore}: creating elements
 * ({@code addVertex}, {@code addEdge}), adjacency, an edge's endpoints, and removal (an edge's
 * removal takes its cells out of its endpoints' lists; a vertex's needs its edges gone first).
 *
 * <p>Ids are the store's ({@link ElementIds}) and must be of this table's kind. A method given an
 * id that names no live element of this table on this node throws {@link UnknownElementException}.
 * A header word read through an id is checked against the id afterwards, so a word read from a
 * slot freed and reused meanwhile is never taken for the old element's.
 */
public interface ElementTable {
    /** Whether {@code id} names a live element of this table here. */
    boolean contains(long id);

    /** The element's label id (the store's {@link GraphStore#labels() label dictionary}). */
    int label(long id);

    /** The element's begin time word: opaque to the store, given meaning by the MV-OCC layer. */
    long beginTime(long id);

    /** The element's end time word. */
    long endTime(long id);

    /** CAS of the begin time word; false, changing nothing, if it no longer holds {@code expected}. */
    boolean compareAndSetBeginTime(long id, long expected, long value);

    /** CAS of the end time word; false, changing nothing, if it no longer holds {@code expected}. */
    boolean compareAndSetEndTime(long id, long expected, long value);

    /** Live elements of this table. */
    int count();

    /** The id in header slot {@code slot} if that slot holds a live element, else {@link ElementIds#NONE}; for full scans. */
    long idAtSlot(int slot);

    /**
     * The last id header slot {@code slot} carried, whether its element is live, not yet
     * published or removed (the id its dead marker keeps), or {@link ElementIds#NONE} for a slot
     * never used and the reserved slot 0; for snapshots, so that a restart hands no id out twice.
     */
    long lastIdAtSlot(int slot);

    /** One past the highest header slot ever used; full scans run slots [0, this). */
    int slotLimit();

    /**
     * Adds a full version (own begin/end time) of a property as its newest, linked to the previous
     * newest. Returns the new version's handle.
     */
    int addPropertyVersion(long id, int keyId, Object value, long beginTime, long endTime);

    /** As {@link #addPropertyVersion} for bytes a layer above serialized. */
    int addSerializedPropertyVersion(long id, int keyId, byte[] serialized, long beginTime, long endTime);

    /**
     * Gives a property its first version as a {@link BaseVersionDescriptor base version}, whose
     * begin/end time are the element's: for properties written by the same write that created the
     * element. Returns the version handle. For values the store held already (restoring a snapshot
     * or log), so {@code gtran.storage.value.max-bytes} does not bound it: a limit lowered since a
     * value was acknowledged must not stop the store from coming back with it.
     *
     * @throws IllegalStateException if the property already has a version
     */
    int addPropertyBase(long id, int keyId, Object value);

    /** As {@link #addPropertyBase} for bytes a layer above serialized. */
    int addSerializedPropertyBase(long id, int keyId, byte[] serialized);

    /**
     * Swings a property's newest-version link from {@code expected} to {@code replacement} (for
     * instance a base version to its {@link MvStore#materialize materialized} tuple). Returns false,
     * changing nothing, if the newest version is no longer {@code expected}.
     *
     * @throws IllegalArgumentException if {@code replacement} is not a live version, or the key id is unknown
     */
    boolean replacePropertyVersion(long id, int keyId, int expected, int replacement);

    /**
     * Links a version made with {@link MvStore#createVersion} (or a base version) as the newest of a
     * property, if the newest is still {@code expectedNewest} ({@link MvTupleDescriptor#NO_TUPLE}: no
     * version yet). Unlike {@link #addPropertyVersion}, which always links on top of whatever is
     * newest, this is a compare-and-link: false, changing nothing, if another writer linked first.
     * The caller chose the version's older link.
     *
     * @throws IllegalArgumentException if {@code version} is not live or the key id is unknown
     */
    boolean linkPropertyVersion(long id, int keyId, int expectedNewest, int version);

    /**
     * Removes a property's cell if it still links {@code expectedNewest}, freeing no version: the
     * caller frees the unlinked chain when no reader can still be walking it.
     */
    boolean unlinkProperty(long id, int keyId, int expectedNewest);

    /** The newest version of a property, or {@link MvTupleDescriptor#NO_TUPLE}. */
    int propertyVersion(long id, int keyId);

    /** A reusable cursor over an element's property keys; see {@link PropertyCursor}. */
    PropertyCursor newPropertyCursor();

    /**
     * Removes a property's cell and frees all its versions; false if it had none. For the garbage
     * collector, which guarantees no transaction can still need them.
     */
    boolean removeProperty(long id, int keyId);

    /** The map of user-supplied ids of this table's elements. */
    ExternalIdMap externalIds();
}
