package io.gtran.check.history;

import java.util.Arrays;

/**
 * One micro-operation of a list-append transaction: {@code append key value}, or {@code read key}
 * with the list it returned ({@code null} while the read has not completed, as in a transaction
 * that aborted inside it).
 */
public record Op(Type type, int key, int value, int[] read) {
    /** The two micro-operations of the list-append workload. */
    public enum Type { APPEND, READ }

    /** Read lists longer than this are shown abbreviated in {@link #toString}. */
    private static final int SHOWN = 6;

    public Op {
        if (key < 0) {
            throw new IllegalArgumentException("key must be non-negative: key=" + key);
        }
        if (type == Type.APPEND && value < 0) {
            throw new IllegalArgumentException("appended value must be non-negative: value=" + value);
        }
    }

    public static Op append(int key, int value) {
        return new Op(Type.APPEND, key, value, null);
    }

    /** A completed read of {@code key} that returned {@code values} (empty for an empty list). */
    public static Op read(int key, int... values) {
        return new Op(Type.READ, key, -1, values.clone());
    }

    public boolean isAppend() {
        return type == Type.APPEND;
    }

    /** Whether this is a read that returned a list. */
    public boolean isCompletedRead() {
        return type == Type.READ && read != null;
    }

    @Override
    public String toString() {
        if (type == Type.APPEND) {
            return "[a k" + key + " " + value + "]";
        }
        return "[r k" + key + " " + show(read) + "]";
    }

    /** A list as {@code [1,2,3]}; a long one as {@code [(812) ...,805,811,812]}. */
    static String show(int[] list) {
        if (list == null) {
            return "?";
        }
        if (list.length <= SHOWN) {
            return Arrays.toString(list).replace(" ", "");
        }
        StringBuilder b = new StringBuilder("[(").append(list.length).append(") ...");
        for (int i = list.length - SHOWN / 2; i < list.length; i++) {
            b.append(',').append(list[i]);
        }
        return b.append(']').toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Op other && type == other.type && key == other.key && value == other.value
                && Arrays.equals(read, other.read);
    }

    @Override
    public int hashCode() {
        return (type.hashCode() * 31 + key) * 31 + value + Arrays.hashCode(read);
    }
}
