package io.gtran.txn.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Membership and clock messages read back as written; bytes that are none are refused. */
class MemberAndClockMessagesTest {
    @Test
    void everyMembershipMessageReadsBackAndNamesItsFamily() {
        List<MemberMessage> messages = List.of(
                new MemberMessage.Ping(7),
                new MemberMessage.Hello(7, "members=[0, 1, 2] gtran.txn.lease-ms=500"),
                new MemberMessage.HelloAck(7, ""),
                new MemberMessage.Ping(7, true),
                new MemberMessage.Hello(7, "members=[0, 1]", true),
                new MemberMessage.HelloAck(7, "differs", true),
                new MemberMessage.Rejoin(7, 8, 1_000L << 10, 1, 3),
                new MemberMessage.RejoinAck(7, 8, 2_000L << 10, -1, 0),
                new MemberMessage.Excluded(7, 9));
        for (MemberMessage m : messages) {
            byte[] bytes = MemberMessage.encode(m);
            assertEquals(Family.MEMBER, Family.of(bytes), m.toString());
            assertTrue(MemberMessage.isMembership(bytes[0]), m.toString());
            assertEquals(m, MemberMessage.decode(bytes));
        }
        assertFalse(MemberMessage.isMembership(0), "the operations' own types are not membership's");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MemberMessage.decode(MemberMessage.REJOIN, 7, new Wire.Reader(new byte[4])));
        assertTrue(e.getMessage().startsWith("not a membership message"), e.getMessage());
    }

    @Test
    void clockMessagesAreReadBackAtTheirLengthAndNameTheirFamily() {
        for (ClockMessage m : List.of(new ClockMessage.Request(5), new ClockMessage.Reply(5, 1_795_933_312_674_156L),
                new ClockMessage.Relayed(5, 2, 7, 1_795_933_312_674_156L, 1_795_933_312_675_001L))) {
            byte[] bytes = ClockMessage.encode(m);
            assertEquals(m instanceof ClockMessage.Relayed ? ClockMessage.RELAYED_LENGTH : ClockMessage.LENGTH, bytes.length);
            assertEquals(Family.CLOCK, Family.of(bytes), m.toString());
            assertEquals(m, ClockMessage.decode(bytes));
        }
        assertThrows(IllegalArgumentException.class, () -> ClockMessage.decode(new byte[16]));
        assertThrows(IllegalArgumentException.class, () -> ClockMessage.decode(new byte[0]));
        byte[] unknownKind = new byte[ClockMessage.LENGTH];
        unknownKind[0] = ClockMessage.RELAYED + 1;
        assertThrows(IllegalArgumentException.class, () -> ClockMessage.decode(unknownKind));
        byte[] shortRelayed = new byte[ClockMessage.LENGTH];
        shortRelayed[0] = ClockMessage.RELAYED;
        assertThrows(IllegalArgumentException.class, () -> ClockMessage.decode(shortRelayed));
        byte[] empty = ClockMessage.encode(new ClockMessage.Relayed(5, 2, 7, 10, 10));
        empty[RELAYED_LO_AT] = 1; // lo now far above hi
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ClockMessage.decode(empty));
        assertTrue(e.getMessage().contains("is empty"), e.getMessage());
    }

    /** Where a relayed reply's lower bound starts: type, sequence, master, epoch. */
    private static final int RELAYED_LO_AT = 1 + 8 + 4 + 8;
}
