package io.gtran.txn;

import io.gtran.txn.common.ConflictKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.function.LongPredicate;

/**
 * One property-value index of one node: normalised value to the ids of this node's elements that
 * have it, in some version that may still be visible, committed or not. A look-up gives
 * candidates, a superset that the caller re-reads in its own snapshot (see gtran-core's {@code
 * Indexes} for what that promises). Values that Gremlin's {@code eq} finds equal (1, 1L, 1.0)
 * share a normalised key; an ordered index sorts numbers numerically, then strings and booleans,
 * and keeps other values apart, by equality only.
 *
 * <p>Phantoms: a look-up records reads of the keys it asked ({@link #conflictKey} of each value,
 * or the whole index for a range), and every write of an indexed property records writes of the
 * old and new values' keys (and the whole index, if ordered); all in the transaction's part on
 * this node, so validation here sees them (docs/cluster-transactions.md, "Property indexes").
 */
public final class ValueIndex {
    /** Look-up modes: values equal to one of the given ones, or at least / at most one bound (inclusive). */
    public static final int EQUAL = 0;
    public static final int AT_LEAST = 1;
    public static final int AT_MOST = 2;

    private static final long INDEX_TAG = 0x494E_4445_5800_0000L; // "INDEX"
    private static final long WHOLE_INDEX = Long.MIN_VALUE;
    /** A sentinel above every string in {@link #ORDER}. */
    private static final Object HIGHEST_STRING = new Object();

    final String key;
    final boolean ordered;
    private final long tag;
    /** Values by normalised key; an ordered index keeps only numbers, strings and booleans here, sorted. */
    private final Map<Object, Set<Long>> entries;
    /** An ordered index's other values (no order Gremlin defines across them), by equality. */
    private final Map<Object, Set<Long>> unordered;
    private volatile boolean ready;

    ValueIndex(String key, boolean ordered, int number) {
        this.key = key;
        this.ordered = ordered;
        this.tag = INDEX_TAG | number;
        this.entries = ordered ? new ConcurrentSkipListMap<>(ORDER) : new ConcurrentHashMap<>();
        this.unordered = ordered ? new ConcurrentHashMap<>() : entries;
    }

    public String key() {
        return key;
    }

    public boolean isOrdered() {
        return ordered;
    }

    /** Whether look-ups may use it: filled, on this node. */
    public boolean isReady() {
        return ready;
    }

    void ready() {
        ready = true;
    }

    private Map<Object, Set<Long>> mapFor(Object normalized) {
        return rank(normalized) <= 3 ? entries : unordered;
    }

    /** Adds an entry for {@code value} (null: none; null matches no look-up). */
    public void add(Object value, long elementId) {
        if (value == null) {
            return;
        }
        Object key = normalize(value);
        mapFor(key).computeIfAbsent(key, v -> new ConcurrentSkipListSet<>()).add(elementId);
    }

    /** The conflict key of one value of this index. */
    public ConflictKey conflictKey(Object value) {
        return ConflictKey.custom(tag, hash(normalize(value)));
    }

    /**
     * Records that {@code txn} changed which elements have {@code before} and {@code after} (either
     * may be empty), adding the entries of {@code after} for {@code elementId}.
     */
    public void written(Transaction txn, long elementId, Object[] before, Object[] after) {
        for (Object value : before) {
            txn.recordWrite(conflictKey(value));
        }
        for (Object value : after) {
            add(value, elementId);
            txn.recordWrite(conflictKey(value));
        }
        if (ordered) {
            txn.recordWrite(ConflictKey.custom(tag, WHOLE_INDEX)); // range look-ups read the whole index
        }
    }

    /**
     * Candidates (a superset) for a look-up in {@code mode} with {@code values} (the values for
     * {@link #EQUAL}, the one bound otherwise), recording its reads in {@code txn}. Entries of
     * elements {@code inStore} no longer has (freed by GC, dead to every transaction) are dropped.
     */
    public long[] lookUp(Transaction txn, int mode, Object[] values, LongPredicate inStore) {
        List<Set<Long>> hits = new ArrayList<>();
        if (mode == EQUAL) {
            for (Object value : values) {
                txn.recordRead(conflictKey(value));
                if (value != null) {
                    Object key = normalize(value);
                    Set<Long> ids = mapFor(key).get(key);
                    if (ids != null) {
                        hits.add(ids);
                    }
                }
            }
        } else {
            if (!ordered) {
                throw new IllegalArgumentException("a hash index answers equality only: key=" + key);
            }
            txn.recordRead(ConflictKey.custom(tag, WHOLE_INDEX));
            hits.addAll(range(mode == AT_LEAST, values[0]).values());
        }
        int total = 0;
        for (Set<Long> hit : hits) {
            total += hit.size();
        }
        long[] ids = new long[total];
        int at = 0;
        for (Set<Long> hit : hits) {
            for (Long id : hit) {
                if (!inStore.test(id)) {
                    hit.remove(id);
                    continue;
                }
                if (at == ids.length) {
                    ids = Arrays.copyOf(ids, ids.length * 2 + 1); // grew since counted
                }
                ids[at++] = id;
            }
        }
        long[] result = at == ids.length ? ids : Arrays.copyOf(ids, at);
        return hits.size() > 1 ? Arrays.stream(result).distinct().toArray() : result;
    }

    private NavigableMap<Object, Set<Long>> range(boolean atLeast, Object boundValue) {
        NavigableMap<Object, Set<Long>> sorted = (NavigableMap<Object, Set<Long>>) entries;
        Object bound = normalize(boundValue);
        if (!(bound instanceof Double || bound instanceof String)) {
            throw new IllegalArgumentException("a range look-up's bound must be a number or a string: " + boundValue);
        }
        // only values of the bound's kind compare with it (numbers with numbers, strings with strings)
        Object low = bound instanceof String ? "" : Double.NEGATIVE_INFINITY;
        Object high = bound instanceof String ? HIGHEST_STRING : Double.POSITIVE_INFINITY;
        // bounds inclusive: a long that rounds to the bound's double may still lie strictly beyond it
        return atLeast ? sorted.subMap(bound, true, high, true) : sorted.subMap(low, true, bound, true);
    }

    /**
     * The key values share that Gremlin may find equal: every number as its double (Gremlin compares
     * mixed numeric types through doubles, so 1, 1L, 1.0 and, near 2^63, Long.MAX_VALUE and 2^63 as a
     * double meet; distinct longs that round to one double just share a key, and the re-check sorts
     * them out). -0.0 stays apart from 0.0, as Gremlin orders them.
     */
    public static Object normalize(Object value) {
        if (value instanceof Number number) {
            return number.doubleValue();
        }
        return value;
    }

    /**
     * Whether {@code value} can be sent to another node for an index (the fabric's wire format
     * carries it): booleans, numbers (sent as their normalised doubles), characters, strings and
     * UUIDs. Other values are indexed by the node that owns the element only when it is the
     * coordinator, and look-ups of them scan on a cluster.
     */
    public static boolean travels(Object value) {
        return value instanceof Boolean || value instanceof Number || value instanceof Character || value instanceof String
                || value instanceof java.util.UUID;
    }

    private static long hash(Object normalized) {
        return normalized == null ? 0 : normalized.hashCode() * 0x9E37_79B9_7F4A_7C15L + normalized.getClass().getName().hashCode();
    }

    private static int rank(Object v) {
        if (v instanceof Number) {
            return 0;
        }
        if (v instanceof String) {
            return 1;
        }
        if (v == HIGHEST_STRING) {
            return 2;
        }
        if (v instanceof Boolean) {
            return 3;
        }
        return 4;
    }

    static final Comparator<Object> ORDER = (a, b) -> {
        int ra = rank(a);
        int rb = rank(b);
        if (ra != rb) {
            return Integer.compare(ra, rb);
        }
        switch (ra) {
            case 0:
                return Double.compare(((Number) a).doubleValue(), ((Number) b).doubleValue());
            case 1:
                return ((String) a).compareTo((String) b);
            case 2:
                return 0;
            case 3:
                return Boolean.compare((Boolean) a, (Boolean) b);
            default:
                throw new IllegalStateException("unordered values are not kept in the sorted map: " + a.getClass().getName());
        }
    };

    /** How many (value, element) entries the index holds. */
    public int entryCount() {
        int n = 0;
        for (Set<Long> ids : entries.values()) {
            n += ids.size();
        }
        if (unordered != entries) {
            for (Set<Long> ids : unordered.values()) {
                n += ids.size();
            }
        }
        return n;
    }

    @Override
    public String toString() {
        return key + "(" + (ordered ? "ordered" : "hash") + ")";
    }
}
