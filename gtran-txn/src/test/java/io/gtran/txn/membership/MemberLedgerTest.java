package io.gtran.txn.membership;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.txn.protocol.Outcome;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MemberLedgerTest {
    private final MemberLedger ledger = new MemberLedger(List.of(0, 1, 2));
    private final MemberLedger five = new MemberLedger(List.of(0, 1, 2, 3, 4));

    @Test
    void ofTheTwoEndsOfACutThatProposeEachOthersLossTheFirstEntryWins() {
        assertTrue(ledger.apply(new MemberEntry.Lost(1, 0, 0, 0)), "node 0 proposes node 1's loss first");
        assertFalse(ledger.apply(new MemberEntry.Lost(0, 0, 1, 0)), "node 1's proposal finds its proposer lost");
        assertEquals(Set.of(1), ledger.lost());
        assertFalse(ledger.isLost(0));
    }

    @Test
    void aRepeatedLossChangesNothing() {
        assertTrue(ledger.apply(new MemberEntry.Lost(1, 0, 0, 0)));
        assertFalse(ledger.apply(new MemberEntry.Lost(1, 0, 2, 0)));
        assertEquals(2, ledger.applied(), "both entries are counted as applied");
    }

    @Test
    void aMemberBackMovesToItsNextGenerationSoAStaleLossOfTheOldOneIsNoOp() {
        ledger.apply(new MemberEntry.Lost(1, 0, 0, 0));
        assertTrue(ledger.apply(new MemberEntry.Back(1, 0, 2, 0)));
        assertFalse(ledger.isLost(1));
        assertEquals(1, ledger.generation(1));
        assertFalse(ledger.apply(new MemberEntry.Lost(1, 0, 2, 0)), "proposed before node 1 came back");
        assertTrue(ledger.apply(new MemberEntry.Lost(1, 1, 2, 0)), "a loss of its new generation");
    }

    @Test
    void aProposalOfAMemberThatWasLostAndCameBackSinceIsNoOp() {
        ledger.apply(new MemberEntry.Lost(0, 0, 1, 0));
        ledger.apply(new MemberEntry.Back(0, 0, 1, 0));
        assertFalse(ledger.apply(new MemberEntry.Lost(2, 0, 0, 0)), "node 0 proposed it in its old generation");
        assertTrue(ledger.apply(new MemberEntry.Lost(2, 0, 0, 1)));
    }

    @Test
    void onlyAMemberThatIsUpTakesALostOneBackAndOnlyOnce() {
        five.apply(new MemberEntry.Lost(1, 0, 0, 0));
        five.apply(new MemberEntry.Lost(2, 0, 0, 0));
        assertFalse(five.apply(new MemberEntry.Back(1, 0, 2, 0)), "node 2 is lost itself");
        assertFalse(five.apply(new MemberEntry.Back(0, 0, 1, 0)), "node 0 is not lost");
        assertTrue(five.apply(new MemberEntry.Back(1, 0, 0, 0)));
        assertFalse(five.apply(new MemberEntry.Back(1, 0, 0, 0)), "a repeated BACK");
    }

    /**
     * A node cut off from both others proposes each one's loss; ordered after the heal, the second
     * would leave it alone up, the only member that could take the others back (what a run of the
     * fault harness's master cut showed, with that node's own replica stuck).
     */
    @Test
    void aMajorityOfTheMembersStaysUp() {
        assertTrue(ledger.apply(new MemberEntry.Lost(1, 0, 0, 0)));
        assertFalse(ledger.apply(new MemberEntry.Lost(2, 0, 0, 0)), "it would leave node 0 alone up");
        assertEquals(Set.of(1), ledger.lost());
        assertTrue(ledger.apply(new MemberEntry.Back(1, 0, 2, 0)), "node 2, still up, takes node 1 back");
        assertTrue(ledger.apply(new MemberEntry.Lost(2, 0, 0, 0)), "with node 1 back, a loss of node 2 leaves two up");
        assertTrue(five.apply(new MemberEntry.Lost(3, 0, 0, 0)));
        assertTrue(five.apply(new MemberEntry.Lost(4, 0, 0, 0)));
        assertFalse(five.apply(new MemberEntry.Lost(2, 0, 0, 0)), "a third of five would leave two up");
        assertEquals(Set.of(3, 4), five.lost());
    }

    @Test
    void entriesAboutOrByNonMembersOrByTheMemberItselfAreNoOps() {
        assertFalse(ledger.apply(new MemberEntry.Lost(7, 0, 0, 0)));
        assertFalse(ledger.apply(new MemberEntry.Lost(1, 0, 7, 0)));
        assertFalse(ledger.apply(new MemberEntry.Lost(1, 0, 1, 0)));
        assertTrue(ledger.lost().isEmpty());
    }

    @Test
    void theFirstOutcomeOrderedForATransactionIsItsOutcome() {
        assertNull(ledger.outcome(42));
        assertTrue(ledger.apply(new MemberEntry.Decided(42, Outcome.ABORT)));
        assertFalse(ledger.apply(new MemberEntry.Decided(42, Outcome.COMMIT)), "a recovery's COMMIT after the coordinator's ABORT");
        assertEquals(Outcome.ABORT, ledger.outcome(42));
    }

    @Test
    void everyEntryEncodesToItselfAndMalformedBytesAreRefusedByName() {
        for (MemberEntry entry : List.of(new MemberEntry.Lost(3, 1, 4, 2), new MemberEntry.Back(0, 5, 1, 0),
                new MemberEntry.Decided(0x4010000300000037L, Outcome.COMMIT), new MemberEntry.Lease(2, 7, 1_764_000_000_000_000L))) {
            assertEquals(entry, MemberEntry.decode(MemberEntry.encode(entry)));
        }
        assertThrows(IllegalArgumentException.class, () -> MemberEntry.decode(new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> MemberEntry.decode(new byte[] {9, 0, 0}));
        assertThrows(IllegalArgumentException.class, () -> MemberEntry.decode(new byte[] {MemberEntry.LEASE, 0, 0, 0, 1}));
        byte[] decided = MemberEntry.encode(new MemberEntry.Decided(1, Outcome.ABORT));
        decided[9] = 7;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MemberEntry.decode(decided));
        assertTrue(e.getMessage().contains("unknown outcome"), e.getMessage());
    }

    @Test
    void theSmallestMemberIsTheFirstClockMasterWithNoLeaseUntilItsOwnIsApplied() {
        assertEquals(0, ledger.master());
        assertEquals(0, ledger.epoch());
        assertEquals(Long.MIN_VALUE, ledger.leaseEnd());
        assertTrue(ledger.apply(new MemberEntry.Lease(0, 0, 5_000)));
        assertEquals(5_000, ledger.leaseEnd());
    }

    @Test
    void onlyTheMasterOfTheCurrentEpochExtendsTheLease() {
        ledger.apply(new MemberEntry.Lease(0, 0, 5_000));
        assertFalse(ledger.apply(new MemberEntry.Lease(1, 0, 9_000)), "not the master");
        assertFalse(ledger.apply(new MemberEntry.Lease(0, 1, 9_000)), "not the current epoch");
        assertFalse(ledger.apply(new MemberEntry.Lease(0, 0, 4_000)), "no extension: a lease never shrinks");
        assertEquals(5_000, ledger.leaseEnd());
    }

    @Test
    void theMastersLossMovesTheRoleToTheSmallestMemberUpAboveTheOldLease() {
        ledger.apply(new MemberEntry.Lease(0, 0, 5_000));
        assertTrue(ledger.apply(new MemberEntry.Lost(0, 0, 2, 0)));
        assertEquals(1, ledger.master());
        assertEquals(1, ledger.epoch());
        assertEquals(5_000, ledger.handover(), "the new master starts above every timestamp the old lease allowed");
        assertEquals(Long.MIN_VALUE, ledger.leaseEnd(), "no lease until the new master's own is applied");
        assertFalse(ledger.apply(new MemberEntry.Lease(0, 0, 9_000)), "the old master's renewal ordered after its loss");
        assertFalse(ledger.apply(new MemberEntry.Lease(1, 1, 5_000)), "not above the handover");
        assertTrue(ledger.apply(new MemberEntry.Lease(1, 1, 5_001)));
    }

    @Test
    void aLossOfAnotherMemberOrTheOldMastersReturnKeepsTheMaster() {
        five.apply(new MemberEntry.Lost(2, 0, 1, 0));
        assertEquals(0, five.master());
        assertEquals(0, five.epoch());
        five.apply(new MemberEntry.Lost(0, 0, 1, 0));
        assertEquals(1, five.master());
        assertTrue(five.apply(new MemberEntry.Back(0, 0, 1, 0)));
        assertEquals(1, five.master(), "a member that comes back never takes the role back");
        assertEquals(1, five.epoch());
    }

    @Test
    void aNewMasterLostBeforeItsFirstLeaseHandsOnTheOldHandover() {
        five.apply(new MemberEntry.Lease(0, 0, 5_000));
        five.apply(new MemberEntry.Lost(0, 0, 2, 0));
        five.apply(new MemberEntry.Lost(1, 0, 2, 0));
        assertEquals(2, five.master());
        assertEquals(2, five.epoch());
        assertEquals(5_000, five.handover());
    }
}
