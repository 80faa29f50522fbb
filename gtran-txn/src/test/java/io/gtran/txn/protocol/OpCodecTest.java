package io.gtran.txn.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.storage.EdgeDirection;
import io.gtran.txn.common.ConflictKey;
import io.gtran.txn.common.ConflictKind;
import io.gtran.txn.common.ElementKind;
import io.gtran.txn.common.IndexChange;
import io.gtran.txn.common.Isolation;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Every operation, every message that carries one and a chain's messages read back as written. */
class OpCodecTest {
    private static final Object[] VALUES = {null, 7L, "x", 2.5d, true, UUID.fromString("00000000-0000-0001-0000-000000000002")};

    /** One of each record, covering every {@link Op.Type}, with fields that differ from their defaults. */
    static List<Op> samples() {
        return List.of(
                new Op.Exists(ElementKind.EDGE, 11L),
                new Op.Label(ElementKind.VERTEX, 12L),
                new Op.EdgeEnd(13L, true),
                new Op.EdgeEnd(14L, false),
                new Op.Property(ElementKind.EDGE, 15L, "age"),
                new Op.Properties(ElementKind.VERTEX, 16L),
                new Op.Edges(17L, EdgeDirection.IN, "knows", false),
                new Op.Edges(18L, EdgeDirection.BOTH, null, true),
                new Op.Scan(ElementKind.EDGE, "knows", false),
                new Op.Scan(ElementKind.VERTEX, null, true),
                new Op.ScanPage(ElementKind.VERTEX, "person", 40, 500),
                new Op.Visible(ElementKind.EDGE, new long[] {1, 2, 3}),
                new Op.Record(true, ConflictKey.Kind.PROPERTY, 19L, 0, "name"),
                new Op.Record(false, ConflictKey.Kind.VERTEX_SCAN, 20L, 21L, null),
                new Op.AddVertex("person"),
                new Op.AddEdge(22L, 23L, "knows"),
                new Op.RemoveEdge(24L),
                new Op.RemoveVertex(25L),
                new Op.WriteProperty(ElementKind.VERTEX, 26L, "name", "marko", false),
                new Op.WriteProperty(ElementKind.EDGE, 27L, "weight", null, true),
                new Op.AddMirror(28L, 29L, 30L, "knows"),
                new Op.RemoveMirror(31L),
                new Op.AdjacentMany(new long[] {32, 33}, EdgeDirection.OUT, new String[] {"a", null}),
                new Op.BindId(ElementKind.VERTEX, "given", "canonical", 34L),
                new Op.ReserveId(35L, 36L),
                new Op.ResolveId(ElementKind.EDGE, UUID.fromString("00000000-0000-0001-0000-000000000002")),
                new Op.ClaimId("E1", 37L, 38L),
                new Op.IdHolderGone(39L, 40L),
                new Op.ElementId(ElementKind.VERTEX, 37L, false),
                new Op.ElementId(ElementKind.EDGE, 38L, true),
                new Op.ExposedMany(ElementKind.VERTEX, new long[] {39, 40}),
                new Op.IndexWrite(ElementKind.VERTEX, 41L, "name", VALUES, new Object[] {"y"}),
                new Op.IndexLookUp(ElementKind.EDGE, "weight", 2, VALUES),
                new Op.IndexFill(ElementKind.VERTEX, "name", new long[] {42, 43}, new Object[] {"a", null}),
                new Op.IndexChangeOf(IndexChange.READY, ElementKind.EDGE, "weight", true),
                new Op.ReadMany(ElementKind.VERTEX, new long[] {44, 45}, true, new String[] {"name", "age"}),
                new Op.ReadMany(ElementKind.EDGE, new long[] {46}, false, null),
                new Op.Resolve(),
                new Op.Many(List.of(new Op.AddMirror(47L, 48L, 49L, "knows"), new Op.ClaimId(50L, 51L, 0L))));
    }

    @Test
    void everyOperationReadsBackAsWritten() {
        Set<Op.Type> covered = EnumSet.noneOf(Op.Type.class);
        for (Op op : samples()) {
            byte[] bytes = Op.encode(op);
            assertEquals(op.type().ordinal(), bytes[0], "the first byte is the type: " + op);
            Op back = Op.decode(bytes);
            assertEquals(op.getClass(), back.getClass(), op.toString());
            assertEquals(op.type(), back.type());
            assertArrayEquals(bytes, Op.encode(back), "the same bytes again: " + op);
            covered.add(op.type());
        }
        assertEquals(EnumSet.allOf(Op.Type.class), covered, "a sample of every type");
    }

    @Test
    void fieldsSurviveTheTrip() {
        Op.WriteProperty set = (Op.WriteProperty) Op.decode(Op.encode(new Op.WriteProperty(ElementKind.EDGE, 9L, "k", 3.5d, false)));
        assertEquals(new Op.WriteProperty(ElementKind.EDGE, 9L, "k", 3.5d, false), set);
        Op.Record record = (Op.Record) Op.decode(Op.encode(new Op.Record(true, ConflictKey.Kind.PROPERTY, 5L, 0, "name")));
        assertEquals(new Op.Record(true, ConflictKey.Kind.PROPERTY, 5L, 0, "name"), record);
        Op.AdjacentMany many = (Op.AdjacentMany) Op.decode(Op.encode(new Op.AdjacentMany(new long[] {1}, EdgeDirection.IN, new String[] {null, "x"})));
        assertArrayEquals(new String[] {null, "x"}, many.labels());
        assertNull(((Op.ReadMany) Op.decode(Op.encode(new Op.ReadMany(ElementKind.VERTEX, new long[0], true, null)))).keys());
        Op.IndexWrite write = (Op.IndexWrite) Op.decode(Op.encode(new Op.IndexWrite(ElementKind.VERTEX, 1L, "k", VALUES, new Object[0])));
        assertArrayEquals(VALUES, write.before());
    }

    @Test
    void aManyHoldsItsOperationsInOrderAndRefusesNestingEmptinessAndExcess() {
        List<Op> ops = List.of(new Op.ResolveId(ElementKind.VERTEX, "v1"), new Op.AddMirror(1L, 2L, 3L, "x"),
                new Op.WriteProperty(ElementKind.EDGE, 4L, "k", "v", false));
        assertEquals(ops, ((Op.Many) Op.decode(Op.encode(new Op.Many(ops)))).ops());
        Op.Many one = new Op.Many(List.of(new Op.AddMirror(1L, 2L, 3L, "x")));
        assertThrows(IllegalArgumentException.class, () -> new Op.Many(List.of(one)));
        assertThrows(IllegalArgumentException.class, () -> new Op.Many(List.of(new Op.Scan(ElementKind.VERTEX, null, false))),
                "a read whose answer has no bound");
        assertThrows(IllegalArgumentException.class, () -> new Op.Many(List.of()));
        List<Op> tooMany = java.util.Collections.nCopies(Op.Many.MAX_OPS + 1, new Op.AddMirror(1L, 2L, 3L, "x"));
        assertThrows(IllegalArgumentException.class, () -> new Op.Many(tooMany));
        assertEquals(List.of(Op.Many.MAX_OPS, 1), Op.Many.chunks(tooMany).stream().map(c -> c.ops().size()).toList());
        Op big = new Op.WriteProperty(ElementKind.EDGE, 4L, "k", "x".repeat(Op.Many.MAX_BYTES / 3), false);
        assertEquals(List.of(2, 2, 1), Op.Many.chunks(List.of(big, big, big, big, big)).stream().map(c -> c.ops().size()).toList(),
                "split by bytes too");

        // what another member could send: a MANY inside a MANY (refused before it is decoded), an
        // empty one, a count beyond the limit, an operation a MANY may not hold
        byte[] nested = new Wire.Writer().putByte(Op.Type.MANY.ordinal()).putInt(1).putBytes(Op.encode(one)).bytes();
        assertThrows(IllegalStateException.class, () -> Op.decode(nested));
        int levels = 30_000; // each a well-formed MANY of one operation: the next level
        byte[] innermost = Op.encode(new Op.AddMirror(1L, 2L, 3L, "x"));
        java.nio.ByteBuffer deep = java.nio.ByteBuffer.allocate(levels * 9 + innermost.length);
        for (int level = 0; level < levels; level++) {
            deep.put((byte) Op.Type.MANY.ordinal()).putInt(1).putInt((levels - level - 1) * 9 + innermost.length);
        }
        deep.put(innermost);
        assertThrows(IllegalStateException.class, () -> Op.decode(deep.array()), "refused at the first level, not a stack overflow");
        byte[] empty = new Wire.Writer().putByte(Op.Type.MANY.ordinal()).putInt(0).bytes();
        assertThrows(IllegalStateException.class, () -> Op.decode(empty));
        byte[] huge = new Wire.Writer().putByte(Op.Type.MANY.ordinal()).putInt(Integer.MAX_VALUE).bytes();
        assertThrows(IllegalStateException.class, () -> Op.decode(huge));
        byte[] scan = new Wire.Writer().putByte(Op.Type.MANY.ordinal()).putInt(1)
                .putBytes(Op.encode(new Op.Scan(ElementKind.VERTEX, null, false))).bytes();
        assertThrows(IllegalStateException.class, () -> Op.decode(scan));
    }

    @Test
    void anUnknownOperationIsRefusedByItsCode() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Op.decode(new byte[] {(byte) 99}));
        assertTrue(e.getMessage().contains("99"), e.getMessage());
    }

    @Test
    void requestsNamesAndEveryAnswerReadBackAsWritten() {
        byte[] op = Op.encode(new Op.Exists(ElementKind.VERTEX, 3L));
        OpsMessage.Request request = (OpsMessage.Request) roundTrip(new OpsMessage.Request(77L, 5L, 6L, Isolation.SNAPSHOT, 4, op,
                new long[] {11L, 12L, 13L, 14L}));
        assertEquals(List.of(77L, 5L, 6L, Isolation.SNAPSHOT, 4), List.of(request.request(), request.txn(), request.beginTime(),
                request.isolation(), request.seq()));
        assertArrayEquals(op, request.op());
        assertArrayEquals(new long[] {11L, 12L, 13L, 14L}, request.committed(), "the commits it carries, in pairs");
        assertThrows(IllegalArgumentException.class, () -> new OpsMessage.Request(77L, 5L, 6L, Isolation.SNAPSHOT, 4, op, new long[] {11L}),
                "an id without its time");
        assertEquals(new OpsMessage.Name(78L, 1, true, "person"), roundTrip(new OpsMessage.Name(78L, 1, true, "person")));

        for (OpsMessage.Answer answer : List.<OpsMessage.Answer>of(
                new OpsMessage.Conflict(true, false, ConflictKind.WRITE_WRITE, 9L, "vertex 3", null),
                new OpsMessage.NotFound(false, true, "no vertex 3", 3L),
                new OpsMessage.Failed(true, true, "java.lang.IllegalArgumentException", "bad"),
                new OpsMessage.Refused("node 1 is closing"))) {
            assertEquals(answer, answerTrip(answer));
        }
        OpsMessage.Done done = (OpsMessage.Done) answerTrip(new OpsMessage.Done(true, true, new byte[] {1, 2}));
        assertTrue(done.wrote() && done.preReads());
        assertArrayEquals(new byte[] {1, 2}, done.result());

        assertEquals(new OpsMessage.NameAck(79L, 12, null, null), nameAckTrip(new OpsMessage.NameAck(79L, 12, null, null)));
        OpsMessage.NameAck refused = new OpsMessage.NameAck(80L, 0, "io.gtran.storage.StoreCapacityException", "full");
        assertEquals(refused, nameAckTrip(refused));
        for (OpsMessage.ChainAck sent : List.of(new OpsMessage.ChainAck(81L, null), new OpsMessage.ChainAck(82L, "node 2 is closing"))) {
            Wire.Reader ack = new Wire.Reader(OpsMessage.encode(sent));
            OpsMessage.Header header = OpsMessage.headerOf(ack);
            assertEquals(OpsMessage.REPLY, header.type());
            assertEquals(sent, OpsMessage.chainAckOf(header.request(), ack));
        }
    }

    @Test
    void aChainsForwardAndResultReadBackAsWritten() {
        Chain chain = Chain.empty().hop(EdgeDirection.OUT, "knows").hasLabel("person");
        OpsMessage.ChainReport report = new OpsMessage.ChainReport(2, 9L, true, false, new long[] {10, 11}, new int[] {0, 1});
        OpsMessage.Forward forward = (OpsMessage.Forward) roundTrip(new OpsMessage.Forward(83L,
                new OpsMessage.Traversers(8L, 5L, 6L, Isolation.SERIALIZABLE, 7L, chain, 1, new long[] {1, 2}, new long[] {3, 4}),
                List.of(report)));
        OpsMessage.Traversers t = forward.traversers();
        assertEquals(List.of(8L, 5L, 6L, Isolation.SERIALIZABLE, 7L, 1), List.of(t.forward(), t.txn(), t.beginTime(),
                t.isolation(), t.chainId(), t.stage()));
        assertEquals(chain.toString(), t.chain().toString());
        assertArrayEquals(new long[] {1, 2}, t.vertices());
        assertArrayEquals(new long[] {3, 4}, t.bulks());
        assertReport(report, forward.carried().get(0));

        for (OpsMessage.Answer failure : java.util.Arrays.asList(null, new OpsMessage.Refused("gone"),
                new OpsMessage.Conflict(false, false, ConflictKind.WRITE_WRITE, 9L, "vertex 3", "d"))) {
            OpsMessage.Result result = (OpsMessage.Result) roundTrip(new OpsMessage.Result(84L, 7L, failure, List.of(report, report),
                    new long[] {5}, new long[] {6}, new long[] {12}));
            assertEquals(failure, result.failure());
            assertEquals(2, result.reports().size());
            assertReport(report, result.reports().get(1));
            assertArrayEquals(new long[] {5}, result.vertices());
            assertArrayEquals(new long[] {6}, result.bulks());
            assertArrayEquals(new long[] {12}, result.unseen());
        }
    }

    private static void assertReport(OpsMessage.ChainReport want, OpsMessage.ChainReport got) {
        assertEquals(List.of(want.node(), want.forward(), want.wrote(), want.preReads()),
                List.of(got.node(), got.forward(), got.wrote(), got.preReads()));
        assertArrayEquals(want.spawned(), got.spawned());
        assertArrayEquals(want.spawnedNodes(), got.spawnedNodes());
    }

    private static OpsMessage roundTrip(OpsMessage message) {
        byte[] bytes = OpsMessage.encode(message);
        assertEquals(Family.OPS, Family.of(bytes), message.toString());
        Wire.Reader in = new Wire.Reader(bytes);
        OpsMessage.Header header = OpsMessage.headerOf(in);
        assertEquals(message.request(), header.request());
        return OpsMessage.decode(header.type(), header.request(), in);
    }

    private static OpsMessage.Answer answerTrip(OpsMessage.Answer answer) {
        Wire.Reader in = new Wire.Reader(OpsMessage.encode(new OpsMessage.Reply(5L, answer)));
        OpsMessage.Header header = OpsMessage.headerOf(in);
        assertEquals(new OpsMessage.Header(OpsMessage.REPLY, 5L), header);
        assertInstanceOf(OpsMessage.Answer.class, answer);
        return OpsMessage.answerOf(in);
    }

    private static OpsMessage.NameAck nameAckTrip(OpsMessage.NameAck ack) {
        Wire.Reader in = new Wire.Reader(OpsMessage.encode(ack));
        OpsMessage.Header header = OpsMessage.headerOf(in);
        assertEquals(OpsMessage.NAME_ACK, header.type());
        return OpsMessage.nameAckOf(header.request(), in);
    }
}
