package io.gtran.core;

import io.gtran.txn.ConflictKey;
import io.gtran.txn.Transaction;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ConcurrentSkipListSet;
import org.apache.tinkerpop.gremlin.process.traversal.Compare;
import org.apache.tinkerpop.gremlin.process.traversal.Contains;
import org.apache.tinkerpop.gremlin.process.traversal.P;

/**
 * One property-value index: normalised value to the ids of the elements that have it (see {@link
 * Indexes} for what it promises). Values that Gremlin's {@code eq} finds equal (1, 1L, 1.0) share a
 * normalised key; an ordered index sorts numbers numerically, then strings, booleans and other
 * values by type.
 */
final class PropertyIndex {
    final String key;
    final Indexes.Type type;
    private final long tag;
    /** Values by normalised key; an ordered index keeps only numbers, strings and booleans here, sorted. */
    private final Map<Object, Set<Long>> entries;
    /** An ordered index's other values (no order Gremlin defines across them), by equality. */
    private final Map<Object, Set<Long>> unordered;
    private volatile boolean ready;

    PropertyIndex(String key, Indexes.Type type, int number) {
        this.key = key;
        this.type = type;
        this.tag = Indexes.indexTag(number);
        this.entries = type == Indexes.Type.HASH ? new ConcurrentHashMap<>() : new ConcurrentSkipListMap<>(ORDER);
        this.unordered = type == Indexes.Type.HASH ? entries : new ConcurrentHashMap<>();
    }

    /** Marks the index filled: from now on look-ups use it. */
    void ready() {
        ready = true;
    }

    boolean isReady() {
        return ready;
    }

    private Map<Object, Set<Long>> mapFor(Object normalized) {
        return rank(normalized) <= 3 ? entries : unordered;
    }

    void add(Object value, long elementId) {
        if (value == null) {
            return; // null matches no look-up predicate
        }
        Object key = normalize(value);
        mapFor(key).computeIfAbsent(key, v -> new ConcurrentSkipListSet<>()).add(elementId);
    }

    /** The conflict key of one value of this index. */
    ConflictKey conflictKey(Object value) {
        return ConflictKey.custom(tag, hash(normalize(value)));
    }

    /** An ordered index is also read as a whole (range look-ups), so every write touches it. */
    void wholeIndexWritten(Transaction txn) {
        if (type == Indexes.Type.ORDERED) {
            txn.recordWrite(ConflictKey.custom(tag, Indexes.wholeIndex()));
        }
    }

    boolean canAnswer(P<?> predicate) {
        if (Indexes.isEquality(predicate)) {
            Object value = predicate.getValue();
            if (predicate.getBiPredicate() == Contains.within) {
                return ((Collection<?>) value).stream().allMatch(PropertyIndex::indexable);
            }
            return indexable(value);
        }
        if (type != Indexes.Type.ORDERED) {
            return false;
        }
        Object bound = predicate.getValue();
        if (!(bound instanceof Number || bound instanceof String) || bound instanceof Number n && Double.isNaN(n.doubleValue())) {
            return false; // other types and NaN compare with nothing in a range; a scan answers
        }
        return predicate.getBiPredicate() == Compare.gt || predicate.getBiPredicate() == Compare.gte
                || predicate.getBiPredicate() == Compare.lt || predicate.getBiPredicate() == Compare.lte;
    }

    /**
     * Whether equality with {@code value} can be looked up: not null (the index holds no nulls), and
     * not a collection, map or array (Gremlin compares their elements by value, 1 equal to 1.0, which
     * the element's own equals does not).
     */
    private static boolean indexable(Object value) {
        return value != null && !(value instanceof Collection) && !(value instanceof Map) && !value.getClass().isArray();
    }

    /** Candidates (a superset) for {@code predicate}, which {@link #canAnswer} accepted. */
    long[] lookUp(Transaction txn, P<?> predicate, java.util.function.LongPredicate inStore) {
        List<Set<Long>> hits = new ArrayList<>();
        if (predicate.getBiPredicate() == Compare.eq) {
            txn.recordRead(conflictKey(predicate.getValue()));
            addIfPresent(hits, predicate.getValue());
        } else if (predicate.getBiPredicate() == Contains.within) {
            for (Object value : (Collection<?>) predicate.getValue()) {
                txn.recordRead(conflictKey(value));
                addIfPresent(hits, value);
            }
        } else {
            txn.recordRead(ConflictKey.custom(tag, Indexes.wholeIndex()));
            hits.addAll(range(predicate).values());
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
                    hit.remove(id); // freed by GC: dead to every transaction, so the entry can go
                    continue;
                }
                if (at == ids.length) {
                    ids = java.util.Arrays.copyOf(ids, ids.length * 2 + 1); // grew since counted
                }
                ids[at++] = id;
            }
        }
        long[] result = at == ids.length ? ids : java.util.Arrays.copyOf(ids, at);
        return hits.size() > 1 ? java.util.Arrays.stream(result).distinct().toArray() : result;
    }

    private void addIfPresent(List<Set<Long>> hits, Object value) {
        if (value == null) {
            return;
        }
        Object key = normalize(value);
        Set<Long> ids = mapFor(key).get(key);
        if (ids != null) {
            hits.add(ids);
        }
    }

    private NavigableMap<Object, Set<Long>> range(P<?> predicate) {
        NavigableMap<Object, Set<Long>> ordered = (NavigableMap<Object, Set<Long>>) entries;
        Object bound = normalize(predicate.getValue());
        // only values of the bound's kind compare with it (numbers with numbers, strings with strings)
        Object low = bound instanceof String ? "" : Double.NEGATIVE_INFINITY;
        Object high = bound instanceof String ? HIGHEST_STRING : Double.POSITIVE_INFINITY;
        // bounds inclusive: a long that rounds to the bound's double may still lie strictly beyond it
        if (predicate.getBiPredicate() == Compare.gt || predicate.getBiPredicate() == Compare.gte) {
            return ordered.subMap(bound, true, high, true);
        }
        return ordered.subMap(low, true, bound, true);
    }

    /** A sentinel above every string in {@link #ORDER}. */
    private static final Object HIGHEST_STRING = new Object();

    /**
     * The key values share that Gremlin may find equal: every number as its double (Gremlin compares
     * mixed numeric types through doubles, so 1, 1L, 1.0 and, near 2^63, Long.MAX_VALUE and 2^63 as a
     * double meet; distinct longs that round to one double just share a key, and the re-check sorts
     * them out). -0.0 stays apart from 0.0, as Gremlin orders them.
     */
    static Object normalize(Object value) {
        if (value instanceof Number number) {
            return number.doubleValue();
        }
        return value;
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

    /** How many (value, element) entries the index holds; for tests. */
    int entryCount() {
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
        return key + "(" + type.name().toLowerCase(java.util.Locale.ROOT) + ")";
    }
}
