package io.gtran.core;

import java.util.NoSuchElementException;
import org.apache.tinkerpop.gremlin.structure.Element;
import org.apache.tinkerpop.gremlin.structure.Property;
import org.apache.tinkerpop.gremlin.structure.util.ElementHelper;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;

/** A property of an edge, or a meta-property of a vertex property: a key and the value read. */
final class GtranProperty<V> implements Property<V> {
    private final Element element;
    private final String key;
    private final V value;

    GtranProperty(Element element, String key, V value) {
        this.element = element;
        this.key = key;
        this.value = value;
    }

    @Override
    public String key() {
        return key;
    }

    @Override
    public V value() throws NoSuchElementException {
        return value;
    }

    @Override
    public boolean isPresent() {
        return true;
    }

    @Override
    public Element element() {
        return element;
    }

    @Override
    public void remove() {
        if (element instanceof GtranEdge edge) {
            edge.removeProperty(key);
        } else {
            ((GtranVertexProperty<?>) element).removeMeta(key);
        }
    }

    @Override
    public boolean equals(Object other) {
        return ElementHelper.areEqual(this, other);
    }

    @Override
    public int hashCode() {
        return ElementHelper.hashCode(this);
    }

    @Override
    public String toString() {
        return StringFactory.propertyString(this);
    }
}
