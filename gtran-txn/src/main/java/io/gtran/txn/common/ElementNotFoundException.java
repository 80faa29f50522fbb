package io.gtran.txn.common;

import io.gtran.storage.ElementIds;

/** An element id that names no vertex or edge visible to the transaction. */
public final class ElementNotFoundException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final long elementId;

    public ElementNotFoundException(String what, long elementId) {
        super(what + " not found (or not visible to this transaction): id=" + ElementIds.toString(elementId));
        this.elementId = elementId;
    }

    /** The exception another node raised, carried to the coordinator with its message. */
    public ElementNotFoundException(String message, long elementId, boolean fromAnotherNode) {
        super(message);
        this.elementId = elementId;
    }

    public long elementId() {
        return elementId;
    }
}
