package io.gtran.storage;

/** A pool or dictionary is full. Nothing was changed by the failed call. */
public final class StoreCapacityException extends StoreException {
    private static final long serialVersionUID = 1L;

    public StoreCapacityException(String message) {
        super(message);
    }

    static StoreCapacityException poolExhausted(SlotPool pool, String configKey) {
        return new StoreCapacityException("pool exhausted: pool=" + pool.name() + " capacity=" + pool.maxSlots()
                + " slots; raise " + configKey);
    }
}
