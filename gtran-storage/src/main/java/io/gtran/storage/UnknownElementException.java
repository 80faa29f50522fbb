package io.gtran.storage;

/** An id that names no live element of this store: another node's, freed, recycled or never issued. */
public final class UnknownElementException extends StoreException {
    private static final long serialVersionUID = 1L;

    public UnknownElementException(String message) {
        super(message);
    }
}
