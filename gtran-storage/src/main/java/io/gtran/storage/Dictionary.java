package io.gtran.storage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Interns strings (labels, property keys) as non-negative ints. Ids are never reused. Lookups are
 * lock-free; a new string takes the monitor.
 *
 * <p>Alone, a dictionary gives ids densely, in the order strings are first interned, after the
 * highest of those it was given back after a restart ({@link #restore}). Given an
 * {@link Authority} ({@link #useAuthority}), a string it does not know yet takes the id the
 * authority gives it, so several dictionaries with the same authority agree on every id; each then
 * holds only the strings it was asked about, and its ids may have gaps.
 */
public final class Dictionary {
    /** Returned by {@link #find} for a string that was never interned. */
    public static final int ABSENT = -1;

    /** Where a dictionary takes the ids of strings it does not know yet. */
    @FunctionalInterface
    public interface Authority {
        /**
         * The id of {@code name}: if {@code create}, interning it if new; else {@link #ABSENT} if
         * it was never interned.
         *
         * @throws RuntimeException if the authority cannot answer; nothing was recorded here then
         */
        int idOf(String name, boolean create);
    }

    /** Told of each id a name gets here, so that the assignment can be logged (see {@link #onNewId}). */
    @FunctionalInterface
    public interface IdListener {
        void assigned(int id, String name);
    }

    private final String what;
    private final String capacityKey;
    private final int max;
    private final ConcurrentHashMap<String, Integer> ids = new ConcurrentHashMap<>();
    /** By id; null where this dictionary does not know the id (with an authority, or an id never restored). */
    private volatile String[] names = new String[16];
    /** The next id given here: one past the highest id given or restored. */
    private int size;
    private volatile Authority authority;
    /** Guarded by the monitor. */
    private IdListener listener;

    Dictionary(String what, String capacityKey, int max) {
        this.what = what;
        this.capacityKey = capacityKey;
        this.max = max;
    }

    /**
     * Makes {@code a} the source of the ids of strings new here. Set once, before any string is
     * interned or found here.
     *
     * @throws IllegalStateException if an authority is set already or a string is known here
     */
    public synchronized void useAuthority(Authority a) {
        if (a == null) {
            throw new IllegalArgumentException(what + " dictionary: authority must not be null");
        }
        if (authority != null) {
            throw new IllegalStateException(what + " dictionary has an authority already");
        }
        if (!ids.isEmpty()) {
            throw new IllegalStateException(what + " dictionary holds " + ids.size()
                    + " strings already: set its authority before first use");
        }
        authority = a;
    }

    /**
     * Makes {@code l} be told of every name that gets an id here from now on through
     * {@link #intern}, {@link #answer} or {@link #find} (with an authority, the id it gave), but not
     * through {@link #restore}. It is called under this dictionary's monitor once the id is chosen
     * and before any other call can see it, so without an authority the calls come in id order, and
     * a name is never used before it is logged. If it throws, the name gets no id here and the
     * exception goes to the caller of {@code intern}. Set once.
     *
     * @throws IllegalStateException if a listener is set already
     */
    public synchronized void onNewId(IdListener l) {
        if (l == null) {
            throw new IllegalArgumentException(what + " dictionary: listener must not be null");
        }
        if (listener != null) {
            throw new IllegalStateException(what + " dictionary has an id listener already");
        }
        listener = l;
    }

    /**
     * Gives {@code name} exactly {@code id}, as it had before a restart. Ids may be restored in any
     * order and with gaps, which stay unknown; afterwards {@link #intern} gives a new name the id
     * after the highest one here. Restoring a name with the id it has already changes nothing. On
     * a dictionary with an authority, a restored id is one the authority gave before the restart.
     *
     * @throws IllegalArgumentException naming the conflict if the name has another id here, the id
     *                                  another name, or the id is outside 0..capacity-1
     */
    public synchronized void restore(int id, String name) {
        check(name);
        if (id < 0 || id >= max) {
            throw new IllegalArgumentException("cannot restore " + what + " '" + name + "' as id " + id + ": ids are 0.."
                    + (max - 1) + " (" + capacityKey + "=" + max + ")");
        }
        Integer existing = ids.get(name);
        if (existing != null && existing != id) {
            throw new IllegalArgumentException("cannot restore " + what + " '" + name + "' as id " + id + ": it has id " + existing);
        }
        String[] table = names;
        if (id < table.length && table[id] != null && !table[id].equals(name)) {
            throw new IllegalArgumentException("cannot restore " + what + " '" + name + "' as id " + id + ": the id is '"
                    + table[id] + "'");
        }
        if (existing == null) {
            put(name, id);
            size = Math.max(size, id + 1);
        }
    }

    /** The id of {@code name}, interning it if new (asking the authority, if there is one). */
    public int intern(String name) {
        check(name);
        Integer id = ids.get(name);
        if (id != null) {
            return id;
        }
        Authority a = authority;
        if (a == null) {
            return internSlow(name);
        }
        // Asked without the monitor: other strings need not wait for the authority's answer.
        return record(name, a.idOf(name, true));
    }

    /** The id of {@code name}, or {@link #ABSENT} (asking the authority, if there is one). */
    public int find(String name) {
        check(name);
        Integer id = ids.get(name);
        if (id != null) {
            return id;
        }
        Authority a = authority;
        if (a == null) {
            return ABSENT;
        }
        int found = a.idOf(name, false);
        return found == ABSENT ? ABSENT : record(name, found);
    }

    /**
     * The answer of this dictionary as the authority of others: {@link #intern} if {@code create},
     * else {@link #find}.
     */
    public int answer(String name, boolean create) {
        return create ? intern(name) : find(name);
    }

    /**
     * The string of {@code id}.
     *
     * @throws IllegalArgumentException if no string has that id here
     */
    public String name(int id) {
        String[] table = names;
        if (id < 0 || id >= table.length || table[id] == null) {
            throw new IllegalArgumentException("unknown " + what + " id: " + id);
        }
        return table[id];
    }

    /** Whether a string has id {@code id} here (ids may have gaps with an authority). */
    public boolean knows(int id) {
        String[] table = names;
        return id >= 0 && id < table.length && table[id] != null;
    }

    /** The number of strings known here. */
    public int size() {
        return ids.size();
    }

    /** Every string known here, in id order. */
    public synchronized List<String> names() {
        List<String> out = new ArrayList<>(ids.size());
        for (String name : names) {
            if (name != null) {
                out.add(name);
            }
        }
        return out;
    }

    private void check(String name) {
        if (name == null) {
            throw new IllegalArgumentException(what + " must not be null");
        }
    }

    private synchronized int internSlow(String name) {
        Integer existing = ids.get(name);
        if (existing != null) {
            return existing;
        }
        if (size >= max) {
            throw full(name, "");
        }
        tellListener(size, name);
        put(name, size);
        size++;
        return size - 1;
    }

    /** Records the id the authority gave {@code name}; another thread may have recorded it first. */
    private synchronized int record(String name, int id) {
        Integer existing = ids.get(name);
        if (existing != null) {
            if (existing != id) {
                throw new IllegalStateException(what + " '" + name + "' has id " + existing + " here but the authority"
                        + " gave id " + id);
            }
            return existing;
        }
        if (id < 0) {
            throw new IllegalStateException("the authority gave " + what + " '" + name + "' the invalid id " + id);
        }
        if (id >= max) {
            throw full(name, " (the authority gave id " + id + ")");
        }
        String[] table = names;
        if (id < table.length && table[id] != null) {
            throw new IllegalStateException("the authority gave " + what + " '" + name + "' id " + id + ", which is '"
                    + table[id] + "' here");
        }
        tellListener(id, name);
        put(name, id);
        return id;
    }

    /** Under the monitor, before the id is published: a listener that throws leaves nothing recorded. */
    private void tellListener(int id, String name) {
        if (listener != null) {
            listener.assigned(id, name);
        }
    }

    private void put(String name, int id) {
        String[] table = names;
        if (id >= table.length) {
            table = Arrays.copyOf(table, Math.max(id + 1, table.length * 2));
        }
        table[id] = name; // before the id is published: whoever finds the id finds its name
        names = table;
        ids.put(name, id);
    }

    private StoreCapacityException full(String name, String why) {
        return new StoreCapacityException(what + " dictionary full: capacity=" + max + " while adding '" + name + "'" + why
                + "; raise " + capacityKey);
    }
}
