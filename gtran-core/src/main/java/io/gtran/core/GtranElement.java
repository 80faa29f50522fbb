package io.gtran.core;

import io.gtran.storage.UnknownElementException;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.ElementNotFoundException;
import org.apache.tinkerpop.gremlin.structure.Element;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.util.ElementHelper;

/**
 * A vertex or edge of a {@link GtranGraph}: a reference by internal id. Every read and write
 * goes through the calling thread's transaction, so the same object shows each transaction its
 * own snapshot (and its own writes).
 */
abstract class GtranElement implements Element {
    final GtranGraph graph;
    final long internalId;
    /** The id users see; resolved on first use when the element came from a scan. */
    private Object id;
    /** The label, which never changes; read from the store on first use when not known. */
    private String label;

    GtranElement(GtranGraph graph, long internalId, Object id, String label) {
        this.graph = graph;
        this.internalId = internalId;
        this.id = id;
        this.label = label;
    }

    /** Vertex or edge, as gtran-txn names the kind. */
    abstract ElementKind elementKind();

    abstract Class<? extends Element> kind();

    @Override
    public Object id() {
        Object known = id;
        if (known == null) {
            known = graph.ids.exposed(internalId, elementKind());
            id = known;
        }
        return known;
    }

    @Override
    public String label() {
        String known = label;
        if (known == null) {
            try {
                known = graph.labelOf(elementKind(), internalId);
            } catch (UnknownElementException gone) {
                throw removed();
            }
            label = known;
        }
        return known;
    }

    @Override
    public Graph graph() {
        return graph;
    }

    /** This thread's transaction, with the element visible in it. */
    final GtranTransaction.Scope visibleScope() {
        GtranTransaction.Scope scope = graph.transaction().scope();
        boolean visible;
        try {
            visible = scope.txn().exists(elementKind(), internalId);
        } catch (RuntimeException e) {
            throw scope.translate(e); // a dependency wait can end in a conflict
        }
        if (!visible) {
            throw removed();
        }
        return scope;
    }

    final IllegalStateException removed() {
        return alreadyRemoved(kind(), id());
    }

    /** TinkerPop's wording for an element used after its removal. */
    static IllegalStateException alreadyRemoved(Class<? extends Element> kind, Object id) {
        return new IllegalStateException(String.format("%s with id %s was removed.", kind.getSimpleName(), id));
    }

    /** Translates what the transaction threw: conflicts abort, a vanished element is "already removed". */
    final RuntimeException translate(GtranTransaction.Scope scope, RuntimeException e) {
        if (e instanceof ElementNotFoundException) {
            return removed();
        }
        return scope.translate(e);
    }

    @Override
    public boolean equals(Object other) {
        return ElementHelper.areEqual(this, other);
    }

    @Override
    public int hashCode() {
        return ElementHelper.hashCode(this);
    }
}
