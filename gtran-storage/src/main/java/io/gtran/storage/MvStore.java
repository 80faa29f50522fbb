package io.gtran.storage;

import static io.gtran.storage.MvTupleDescriptor.BEGIN_TIME_OFFSET;
import static io.gtran.storage.MvTupleDescriptor.END_TIME_OFFSET;
import static io.gtran.storage.MvTupleDescriptor.NO_TUPLE;
import static io.gtran.storage.MvTupleDescriptor.OLDER_OFFSET;
import static io.gtran.storage.MvTupleDescriptor.TYPE_OFFSET;
import static io.gtran.storage.MvTupleDescriptor.VALUE_OFFSET;

import java.nio.charset.StandardCharsets;

/**
 * The multi-version key-value store (MV-KVS): the MV-tuple region, base versions and the value
 * region.
 *
 * <p>Versions are named by int handles ({@link MvTupleDescriptor#isBase} tells the two kinds
 * apart): full {@link MvTupleDescriptor MV-tuples} with their own begin/end time words, and
 * {@link BaseVersionDescriptor base versions}, which inherit their element's times and are
 * always the oldest version of their property.
 *
 * <p>A version is written completely before anything links to it. A published version's value
 * never changes and its older link changes only when GC cuts off versions no reader can need; a
 * full tuple's begin/end time words are the MV-OCC layer's to change, with CAS. So a reader that
 * reached a version through a validated link may read it without locks.
 */
public final class MvStore implements AutoCloseable {
    private final SlotPool tuples;
    private final SlotPool bases;
    private final ValueRegion values;

    MvStore(StoreConfig config) {
        int max = Math.min(config.mvTuplesMax, MvTupleDescriptor.MAX_SLOT + 1);
        this.tuples = new SlotPool("mv-tuple", MvTupleDescriptor.LENGTH, config.slotsPerChunk(MvTupleDescriptor.LENGTH), max);
        this.bases = SlotPool.withSideParts("mv-base", BaseVersionDescriptor.LENGTH, BaseVersionDescriptor.SIDE_LENGTH,
                config.slotsPerChunk(BaseVersionDescriptor.LENGTH + BaseVersionDescriptor.SIDE_LENGTH), max);
        this.values = new ValueRegion(config);
    }

    /**
     * Creates a full version holding {@code value} that links to {@code older} ({@link
     * MvTupleDescriptor#NO_TUPLE} for the first version). Returns its handle.
     *
     * @throws IllegalArgumentException if the value's type cannot be stored (serialize it above)
     * @throws ValueTooLargeException   if a string or byte array exceeds the configured maximum
     * @throws StoreCapacityException   if the tuple pool or the value region is full; nothing is kept
     */
    public int createVersion(Object value, long beginTime, long endTime, int older) {
        ValueType type = storableType(value);
        return createTuple(type, valueWord(type, value), beginTime, endTime, older);
    }

    /**
     * Creates a full version holding bytes a layer above serialized, tagged {@link ValueType#SERIALIZED}.
     *
     * @throws IllegalArgumentException if {@code serialized} is null
     */
    public int createSerializedVersion(byte[] serialized, long beginTime, long endTime, int older) {
        return createTuple(ValueType.SERIALIZED, values.store(requireSerialized(serialized)), beginTime, endTime, older);
    }

    /**
     * Creates a base version: no time words, validity inherited from the element it is created
     * with. Returns its handle.
     */
    public int createBaseVersion(Object value) {
        ValueType type = storableType(value);
        return createBase(type, valueWord(type, value));
    }

    /**
     * {@link #createBaseVersion} for a value the store held already (restored from a snapshot or
     * log): not bounded by {@code gtran.storage.value.max-bytes}, which bounds what a write adds.
     */
    public int createHeldBaseVersion(Object value) {
        ValueType type = storableType(value);
        return createBase(type, heldValueWord(type, value));
    }

    public int createSerializedBaseVersion(byte[] serialized) {
        return createBase(ValueType.SERIALIZED, values.store(requireSerialized(serialized)));
    }

    /**
     * Creates a full version with the same value as {@code base}, the given times and no older
     * version: what the MV-OCC layer puts in a base version's place before updating the property.
     * The base version itself stays valid until GC frees it, so readers holding it are unaffected.
     *
     * @throws IllegalArgumentException if {@code base} is not a live base version: a freed one's
     *                                  slot holds a free-list link, not its value
     */
    public int materialize(int base, long beginTime, long endTime) {
        requireBase(base);
        if (!isLive(base)) {
            throw new IllegalArgumentException("base version is not live: version=" + base);
        }
        int slot = MvTupleDescriptor.slot(base);
        ValueType type = ValueType.ofTag(bases.getSideByte(slot, BaseVersionDescriptor.TYPE_SIDE_OFFSET));
        long word = bases.getLong(slot, BaseVersionDescriptor.VALUE_OFFSET);
        if (!type.inline()) {
            // The base version keeps its own copy: each version frees its own value.
            word = values.storeHeld(values.load(word));
        }
        return createTuple(type, word, beginTime, endTime, NO_TUPLE);
    }

    private int createTuple(ValueType type, long word, long beginTime, long endTime, int older) {
        if (older != NO_TUPLE && !isLive(older)) {
            releaseWord(type, word);
            throw new IllegalArgumentException("older version is not live: older=" + older);
        }
        int slot = tuples.allocate();
        if (slot == SlotPool.NO_SLOT) {
            releaseWord(type, word);
            throw StoreCapacityException.poolExhausted(tuples, StoreConfig.MV_TUPLES_MAX);
        }
        tuples.putLong(slot, VALUE_OFFSET, word);
        tuples.putInt(slot, OLDER_OFFSET, older);
        tuples.putByte(slot, TYPE_OFFSET, type.tag);
        tuples.putLong(slot, END_TIME_OFFSET, endTime);
        tuples.putLongRelease(slot, BEGIN_TIME_OFFSET, beginTime);
        return slot;
    }

    private int createBase(ValueType type, long word) {
        int slot = bases.allocate();
        if (slot == SlotPool.NO_SLOT) {
            releaseWord(type, word);
            throw StoreCapacityException.poolExhausted(bases, StoreConfig.MV_TUPLES_MAX);
        }
        bases.putSideByte(slot, BaseVersionDescriptor.TYPE_SIDE_OFFSET, type.tag);
        bases.putLongRelease(slot, BaseVersionDescriptor.VALUE_OFFSET, word);
        return MvTupleDescriptor.baseHandle(slot);
    }

    public static boolean isBase(int version) {
        return MvTupleDescriptor.isBase(version);
    }

    /** @throws IllegalStateException for a base version, whose times are its element's */
    public long beginTime(int version) {
        return tuples.getLongAcquire(fullSlot(version), BEGIN_TIME_OFFSET);
    }

    /** @throws IllegalStateException for a base version, whose times are its element's */
    public long endTime(int version) {
        return tuples.getLongAcquire(fullSlot(version), END_TIME_OFFSET);
    }

    public boolean compareAndSetBeginTime(int version, long expected, long value) {
        return tuples.compareAndSetLong(fullSlot(version), BEGIN_TIME_OFFSET, expected, value);
    }

    public boolean compareAndSetEndTime(int version, long expected, long value) {
        return tuples.compareAndSetLong(fullSlot(version), END_TIME_OFFSET, expected, value);
    }

    public void putBeginTimeRelease(int version, long value) {
        tuples.putLongRelease(fullSlot(version), BEGIN_TIME_OFFSET, value);
    }

    public void putEndTimeRelease(int version, long value) {
        tuples.putLongRelease(fullSlot(version), END_TIME_OFFSET, value);
    }

    /** The next older version, or {@link MvTupleDescriptor#NO_TUPLE}; always NO_TUPLE for a base version. */
    public int older(int version) {
        return isBase(version) ? NO_TUPLE : tuples.getInt(version, OLDER_OFFSET);
    }

    public ValueType type(int version) {
        return isBase(version)
                ? ValueType.ofTag(bases.getSideByte(MvTupleDescriptor.slot(version), BaseVersionDescriptor.TYPE_SIDE_OFFSET))
                : ValueType.ofTag(tuples.getByte(version, TYPE_OFFSET));
    }

    /** The stored value: a boxed scalar, a String, a byte[] (BYTES) or a {@link SerializedValue}. */
    public Object value(int version) {
        ValueType type = type(version);
        long word = inlineWord(version);
        if (type.inline()) {
            return ValueType.decodeInline(type, word);
        }
        byte[] bytes = values.load(word);
        if (type == ValueType.SERIALIZED) {
            return new SerializedValue(bytes);
        }
        return type == ValueType.STRING ? new String(bytes, StandardCharsets.UTF_8) : bytes;
    }

    /** The raw value word: a scalar's bits, or a value-region link; for hot paths that avoid boxing. */
    public long inlineWord(int version) {
        return isBase(version)
                ? bases.getLong(MvTupleDescriptor.slot(version), BaseVersionDescriptor.VALUE_OFFSET)
                : tuples.getLong(version, VALUE_OFFSET);
    }

    public boolean isLive(int version) {
        if (version == NO_TUPLE) {
            return false;
        }
        return isBase(version) ? bases.isAllocated(MvTupleDescriptor.slot(version)) : tuples.isAllocated(version);
    }

    /**
     * Recycles one version and its value. The caller (GC) guarantees no reader can reach it: it is
     * unlinked from its chain and older than every active transaction.
     */
    public void freeVersion(int version) {
        ValueType type = type(version);
        long word = inlineWord(version);
        if (isBase(version)) {
            bases.free(MvTupleDescriptor.slot(version));
        } else {
            tuples.free(version);
        }
        releaseWord(type, word);
    }

    /**
     * Cuts the chain after {@code version}: its older link becomes {@link MvTupleDescriptor#NO_TUPLE}.
     * Returns the first version cut off, for the caller to free.
     *
     * @throws IllegalArgumentException if {@code version} is a full tuple that is not live: a freed
     *                                  tuple still holds its old older link, which may name versions
     *                                  now reused by other properties
     */
    public int truncateAfter(int version) {
        if (isBase(version)) {
            return NO_TUPLE; // a base version is always the oldest
        }
        if (!isLive(version)) {
            throw new IllegalArgumentException("version is not live: version=" + version);
        }
        int older = older(version);
        tuples.putInt(version, OLDER_OFFSET, NO_TUPLE);
        return older;
    }

    /** Frees {@code version} and every older version. Returns how many were freed. */
    public int freeChain(int version) {
        int freed = 0;
        while (version != NO_TUPLE) {
            int older = older(version);
            freeVersion(version);
            freed++;
            version = older;
        }
        return freed;
    }

    /** Versions currently allocated, full tuples and base versions together. */
    public int liveVersions() {
        return tuples.liveSlots() + bases.liveSlots();
    }

    public long liveValues() {
        return values.liveValues();
    }

    long reservedBytes() {
        return tuples.reservedBytes() + bases.reservedBytes() + values.reservedBytes();
    }

    @Override
    public void close() {
        tuples.close();
        bases.close();
        values.close();
    }

    private static ValueType storableType(Object value) {
        ValueType type = ValueType.of(value);
        if (type == null) {
            throw new IllegalArgumentException("property value type not storable: "
                    + (value == null ? "null" : value.getClass().getName()) + "; serialize it as bytes");
        }
        return type;
    }

    private long valueWord(ValueType type, Object value) {
        return type.inline() ? ValueType.encodeInline(type, value) : values.store(bytesOf(type, value));
    }

    /** {@link #valueWord} for a value the store held already (restored): not bounded by the value limit. */
    private long heldValueWord(ValueType type, Object value) {
        return type.inline() ? ValueType.encodeInline(type, value) : values.storeHeld(bytesOf(type, value));
    }

    private static byte[] bytesOf(ValueType type, Object value) {
        if (type == ValueType.SERIALIZED) {
            return ((SerializedValue) value).bytes();
        }
        return type == ValueType.STRING ? ValueType.utf8((String) value, "string value") : (byte[]) value;
    }

    private static byte[] requireSerialized(byte[] serialized) {
        if (serialized == null) {
            throw new IllegalArgumentException("serialized value must not be null: serialized=null");
        }
        return serialized;
    }

    private void releaseWord(ValueType type, long word) {
        if (!type.inline()) {
            values.free(word);
        }
    }

    private static int fullSlot(int version) {
        if (isBase(version)) {
            throw new IllegalStateException("a base version has no time words; it inherits its element's: version=" + version);
        }
        return version;
    }

    private static void requireBase(int version) {
        if (!isBase(version)) {
            throw new IllegalArgumentException("not a base version: version=" + version);
        }
    }
}
