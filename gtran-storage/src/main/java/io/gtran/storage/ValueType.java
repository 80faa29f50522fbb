package io.gtran.storage;

import java.nio.charset.StandardCharsets;

/**
 * Type tags of property values in an MV-tuple. Scalars are stored inline in the tuple's value word;
 * {@link #STRING}, {@link #BYTES} and {@link #SERIALIZED} store a value-region link there.
 * {@link #SERIALIZED} is opaque bytes that a layer above encoded (lists, maps, dates...); the store
 * hands them back as bytes with the tag so that layer can decode them.
 */
public enum ValueType {
    BOOLEAN(1), BYTE(2), SHORT(3), CHAR(4), INT(5), LONG(6), FLOAT(7), DOUBLE(8),
    STRING(9), BYTES(10), SERIALIZED(11);

    private static final ValueType[] BY_TAG = new ValueType[12];

    static {
        for (ValueType t : values()) {
            BY_TAG[t.tag] = t;
        }
    }

    final byte tag;

    ValueType(int tag) {
        this.tag = (byte) tag;
    }

    public byte tag() {
        return tag;
    }

    public boolean inline() {
        return tag <= DOUBLE.tag;
    }

    /** @throws IllegalStateException if {@code tag} is not a known type tag (corrupt or foreign data) */
    public static ValueType ofTag(byte tag) {
        if (tag <= 0 || tag >= BY_TAG.length || BY_TAG[tag] == null) {
            throw new IllegalStateException("unknown value type tag: " + tag);
        }
        return BY_TAG[tag];
    }

    /** The type of a Java value the store can hold directly, or null if it must be serialized above. */
    public static ValueType of(Object value) {
        if (value instanceof Integer) {
            return INT;
        } else if (value instanceof String) {
            return STRING;
        } else if (value instanceof Long) {
            return LONG;
        } else if (value instanceof Double) {
            return DOUBLE;
        } else if (value instanceof Boolean) {
            return BOOLEAN;
        } else if (value instanceof Float) {
            return FLOAT;
        } else if (value instanceof Short) {
            return SHORT;
        } else if (value instanceof Byte) {
            return BYTE;
        } else if (value instanceof Character) {
            return CHAR;
        } else if (value instanceof byte[]) {
            return BYTES;
        } else if (value instanceof SerializedValue) {
            return SERIALIZED;
        }
        return null;
    }

    /**
     * The UTF-8 bytes of {@code s}, which decode back to exactly {@code s}.
     * {@link String#getBytes} would silently replace an unpaired surrogate with {@code '?'}, so the
     * string read back (or the id looked up) would be a different one.
     *
     * @param what names the string in the error, e.g. {@code "string value"}
     * @throws IllegalArgumentException naming the index of an unpaired surrogate
     */
    static byte[] utf8(String s, String what) {
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++;
                } else {
                    throw new IllegalArgumentException(what + " has an unpaired surrogate, which UTF-8 cannot hold: index=" + i
                            + " char=\\u" + Integer.toHexString(c) + "; serialize it as bytes");
                }
            }
        }
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The inline value word of a scalar. */
    static long encodeInline(ValueType type, Object value) {
        switch (type) {
            case BOOLEAN: return ((Boolean) value) ? 1L : 0L;
            case BYTE: return (Byte) value;
            case SHORT: return (Short) value;
            case CHAR: return (Character) value;
            case INT: return (Integer) value;
            case LONG: return (Long) value;
            case FLOAT: return Float.floatToRawIntBits((Float) value);
            case DOUBLE: return Double.doubleToRawLongBits((Double) value);
            default: throw new IllegalArgumentException("not an inline type: " + type);
        }
    }

    static Object decodeInline(ValueType type, long word) {
        switch (type) {
            case BOOLEAN: return word != 0;
            case BYTE: return (byte) word;
            case SHORT: return (short) word;
            case CHAR: return (char) word;
            case INT: return (int) word;
            case LONG: return word;
            case FLOAT: return Float.intBitsToFloat((int) word);
            case DOUBLE: return Double.longBitsToDouble(word);
            default: throw new IllegalArgumentException("not an inline type: " + type);
        }
    }
}
