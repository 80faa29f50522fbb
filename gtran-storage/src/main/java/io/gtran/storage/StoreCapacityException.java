package io.gtran.storage;

/** A pool or dictionary is full. Nothing was changed by the failed call. */
public final class StoreCapacityException extends StoreException {
    private static final long serialVersionUID = 1L;

    public StoreCapacityException(String message) {
        super(message);
    }

    static StoreCapacityException poolExhausted(SlotPool pool, String configKey) {
        return poolExhausted(pool.name(), pool.maxSlots(), configKey);
    }

    /** For a pool whose usable capacity differs from its slot count (a header table keeps slot 0). */
    static StoreCapacityException poolExhausted(String pool, int capacity, String configKey) {
        return new StoreCapacityException("pool exhausted: pool=" + pool + " capacity=" + capacity + " slots; raise " + configKey);
    }
}
