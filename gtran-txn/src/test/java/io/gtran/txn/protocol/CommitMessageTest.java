package io.gtran.txn.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Each commit message reads back as it was written, and bytes that are not one are refused by name. */
class CommitMessageTest {
    private static final long TXN = (1L << 62) | 0x1234_5678L;

    @Test
    void everyMessageReadsBackAsWritten() {
        List<CommitMessage> messages = List.of(
                new CommitMessage.VoteOf(TXN, Vote.YES),
                new CommitMessage.VoteOf(TXN, Vote.NO),
                new CommitMessage.Report(TXN, null, null),
                new CommitMessage.Report(TXN, Vote.YES, Outcome.ABORT),
                new CommitMessage.Decide(TXN, Outcome.COMMIT, 987_654_321L),
                new CommitMessage.Ack(TXN),
                new CommitMessage.Forgotten(TXN));
        for (CommitMessage m : messages) {
            assertEquals(Family.COMMIT, Family.of(CommitMessage.encode(m)), m.toString());
            assertEquals(m, CommitMessage.decode(CommitMessage.encode(m)), m.toString());
        }
        CommitMessage.Validate validate = (CommitMessage.Validate) CommitMessage.decode(
                CommitMessage.encode(new CommitMessage.Validate(TXN, 42L, new int[] {0, 2, 5})));
        assertEquals(42L, validate.commitTime());
        assertArrayEquals(new int[] {0, 2, 5}, validate.participants());
        CommitMessage.Recover recover = (CommitMessage.Recover) CommitMessage.decode(
                CommitMessage.encode(new CommitMessage.Recover(TXN, 42, new int[] {1, 3})));
        assertEquals(TXN, recover.txn());
        assertArrayEquals(new int[] {1, 3}, recover.participants());
    }

    @Test
    void theFirstByteIsTheTypeAndTheTransactionFollows() {
        byte[] bytes = CommitMessage.encode(new CommitMessage.Decide(TXN, Outcome.ABORT, 7L));
        assertEquals(Family.COMMIT.base() + CommitMessage.Type.DECIDE.ordinal(), bytes[0]);
        assertEquals(TXN, java.nio.ByteBuffer.wrap(bytes, 1, 8).getLong());
    }

    @Test
    void aBundleReadsBackAsItsMessagesInOrder() {
        CommitMessage.Bundle bundle = new CommitMessage.Bundle(List.of(
                new CommitMessage.Decide(TXN, Outcome.ABORT, 0L), new CommitMessage.Ack(TXN + 1), new CommitMessage.Decide(TXN + 2, Outcome.ABORT, 0L)));
        byte[] bytes = CommitMessage.encode(bundle);
        assertEquals(Family.COMMIT.base() + CommitMessage.Type.BUNDLE.ordinal(), bytes[0]);
        assertEquals(bundle, CommitMessage.decode(bytes));
        assertEquals(TXN, bundle.txn());
    }

    @Test
    void aBundleIsNeitherEmptyNorNested() {
        assertThrows(IllegalArgumentException.class, () -> new CommitMessage.Bundle(List.of()));
        CommitMessage.Bundle inner = new CommitMessage.Bundle(List.of(new CommitMessage.Ack(TXN)));
        assertThrows(IllegalArgumentException.class, () -> new CommitMessage.Bundle(List.of(inner)));
        byte[] nested = new Wire.Writer().putByte(Family.COMMIT.base() + CommitMessage.Type.BUNDLE.ordinal()).putLong(TXN)
                .putInt(1).putBytes(CommitMessage.encode(inner)).bytes();
        assertThrows(IllegalArgumentException.class, () -> CommitMessage.decode(nested));

        int levels = 30_000; // each a well-formed bundle of one message: the next level
        byte[] innermost = CommitMessage.encode(new CommitMessage.Ack(TXN));
        int header = 1 + Long.BYTES + Integer.BYTES + Integer.BYTES;
        java.nio.ByteBuffer deep = java.nio.ByteBuffer.allocate(levels * header + innermost.length);
        for (int level = 0; level < levels; level++) {
            deep.put((byte) (Family.COMMIT.base() + CommitMessage.Type.BUNDLE.ordinal())).putLong(TXN).putInt(1)
                    .putInt((levels - level - 1) * header + innermost.length);
        }
        deep.put(innermost);
        assertThrows(IllegalArgumentException.class, () -> CommitMessage.decode(deep.array()),
                "refused at the first level, not a stack overflow");
    }

    @Test
    void aBundleWhoseCountsOrLengthsOverrunItsBytesIsRefused() {
        byte[] ack = CommitMessage.encode(new CommitMessage.Ack(TXN));
        int type = Family.COMMIT.base() + CommitMessage.Type.BUNDLE.ordinal();
        byte[][] bad = {
            new Wire.Writer().putByte(type).putLong(TXN).putInt(0).bytes(),
            new Wire.Writer().putByte(type).putLong(TXN).putInt(Integer.MAX_VALUE).putBytes(ack).bytes(),
            new Wire.Writer().putByte(type).putLong(TXN).putInt(2).putBytes(ack).bytes(),
            new Wire.Writer().putByte(type).putLong(TXN).putInt(1).putInt(1 << 30).bytes(),
        };
        for (byte[] bytes : bad) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CommitMessage.decode(bytes));
            assertTrue(e.getMessage().startsWith("not a commit message"), e.getMessage());
        }
    }

    @Test
    void bytesThatAreNoCommitMessageAreRefused() {
        for (byte[] bad : new byte[][] {new byte[0], {41, 0, 0, 0, 0, 0, 0, 0, 1}, {36, 0, 0, 0}, {4, 0, 0, 0, 0, 0, 0, 0, 1}}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CommitMessage.decode(bad));
            assertTrue(e.getMessage().startsWith("not a commit message"), e.getMessage());
        }
    }
}
