package io.gtran.core;

import io.gtran.core.PropertyValues.Entry;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.tinkerpop.gremlin.structure.Element;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.Property;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;
import org.apache.tinkerpop.gremlin.structure.util.ElementHelper;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;

/**
 * One property of a vertex: the entry with this id under its key (see {@link PropertyValues}).
 * Meta-properties are read and written through the calling thread's transaction.
 */
final class GtranVertexProperty<V> implements VertexProperty<V> {
    private final GtranVertex vertex;
    private final String key;
    private final int keyId;
    private final Object id;
    private final V value;

    GtranVertexProperty(GtranVertex vertex, String key, int keyId, Object id, V value) {
        this.vertex = vertex;
        this.key = key;
        this.keyId = keyId;
        this.id = id;
        this.value = value;
    }

    @Override
    public Object id() {
        return id;
    }

    @Override
    public String key() {
        return key;
    }

    @Override
    public V value() {
        return value;
    }

    @Override
    public boolean isPresent() {
        return true;
    }

    @Override
    public Vertex element() {
        return vertex;
    }

    @Override
    public Graph graph() {
        return vertex.graph;
    }

    @Override
    public <U> Property<U> property(String metaKey, U metaValue) {
        ElementHelper.validateProperty(metaKey, metaValue);
        if (metaValue == null && !vertex.graph.allowNullPropertyValues) {
            removeMeta(metaKey);
            return Property.empty();
        }
        GtranTransaction.Scope scope = vertex.visibleScope();
        try {
            List<Entry> before = vertex.entries(scope, keyId);
            int at = indexIn(before);
            LinkedHashMap<String, Object> meta = PropertyValues.meta(before.get(at).meta);
            meta.put(metaKey, metaValue);
            List<Entry> after = new ArrayList<>(before);
            after.set(at, before.get(at).withMeta(meta));
            vertex.writeEntries(scope, key, keyId, before, after);
            return new GtranProperty<>(this, metaKey, metaValue);
        } catch (RuntimeException e) {
            throw vertex.translate(scope, e);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public <U> Iterator<Property<U>> properties(String... propertyKeys) {
        GtranTransaction.Scope scope = vertex.visibleScope();
        try {
            List<Entry> entries = vertex.entries(scope, keyId);
            int at = indexIn(entries);
            List<Property<U>> result = new ArrayList<>();
            Map<String, Object> meta = entries.get(at).meta;
            if (meta != null) {
                for (Map.Entry<String, Object> m : meta.entrySet()) {
                    if (propertyKeys.length == 0 || java.util.Arrays.asList(propertyKeys).contains(m.getKey())) {
                        result.add(new GtranProperty<>(this, m.getKey(), (U) m.getValue()));
                    }
                }
            }
            return result.iterator();
        } catch (RuntimeException e) {
            throw vertex.translate(scope, e);
        }
    }

    /** Removes one meta-property; nothing happens if it is not there. */
    void removeMeta(String metaKey) {
        GtranTransaction.Scope scope = vertex.visibleScope();
        try {
            List<Entry> before = vertex.entries(scope, keyId);
            int at = indexIn(before);
            Map<String, Object> meta = before.get(at).meta;
            if (meta == null || !meta.containsKey(metaKey)) {
                return;
            }
            LinkedHashMap<String, Object> changed = PropertyValues.meta(meta);
            changed.remove(metaKey);
            List<Entry> after = new ArrayList<>(before);
            after.set(at, before.get(at).withMeta(changed));
            vertex.writeEntries(scope, key, keyId, before, after);
        } catch (RuntimeException e) {
            throw vertex.translate(scope, e);
        }
    }

    @Override
    public void remove() {
        GtranTransaction.Scope scope = vertex.visibleScope();
        try {
            List<Entry> before = vertex.entries(scope, keyId);
            int at = find(before);
            if (at >= 0) {
                List<Entry> after = new ArrayList<>(before);
                after.remove(at);
                vertex.writeEntries(scope, key, keyId, before, after);
            }
        } catch (RuntimeException e) {
            throw vertex.translate(scope, e);
        }
    }

    /**
     * Where this property is among its key's entries. A value that replaced this one under the same
     * id (a single property set again keeps its derived id) is not this property: this one was removed.
     */
    private int indexIn(List<Entry> entries) {
        int at = find(entries);
        if (at >= 0) {
            return at;
        }
        throw GtranElement.alreadyRemoved(VertexProperty.class, id);
    }

    private int find(List<Entry> entries) {
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            if (e.id.equals(id) && java.util.Objects.deepEquals(e.value, value)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    @SuppressWarnings("EqualsWhichDoesntCheckParameterClass")
    public boolean equals(Object other) {
        return ElementHelper.areEqual(this, other);
    }

    @Override
    public int hashCode() {
        return ElementHelper.hashCode((Element) this);
    }

    @Override
    public String toString() {
        return StringFactory.propertyString(this);
    }
}
