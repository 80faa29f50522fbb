package io.gtran.storage;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import net.openhft.chronicle.map.ChronicleMap;

/**
 * Maps user-supplied ids (long, String, UUID) to internal element ids and back, off-heap, in two
 * Chronicle Maps. The maps are created on first use: the first Chronicle Map in a JVM takes about
 * half a second to create (later ones milliseconds), and most graphs never see a user-supplied id.
 * It took a second more, compiling a class with javac in process, before gtran-storage shipped
 * that class ({@code net.openhft.chronicle.hash.VanillaGlobalMutableState$$Native},
 * {@code ChronicleNativeClassTest}).
 *
 * <p>Keys are encoded with a type tag, so the long 1 and the string "1" are different ids.
 */
public final class ExternalIdMap implements AutoCloseable {
    /** Returned by {@link #internalId} for an unmapped external id. */
    public static final long ABSENT = ElementIds.NONE;

    private static final byte LONG_TAG = 1;
    private static final byte STRING_TAG = 2;
    private static final byte UUID_TAG = 3;
    /** Tags of the id as given, kept for {@link #externalId}; look-ups use the long form. */
    private static final byte INT_TAG = 4;
    private static final byte SHORT_TAG = 5;
    private static final byte BYTE_TAG = 6;
    private static final int MAX_STRING_BYTES = 4096;
    /**
     * Fewest entries a map is sized for: Chronicle caps an entry at one segment tier's chunks, and a
     * map sized for fewer than about 150 entries cannot hold a {@value #MAX_STRING_BYTES}-byte string id.
     */
    private static final int MIN_SIZED_ENTRIES = 256;

    private final String name;
    private final int maxEntries;
    private volatile ChronicleMap<byte[], Long> toInternal;
    private volatile ChronicleMap<Long, byte[]> toExternal;
    /** Set by {@link #close}; refuses later use, and in particular the creation of maps no one will close. */
    private volatile boolean closed;

    ExternalIdMap(String name, int maxEntries) {
        this.name = name;
        this.maxEntries = maxEntries;
    }

    /**
     * Records that {@code external} names {@code internalId}. Returns false, changing nothing, if
     * {@code external} is already mapped.
     *
     * @throws IllegalArgumentException for an id type other than Long/Integer/Short/Byte, String or UUID, or an
     *                                  over-long string, or one with an unpaired surrogate
     * @throws UnknownElementException  if {@code internalId} is not an element id at all (zero, which is
     *                                  {@link #ABSENT}, or negative)
     * @throws IllegalStateException    if {@code internalId} already has an external id, or the map is closed
     * @throws StoreCapacityException   if {@code gtran.storage.external-ids.max} entries are mapped, or
     *                                  long ids have filled the space sized for that many; nothing is kept
     */
    public boolean put(Object external, long internalId) {
        if (!ElementIds.isWellFormed(internalId)) {
            throw new UnknownElementException("cannot map external id " + external + " to internal id=" + internalId
                    + ": not a gtran element id");
        }
        byte[] key = encode(external);
        ensureMaps();
        synchronized (this) {
            ensureOpen();
            if (toInternal.containsKey(key)) {
                return false;
            }
            if (toExternal.containsKey(internalId)) {
                throw new IllegalStateException("element already has an external id: " + ElementIds.toString(internalId)
                        + " external=" + decode(toExternal.get(internalId)) + "; refusing " + external);
            }
            if (toInternal.size() >= maxEntries) {
                throw new StoreCapacityException("external id map full: entries=" + toInternal.size()
                        + " max=" + maxEntries + "; raise " + StoreConfig.EXTERNAL_IDS_MAX);
            }
            try {
                toInternal.put(key, internalId);
                try {
                    toExternal.put(internalId, exact(external, key));
                } catch (RuntimeException e) {
                    toInternal.remove(key);
                    throw e;
                }
            } catch (IllegalStateException | IllegalArgumentException e) {
                if (!toInternal.isOpen() || !toExternal.isOpen()) {
                    throw e;
                }
                // The maps are sized for ids of about 16 bytes; longer ones can fill them before maxEntries.
                StoreCapacityException full = new StoreCapacityException("external id map out of space: entries=" + toInternal.size()
                        + " max=" + maxEntries + " idBytes=" + key.length + "; raise " + StoreConfig.EXTERNAL_IDS_MAX);
                full.initCause(e);
                throw full;
            }
            return true;
        }
    }

    /** The internal id mapped to {@code external}, or {@link #ABSENT}. */
    public long internalId(Object external) {
        ensureOpen();
        ChronicleMap<byte[], Long> map = toInternal;
        if (map == null) {
            return ABSENT;
        }
        Long id = map.get(encode(external));
        return id == null ? ABSENT : id;
    }

    /** The external id of {@code internalId}, or null if it has none. */
    public Object externalId(long internalId) {
        ensureOpen();
        ChronicleMap<Long, byte[]> map = toExternal;
        if (map == null) {
            return null;
        }
        byte[] key = map.get(internalId);
        return key == null ? null : decode(key);
    }

    /** Forgets the mapping of {@code internalId}, if any. */
    public synchronized void remove(long internalId) {
        ensureOpen();
        if (toExternal == null) {
            return;
        }
        byte[] key = toExternal.remove(internalId);
        if (key != null) {
            toInternal.remove(encode(decode(key)));
        }
    }

    public long size() {
        ensureOpen();
        ChronicleMap<byte[], Long> map = toInternal;
        return map == null ? 0 : map.longSize();
    }

    /** Whether the maps exist yet (they are created by the first {@link #put}). */
    public boolean created() {
        return toInternal != null;
    }

    /** Off-heap bytes of both maps. */
    public long offHeapBytes() {
        ChronicleMap<byte[], Long> a = toInternal;
        ChronicleMap<Long, byte[]> b = toExternal;
        return (a == null ? 0 : a.offHeapMemoryUsed()) + (b == null ? 0 : b.offHeapMemoryUsed());
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (toInternal != null) {
            toInternal.close();
            toExternal.close();
        }
    }

    static byte[] encode(Object external) {
        if (external instanceof Long || external instanceof Integer || external instanceof Short || external instanceof Byte) {
            return ByteBuffer.allocate(9).put(LONG_TAG).putLong(((Number) external).longValue()).array();
        }
        if (external instanceof String s) {
            byte[] utf8 = ValueType.utf8(s, "string id");
            if (utf8.length > MAX_STRING_BYTES) {
                throw new IllegalArgumentException("string id too long: bytes=" + utf8.length + " max=" + MAX_STRING_BYTES);
            }
            return ByteBuffer.allocate(1 + utf8.length).put(STRING_TAG).put(utf8).array();
        }
        if (external instanceof UUID u) {
            return ByteBuffer.allocate(17).put(UUID_TAG).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits()).array();
        }
        throw new IllegalArgumentException("unsupported id type: "
                + (external == null ? "null" : external.getClass().getName()) + "; use a number, String or UUID");
    }

    /** The id as given: an Integer, Short or Byte keeps its type; others are their key. */
    private static byte[] exact(Object external, byte[] key) {
        byte tag = external instanceof Integer ? INT_TAG : external instanceof Short ? SHORT_TAG : external instanceof Byte ? BYTE_TAG : 0;
        if (tag == 0) {
            return key;
        }
        byte[] typed = key.clone();
        typed[0] = tag;
        return typed;
    }

    static Object decode(byte[] key) {
        ByteBuffer b = ByteBuffer.wrap(key);
        byte tag = b.get();
        switch (tag) {
            case LONG_TAG: return b.getLong();
            case INT_TAG: return (int) b.getLong();
            case SHORT_TAG: return (short) b.getLong();
            case BYTE_TAG: return (byte) b.getLong();
            case STRING_TAG: return new String(key, 1, key.length - 1, StandardCharsets.UTF_8);
            case UUID_TAG: return new UUID(b.getLong(), b.getLong());
            default: throw new IllegalStateException("corrupt external id key: tag=" + tag);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("external id map is closed: map=" + name);
        }
    }

    private void ensureMaps() {
        if (toInternal != null) {
            return;
        }
        synchronized (this) {
            ensureOpen();
            if (toInternal == null) {
                // Chronicle sizes segments for `entries`; the bloat factor lets it overflow them
                // gracefully, and put() enforces maxEntries itself.
                long entries = Math.max(maxEntries, MIN_SIZED_ENTRIES);
                toExternal = ChronicleMap.of(Long.class, byte[].class).name(name + "-to-external")
                        .entries(entries).averageValueSize(16).maxBloatFactor(2.0).create();
                toInternal = ChronicleMap.of(byte[].class, Long.class).name(name + "-to-internal")
                        .entries(entries).averageKeySize(16).maxBloatFactor(2.0).create();
            }
        }
    }
}
