package io.gtran.storage;

import java.math.BigDecimal;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The one parser of gtran's settings, for every layer ({@code gtran.storage.*}, {@code gtran.txn.*},
 * {@code gtran.clock.*}, {@code gtran.cluster.*}, the graph's {@code gtran.*}): a map of keys to
 * values that may be typed or strings, as a configuration file or a Java caller gives them. Every
 * value read is kept, defaults included ({@link #effective}); every error names the key and the
 * value and says what was expected:
 * <ul>
 *   <li>{@code unknown configuration key: K=V; did you mean K2?; known keys: [...]}
 *   <li>{@code configuration K must be an integer: K=V}
 *   <li>{@code configuration K out of range [min, max]: K=V}
 *   <li>{@code configuration K must be true or false: K=V}
 * </ul>
 */
public final class Settings {
    private final Map<String, ?> raw;
    private final Map<String, Object> effective = new LinkedHashMap<>();

    private Settings(Map<String, ?> raw) {
        this.raw = raw;
    }

    /**
     * The settings of one layer: {@code raw} may hold any keys (a whole node's configuration), but
     * one under {@code prefix} that is not {@code known} is refused.
     *
     * @throws IllegalArgumentException naming the unknown key, its value, the nearest known key and every known one
     */
    public static Settings of(Map<String, ?> raw, String prefix, Set<String> known) {
        for (Map.Entry<String, ?> e : raw.entrySet()) {
            if (e.getKey().startsWith(prefix) && !known.contains(e.getKey())) {
                throw unknownKey(e.getKey(), e.getValue(), known);
            }
        }
        return new Settings(raw);
    }

    /** {@code unknown configuration key: K=V; did you mean K2?; known keys: [...]}. */
    public static IllegalArgumentException unknownKey(String key, Object value, Collection<String> known) {
        return new IllegalArgumentException("unknown configuration key: " + key + "=" + value + didYouMean(key, known)
                + "; known keys: " + new TreeSet<>(known));
    }

    /** {@code "; did you mean K?"} for the known key K nearest to a misspelt {@code key}, or "" if none is near. */
    public static String didYouMean(String key, Collection<String> known) {
        String best = null;
        int bestDistance = 3; // more edits than this is another key, not a typo
        for (String candidate : new TreeSet<>(known)) {
            int distance = editDistance(key, candidate);
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return best == null ? "" : "; did you mean " + best + "?";
    }

    /** Levenshtein distance: insertions, deletions and substitutions turning {@code a} into {@code b}. */
    private static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    /** Records {@code value} as the one in force for {@code key}. */
    private <T> T keep(String key, T value) {
        effective.put(key, value);
        return value;
    }

    /**
     * An integer in {@code [min, max]}, {@code fallback} if absent: an integral number, or a string
     * of digits (underscores allowed). A fraction, or a number too large for a long, is refused.
     */
    public int integer(String key, int fallback, int min, int max) {
        return keep(key, (int) parseLong(key, fallback, min, max));
    }

    /** As {@link #integer}, for a long. */
    public long longValue(String key, long fallback, long min, long max) {
        return keep(key, parseLong(key, fallback, min, max));
    }

    /** The value as text, trimmed, {@code fallback} if absent or blank. */
    public String text(String key, String fallback) {
        Object value = raw.get(key);
        String text = value == null ? "" : value.toString().trim();
        return keep(key, text.isEmpty() ? fallback : text);
    }

    /** {@code true} or {@code false} (any case), {@code fallback} if absent. */
    public boolean bool(String key, boolean fallback) {
        Object value = raw.get(key);
        if (value == null) {
            return keep(key, fallback);
        }
        return keep(key, bool(key, value));
    }

    /** {@code value} of {@code key} as a boolean: a Boolean, or {@code true}/{@code false} in any case. */
    public static boolean bool(String key, Object value) {
        if (value instanceof Boolean b) {
            return b;
        }
        String text = value.toString().trim();
        if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(text);
        }
        throw new IllegalArgumentException("configuration " + key + " must be true or false: " + key + "=" + value);
    }

    /** Every key read, with the value in force, defaults included, in the order read. */
    public Map<String, Object> effective() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(effective));
    }

    private long parseLong(String key, long fallback, long min, long max) {
        Object value = raw.get(key);
        long v;
        if (value == null) {
            v = fallback;
        } else if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            v = ((Number) value).longValue();
        } else if (value instanceof Number n && !(value instanceof Double) && !(value instanceof Float)) {
            v = exactLong(key, n);
        } else if (value instanceof String s) {
            try {
                v = Long.parseLong(s.trim().replace("_", ""));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("configuration " + key + " must be an integer: " + key + "=" + value);
            }
        } else {
            throw new IllegalArgumentException("configuration " + key + " must be an integer: " + key + "=" + value + " ("
                    + value.getClass().getSimpleName() + ")");
        }
        if (v < min || v > max) {
            throw new IllegalArgumentException("configuration " + key + " out of range [" + min + ", " + max + "]: " + key + "="
                    + value);
        }
        return v;
    }

    /**
     * Other integral {@link Number}s (BigInteger, BigDecimal, AtomicLong...): only an exact integer
     * that fits a long, since {@link Number#longValue()} would silently drop a fraction or high bits.
     */
    private static long exactLong(String key, Number n) {
        BigDecimal d;
        try {
            d = new BigDecimal(n.toString());
        } catch (NumberFormatException e) {
            d = null;
        }
        if (d == null || (d.signum() != 0 && d.stripTrailingZeros().scale() > 0)) {
            throw new IllegalArgumentException("configuration " + key + " must be an integer: " + key + "=" + n + " ("
                    + n.getClass().getSimpleName() + ")");
        }
        try {
            return d.longValueExact();
        } catch (ArithmeticException tooLarge) {
            throw new IllegalArgumentException("configuration " + key + " out of range [" + Long.MIN_VALUE + ", " + Long.MAX_VALUE
                    + "]: " + key + "=" + n);
        }
    }
}
