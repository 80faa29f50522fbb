package io.gtran.core;

import io.gtran.storage.ElementIds;
import io.gtran.storage.SerializedValue;
import io.gtran.storage.ValueType;
import io.gtran.txn.common.ElementKind;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.tinkerpop.gremlin.structure.Property;

/**
 * How TinkerPop property values map onto the store's MV-tuples.
 *
 * <p>A scalar, string or byte array the store has a type for is stored as is. Any other value
 * (lists, maps, dates, UUIDs, big numbers...) must be {@link Serializable} and is stored as a
 * {@link SerializedValue} tagged {@link #OBJECT}.
 *
 * <p>A vertex property key holds all of that vertex's properties under the key in one value. The
 * common case, one property without meta-properties, is the plain value, and its id is derived
 * from the vertex and key ({@link #derivedId}). Several properties (list or set cardinality), or
 * any meta-property or user-supplied property id, make it a {@link SerializedValue} tagged {@link
 * #LIST}: the entries with their ids, values and meta-properties.
 */
final class PropertyValues {
    static final byte OBJECT = 1;
    static final byte LIST = 2;
    /** A null value, where the graph allows them. */
    static final byte NULL = 3;
    private static final SerializedValue NULL_VALUE = new SerializedValue(new byte[] {NULL});

    private PropertyValues() {
    }

    /** One vertex property: its id, value and meta-properties (in insertion order). */
    static final class Entry implements Serializable {
        private static final long serialVersionUID = 1L;
        final Object id;
        final Object value;
        final LinkedHashMap<String, Object> meta;

        Entry(Object id, Object value, LinkedHashMap<String, Object> meta) {
            this.id = id;
            this.value = value;
            this.meta = meta;
        }

        Entry withMeta(LinkedHashMap<String, Object> newMeta) {
            return new Entry(id, value, newMeta);
        }
    }

    /**
     * The form the store keeps {@code value} in.
     *
     * @throws IllegalArgumentException (TinkerPop's data-type exception) if the value is neither storable nor serializable
     */
    static Object toStored(Object value) {
        if (value == null) {
            return NULL_VALUE;
        }
        if (ValueType.of(value) != null && !(value instanceof SerializedValue)) {
            return value;
        }
        return new SerializedValue(serialize(OBJECT, value));
    }

    /** The user's value from what the store keeps; for edge properties and single vertex properties. */
    static Object fromStored(Object stored) {
        if (stored instanceof SerializedValue s) {
            byte[] bytes = s.bytes();
            if (bytes.length == 1 && bytes[0] == NULL) {
                return null;
            }
            if (bytes.length == 0 || bytes[0] != OBJECT) {
                throw new IllegalStateException("not a single serialized value: tag=" + (bytes.length == 0 ? "none" : bytes[0]));
            }
            return deserialize(bytes);
        }
        return stored;
    }

    /** The vertex properties a key's stored value holds; {@code stored} null gives none. */
    @SuppressWarnings("unchecked")
    static List<Entry> entries(Object stored, long vertexId, int keyId) {
        List<Entry> entries = new ArrayList<>(1);
        if (stored == null) {
            return entries;
        }
        if (stored instanceof SerializedValue s && s.bytes().length > 0 && s.bytes()[0] == LIST) {
            entries.addAll((List<Entry>) deserialize(s.bytes()));
            return entries;
        }
        long id = derivedId(vertexId, keyId);
        if (id == ElementIds.NONE) {
            throw new IllegalStateException("a plain value under a key whose property ids cannot be derived: keyId=" + keyId);
        }
        entries.add(new Entry(id, fromStored(stored), null));
        return entries;
    }

    /** The values of {@code entries}, in order; null gives none. */
    static Object[] values(List<Entry> entries) {
        if (entries == null) {
            return new Object[0];
        }
        Object[] values = new Object[entries.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = entries.get(i).value;
        }
        return values;
    }

    /**
     * The values a stored property value of an element holds, one index entry each ({@link
     * io.gtran.core.index.Indexes.StoredValues}): an edge's one value, or the values of every
     * vertex property under the key.
     */
    static Object[] indexed(ElementKind kind, long element, int keyId, Object stored) {
        if (kind == ElementKind.EDGE) {
            return new Object[] {fromStored(stored)};
        }
        return values(entries(stored, element, keyId));
    }

    /** What the store keeps for these vertex properties under one key; null if there are none. */
    static Object encode(List<Entry> entries, long vertexId, int keyId) {
        if (entries.isEmpty()) {
            return null;
        }
        if (entries.size() == 1) {
            Entry only = entries.get(0);
            if ((only.meta == null || only.meta.isEmpty()) && only.id instanceof Long id && id == derivedId(vertexId, keyId)) {
                return toStored(only.value);
            }
        }
        return new SerializedValue(serialize(LIST, new ArrayList<>(entries)));
    }

    /**
     * The id of the first property under {@code keyId} of {@code vertexId} (see {@link
     * ElementIds#vertexPropertyId}), or {@link ElementIds#NONE} if the key id is too large to be
     * part of an id; such keys never hold a plain value, so every property under them has its id
     * stored with it.
     */
    static long derivedId(long vertexId, int keyId) {
        return ElementIds.vertexPropertyId(vertexId, keyId);
    }

    /** A vertex-property id from {@code node}'s counter, for properties whose id cannot be derived. */
    static long countedId(int node, long counter) {
        return ElementIds.countedPropertyId(node, counter);
    }

    static LinkedHashMap<String, Object> meta(Map<String, Object> meta) {
        return meta == null ? new LinkedHashMap<>() : new LinkedHashMap<>(meta);
    }

    private static byte[] serialize(byte tag, Object value) {
        if (!(value instanceof Serializable)) {
            throw Property.Exceptions.dataTypeOfPropertyValueNotSupported(value);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.write(tag);
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (IOException e) {
            throw Property.Exceptions.dataTypeOfPropertyValueNotSupported(value, e);
        }
        return bytes.toByteArray();
    }

    private static Object deserialize(byte[] bytes) {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes, 1, bytes.length - 1))) {
            return in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new IllegalStateException("stored property value cannot be read back: " + e, e);
        }
    }
}
