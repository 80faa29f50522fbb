package io.gtran.storage;

import static io.gtran.storage.ValueSlotDescriptor.BYTES_OFFSET;
import static io.gtran.storage.ValueSlotDescriptor.LENGTH_OFFSET;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The MV-KVS value region: variable-length values in slot pools of graded sizes (16, 24, 32, 48,
 * 64, ... bytes, each step 1.5x or 4/3x the last, so at most a third of a slot is slack). A value
 * longer than the largest class gets a direct buffer of its own in the large-value table.
 *
 * <p>Values are immutable once stored; a new version of a property stores a new value.
 */
final class ValueRegion implements AutoCloseable {
    /** Size class of values that live in the large-value table. */
    static final int LARGE_CLASS = 255;
    private static final int SMALLEST = 16;
    private static final int LARGEST = 64 << 10;

    private final SlotPool[] classes;
    private final int maxValueBytes;
    private final long maxTotalBytes;
    private final AtomicLong largeBytes = new AtomicLong();
    private final List<ByteBuffer> large = new ArrayList<>();
    private final List<Integer> largeFree = new ArrayList<>();

    ValueRegion(StoreConfig config) {
        List<Integer> sizes = new ArrayList<>();
        int size = SMALLEST;
        while (size <= LARGEST) {
            sizes.add(size);
            int grown = size % 3 == 0 ? size / 3 * 4 : size / 2 * 3;
            size = (grown + 7) & ~7;
        }
        this.classes = new SlotPool[sizes.size()];
        for (int i = 0; i < classes.length; i++) {
            int slotSize = sizes.get(i);
            long maxSlots = Math.min(Integer.MAX_VALUE, Math.max(1, config.valuesMaxBytes / slotSize));
            classes[i] = new SlotPool("value-" + slotSize, slotSize, config.slotsPerChunk(slotSize), (int) maxSlots);
        }
        this.maxValueBytes = config.valueMaxBytes;
        this.maxTotalBytes = config.valuesMaxBytes;
    }

    /**
     * Stores {@code bytes} and returns their link.
     *
     * @throws ValueTooLargeException if longer than {@code gtran.storage.value.max-bytes}
     * @throws StoreCapacityException if the region is full
     */
    long store(byte[] bytes) {
        if (bytes.length > maxValueBytes) {
            throw new ValueTooLargeException("value too large: bytes=" + bytes.length + " max=" + maxValueBytes
                    + "; raise " + StoreConfig.VALUE_MAX_BYTES);
        }
        return storeHeld(bytes);
    }

    /**
     * Stores {@code bytes}, a value the store already held (a copy of a version's value, or one
     * restored from a snapshot or log): {@code gtran.storage.value.max-bytes} bounds what a write
     * adds, not what was acknowledged under a larger limit before.
     *
     * @throws StoreCapacityException if the region is full
     */
    long storeHeld(byte[] bytes) {
        int needed = BYTES_OFFSET + bytes.length;
        int sizeClass = classFor(needed);
        if (sizeClass == LARGE_CLASS) {
            return ValueSlotDescriptor.link(LARGE_CLASS, storeLarge(bytes));
        }
        SlotPool pool = classes[sizeClass];
        int slot = pool.allocate();
        if (slot == SlotPool.NO_SLOT) {
            throw StoreCapacityException.poolExhausted(pool, StoreConfig.VALUES_MAX_BYTES);
        }
        pool.putInt(slot, LENGTH_OFFSET, bytes.length);
        pool.putBytes(slot, BYTES_OFFSET, bytes, 0, bytes.length);
        return ValueSlotDescriptor.link(sizeClass, slot);
    }

    byte[] load(long link) {
        int sizeClass = ValueSlotDescriptor.sizeClass(link);
        int slot = ValueSlotDescriptor.slot(link);
        if (sizeClass == LARGE_CLASS) {
            ByteBuffer buffer = largeBuffer(slot);
            byte[] out = new byte[buffer.capacity()];
            buffer.get(0, out);
            return out;
        }
        SlotPool pool = pool(sizeClass, link);
        if (!pool.isAllocated(slot)) {
            throw new IllegalStateException("value link names a free slot: link=" + link);
        }
        int length = pool.getInt(slot, LENGTH_OFFSET);
        byte[] out = new byte[length];
        pool.getBytes(slot, BYTES_OFFSET, out, 0, length);
        return out;
    }

    void free(long link) {
        int sizeClass = ValueSlotDescriptor.sizeClass(link);
        int slot = ValueSlotDescriptor.slot(link);
        if (sizeClass == LARGE_CLASS) {
            synchronized (large) {
                ByteBuffer buffer = largeBuffer(slot);
                large.set(slot, null);
                largeFree.add(slot);
                largeBytes.addAndGet(-buffer.capacity());
            }
            return;
        }
        pool(sizeClass, link).free(slot);
    }

    /** Bytes of direct memory reserved by the region. */
    long reservedBytes() {
        long total = largeBytes.get();
        for (SlotPool pool : classes) {
            total += pool.reservedBytes();
        }
        return total;
    }

    /** Values currently stored. */
    long liveValues() {
        long total;
        synchronized (large) {
            total = large.size() - largeFree.size();
        }
        for (SlotPool pool : classes) {
            total += pool.liveSlots();
        }
        return total;
    }

    @Override
    public void close() {
        for (SlotPool pool : classes) {
            pool.close();
        }
        synchronized (large) {
            large.clear();
            largeFree.clear();
            largeBytes.set(0);
        }
    }

    private int classFor(int needed) {
        for (int i = 0; i < classes.length; i++) {
            if (classes[i].slotSize() >= needed) {
                return i;
            }
        }
        return LARGE_CLASS;
    }

    private SlotPool pool(int sizeClass, long link) {
        if (sizeClass < 0 || sizeClass >= classes.length) {
            throw new IllegalStateException("value link has an unknown size class: link=" + link + " class=" + sizeClass);
        }
        return classes[sizeClass];
    }

    /**
     * Reserves the value's bytes against {@code gtran.storage.values.max-bytes} before allocating, in
     * one atomic step, so concurrent stores cannot each pass the check and together exceed the cap.
     */
    private int storeLarge(byte[] bytes) {
        long reserved = largeBytes.addAndGet(bytes.length);
        if (reserved > maxTotalBytes) {
            largeBytes.addAndGet(-bytes.length);
            throw new StoreCapacityException("value region full: bytes=" + (reserved - bytes.length) + " value=" + bytes.length
                    + " max=" + maxTotalBytes + "; raise " + StoreConfig.VALUES_MAX_BYTES);
        }
        ByteBuffer buffer;
        try {
            buffer = ByteBuffer.allocateDirect(bytes.length).order(ByteOrder.nativeOrder());
        } catch (RuntimeException | OutOfMemoryError e) {
            largeBytes.addAndGet(-bytes.length);
            throw e;
        }
        buffer.put(0, bytes);
        synchronized (large) {
            if (!largeFree.isEmpty()) {
                int slot = largeFree.remove(largeFree.size() - 1);
                large.set(slot, buffer);
                return slot;
            }
            large.add(buffer);
            return large.size() - 1;
        }
    }

    private ByteBuffer largeBuffer(int slot) {
        synchronized (large) {
            ByteBuffer buffer = slot >= 0 && slot < large.size() ? large.get(slot) : null;
            if (buffer == null) {
                throw new IllegalStateException("value link names no large value: slot=" + slot);
            }
            return buffer;
        }
    }
}
