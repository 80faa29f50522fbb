package io.gtran.storage;

/** Base of the store's checked conditions; every message names what was wrong and its value. */
public class StoreException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public StoreException(String message) {
        super(message);
    }
}
