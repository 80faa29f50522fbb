package io.gtran.txn.protocol;

import io.gtran.storage.EdgeDirection;
import io.gtran.txn.common.ConflictKey;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.IndexChange;

/**
 * The operations a coordinator runs on another member's elements (docs/cluster-transactions.md,
 * "Execution"), one record each, and their one encoding: a type byte (the order of {@link Type}),
 * then the record's fields in order. Labels and property keys travel by name (null: any label),
 * so a request reads the same on every member. The owner runs each under the transaction's part
 * there and answers with the result the type names.
 */
public sealed interface Op {
    /** What each operation is, by its first byte on the wire. */
    enum Type {
        EXISTS, LABEL, EDGE_OUT, EDGE_IN, PROPERTY, PROPERTIES, EDGES, SCAN, VISIBLE, COUNT, RECORD,
        ADD_VERTEX, ADD_EDGE, REMOVE_EDGE, REMOVE_VERTEX, SET_PROPERTY, REMOVE_PROPERTY, ADD_MIRROR, REMOVE_MIRROR,
        ADJACENT, ADJACENT_MANY, BIND_ID, RESOLVE_ID, EXPOSED_ID, SHADOWED_ID, RESERVE_ID, EXPOSED_MANY,
        INDEX_WRITE, INDEX_LOOKUP, INDEX_FILL, INDEX_CHANGE, SCAN_PAGE, READ_MANY, RESOLVE, CLAIM_ID, ID_HOLDER_GONE, MANY;

        private static final Type[] VALUES = values();
    }

    Type type();

    /** The record's fields, after the type byte. */
    void writeFields(Wire.Writer w);

    /** Whether the element is seen; answers a boolean. */
    record Exists(ElementKind kind, long element) implements Op {
        public Type type() {
            return Type.EXISTS;
        }

        public void writeFields(Wire.Writer w) {
            w.putByte(kind.ordinal()).putLong(element);
        }
    }

    /** The element's label; answers its name. */
    record Label(ElementKind kind, long element) implements Op {
        public Type type() {
            return Type.LABEL;
        }

        public void writeFields(Wire.Writer w) {
            w.putByte(kind.ordinal()).putLong(element);
        }
    }

    /** An edge's out-vertex ({@code out}) or in-vertex; answers a long. */
    record EdgeEnd(long edge, boolean out) implements Op {
        public Type type() {
            return out ? Type.EDGE_OUT : Type.EDGE_IN;
        }

        public void writeFields(Wire.Writer w) {
            w.putLong(edge);
        }
    }

    /** One property's value; answers a value. */
    record Property(ElementKind kind, long element, String key) implements Op {
        public Type type() {
            return Type.PROPERTY;
        }

        public void writeFields(Wire.Writer w) {
            w.putByte(kind.ordinal()).putLong(element).putString(key);
        }
    }

    /** Every property; answers a count, then each key's name and value. */
    record Properties(ElementKind kind, long element) implements Op {
        public Type type() {
            return Type.PROPERTIES;
        }

        public void writeFields(Wire.Writer w) {
            w.putByte(kind.ordinal()).putLong(element);
        }
    }

    /** A vertex's edge ids ({@link Type#EDGES}) or (edge, neighbour) pairs ({@link Type#ADJACENT}); answers longs. */
    record Edges(long vertex, EdgeDirection direction, String label, boolean pairs) implements Op {
        public Type type() {
            return pairs ? Type.ADJACENT : Type.EDGES;
        }

        public void writeFields(Wire.Writer w) {
            w.putLong(vertex).putByte(direction.ordinal()).putString(label);
        }
    }

    /** The owner's elements with a label ({@link Type#SCAN}, answers longs) or how many ({@link Type#COUNT}, a long). */
    record Scan(ElementKind kind, String label, boolean count) implements Op {
        public Type type() {
            return count ? Type.COUNT : Type.SCAN;
        }

        public void writeFields(Wire.Writer w) {
            w.putByte(kind.ordinal()).putString(label);
        }
    }

    /** A page of a scan: from a slot, at most {@code max} elements; answers the next slot (-1: the end) and longs. */
    record ScanPage(ElementKind kind, String label, int fromSlot, int max) implements Op {
        public Type type() {
            return Type.SCAN_PAGE;
        }

        public void writeFields(Wire.Writer w) {
            w.putByte(kind.ordinal()).putString(label).putInt(fromSlot).putInt(max);
        }
    }

    /** The candidates the transaction sees, in order; answers longs. */
    record Visible(ElementKind kind, long[] ids) implements Op {
        public Type type() {
            return Type.VISIBLE;
        }

        public void writeFields(Wire.Writer w) {
            w.putByte(kind.ordinal()).putLongs(ids);
        }
    }

    /**
     * Records a read (or, with {@code write}, a write) of a conflict key of the owner's: {@code
     * detail} is the key's, or for a property key {@code propertyKey} names it.
     */
    record Record(boolean write, ConflictKey.Kind kind, long element, long detail, String propertyKey) implements Op {
        public Type type() {
            return Type.RECORD;
        }

        public void writeFields(Wire.Writer w) {
            w.putBoolean(write).putByte(kind.ordinal()).putLong(element);
            if (kind == ConflictKey.Kind.PROPERTY) {
                w.putString(propertyKey);
            } else {
                w.putLong(detail);
            }
        }
    }

    /** Creates a vertex on the receiving node; answers its id. */
    record AddVertex(String label) implements Op {
        public Type type() {
            return Type.ADD_VERTEX;
        }

        public void writeFields(Wire.Writer w) {
            w.putString(label);
        }
    }

    /** Creates an edge on its out-vertex's node; answers its id. */
    record AddEdge(long outVertex, long inVertex, String label) implements Op {
        public Type type() {
            return Type.ADD_EDGE;
        }

        public void writeFields(Wire.Writer w) {
            w.putLong(outVertex).putLong(inVertex).putString(label);
        }
    }

    /** Ends an edge on its node; answers its in-vertex. */
    record RemoveEdge(long edge) implements Op {
        public Type type() {
            return Type.REMOVE_EDGE;
        }

        public void writeFields(Wire.Writer w) {
            w.putLong(edge);
        }
    }

    /** Deletes a vertex and its edges on its node. */
    record RemoveVertex(long vertex) implements Op {
        public Type type() {
            return Type.REMOVE_VERTEX;
        }

        public void writeFields(Wire.Writer w) {
            w.putLong(vertex);
        }
    }

    /** Sets a property ({@code value} not null), or removes it ({@link Type#REMOVE_PROPERTY}: answers whether it was there). */
    record WriteProperty(ElementKind kind, long element, String key, Object value, boolean remove) implements Op {
        public Type type() {
            return remove ? Type.REMOVE_PROPERTY : Type.SET_PROPERTY;
        }

        public void writeFields(Wire.Writer w) {
            w.putByte(kind.ordinal()).putLong(element).putString(key);
            if (!remove) {
                w.putValue(value);
            }
        }
    }

    /** An edge's mirror at its in-vertex's node, added with the edge. */
    record AddMirror(long edge, long outVertex, long inVertex, String label) implements Op {
        public Type type() {
            return Type.ADD_MIRROR;
        }

        public void writeFields(Wire.Writer w) {
            w.putLong(edge).putLong(outVertex).putLong(inVertex).putString(label);
        }
    }

    /** Ends the mirror of an edge ended on its node. */
    record RemoveMirror(long edge) implements Op {
        public Type type() {
            return Type.REMOVE_MIRROR;
        }

        public void writeFields(Wire.Writer w) {
            w.putLong(edge);
        }
    }

    /** {@link Type#ADJACENT} of many vertices (no labels: any); answers per vertex whether seen, then its pairs. */
    record AdjacentMany(long[] vertices, EdgeDirection direction, String[] labels) implements Op {
        public Type type() {
            return Type.ADJACENT_MANY;
        }

        public void writeFields(Wire.Writer w) {
            w.putLongs(vertices).putByte(direction.ordinal());
            putStrings(w, labels);
        }
    }

    /** Binds a user-supplied id; answers false if it is taken, else true and the id to show. */
    record BindId(ElementKind kind, Object given, Object canonical, long internal) implements Op {
        public Type type() {
            return Type.BIND_ID;
        }

        public void writeFields(Wire.Writer w) {
            w.putByte(kind.ordinal()).putValue(given).putValue(canonical).putLong(internal);
        }
    }

    /** Keeps a number an edge's id names from this member's edges; answers false if taken. */
    record ReserveId(Object given, long number) implements Op {
        public Type type() {
            return Type.RESERVE_ID;
        }

        public void writeFields(Wire.Writer w) {
            w.putValue(given).putLong(number);
        }
    }

    /**
     * Claims a user-supplied edge id at its home node for edge {@code internal}, unless another
     * edge than {@code replacing} holds it; answers the edge that holds it (a long), or none.
     */
    record ClaimId(Object canonical, long internal, long replacing) implements Op {
        public Type type() {
            return Type.CLAIM_ID;
        }

        public void writeFields(Wire.Writer w) {
            w.putValue(canonical).putLong(internal).putLong(replacing);
        }
    }

    /** Whether edge {@code holder}, here, is gone for good so its user id may go to another (a boolean). */
    record IdHolderGone(long holder, Object canonical) implements Op {
        public Type type() {
            return Type.ID_HOLDER_GONE;
        }

        public void writeFields(Wire.Writer w) {
            w.putLong(holder).putValue(canonical);
        }
    }

    /** The element a user's id names here; answers a long. */
    record ResolveId(ElementKind kind, Object canonical) implements Op {
        public Type type() {
            return Type.RESOLVE_ID;
        }

        public void writeFields(Wire.Writer w) {
            w.putByte(kind.ordinal()).putValue(canonical);
        }
    }

    /** The id to show for an element ({@link Type#EXPOSED_ID}, a value) or whether a user id shadows its number ({@link Type#SHADOWED_ID}, a boolean). */
    record ElementId(ElementKind kind, long internal, boolean shadowed) implements Op {
        public Type type() {
            return shadowed ? Type.SHADOWED_ID : Type.EXPOSED_ID;
        }

        public void writeFields(Wire.Writer w) {
            w.putByte(kind.ordinal()).putLong(internal);
        }
    }

    /** The ids to show for many elements; answers a value each. */
    record ExposedMany(ElementKind kind, long[] internals) implements Op {
        public Type type() {
            return Type.EXPOSED_MANY;
        }

        public void writeFields(Wire.Writer w) {
            w.putByte(kind.ordinal()).putLongs(internals);
        }
    }

    /** Keeps the owner's index on {@code key} up to date with a write of the element's property. */
    record IndexWrite(ElementKind kind, long element, String key, Object[] before, Object[] after) implements Op {
        public Type type() {
            return Type.INDEX_WRITE;
        }

        public void writeFields(Wire.Writer w) {
            w.putByte(kind.ordinal()).putLong(element).putString(key);
            putValues(w, before);
            putValues(w, after);
        }
    }

    /** Candidates from the owner's index; answers false if it has no ready index, else true and longs. */
    record IndexLookUp(ElementKind kind, String key, int mode, Object[] values) implements Op {
        public Type type() {
            return Type.INDEX_LOOKUP;
        }

        public void writeFields(Wire.Writer w) {
            w.putByte(kind.ordinal()).putString(key).putByte(mode);
            putValues(w, values);
        }
    }

    /** Entries {@code values[i]} of {@code elements[i]} for the owner's new index. */
    record IndexFill(ElementKind kind, String key, long[] elements, Object[] values) implements Op {
        public Type type() {
            return Type.INDEX_FILL;
        }

        public void writeFields(Wire.Writer w) {
            w.putByte(kind.ordinal()).putString(key).putLongs(elements);
            for (Object value : values) {
                w.putValue(value);
            }
        }
    }

    /** Defines, marks ready or drops an index on the receiving node. */
    record IndexChangeOf(IndexChange change, ElementKind kind, String key, boolean ordered) implements Op {
        public Type type() {
            return Type.INDEX_CHANGE;
        }

        public void writeFields(Wire.Writer w) {
            w.putByte(change.ordinal()).putByte(kind.ordinal()).putString(key).putBoolean(ordered);
        }
    }

    /**
     * Labels and/or properties ({@code keys}, or all when null) of many elements; answers per
     * element whether it is seen, then its label's name, then the values (or every property).
     */
    record ReadMany(ElementKind kind, long[] ids, boolean labels, String[] keys) implements Op {
        public Type type() {
            return Type.READ_MANY;
        }

        public void writeFields(Wire.Writer w) {
            w.putByte(kind.ordinal()).putLongs(ids).putBoolean(labels);
            if (keys == null) {
                w.putInt(-1);
            } else {
                putStrings(w, keys);
            }
        }
    }

    /** The end of a read-only transaction: wait for what it pre-read here to commit. */
    record Resolve() implements Op {
        public Type type() {
            return Type.RESOLVE;
        }

        public void writeFields(Wire.Writer w) {
        }
    }

    /**
     * Operations for one node, run there in order under the transaction's part, each as if it had
     * come alone; answers their results one after another. The first that fails is the answer, and
     * those before it stay done (docs/cluster-transactions.md, "Execution": batched writes).
     */
    record Many(java.util.List<Op> ops) implements Op {
        /** The most operations one request holds; {@link #chunks} splits a longer list. */
        public static final int MAX_OPS = 1024;
        /**
         * The most encoded bytes of operations {@link #chunks} puts in one request, well below the
         * fabric's 16 MiB per message (an operation larger than this goes alone).
         */
        public static final int MAX_BYTES = 4 << 20;
        /**
         * What a MANY may hold: the writes and id steps of bulk writes, whose answers are small (at
         * most a value each), so the reply stays within a message too.
         */
        public static final java.util.Set<Type> HELD = java.util.EnumSet.of(Type.RESOLVE_ID, Type.ADD_EDGE, Type.ADD_MIRROR,
                Type.CLAIM_ID, Type.BIND_ID, Type.SET_PROPERTY);

        public Many {
            ops = java.util.List.copyOf(ops);
            if (ops.isEmpty() || ops.size() > MAX_OPS) {
                throw new IllegalArgumentException("a MANY holds 1 to " + MAX_OPS + " operations, not " + ops.size());
            }
            for (Op op : ops) {
                if (!HELD.contains(op.type())) {
                    throw new IllegalArgumentException("a MANY cannot hold a " + op.type() + " (it holds " + HELD + ")");
                }
            }
        }

        /** {@code ops} (not empty) in order, in requests of at most {@link #MAX_OPS} operations and about {@link #MAX_BYTES}. */
        public static java.util.List<Many> chunks(java.util.List<Op> ops) {
            java.util.List<Many> chunks = new java.util.ArrayList<>();
            int from = 0;
            long bytes = 0;
            for (int i = 0; i < ops.size(); i++) {
                int size = encode(ops.get(i)).length;
                if (i > from && (i - from == MAX_OPS || bytes + size > MAX_BYTES)) {
                    chunks.add(new Many(ops.subList(from, i)));
                    from = i;
                    bytes = 0;
                }
                bytes += size;
            }
            chunks.add(new Many(ops.subList(from, ops.size())));
            return chunks;
        }

        public Type type() {
            return Type.MANY;
        }

        public void writeFields(Wire.Writer w) {
            w.putInt(ops.size());
            for (Op op : ops) {
                w.putBytes(encode(op));
            }
        }
    }

    static byte[] encode(Op op) {
        Wire.Writer w = new Wire.Writer().putByte(op.type().ordinal());
        op.writeFields(w);
        return w.bytes();
    }

    /** The name of the operation {@code encoded} holds (its type byte), for messages about it. */
    static String typeName(byte[] encoded) {
        int code = encoded.length == 0 ? -1 : encoded[0] & 0xff;
        return code >= 0 && code < Type.VALUES.length ? Type.VALUES[code].name() : "an unknown operation (" + code + ")";
    }

    /**
     * The operation {@code bytes} hold.
     *
     * @throws IllegalStateException if the type byte names no operation
     */
    static Op decode(byte[] bytes) {
        Wire.Reader in = new Wire.Reader(bytes);
        int code = in.getByte();
        if (code >= Type.VALUES.length) {
            throw new IllegalStateException("unknown remote operation: " + code);
        }
        Type type = Type.VALUES[code];
        return switch (type) {
            case EXISTS -> new Exists(kind(in), in.getLong());
            case LABEL -> new Label(kind(in), in.getLong());
            case EDGE_OUT, EDGE_IN -> new EdgeEnd(in.getLong(), type == Type.EDGE_OUT);
            case PROPERTY -> new Property(kind(in), in.getLong(), in.getString());
            case PROPERTIES -> new Properties(kind(in), in.getLong());
            case EDGES, ADJACENT -> new Edges(in.getLong(), EdgeDirection.values()[in.getByte()], in.getString(), type == Type.ADJACENT);
            case SCAN, COUNT -> new Scan(kind(in), in.getString(), type == Type.COUNT);
            case SCAN_PAGE -> new ScanPage(kind(in), in.getString(), in.getInt(), in.getInt());
            case VISIBLE -> new Visible(kind(in), in.getLongs());
            case RECORD -> {
                boolean write = in.getBoolean();
                ConflictKey.Kind kind = ConflictKey.Kind.values()[in.getByte()];
                long element = in.getLong();
                yield kind == ConflictKey.Kind.PROPERTY
                        ? new Record(write, kind, element, 0, in.getString())
                        : new Record(write, kind, element, in.getLong(), null);
            }
            case ADD_VERTEX -> new AddVertex(in.getString());
            case ADD_EDGE -> new AddEdge(in.getLong(), in.getLong(), in.getString());
            case REMOVE_EDGE -> new RemoveEdge(in.getLong());
            case REMOVE_VERTEX -> new RemoveVertex(in.getLong());
            case SET_PROPERTY -> new WriteProperty(kind(in), in.getLong(), in.getString(), in.getValue(), false);
            case REMOVE_PROPERTY -> new WriteProperty(kind(in), in.getLong(), in.getString(), null, true);
            case ADD_MIRROR -> new AddMirror(in.getLong(), in.getLong(), in.getLong(), in.getString());
            case REMOVE_MIRROR -> new RemoveMirror(in.getLong());
            case ADJACENT_MANY -> new AdjacentMany(in.getLongs(), EdgeDirection.values()[in.getByte()], getStrings(in));
            case BIND_ID -> new BindId(kind(in), in.getValue(), in.getValue(), in.getLong());
            case RESERVE_ID -> new ReserveId(in.getValue(), in.getLong());
            case RESOLVE_ID -> new ResolveId(kind(in), in.getValue());
            case CLAIM_ID -> new ClaimId(in.getValue(), in.getLong(), in.getLong());
            case ID_HOLDER_GONE -> new IdHolderGone(in.getLong(), in.getValue());
            case EXPOSED_ID, SHADOWED_ID -> new ElementId(kind(in), in.getLong(), type == Type.SHADOWED_ID);
            case EXPOSED_MANY -> new ExposedMany(kind(in), in.getLongs());
            case INDEX_WRITE -> new IndexWrite(kind(in), in.getLong(), in.getString(), getValues(in), getValues(in));
            case INDEX_LOOKUP -> new IndexLookUp(kind(in), in.getString(), in.getByte(), getValues(in));
            case INDEX_FILL -> {
                ElementKind kind = kind(in);
                String key = in.getString();
                long[] elements = in.getLongs();
                Object[] values = new Object[elements.length];
                for (int i = 0; i < values.length; i++) {
                    values[i] = in.getValue();
                }
                yield new IndexFill(kind, key, elements, values);
            }
            case INDEX_CHANGE -> new IndexChangeOf(IndexChange.values()[in.getByte()], kind(in), in.getString(), in.getBoolean());
            case READ_MANY -> {
                ElementKind kind = kind(in);
                long[] ids = in.getLongs();
                boolean labels = in.getBoolean();
                yield new ReadMany(kind, ids, labels, getStrings(in));
            }
            case RESOLVE -> new Resolve();
            case MANY -> {
                int n = in.getInt();
                if (n < 1 || n > Many.MAX_OPS) {
                    throw new IllegalStateException("a MANY of " + n + " operations");
                }
                java.util.List<Op> ops = new java.util.ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    byte[] one = in.getBytes();
                    if (one.length == 0 || one[0] < 0 || one[0] >= Type.VALUES.length || !Many.HELD.contains(Type.VALUES[one[0]])) {
                        // looked at before decoding: a MANY inside a MANY would recurse as deep as the message is long
                        throw new IllegalStateException("a MANY cannot hold operation code " + (one.length == 0 ? "(none)" : one[0]));
                    }
                    ops.add(decode(one));
                }
                yield new Many(ops);
            }
        };
    }

    private static ElementKind kind(Wire.Reader in) {
        return ElementKind.values()[in.getByte()];
    }

    /** A count (-1: null), then each string. */
    private static void putStrings(Wire.Writer w, String[] strings) {
        w.putInt(strings.length);
        for (String s : strings) {
            w.putString(s);
        }
    }

    private static String[] getStrings(Wire.Reader in) {
        int n = in.getInt();
        if (n < 0) {
            return null;
        }
        String[] strings = new String[n];
        for (int i = 0; i < n; i++) {
            strings[i] = in.getString();
        }
        return strings;
    }

    /** A count, then each value. */
    private static void putValues(Wire.Writer w, Object[] values) {
        w.putInt(values.length);
        for (Object value : values) {
            w.putValue(value);
        }
    }

    private static Object[] getValues(Wire.Reader in) {
        Object[] values = new Object[in.getInt()];
        for (int i = 0; i < values.length; i++) {
            values[i] = in.getValue();
        }
        return values;
    }
}
