package io.gtran.core;

import io.gtran.core.PropertyValues.Entry;
import io.gtran.storage.Dictionary;
import io.gtran.storage.EdgeCursor;
import io.gtran.storage.EdgeDirection;
import io.gtran.storage.ElementIds;
import io.gtran.txn.Transaction;
import io.gtran.txn.common.ElementKind;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.tinkerpop.gremlin.structure.Direction;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Element;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;
import org.apache.tinkerpop.gremlin.structure.util.ElementHelper;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;

/** A vertex of a {@link GtranGraph}; see {@link GtranElement}. */
final class GtranVertex extends GtranElement implements Vertex {
    GtranVertex(GtranGraph graph, long internalId, Object id) {
        super(graph, internalId, id, null);
    }

    GtranVertex(GtranGraph graph, long internalId, Object id, String label) {
        super(graph, internalId, id, label);
    }

    @Override
    ElementKind elementKind() {
        return ElementKind.VERTEX;
    }

    @Override
    Class<? extends Element> kind() {
        return Vertex.class;
    }

    // ---------------------------------------------------------------- edges

    @Override
    public Edge addEdge(String label, Vertex inVertex, Object... keyValues) {
        if (inVertex == null) {
            throw Graph.Exceptions.argumentCanNotBeNull("inVertex");
        }
        ElementHelper.validateLabel(label);
        ElementHelper.legalPropertyKeyValueArray(keyValues);
        Object userId = ElementHelper.getIdValue(keyValues).orElse(null);
        if (userId != null) {
            GtranIds.normalize(userId, Edge.class); // refuse a bad id before anything is created
        }
        GtranTransaction.Scope scope = visibleScope();
        Transaction txn = scope.txn();
        try {
            long in = inVertex instanceof GtranVertex v && v.graph == graph ? v.internalId : graph.ids.resolve(txn, inVertex.id(), ElementKind.VERTEX);
            if (in == ElementIds.NONE || !txn.vertexExists(in)) {
                throw alreadyRemoved(Vertex.class, inVertex.id());
            }
            int labelId = graph.store.labels().intern(label);
            long edgeId = txn.addEdge(internalId, in, labelId);
            while (userId == null && graph.ids.shadowed(txn, edgeId, ElementKind.EDGE)) {
                txn.removeEdge(edgeId); // a user's id already names this number: take another
                edgeId = txn.addEdge(internalId, in, labelId);
            }
            graph.indexes.edgeLabelAdded(labelId, edgeId);
            Object exposed = null;
            if (userId != null) {
                try {
                    exposed = graph.ids.bind(scope, ElementKind.EDGE, userId, edgeId);
                } catch (IllegalArgumentException taken) {
                    txn.removeEdge(edgeId); // the id is taken: the new edge must not stay
                    throw taken;
                }
            }
            GtranEdge edge = new GtranEdge(graph, edgeId, exposed, label, internalId, in);
            for (int i = 0; i < keyValues.length; i += 2) {
                if (keyValues[i] instanceof String key && (keyValues[i + 1] != null || graph.allowNullPropertyValues)) {
                    edge.writeProperty(scope, key, keyValues[i + 1]);
                }
            }
            return edge;
        } catch (RuntimeException e) {
            throw translate(scope, e);
        }
    }

    @Override
    public Iterator<Edge> edges(Direction direction, String... edgeLabels) {
        // the adjacency read checks visibility itself (a removed vertex: ElementNotFoundException, translated)
        GtranTransaction.Scope scope = graph.transaction().scope();
        try {
            long[] ids = edgeIds(scope.txn(), toStore(direction), edgeLabels);
            return new GtranIterator<>(scope.txn(), ids, id -> new GtranEdge(graph, id, null));
        } catch (RuntimeException e) {
            throw translate(scope, e);
        }
    }

    @Override
    public Iterator<Vertex> vertices(Direction direction, String... edgeLabels) {
        GtranTransaction.Scope scope = graph.transaction().scope(); // see edges()
        Transaction txn = scope.txn();
        try {
            long[] out = direction == Direction.IN ? new long[0] : adjacent(txn, EdgeDirection.OUT, edgeLabels);
            long[] in = direction == Direction.OUT ? new long[0] : adjacent(txn, EdgeDirection.IN, edgeLabels);
            long[] neighbours = new long[(out.length + in.length) / 2];
            for (int i = 1; i < out.length; i += 2) {
                neighbours[i / 2] = out[i];
            }
            for (int i = 1; i < in.length; i += 2) {
                neighbours[out.length / 2 + i / 2] = in[i];
            }
            return new GtranIterator<>(txn, neighbours, id -> new GtranVertex(graph, id, null));
        } catch (RuntimeException e) {
            throw translate(scope, e);
        }
    }

    /** As {@link #edgeIds}, as pairs: each edge, then the vertex at its other end. */
    private long[] adjacent(Transaction txn, EdgeDirection direction, String... edgeLabels) {
        return byLabel(direction, edgeLabels, txn::adjacent);
    }

    /** The visible edges in {@code direction} with any of the labels (all if none), label by label. */
    private long[] edgeIds(Transaction txn, EdgeDirection direction, String... edgeLabels) {
        return byLabel(direction, edgeLabels, txn::edges);
    }

    /** A read of a vertex's adjacency in a direction, for one label or any. */
    private interface AdjacencyRead {
        long[] of(long vertex, EdgeDirection direction, int label);
    }

    /**
     * What {@code read} gives for each of {@code edgeLabels} in turn (any label if none),
     * concatenated. A label no element ever had gives nothing, but is still read as any label, so
     * that the adjacency read is recorded and validated.
     */
    private long[] byLabel(EdgeDirection direction, String[] edgeLabels, AdjacencyRead read) {
        if (edgeLabels.length == 0) {
            return read.of(internalId, direction, EdgeCursor.ANY_LABEL);
        }
        long[][] parts = new long[edgeLabels.length][];
        for (int i = 0; i < edgeLabels.length; i++) {
            int labelId = graph.store.labels().find(edgeLabels[i]);
            if (labelId == Dictionary.ABSENT) {
                read.of(internalId, direction, EdgeCursor.ANY_LABEL); // still a validated read of the adjacency
                parts[i] = new long[0];
            } else {
                parts[i] = read.of(internalId, direction, labelId);
            }
        }
        return parts.length == 1 ? parts[0] : concat(parts);
    }

    /** The arrays one after another. */
    static long[] concat(long[]... parts) {
        int total = 0;
        for (long[] part : parts) {
            total += part.length;
        }
        long[] all = new long[total];
        int at = 0;
        for (long[] part : parts) {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
    }

    static EdgeDirection toStore(Direction direction) {
        switch (direction) {
            case OUT:
                return EdgeDirection.OUT;
            case IN:
                return EdgeDirection.IN;
            default:
                return EdgeDirection.BOTH;
        }
    }

    // ---------------------------------------------------------------- properties

    @Override
    public <V> VertexProperty<V> property(String key, V value) {
        return property((VertexProperty.Cardinality) null, key, value, new Object[0]);
    }

    @Override
    public <V> VertexProperty<V> property(VertexProperty.Cardinality cardinality, String key, V value, Object... keyValues) {
        ElementHelper.legalPropertyKeyValueArray(keyValues);
        ElementHelper.validateProperty(key, value);
        VertexProperty.Cardinality card = cardinality == null ? graph.defaultCardinality : cardinality;
        GtranTransaction.Scope scope = visibleScope();
        if (value == null && !graph.allowNullPropertyValues) {
            // no null values: a single-valued key is removed, a null added to a list or set is ignored
            if (card == VertexProperty.Cardinality.single) {
                properties(key).forEachRemaining(VertexProperty::remove);
            }
            return VertexProperty.empty();
        }
        Object userId = ElementHelper.getIdValue(keyValues).orElse(null);
        try {
            int keyId = graph.store.propertyKeys().intern(key);
            long derived = PropertyValues.derivedId(internalId, keyId); // NONE for a key id too large
            if (card == VertexProperty.Cardinality.single && keyValues.length == 0 && derived != ElementIds.NONE) {
                // the common case in one write: replaces whatever the key held
                List<Entry> before = graph.indexes.isIndexed(false, key) ? entries(scope, keyId) : null;
                Object stored = PropertyValues.toStored(value);
                scope.txn().setVertexProperty(internalId, keyId, stored);
                long id = derived;
                indexWritten(scope, key, before, List.of(new Entry(id, value, null)));
                return new GtranVertexProperty<>(this, key, keyId, id, value);
            }
            Optional<VertexProperty<V>> existing = ElementHelper.stageVertexProperty(this, card, key, value, keyValues);
            if (existing.isPresent()) {
                return existing.get(); // set cardinality and the value is there: it took the meta-properties
            }
            List<Entry> before = entries(scope, keyId);
            Object id = userId != null ? GtranIds.validated(userId, VertexProperty.class)
                    : before.isEmpty() && derived != ElementIds.NONE ? derived
                    : PropertyValues.countedId(graph.store.nodeId(), graph.nextVertexPropertyCounter());
            List<Entry> after = new ArrayList<>(before);
            after.add(new Entry(id, value, null));
            writeEntries(scope, key, keyId, before, after);
            GtranVertexProperty<V> property = new GtranVertexProperty<>(this, key, keyId, id, value);
            ElementHelper.attachProperties(property, keyValues);
            return property;
        } catch (RuntimeException e) {
            throw translate(scope, e);
        }
    }

    @Override
    public <V> VertexProperty<V> property(String key) {
        Iterator<VertexProperty<V>> all = properties(key);
        if (!all.hasNext()) {
            return VertexProperty.empty();
        }
        VertexProperty<V> first = all.next();
        if (all.hasNext()) {
            throw Vertex.Exceptions.multiplePropertiesExistForProvidedKey(key);
        }
        return first;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <V> Iterator<VertexProperty<V>> properties(String... propertyKeys) {
        GtranTransaction.Scope scope = graph.transaction().scope(); // property reads check visibility
        Transaction txn = scope.txn();
        try {
            boolean checked = false;
            List<VertexProperty<V>> result = new ArrayList<>();
            if (propertyKeys.length == 0) {
                for (Map.Entry<Integer, Object> stored : txn.vertexProperties(internalId).entrySet()) {
                    String key = graph.store.propertyKeys().name(stored.getKey());
                    for (Entry e : PropertyValues.entries(stored.getValue(), internalId, stored.getKey())) {
                        result.add(new GtranVertexProperty<>(this, key, stored.getKey(), e.id, (V) e.value));
                    }
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
                for (Entry e : entries(scope, keyId)) {
                    result.add(new GtranVertexProperty<>(this, key, keyId, e.id, (V) e.value));
                }
            }
            if (!checked && !txn.vertexExists(internalId)) {
                throw removed(); // no key was read, so nothing checked the vertex is still there
            }
            return result.iterator();
        } catch (RuntimeException e) {
            throw translate(scope, e);
        }
    }

    /** The vertex properties under one key this thread's transaction sees. */
    List<Entry> entries(GtranTransaction.Scope scope, int keyId) {
        return PropertyValues.entries(scope.txn().vertexProperty(internalId, keyId), internalId, keyId);
    }

    /** Replaces the vertex properties under one key by {@code after}, keeping indexes in step. */
    void writeEntries(GtranTransaction.Scope scope, String key, int keyId, List<Entry> before, List<Entry> after) {
        Object stored = PropertyValues.encode(after, internalId, keyId);
        if (stored == null) {
            scope.txn().removeVertexProperty(internalId, keyId);
        } else {
            scope.txn().setVertexProperty(internalId, keyId, stored);
        }
        indexWritten(scope, key, before, after);
    }

    /** Keeps the index on {@code key}, if there is one, in step with a write of its entries. */
    private void indexWritten(GtranTransaction.Scope scope, String key, List<Entry> before, List<Entry> after) {
        if (graph.indexes.isIndexed(false, key)) {
            graph.indexes.vertexPropertyWritten(scope.txn(), internalId, key, PropertyValues.values(before),
                    PropertyValues.values(after));
        }
    }

    /** Before the vertex is removed: its indexed values, and those of its edges, go away. */
    private void unindex(GtranTransaction.Scope scope) {
        for (String key : graph.indexes.indexedKeys(false)) {
            int keyId = graph.store.propertyKeys().find(key);
            if (keyId != Dictionary.ABSENT) {
                indexWritten(scope, key, entries(scope, keyId), List.of());
            }
        }
        if (!graph.indexes.indexedKeys(true).isEmpty()) {
            edges(Direction.BOTH).forEachRemaining(e -> ((GtranEdge) e).unindex(scope));
        }
    }

    @Override
    public void remove() {
        GtranTransaction.Scope scope = visibleScope();
        try {
            unindex(scope);
            scope.txn().removeVertex(internalId);
        } catch (RuntimeException e) {
            throw translate(scope, e);
        }
    }

    @Override
    public String toString() {
        return StringFactory.vertexString(this);
    }
}
