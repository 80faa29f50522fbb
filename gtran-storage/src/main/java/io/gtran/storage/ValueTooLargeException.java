package io.gtran.storage;

/** A property value longer than {@code gtran.storage.value.max-bytes}. Nothing was stored. */
public final class ValueTooLargeException extends StoreException {
    private static final long serialVersionUID = 1L;

    public ValueTooLargeException(String message) {
        super(message);
    }
}
