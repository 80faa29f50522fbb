package io.gtran.storage;

import static io.gtran.storage.MvTupleDescriptor.BEGIN_TIME_OFFSET;
import static io.gtran.storage.MvTupleDescriptor.END_TIME_OFFSET;
import static io.gtran.storage.MvTupleDescriptor.NO_TUPLE;
import static io.gtran.storage.MvTupleDescriptor.OLDER_OFFSET;
import static io.gtran.storage.MvTupleDescriptor.TYPE_OFFSET;
import static io.gtran.storage.MvTupleDescriptor.VALUE_OFFSET;

import java.nio.charset.StandardCharsets;

/**
 * The multi-version key-value store (MV-KVS): the MV-tuple region and the value region.
 *
 * <p>A tuple is written completely before anything links to it, and a published tuple's value
 * never changes and its older link changes only when GC cuts off versions no reader can need;
 * its begin/end time words are the MV-OCC layer's to change, with CAS. So a reader that reached a
 * tuple through a validated link may read it without locks.
 */
public final class MvStore implements AutoCloseable {
    private final SlotPool tuples;
    private final ValueRegion values;

    MvStore(StoreConfig config) {
        this.tuples = new SlotPool("mv-tuple", MvTupleDescriptor.LENGTH,
                config.slotsPerChunk(MvTupleDescriptor.LENGTH), config.mvTuplesMax);
        this.values = new ValueRegion(config);
    }

    /**
     * Creates a version holding {@code value} that links to {@code older} ({@link
     * MvTupleDescriptor#NO_TUPLE} for the first version). Returns the new tuple's slot.
     *
     * @throws IllegalArgumentException if the value's type cannot be stored (serialize it above)
     * @throws ValueTooLargeException   if a string or byte array exceeds the configured maximum
     * @throws StoreCapacityException   if the tuple pool or the value region is full; nothing is kept
     */
    public int createVersion(Object value, long beginTime, long endTime, int older) {
        ValueType type = ValueType.of(value);
        if (type == null) {
            throw new IllegalArgumentException("property value type not storable: "
                    + (value == null ? "null" : value.getClass().getName()) + "; serialize it as bytes");
        }
        return createVersion(type, type == ValueType.BYTES ? (byte[]) value : null, value, beginTime, endTime, older);
    }

    /** Creates a version holding bytes a layer above serialized, tagged {@link ValueType#SERIALIZED}. */
    public int createSerializedVersion(byte[] serialized, long beginTime, long endTime, int older) {
        return createVersion(ValueType.SERIALIZED, serialized, null, beginTime, endTime, older);
    }

    private int createVersion(ValueType type, byte[] bytes, Object value, long beginTime, long endTime, int older) {
        if (older != NO_TUPLE && !tuples.isAllocated(older)) {
            throw new IllegalArgumentException("older version is not a live tuple: older=" + older);
        }
        long word;
        if (type.inline()) {
            word = ValueType.encodeInline(type, value);
        } else {
            byte[] payload = type == ValueType.STRING ? ((String) value).getBytes(StandardCharsets.UTF_8) : bytes;
            word = values.store(payload);
        }
        int slot = tuples.allocate();
        if (slot == SlotPool.NO_SLOT) {
            if (!type.inline()) {
                values.free(word);
            }
            throw StoreCapacityException.poolExhausted(tuples, StoreConfig.MV_TUPLES_MAX);
        }
        tuples.putLong(slot, VALUE_OFFSET, word);
        tuples.putInt(slot, OLDER_OFFSET, older);
        tuples.putByte(slot, TYPE_OFFSET, type.tag);
        tuples.putLong(slot, END_TIME_OFFSET, endTime);
        tuples.putLongRelease(slot, BEGIN_TIME_OFFSET, beginTime);
        return slot;
    }

    public long beginTime(int tuple) {
        return tuples.getLongAcquire(tuple, BEGIN_TIME_OFFSET);
    }

    public long endTime(int tuple) {
        return tuples.getLongAcquire(tuple, END_TIME_OFFSET);
    }

    public boolean compareAndSetBeginTime(int tuple, long expected, long value) {
        return tuples.compareAndSetLong(tuple, BEGIN_TIME_OFFSET, expected, value);
    }

    public boolean compareAndSetEndTime(int tuple, long expected, long value) {
        return tuples.compareAndSetLong(tuple, END_TIME_OFFSET, expected, value);
    }

    public void putBeginTimeRelease(int tuple, long value) {
        tuples.putLongRelease(tuple, BEGIN_TIME_OFFSET, value);
    }

    public void putEndTimeRelease(int tuple, long value) {
        tuples.putLongRelease(tuple, END_TIME_OFFSET, value);
    }

    /** The next older version, or {@link MvTupleDescriptor#NO_TUPLE}. */
    public int older(int tuple) {
        return tuples.getInt(tuple, OLDER_OFFSET);
    }

    public ValueType type(int tuple) {
        return ValueType.ofTag(tuples.getByte(tuple, TYPE_OFFSET));
    }

    /** The stored value: a boxed scalar, a String, a byte[] (BYTES and SERIALIZED). */
    public Object value(int tuple) {
        ValueType type = type(tuple);
        long word = tuples.getLong(tuple, VALUE_OFFSET);
        if (type.inline()) {
            return ValueType.decodeInline(type, word);
        }
        byte[] bytes = values.load(word);
        return type == ValueType.STRING ? new String(bytes, StandardCharsets.UTF_8) : bytes;
    }

    /** The inline value word of a scalar version, for hot paths that avoid boxing. */
    public long inlineWord(int tuple) {
        return tuples.getLong(tuple, VALUE_OFFSET);
    }

    public boolean isLive(int tuple) {
        return tuples.isAllocated(tuple);
    }

    /**
     * Recycles one version and its value. The caller (GC) guarantees no reader can reach it: it is
     * unlinked from its chain and older than every active transaction.
     */
    public void freeVersion(int tuple) {
        ValueType type = type(tuple);
        long word = tuples.getLong(tuple, VALUE_OFFSET);
        tuples.free(tuple);
        if (!type.inline()) {
            values.free(word);
        }
    }

    /**
     * Cuts the chain after {@code tuple}: its older link becomes {@link MvTupleDescriptor#NO_TUPLE}.
     * Returns the first version cut off, for the caller to free.
     */
    public int truncateAfter(int tuple) {
        int older = older(tuple);
        tuples.putInt(tuple, OLDER_OFFSET, NO_TUPLE);
        return older;
    }

    /** Frees {@code tuple} and every older version. Returns how many were freed. */
    public int freeChain(int tuple) {
        int freed = 0;
        while (tuple != NO_TUPLE) {
            int older = older(tuple);
            freeVersion(tuple);
            freed++;
            tuple = older;
        }
        return freed;
    }

    public int liveVersions() {
        return tuples.liveSlots();
    }

    public long liveValues() {
        return values.liveValues();
    }

    long reservedBytes() {
        return tuples.reservedBytes() + values.reservedBytes();
    }

    @Override
    public void close() {
        tuples.close();
        values.close();
    }
}
