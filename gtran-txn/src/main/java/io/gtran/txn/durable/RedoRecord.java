package io.gtran.txn.durable;

import io.gtran.storage.ElementIds;
import io.gtran.storage.SerializedValue;
import io.gtran.storage.ValueType;
import io.gtran.txn.common.ElementKind;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The records of a node's log (docs/durability.md): a {@link Commit} per writing transaction, in
 * the store's own terms, and a {@link Name} per label or property key given an id. Encoded as a
 * type byte then the fields, big-endian; {@link #decode} refuses trailing or missing bytes.
 */
public sealed interface RedoRecord permits RedoRecord.Commit, RedoRecord.Name, RedoRecord.IndexDefinition,
        RedoRecord.SlotsUsed, RedoRecord.Vote, RedoRecord.Decision, RedoRecord.Released, RedoRecord.Pending,
        RedoRecord.SequenceCeiling {
    byte COMMIT = 1;
    byte NAME = 2;
    byte INDEX = 3;
    byte SLOTS_USED = 4;
    byte VOTE = 5;
    byte DECISION = 6;
    byte RELEASED = 7;
    byte PENDING = 8;
    byte SEQUENCE_CEILING = 9;

    byte[] encode();

    /** A label ({@code keys == false}) or property key got {@code id}. */
    record Name(boolean keys, int id, String name) implements RedoRecord {
        @Override
        public byte[] encode() {
            byte[] text = name.getBytes(StandardCharsets.UTF_8);
            return ByteBuffer.allocate(1 + 1 + 4 + 4 + text.length).put(NAME).put((byte) (keys ? 1 : 0)).putInt(id)
                    .putInt(text.length).put(text).array();
        }
    }

    /**
     * A property index made ready ({@code present}) or dropped on this node's vertices or
     * ({@code edges}) edges; logged so that a restart has the indexes made at run time.
     */
    record IndexDefinition(boolean edges, String key, boolean ordered, boolean present) implements RedoRecord {
        @Override
        public byte[] encode() {
            byte[] text = key.getBytes(StandardCharsets.UTF_8);
            return ByteBuffer.allocate(1 + 3 + 4 + text.length).put(INDEX).put((byte) (edges ? 1 : 0))
                    .put((byte) (ordered ? 1 : 0)).put((byte) (present ? 1 : 0)).putInt(text.length).put(text).array();
        }

        /** Applies this change to {@code defined}: the indexes made and not dropped, by kind and key, in the order made. */
        public void applyTo(java.util.Map<String, IndexDefinition> defined) {
            String at = (edges ? "edge:" : "vertex:") + key;
            if (present) {
                defined.put(at, this);
            } else {
                defined.remove(at);
            }
        }
    }

    /**
     * Written by a snapshot only: the last id each of these slots carried, for slots that hold no
     * element the snapshot has, so that a restart never hands an id out twice (docs/durability.md,
     * "Snapshots").
     */
    record SlotsUsed(long[] ids) implements RedoRecord {
        @Override
        public byte[] encode() {
            ByteBuffer out = ByteBuffer.allocate(1 + 4 + 8 * ids.length).put(SLOTS_USED).putInt(ids.length);
            for (long id : ids) {
                out.putLong(id);
            }
            return out.array();
        }
    }

    /** What one transaction left behind on this node, in the order it is to be applied. */
    record Commit(long commitTime, List<Op> ops) implements RedoRecord {
        @Override
        public byte[] encode() {
            return write(64 + ops.size() * 32, out -> {
                out.writeByte(COMMIT);
                out.writeLong(commitTime);
                writeOps(out, ops);
            });
        }
    }

    /**
     * This node's part of cross-node transaction {@code txn}, logged before its YES leaves (or, at
     * the coordinator, before VALIDATE does): docs/durability.md, "Nodes of a cluster".
     */
    record Vote(long txn, long commitTime, int[] participants, List<Op> ops) implements RedoRecord {
        @Override
        public byte[] encode() {
            return write(64 + 4 * participants.length + ops.size() * 32, out -> {
                out.writeByte(VOTE);
                out.writeLong(txn);
                out.writeLong(commitTime);
                writeNodes(out, participants);
                writeOps(out, ops);
            });
        }
    }

    /** The outcome of {@code txn}, whose Vote this node logged. */
    record Decision(long txn, long commitTime, boolean commit) implements RedoRecord {
        @Override
        public byte[] encode() {
            return ByteBuffer.allocate(1 + 8 + 8 + 1).put(DECISION).putLong(txn).putLong(commitTime)
                    .put((byte) (commit ? 1 : 0)).array();
        }
    }

    /** Every participant of {@code txn}, which this node coordinated, acknowledged its decision. */
    record Released(long txn) implements RedoRecord {
        @Override
        public byte[] encode() {
            return ByteBuffer.allocate(1 + 8).put(RELEASED).putLong(txn).array();
        }
    }

    /** In a snapshot: a decision of {@code txn}, which this node coordinated, not yet acknowledged by every participant. */
    record Pending(long txn, long commitTime, int[] participants, boolean commit) implements RedoRecord {
        @Override
        public byte[] encode() {
            return write(32 + 4 * participants.length, out -> {
                out.writeByte(PENDING);
                out.writeLong(txn);
                out.writeLong(commitTime);
                writeNodes(out, participants);
                out.writeByte(commit ? 1 : 0);
            });
        }
    }

    /**
     * Every transaction sequence this node (a member of a cluster) hands out until the next such
     * record is below {@code ceiling}: forced before any slot reaches it, so a restarted member
     * starts its sequences above every id its last process gave (docs/durability.md, C5').
     */
    record SequenceCeiling(long ceiling) implements RedoRecord {
        @Override
        public byte[] encode() {
            return ByteBuffer.allocate(1 + 8).put(SEQUENCE_CEILING).putLong(ceiling).array();
        }
    }

    /** Writes a record's fields. */
    interface Fields {
        void write(DataOutputStream out) throws IOException;
    }

    private static byte[] write(int sizeHint, Fields fields) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(sizeHint);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            fields.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail
        }
        return bytes.toByteArray();
    }

    private static void writeOps(DataOutputStream out, List<Op> ops) throws IOException {
        out.writeInt(ops.size());
        for (Op op : ops) {
            op.write(out);
        }
    }

    private static void writeNodes(DataOutputStream out, int[] nodes) throws IOException {
        out.writeInt(nodes.length);
        for (int node : nodes) {
            out.writeInt(node);
        }
    }

    /** One change of a {@link Commit}. */
    sealed interface Op permits AddVertex, AddEdge, Remove, SetProperty, RemoveProperty, AddMirror, Claim, Reserve {
        void write(DataOutputStream out) throws IOException;
    }

    /** A vertex created at {@code id}; {@code externalId} is the user's id (Long, Integer, Short, Byte, String, UUID) or null. */
    record AddVertex(long id, int label, Object externalId) implements Op {
        @Override
        public void write(DataOutputStream out) throws IOException {
            out.writeByte(1);
            out.writeLong(id);
            out.writeInt(label);
            ExternalIdCodec.write(out, externalId);
        }
    }

    record AddEdge(long id, int label, long outVertex, long inVertex, Object externalId) implements Op {
        @Override
        public void write(DataOutputStream out) throws IOException {
            out.writeByte(2);
            out.writeLong(id);
            out.writeInt(label);
            out.writeLong(outVertex);
            out.writeLong(inVertex);
            ExternalIdCodec.write(out, externalId);
        }
    }

    /** A vertex or edge removed (the kind is in the id). */
    record Remove(long id) implements Op {
        @Override
        public void write(DataOutputStream out) throws IOException {
            out.writeByte(3);
            out.writeLong(id);
        }
    }

    /** A property set: {@code value} as the store holds it (boxed scalar, String, byte[] or SerializedValue). */
    record SetProperty(long element, int key, Object value) implements Op {
        @Override
        public void write(DataOutputStream out) throws IOException {
            out.writeByte(4);
            out.writeLong(element);
            out.writeInt(key);
            ValueCodec.write(out, value);
        }
    }

    record RemoveProperty(long element, int key) implements Op {
        @Override
        public void write(DataOutputStream out) throws IOException {
            out.writeByte(5);
            out.writeLong(element);
            out.writeInt(key);
        }
    }

    /**
     * The mirror {@code id} here of edge {@code edge}, which lives on its out-vertex's node
     * (docs/cluster-transactions.md, "Edges between nodes"): an edge header of this node's.
     */
    record AddMirror(long id, long edge, int label, long outVertex, long inVertex) implements Op {
        @Override
        public void write(DataOutputStream out) throws IOException {
            out.writeByte(6);
            out.writeLong(id);
            out.writeLong(edge);
            out.writeInt(label);
            out.writeLong(outVertex);
            out.writeLong(inVertex);
        }
    }

    /** User-supplied edge id {@code canonical}, whose home is this node, claimed for edge {@code edge} (of any member). */
    record Claim(Object canonical, long edge) implements Op {
        @Override
        public void write(DataOutputStream out) throws IOException {
            out.writeByte(7);
            ExternalIdCodec.write(out, canonical);
            out.writeLong(edge);
        }
    }

    /** Edge id {@code number} of this node taken as another member's edge's user-supplied id: no edge made here gets it. */
    record Reserve(long number) implements Op {
        @Override
        public void write(DataOutputStream out) throws IOException {
            out.writeByte(8);
            out.writeLong(number);
        }
    }

    /** The kind of a vertex or edge id. */
    static ElementKind kindOf(long id) {
        int kind = ElementIds.kind(id);
        if (kind == ElementIds.VERTEX) {
            return ElementKind.VERTEX;
        }
        if (kind == ElementIds.EDGE) {
            return ElementKind.EDGE;
        }
        throw new IllegalArgumentException("not a vertex or edge id: " + id);
    }

    /**
     * Decodes a record.
     *
     * @throws IllegalArgumentException naming what is wrong if the bytes are not one whole record
     */
    static RedoRecord decode(byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        try {
            RedoRecord record = switch (in.get()) {
                case COMMIT -> decodeCommit(in);
                case NAME -> {
                    boolean keys = in.get() != 0;
                    int id = in.getInt();
                    yield new Name(keys, id, new String(ValueCodec.bytes(in), StandardCharsets.UTF_8));
                }
                case INDEX -> {
                    boolean edges = in.get() != 0;
                    boolean ordered = in.get() != 0;
                    boolean present = in.get() != 0;
                    yield new IndexDefinition(edges, new String(ValueCodec.bytes(in), StandardCharsets.UTF_8), ordered, present);
                }
                case SLOTS_USED -> {
                    int count = in.getInt();
                    if (count < 0 || count > in.remaining() / 8) {
                        throw new IllegalArgumentException("bad id count " + count);
                    }
                    long[] ids = new long[count];
                    in.asLongBuffer().get(ids);
                    in.position(in.position() + 8 * count);
                    yield new SlotsUsed(ids);
                }
                case VOTE -> new Vote(in.getLong(), in.getLong(), readNodes(in), decodeOps(in));
                case DECISION -> new Decision(in.getLong(), in.getLong(), readFlag(in));
                case RELEASED -> new Released(in.getLong());
                case PENDING -> new Pending(in.getLong(), in.getLong(), readNodes(in), readFlag(in));
                case SEQUENCE_CEILING -> new SequenceCeiling(in.getLong());
                default -> throw new IllegalArgumentException("unknown record type " + bytes[0]);
            };
            if (in.hasRemaining()) {
                throw new IllegalArgumentException(in.remaining() + " bytes after the record's end");
            }
            return record;
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("record ends early: " + bytes.length + " bytes", e);
        }
    }

    private static Commit decodeCommit(ByteBuffer in) {
        long commitTime = in.getLong();
        return new Commit(commitTime, decodeOps(in));
    }

    private static int[] readNodes(ByteBuffer in) {
        int count = in.getInt();
        if (count < 0 || count > in.remaining() / 4) {
            throw new IllegalArgumentException("bad node count " + count);
        }
        int[] nodes = new int[count];
        for (int i = 0; i < count; i++) {
            nodes[i] = in.getInt();
        }
        return nodes;
    }

    private static boolean readFlag(ByteBuffer in) {
        byte flag = in.get();
        if (flag != 0 && flag != 1) {
            throw new IllegalArgumentException("bad flag " + flag);
        }
        return flag == 1;
    }

    private static List<Op> decodeOps(ByteBuffer in) {
        int count = in.getInt();
        if (count < 0 || count > in.remaining()) {
            throw new IllegalArgumentException("bad op count " + count);
        }
        List<Op> ops = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            byte type = in.get();
            ops.add(switch (type) {
                case 1 -> new AddVertex(in.getLong(), in.getInt(), ExternalIdCodec.read(in));
                case 2 -> new AddEdge(in.getLong(), in.getInt(), in.getLong(), in.getLong(), ExternalIdCodec.read(in));
                case 3 -> new Remove(in.getLong());
                case 4 -> new SetProperty(in.getLong(), in.getInt(), ValueCodec.read(in));
                case 5 -> new RemoveProperty(in.getLong(), in.getInt());
                case 6 -> new AddMirror(in.getLong(), in.getLong(), in.getInt(), in.getLong(), in.getLong());
                case 7 -> new Claim(ExternalIdCodec.read(in), in.getLong());
                case 8 -> new Reserve(in.getLong());
                default -> throw new IllegalArgumentException("unknown op type " + type + " at op " + i);
            });
        }
        return ops;
    }

    /** Store values: the store's type tag, then the inline word or the bytes. */
    final class ValueCodec {
        private ValueCodec() {
        }

        static void write(DataOutputStream out, Object value) throws IOException {
            ValueType type = ValueType.of(value);
            if (type == null) {
                throw new IllegalArgumentException("not a value the store holds: " + value.getClass().getName());
            }
            out.writeByte(type.tag());
            switch (type) {
                case STRING -> writeBytes(out, ((String) value).getBytes(StandardCharsets.UTF_8));
                case BYTES -> writeBytes(out, (byte[]) value);
                case SERIALIZED -> writeBytes(out, ((SerializedValue) value).bytes());
                case BOOLEAN -> out.writeBoolean((Boolean) value);
                case BYTE -> out.writeByte((Byte) value);
                case SHORT -> out.writeShort((Short) value);
                case CHAR -> out.writeChar((Character) value);
                case INT -> out.writeInt((Integer) value);
                case LONG -> out.writeLong((Long) value);
                case FLOAT -> out.writeFloat((Float) value);
                case DOUBLE -> out.writeDouble((Double) value);
            }
        }

        static Object read(ByteBuffer in) {
            ValueType type = ValueType.ofTag(in.get());
            return switch (type) {
                case STRING -> new String(bytes(in), StandardCharsets.UTF_8);
                case BYTES -> bytes(in);
                case SERIALIZED -> new SerializedValue(bytes(in));
                case BOOLEAN -> in.get() != 0;
                case BYTE -> in.get();
                case SHORT -> in.getShort();
                case CHAR -> in.getChar();
                case INT -> in.getInt();
                case LONG -> in.getLong();
                case FLOAT -> in.getFloat();
                case DOUBLE -> in.getDouble();
            };
        }

        static void writeBytes(DataOutputStream out, byte[] bytes) throws IOException {
            out.writeInt(bytes.length);
            out.write(bytes);
        }

        static byte[] bytes(ByteBuffer in) {
            int length = in.getInt();
            if (length < 0 || length > in.remaining()) {
                throw new IllegalArgumentException("bad length " + length + " with " + in.remaining() + " bytes left");
            }
            byte[] bytes = new byte[length];
            in.get(bytes);
            return bytes;
        }
    }

    /** User-supplied ids, with the type they were given in (ExternalIdMap keeps it too). */
    final class ExternalIdCodec {
        private ExternalIdCodec() {
        }

        static void write(DataOutputStream out, Object id) throws IOException {
            if (id == null) {
                out.writeByte(0);
            } else if (id instanceof Long l) {
                out.writeByte(1);
                out.writeLong(l);
            } else if (id instanceof Integer i) {
                out.writeByte(2);
                out.writeInt(i);
            } else if (id instanceof Short s) {
                out.writeByte(3);
                out.writeShort(s);
            } else if (id instanceof Byte b) {
                out.writeByte(4);
                out.writeByte(b);
            } else if (id instanceof String s) {
                out.writeByte(5);
                ValueCodec.writeBytes(out, s.getBytes(StandardCharsets.UTF_8));
            } else if (id instanceof UUID u) {
                out.writeByte(6);
                out.writeLong(u.getMostSignificantBits());
                out.writeLong(u.getLeastSignificantBits());
            } else {
                throw new IllegalArgumentException("not a user id type the store keeps: " + id.getClass().getName());
            }
        }

        static Object read(ByteBuffer in) {
            byte tag = in.get();
            return switch (tag) {
                case 0 -> null;
                case 1 -> in.getLong();
                case 2 -> in.getInt();
                case 3 -> in.getShort();
                case 4 -> in.get();
                case 5 -> new String(ValueCodec.bytes(in), StandardCharsets.UTF_8);
                case 6 -> new UUID(in.getLong(), in.getLong());
                default -> throw new IllegalArgumentException("unknown user id tag " + tag);
            };
        }
    }
}
