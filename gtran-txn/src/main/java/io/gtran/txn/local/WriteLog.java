package io.gtran.txn.local;

import static io.gtran.storage.MvTupleDescriptor.NO_TUPLE;

import io.gtran.txn.common.ElementKind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every word a transaction put its id into, so that commit can stamp the commit time over it and
 * abort can undo it, plus the versions it unlinked (retired: freed by GC once no reader can hold
 * them).
 */
public final class WriteLog {
    /** An element this transaction created or deleted. */
    public record ElementWrite(ElementKind kind, long element) {
    }

    /** A property this transaction wrote: the version it linked and the version whose end it locked. */
    public static final class PropertyWrite {
        public final ElementKind kind;
        public final long element;
        public final int key;
        /** Our version (begin time = our id), or NO_TUPLE for a removal. */
        public int newVersion;
        /** Our version's end time is our id too: we set the property, then removed it. */
        public boolean newVersionEnded;
        /** The version we superseded (end time = our id), or NO_TUPLE if none was alive. */
        public int oldVersion;

        public PropertyWrite(ElementKind kind, long element, int key, int newVersion, int oldVersion) {
            this.kind = kind;
            this.element = element;
            this.key = key;
            this.newVersion = newVersion;
            this.oldVersion = oldVersion;
        }
    }

    private record PropertyRef(ElementKind kind, long element, int key) {
    }

    public final List<ElementWrite> created = new ArrayList<>();
    public final List<ElementWrite> ended = new ArrayList<>();
    private final Set<ElementWrite> createdSet = new HashSet<>();
    private final Map<PropertyRef, PropertyWrite> properties = new LinkedHashMap<>();
    public final List<Integer> retired = new ArrayList<>();

    /** A user-supplied edge id, whose home is this node, claimed for an edge (of any member). */
    public record IdClaim(Object canonical, long edge) {
    }

    /** Claims made here, and edge ids of this node reserved as other members' user ids: logged with the commit. */
    public final List<IdClaim> claims = new ArrayList<>(0);
    public final List<Long> reserved = new ArrayList<>(0);

    public void created(ElementKind kind, long element) {
        ElementWrite write = new ElementWrite(kind, element);
        created.add(write);
        createdSet.add(write);
    }

    public boolean createdHere(ElementKind kind, long element) {
        return createdSet.contains(new ElementWrite(kind, element));
    }

    public void ended(ElementKind kind, long element) {
        ended.add(new ElementWrite(kind, element));
    }

    /** Records a property write, merging with an earlier write of the same property. */
    public void propertyWrite(ElementKind kind, long element, int key, int newVersion, int oldVersion) {
        PropertyWrite earlier = properties.get(new PropertyRef(kind, element, key));
        if (earlier == null) {
            properties.put(new PropertyRef(kind, element, key), new PropertyWrite(kind, element, key, newVersion, oldVersion));
            return;
        }
        earlier.newVersion = newVersion;
        if (earlier.oldVersion == NO_TUPLE) {
            earlier.oldVersion = oldVersion;
        }
    }

    public PropertyWrite propertyWriteOf(ElementKind kind, long element, int key) {
        return properties.get(new PropertyRef(kind, element, key));
    }

    public Iterable<PropertyWrite> propertyWrites() {
        return properties.values();
    }

    public void retire(int version) {
        retired.add(version);
    }

    public boolean isEmpty() {
        return created.isEmpty() && ended.isEmpty() && properties.isEmpty();
    }
}
