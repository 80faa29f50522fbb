package io.gtran.txn.durable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.storage.ElementIds;
import io.gtran.storage.SerializedValue;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Log records read back exactly as written, and bytes that are not one whole record are refused. */
class RedoRecordTest {
    private static final long V1 = ElementIds.vertexId(0, 0, 1);
    private static final long V2 = ElementIds.vertexId(0, 3, 2);
    private static final long E1 = ElementIds.edgeId(0, 1, 7);

    static RedoRecord.Commit everyOp() {
        return new RedoRecord.Commit(1_764_000_000_000_000L, List.of(
                new RedoRecord.AddVertex(V1, 0, null),
                new RedoRecord.AddVertex(V2, 5, "user-id"),
                new RedoRecord.AddEdge(E1, 2, V1, V2, UUID.fromString("123e4567-e89b-12d3-a456-426614174000")),
                new RedoRecord.SetProperty(V1, 0, true),
                new RedoRecord.SetProperty(V1, 1, (byte) -3),
                new RedoRecord.SetProperty(V1, 2, (short) 300),
                new RedoRecord.SetProperty(V1, 3, 'x'),
                new RedoRecord.SetProperty(V1, 4, 42),
                new RedoRecord.SetProperty(V1, 5, Long.MIN_VALUE),
                new RedoRecord.SetProperty(V1, 6, 1.5f),
                new RedoRecord.SetProperty(V1, 7, Double.NaN),
                new RedoRecord.SetProperty(V1, 8, "snow \u2603 \uD83D\uDE00"),
                new RedoRecord.SetProperty(E1, 9, new byte[] {1, 2, 3}),
                new RedoRecord.SetProperty(E1, 10, new SerializedValue(new byte[] {9, 8})),
                new RedoRecord.RemoveProperty(V2, 3),
                new RedoRecord.Remove(E1),
                new RedoRecord.AddVertex(ElementIds.vertexId(0, 0, 9), 1, 7L),
                new RedoRecord.AddVertex(ElementIds.vertexId(0, 0, 10), 1, 7),
                new RedoRecord.AddVertex(ElementIds.vertexId(0, 0, 11), 1, (short) 7),
                new RedoRecord.AddVertex(ElementIds.vertexId(0, 0, 12), 1, (byte) 7)));
    }

    @Test
    void aCommitWithEveryKindOfChangeAndValueReadsBackEqual() {
        RedoRecord.Commit written = everyOp();
        RedoRecord.Commit read = (RedoRecord.Commit) RedoRecord.decode(written.encode());
        assertEquals(written.commitTime(), read.commitTime());
        assertEquals(written.ops().size(), read.ops().size());
        for (int i = 0; i < written.ops().size(); i++) {
            assertEquals(show(written.ops().get(i)), show(read.ops().get(i)), "op " + i);
        }
        assertEquals(Integer.class, ((RedoRecord.AddVertex) read.ops().get(17)).externalId().getClass(), "the id keeps its type");
    }

    @Test
    void aNameReadsBackEqual() {
        RedoRecord.Name name = new RedoRecord.Name(true, 17, "ключ");
        assertEquals(name, RedoRecord.decode(name.encode()));
        assertEquals(new RedoRecord.Name(false, 0, ""), RedoRecord.decode(new RedoRecord.Name(false, 0, "").encode()));
    }

    @Test
    void votesDecisionsAndReleasesReadBackEqual() {
        RedoRecord.Vote vote = new RedoRecord.Vote(1L << 62 | 77, 123, new int[] {1, 2}, everyOp().ops());
        RedoRecord.Vote decoded = (RedoRecord.Vote) RedoRecord.decode(vote.encode());
        assertEquals(vote.txn(), decoded.txn());
        assertEquals(vote.commitTime(), decoded.commitTime());
        assertArrayEquals(vote.participants(), decoded.participants());
        assertEquals(vote.ops().size(), decoded.ops().size());
        assertArrayEquals(vote.encode(), decoded.encode());
        RedoRecord.Decision decision = new RedoRecord.Decision(5, 6, true);
        assertEquals(decision, RedoRecord.decode(decision.encode()));
        assertEquals(new RedoRecord.Released(9), RedoRecord.decode(new RedoRecord.Released(9).encode()));
        assertEquals(new RedoRecord.SequenceCeiling(1L << 17), RedoRecord.decode(new RedoRecord.SequenceCeiling(1L << 17).encode()));
        RedoRecord.Pending pending = new RedoRecord.Pending(3, 4, new int[] {0}, false);
        assertArrayEquals(pending.encode(), RedoRecord.decode(pending.encode()).encode());
        byte[] bad = decision.encode();
        bad[bad.length - 1] = 7;
        assertThrows(IllegalArgumentException.class, () -> RedoRecord.decode(bad), "a flag that is neither 0 nor 1");
    }

    @Test
    void slotsUsedReadBackEqual() {
        long[] ids = {ElementIds.vertexId(0, 3, 9), ElementIds.edgeId(0, 0, 1)};
        RedoRecord.SlotsUsed decoded = (RedoRecord.SlotsUsed) RedoRecord.decode(new RedoRecord.SlotsUsed(ids).encode());
        assertArrayEquals(ids, decoded.ids());
        assertEquals(0, ((RedoRecord.SlotsUsed) RedoRecord.decode(new RedoRecord.SlotsUsed(new long[0]).encode())).ids().length);
        assertThrows(IllegalArgumentException.class, () -> RedoRecord.decode(new byte[] {RedoRecord.SLOTS_USED, 0, 0, 0, 9, 1}));
    }

    @Test
    void anIndexDefinitionReadsBackEqual() {
        for (RedoRecord.IndexDefinition d : List.of(new RedoRecord.IndexDefinition(false, "sku", false, true),
                new RedoRecord.IndexDefinition(true, "since", true, false))) {
            assertEquals(d, RedoRecord.decode(d.encode()));
        }
    }

    @Test
    void bytesThatAreNotOneWholeRecordAreRefused() {
        byte[] whole = everyOp().encode();
        for (int cut : new int[] {0, 1, 9, 13, whole.length / 2, whole.length - 1}) {
            byte[] torn = Arrays.copyOf(whole, cut);
            assertThrows(IllegalArgumentException.class, () -> RedoRecord.decode(torn), "cut at " + cut);
        }
        byte[] longer = Arrays.copyOf(whole, whole.length + 1);
        IllegalArgumentException trailing = assertThrows(IllegalArgumentException.class, () -> RedoRecord.decode(longer));
        assertTrue(trailing.getMessage().contains("after the record's end"), trailing.getMessage());
        byte[] unknown = whole.clone();
        unknown[0] = 10;
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RedoRecord.decode(unknown)).getMessage()
                .contains("unknown record type"));
    }

    private static String show(RedoRecord.Op op) {
        if (op instanceof RedoRecord.SetProperty p) {
            Object v = p.value();
            String value = v instanceof byte[] b ? Arrays.toString(b)
                    : v instanceof SerializedValue s ? "S" + Arrays.toString(s.bytes()) : v + ":" + v.getClass().getSimpleName();
            return "set " + p.element() + " " + p.key() + " " + value;
        }
        return op.toString();
    }

    @Test
    void aValueTheStoreDoesNotHoldIsRefusedWhenWritten() {
        RedoRecord.Commit bad = new RedoRecord.Commit(1, List.of(new RedoRecord.SetProperty(V1, 0, List.of(1))));
        assertThrows(IllegalArgumentException.class, bad::encode);
        assertArrayEquals(new RedoRecord.Name(false, 1, "a").encode(), new RedoRecord.Name(false, 1, "a").encode());
    }
}
