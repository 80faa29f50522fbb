package io.gtran.storage;

import java.util.Arrays;

/**
 * Bytes that a layer above encoded from a value the store has no type for (a list, a date, a
 * vertex property with meta-properties). Stored as {@link ValueType#SERIALIZED}, read back as a
 * {@code SerializedValue}, so the layer above can tell it from a user's {@code byte[]} value.
 */
public final class SerializedValue {
    private final byte[] bytes;

    /** @throws IllegalArgumentException if {@code bytes} is null */
    public SerializedValue(byte[] bytes) {
        if (bytes == null) {
            throw new IllegalArgumentException("serialized value must not be null: bytes=null");
        }
        this.bytes = bytes;
    }

    /** The encoded bytes; the caller must not modify them. */
    public byte[] bytes() {
        return bytes;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SerializedValue && Arrays.equals(bytes, ((SerializedValue) o).bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return "SerializedValue[" + bytes.length + " bytes]";
    }
}
