package io.gtran.txn.common;

/**
 * A user-supplied id could not be bound: another element that the binding transaction sees, or
 * that is known by that number as its internal id, already has it. The layer above translates it
 * into its own wording (gtran-core: TinkerPop's {@code Graph.Exceptions.vertexWithIdAlreadyExists}).
 * The transaction stays active; the caller decides what becomes of the element it meant to name.
 */
public final class ExternalIdTakenException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final transient ElementKind kind;
    private final transient Object id;

    public ExternalIdTakenException(ElementKind kind, Object id) {
        super(kind.display() + " with id already exists: id=" + id);
        this.kind = kind;
        this.id = id;
    }

    /** Whether a vertex or an edge id was taken. */
    public ElementKind kind() {
        return kind;
    }

    /** The id as the caller gave it. */
    public Object id() {
        return id;
    }
}
