package io.gtran.txn.query;

import io.gtran.txn.common.ElementKind;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a coordinator read ahead of other nodes' elements with {@link Transaction#readMany}: their
 * labels and property values, kept for the transaction's later single reads of the same elements
 * so those need no request. Each was recorded as a read at its owner when it was fetched, under
 * the same keys a single read records, so answering from here changes nothing SR validation sees;
 * the snapshot does not change under the transaction (a version it pre-read from a validating
 * writer binds it to that writer's commit), so a value read twice is the same value. Only the
 * transaction's own writes change what it sees: it forgets everything on any write
 * ({@link #clear}). One per transaction, used from its thread.
 */
public final class ReadAhead {
    /** Elements kept at most; past this all are dropped, so a long scan stays bounded. */
    public static final int CAPACITY = 1 << 16;
    /** {@link Entry#label} before the label was read. */
    public static final int NO_LABEL = -1;

    /** One element: seen (it is visible), maybe its label, and the properties read. */
    public static final class Entry {
        public int label = NO_LABEL;
        /** Stored values by key id, null for a key the element does not have. */
        public final Map<Integer, Object> values = new HashMap<>();
        /** Every property was read: a key missing from {@link #values} is one the element does not have. */
        public Map<Integer, Object> all;
    }

    private final Map<Long, Entry> vertices = new HashMap<>();
    private final Map<Long, Entry> edges = new HashMap<>();

    private Map<Long, Entry> of(ElementKind kind) {
        return kind == ElementKind.VERTEX ? vertices : edges;
    }

    /** The entry for an element, or null if nothing was read ahead for it. */
    public Entry get(ElementKind kind, long element) {
        return of(kind).get(element);
    }

    /** The entry to fill for an element the owner said is visible, made if new. */
    public Entry put(ElementKind kind, long element) {
        Map<Long, Entry> map = of(kind);
        if (map.size() >= CAPACITY && !map.containsKey(element)) {
            map.clear(); // bounded: a later read of a dropped element just asks its owner again
        }
        return map.computeIfAbsent(element, e -> new Entry());
    }

    /** Whether {@code entry} answers a read of labels ({@code label}) and of {@code keys} (null: all). */
    public static boolean answers(Entry entry, boolean label, int[] keys) {
        if (entry == null || label && entry.label == NO_LABEL) {
            return false;
        }
        if (entry.all != null) {
            return true;
        }
        if (keys == null) {
            return false;
        }
        for (int key : keys) {
            if (!entry.values.containsKey(key)) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code entry} holds the value under {@code key} (which may be "none"). */
    public static boolean hasValue(Entry entry, int key) {
        return entry != null && (entry.all != null || entry.values.containsKey(key));
    }

    /** The stored value under {@code key}, null if none; only where {@link #hasValue}. */
    public static Object value(Entry entry, int key) {
        return entry.all != null ? entry.all.get(key) : entry.values.get(key);
    }

    /** A copy of every property, in key order, as {@link Transaction#vertexProperties} returns it. */
    public static Map<Integer, Object> all(Entry entry) {
        return new LinkedHashMap<>(entry.all);
    }

    /** Forgets everything: the transaction wrote, and what it read ahead may no longer be what it sees. */
    public void clear() {
        vertices.clear();
        edges.clear();
    }
}
