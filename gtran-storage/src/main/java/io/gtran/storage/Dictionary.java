package io.gtran.storage;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Interns strings (labels, property keys) as dense non-negative ints. Ids are never reused.
 * Lookups are lock-free; a new string takes the monitor.
 */
public final class Dictionary {
    /** Returned by {@link #find} for a string that was never interned. */
    public static final int ABSENT = -1;

    private final String what;
    private final String capacityKey;
    private final int max;
    private final ConcurrentHashMap<String, Integer> ids = new ConcurrentHashMap<>();
    private volatile String[] names = new String[16];
    private int size;

    Dictionary(String what, String capacityKey, int max) {
        this.what = what;
        this.capacityKey = capacityKey;
        this.max = max;
    }

    /** The id of {@code name}, interning it if new. */
    public int intern(String name) {
        if (name == null) {
            throw new IllegalArgumentException(what + " must not be null");
        }
        Integer id = ids.get(name);
        return id != null ? id : internSlow(name);
    }

    /** The id of {@code name}, or {@link #ABSENT}. */
    public int find(String name) {
        if (name == null) {
            throw new IllegalArgumentException(what + " must not be null");
        }
        Integer id = ids.get(name);
        return id == null ? ABSENT : id;
    }

    /**
     * The string of {@code id}.
     *
     * @throws IllegalArgumentException if no string has that id
     */
    public String name(int id) {
        String[] table = names;
        if (id < 0 || id >= table.length || table[id] == null) {
            throw new IllegalArgumentException("unknown " + what + " id: " + id);
        }
        return table[id];
    }

    public int size() {
        return ids.size();
    }

    /** Every interned string, in id order. */
    public synchronized List<String> names() {
        List<String> out = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            out.add(names[i]);
        }
        return out;
    }

    private synchronized int internSlow(String name) {
        Integer existing = ids.get(name);
        if (existing != null) {
            return existing;
        }
        if (size >= max) {
            throw new StoreCapacityException(what + " dictionary full: capacity=" + max + " while adding '" + name + "'; raise " + capacityKey);
        }
        int id = size;
        String[] table = names;
        if (id >= table.length) {
            table = java.util.Arrays.copyOf(table, table.length * 2);
        }
        table[id] = name;
        names = table;
        size++;
        ids.put(name, id);
        return id;
    }
}
