package io.gtran.txn.common;

import io.gtran.storage.Dictionary;
import io.gtran.storage.ElementIds;

/**
 * Something a transaction read or wrote, in the terms validation compares: a read set and the
 * write sets of transactions that committed in the reader's lifetime conflict when they share a
 * key. Besides single items (an element's existence, one property) there are keys for what a
 * read <em>scanned</em>, so inserts and deletes that would change a scan's result (phantoms) are
 * caught: a vertex's adjacency in one direction, an element's set of property keys, all vertices
 * or edges with a label. Layers above add their own keys ({@link Kind#CUSTOM}, e.g. an index
 * entry), which only have to be written by every change the matching read would observe.
 *
 * @param kind    what was touched
 * @param element the element id, or a label / index id for scans and custom keys
 * @param detail  the property key id, or a sub-key; 0 where unused
 */
public record ConflictKey(Kind kind, long element, long detail) {
    /** Label value of the scan keys that cover every label. */
    public static final long ANY_LABEL = -1;

    public enum Kind {
        /** A vertex's or edge's existence (and so its label and endpoints). */
        ELEMENT,
        /** One property of an element: detail is the property key id. */
        PROPERTY,
        /** The set of property keys an element has (changed by adding or removing a property). */
        PROPERTY_KEYS,
        /** A vertex's outgoing edges. */
        ADJACENCY_OUT,
        /** A vertex's incoming edges. */
        ADJACENCY_IN,
        /** All vertices with a label (element = label id or {@link #ANY_LABEL}). */
        VERTEX_SCAN,
        /** All edges with a label (element = label id or {@link #ANY_LABEL}). */
        EDGE_SCAN,
        /** Defined by a layer above; element and detail are its own. */
        CUSTOM
    }

    public static ConflictKey element(long id) {
        return new ConflictKey(Kind.ELEMENT, id, 0);
    }

    public static ConflictKey property(long elementId, int keyId) {
        return new ConflictKey(Kind.PROPERTY, elementId, keyId);
    }

    public static ConflictKey propertyKeys(long elementId) {
        return new ConflictKey(Kind.PROPERTY_KEYS, elementId, 0);
    }

    public static ConflictKey adjacencyOut(long vertexId) {
        return new ConflictKey(Kind.ADJACENCY_OUT, vertexId, 0);
    }

    public static ConflictKey adjacencyIn(long vertexId) {
        return new ConflictKey(Kind.ADJACENCY_IN, vertexId, 0);
    }

    public static ConflictKey vertexScan(long label) {
        return new ConflictKey(Kind.VERTEX_SCAN, label, 0);
    }

    public static ConflictKey edgeScan(long label) {
        return new ConflictKey(Kind.EDGE_SCAN, label, 0);
    }

    public static ConflictKey custom(long a, long b) {
        return new ConflictKey(Kind.CUSTOM, a, b);
    }

    /** The key with property keys and labels as ids ({@code PROPERTY(v:1, key=3)}); see {@link #describe}. */
    @Override
    public String toString() {
        return describe(null, null);
    }

    /**
     * The key for a person to read: property keys and labels by name where {@code propertyKeys}
     * and {@code labels} know them ({@code PROPERTY(v:1, key=balance)}, {@code VERTEX_SCAN(label=person)}),
     * by id where a dictionary is null or lacks the id.
     */
    public String describe(Dictionary propertyKeys, Dictionary labels) {
        switch (kind) {
            case ELEMENT:
            case PROPERTY_KEYS:
            case ADJACENCY_OUT:
            case ADJACENCY_IN:
                return kind + "(" + ElementIds.toString(element) + ")";
            case PROPERTY:
                return kind + "(" + ElementIds.toString(element) + ", key=" + name(propertyKeys, detail) + ")";
            case VERTEX_SCAN:
            case EDGE_SCAN:
                return kind + "(label=" + (element == ANY_LABEL ? "any" : name(labels, element)) + ")";
            default:
                return kind + "(" + element + ", " + detail + ")";
        }
    }

    private static String name(Dictionary dictionary, long id) {
        if (dictionary == null || id < 0 || id > Integer.MAX_VALUE) {
            return Long.toString(id); // no dictionary, or not a dictionary id
        }
        try {
            return dictionary.name((int) id);
        } catch (IllegalArgumentException unknown) {
            return Long.toString(id); // an id the dictionary never gave out: say what we have
        }
    }
}
