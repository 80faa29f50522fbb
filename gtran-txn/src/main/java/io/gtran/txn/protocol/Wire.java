package io.gtran.txn.protocol;

import io.gtran.storage.SerializedValue;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The byte layout of cluster messages (commit and remote operations): big-endian numbers, a
 * participant list as a count and 2-byte node ids, strings as a length and UTF-8, property values
 * as a type byte and their bytes.
 */
public final class Wire {
    private static final int NULL = 0;
    private static final int BOOLEAN = 1;
    private static final int BYTE = 2;
    private static final int SHORT = 3;
    private static final int CHAR = 4;
    private static final int INT = 5;
    private static final int LONG = 6;
    private static final int FLOAT = 7;
    private static final int DOUBLE = 8;
    private static final int STRING = 9;
    private static final int BYTES = 10;
    private static final int SERIALIZED = 11;
    /** Not a property value: user-supplied element ids may be UUIDs. */
    private static final int UUID = 12;

    private Wire() {
    }

    /** Writes a message; every put returns the writer. */
    public static final class Writer {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream(32);

        public Writer putByte(int value) {
            out.write(value);
            return this;
        }

        public Writer putBoolean(boolean value) {
            return putByte(value ? 1 : 0);
        }

        public Writer putInt(int value) {
            for (int shift = 24; shift >= 0; shift -= 8) {
                out.write(value >>> shift);
            }
            return this;
        }

        public Writer putLong(long value) {
            for (int shift = 56; shift >= 0; shift -= 8) {
                out.write((int) (value >>> shift));
            }
            return this;
        }

        public Writer putLongs(long[] values) {
            putInt(values.length);
            for (long v : values) {
                putLong(v);
            }
            return this;
        }

        public Writer putParticipants(int[] nodes) {
            putShort(nodes.length);
            for (int n : nodes) {
                putShort(n);
            }
            return this;
        }

        /** A string, or null. */
        public Writer putString(String value) {
            if (value == null) {
                return putInt(-1);
            }
            return putBytes(value.getBytes(StandardCharsets.UTF_8));
        }

        public Writer putBytes(byte[] bytes) {
            putInt(bytes.length);
            out.write(bytes, 0, bytes.length);
            return this;
        }

        /**
         * A property value the store can hold (or null).
         *
         * @throws IllegalArgumentException for a value of another type
         */
        public Writer putValue(Object value) {
            if (value == null) {
                return putByte(NULL);
            } else if (value instanceof Boolean b) {
                return putByte(BOOLEAN).putBoolean(b);
            } else if (value instanceof Byte b) {
                return putByte(BYTE).putByte(b);
            } else if (value instanceof Short s) {
                return putByte(SHORT).putInt(s);
            } else if (value instanceof Character c) {
                return putByte(CHAR).putInt(c);
            } else if (value instanceof Integer i) {
                return putByte(INT).putInt(i);
            } else if (value instanceof Long l) {
                return putByte(LONG).putLong(l);
            } else if (value instanceof Float f) {
                return putByte(FLOAT).putInt(Float.floatToRawIntBits(f));
            } else if (value instanceof Double d) {
                return putByte(DOUBLE).putLong(Double.doubleToRawLongBits(d));
            } else if (value instanceof String s) {
                return putByte(STRING).putString(s);
            } else if (value instanceof byte[] b) {
                return putByte(BYTES).putBytes(b);
            } else if (value instanceof SerializedValue s) {
                return putByte(SERIALIZED).putBytes(s.bytes());
            } else if (value instanceof java.util.UUID u) {
                return putByte(UUID).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits());
            }
            throw new IllegalArgumentException("a property value of type " + value.getClass().getName()
                    + " cannot be sent to another node; the store holds booleans, numbers, chars, strings, bytes and serialized values");
        }

        private void putShort(int value) {
            out.write(value >>> 8);
            out.write(value);
        }

        public byte[] bytes() {
            return out.toByteArray();
        }
    }

    /** Reads a message written by {@link Writer}, in the same order. */
    public static final class Reader {
        private final ByteBuffer in;

        public Reader(byte[] bytes) {
            this.in = ByteBuffer.wrap(bytes);
        }

        public int getByte() {
            return in.get() & 0xFF;
        }

        public boolean getBoolean() {
            return in.get() != 0;
        }

        public int getInt() {
            return in.getInt();
        }

        public long getLong() {
            return in.getLong();
        }

        public long[] getLongs() {
            long[] values = new long[in.getInt()];
            for (int i = 0; i < values.length; i++) {
                values[i] = in.getLong();
            }
            return values;
        }

        public int[] getParticipants() {
            int count = in.getShort() & 0xFFFF;
            int[] nodes = new int[count];
            for (int i = 0; i < count; i++) {
                nodes[i] = in.getShort() & 0xFFFF;
            }
            return nodes;
        }

        public String getString() {
            int length = in.getInt();
            if (length < 0) {
                return null;
            }
            String s = new String(in.array(), in.position(), length, StandardCharsets.UTF_8);
            in.position(in.position() + length);
            return s;
        }

        public byte[] getBytes() {
            int length = in.getInt();
            if (length < 0 || length > in.remaining()) {
                throw new IllegalArgumentException("a field of " + length + " bytes with " + in.remaining() + " left");
            }
            byte[] bytes = new byte[length];
            in.get(bytes);
            return bytes;
        }

        public Object getValue() {
            int type = getByte();
            switch (type) {
                case NULL: return null;
                case BOOLEAN: return getBoolean();
                case BYTE: return (byte) getByte();
                case SHORT: return (short) getInt();
                case CHAR: return (char) getInt();
                case INT: return getInt();
                case LONG: return getLong();
                case FLOAT: return Float.intBitsToFloat(getInt());
                case DOUBLE: return Double.longBitsToDouble(getLong());
                case STRING: return getString();
                case BYTES: return getBytes();
                case SERIALIZED: return new SerializedValue(getBytes());
                case UUID: return new java.util.UUID(getLong(), getLong());
                default: throw new IllegalStateException("unknown value type on the wire: " + type);
            }
        }
    }
}
