package io.gtran.core;

import io.gtran.storage.Dictionary;
import io.gtran.storage.ElementIds;
import io.gtran.storage.UnknownElementException;
import io.gtran.txn.Transaction;
import io.gtran.txn.common.ElementKind;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.tinkerpop.gremlin.structure.Direction;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Element;
import org.apache.tinkerpop.gremlin.structure.Property;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.util.ElementHelper;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;

/** An edge of a {@link GtranGraph}; its label and endpoints never change, so they are read once. */
final class GtranEdge extends GtranElement implements Edge {
    private long outVertex = ElementIds.NONE;
    private long inVertex = ElementIds.NONE;

    GtranEdge(GtranGraph graph, long internalId, Object id) {
        super(graph, internalId, id, null);
    }

    GtranEdge(GtranGraph graph, long internalId, Object id, String label, long outVertex, long inVertex) {
        super(graph, internalId, id, label);
        this.outVertex = outVertex;
        this.inVertex = inVertex;
    }

    @Override
    ElementKind elementKind() {
        return ElementKind.EDGE;
    }

    @Override
    Class<? extends Element> kind() {
        return Edge.class;
    }

    long outId() {
        if (outVertex == ElementIds.NONE) {
            try {
                outVertex = graph.endpointOf(internalId, true);
            } catch (UnknownElementException gone) {
                throw removed();
            }
        }
        return outVertex;
    }

    long inId() {
        if (inVertex == ElementIds.NONE) {
            try {
                inVertex = graph.endpointOf(internalId, false);
            } catch (UnknownElementException gone) {
                throw removed();
            }
        }
        return inVertex;
    }

    @Override
    public Vertex outVertex() {
        return new GtranVertex(graph, outId(), null);
    }

    @Override
    public Vertex inVertex() {
        return new GtranVertex(graph, inId(), null);
    }

    @Override
    public Iterator<Vertex> vertices(Direction direction) {
        List<Vertex> result = new ArrayList<>(2);
        if (direction != Direction.IN) {
            result.add(outVertex());
        }
        if (direction != Direction.OUT) {
            result.add(inVertex());
        }
        return result.iterator();
    }

    @Override
    public <V> Property<V> property(String key, V value) {
        ElementHelper.validateProperty(key, value);
        if (value == null && !graph.allowNullPropertyValues) {
            removeProperty(key);
            return Property.empty();
        }
        GtranTransaction.Scope scope = visibleScope();
        try {
            return writeProperty(scope, key, value);
        } catch (RuntimeException e) {
            throw translate(scope, e);
        }
    }

    <V> Property<V> writeProperty(GtranTransaction.Scope scope, String key, V value) {
        ElementHelper.validateProperty(key, value);
        int keyId = graph.store.propertyKeys().intern(key);
        Object before = graph.indexes.isIndexed(true, key) ? value(scope, keyId) : null;
        scope.txn().setEdgeProperty(internalId, keyId, PropertyValues.toStored(value));
        graph.indexes.edgePropertyWritten(scope.txn(), internalId, key, before, value);
        return new GtranProperty<>(this, key, value);
    }

    void removeProperty(String key) {
        GtranTransaction.Scope scope = visibleScope();
        try {
            int keyId = key == null ? Dictionary.ABSENT : graph.store.propertyKeys().find(key);
            if (keyId == Dictionary.ABSENT) {
                return;
            }
            Object before = graph.indexes.isIndexed(true, key) ? value(scope, keyId) : null;
            if (scope.txn().removeEdgeProperty(internalId, keyId)) {
                graph.indexes.edgePropertyWritten(scope.txn(), internalId, key, before, null);
            }
        } catch (RuntimeException e) {
            throw translate(scope, e);
        }
    }

    /** Before the edge is removed: its indexed values go away. */
    void unindex(GtranTransaction.Scope scope) {
        for (String key : graph.indexes.indexedKeys(true)) {
            int keyId = graph.store.propertyKeys().find(key);
            if (keyId == Dictionary.ABSENT) {
                continue;
            }
            Object stored = scope.txn().edgeProperty(internalId, keyId);
            if (stored != null) {
                graph.indexes.edgePropertyWritten(scope.txn(), internalId, key, PropertyValues.fromStored(stored), null);
            }
        }
    }

    private Object value(GtranTransaction.Scope scope, int keyId) {
        Object stored = scope.txn().edgeProperty(internalId, keyId);
        return stored == null ? null : PropertyValues.fromStored(stored);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <V> Iterator<Property<V>> properties(String... propertyKeys) {
        GtranTransaction.Scope scope = graph.transaction().scope(); // property reads check visibility
        Transaction txn = scope.txn();
        try {
            boolean checked = false;
            List<Property<V>> result = new ArrayList<>();
            if (propertyKeys.length == 0) {
                for (Map.Entry<Integer, Object> stored : txn.edgeProperties(internalId).entrySet()) {
                    result.add(new GtranProperty<>(this, graph.store.propertyKeys().name(stored.getKey()),
                            (V) PropertyValues.fromStored(stored.getValue())));
                }
                return result.iterator();
            }
            for (String key : propertyKeys) {
                if (key == null) {
                    continue;
                }
                int keyId = graph.store.propertyKeys().find(key);
                if (keyId == Dictionary.ABSENT) {
                    continue;
                }
                checked = true;
                Object stored = txn.edgeProperty(internalId, keyId);
                if (stored != null) {
                    result.add(new GtranProperty<>(this, key, (V) PropertyValues.fromStored(stored)));
                }
            }
            if (!checked && !txn.edgeExists(internalId)) {
                throw removed(); // no key was read, so nothing checked the edge is still there
            }
            return result.iterator();
        } catch (RuntimeException e) {
            throw translate(scope, e);
        }
    }

    @Override
    public void remove() {
        GtranTransaction.Scope scope = visibleScope();
        try {
            unindex(scope);
            scope.txn().removeEdge(internalId);
        } catch (RuntimeException e) {
            throw translate(scope, e);
        }
    }

    @Override
    public String toString() {
        return StringFactory.edgeString(this);
    }
}
