package io.gtran.txn.commit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.txn.common.TxnWords;
import org.junit.jupiter.api.Test;

/** What a node may have forgotten: per slot of each coordinator, the highest sequence it saw. */
class SlotSequencesTest {
    private final SlotSequences sequences = new SlotSequences();

    @Test
    void aTransactionAtOrBelowTheHighestSeenInItsSlotIsNotNewHere() {
        long seventh = TxnWords.txnId(1, 3, 7);
        assertFalse(sequences.seenSince(seventh), "nothing seen yet: a new transaction");
        sequences.saw(seventh);
        assertTrue(sequences.seenSince(seventh));
        assertTrue(sequences.seenSince(TxnWords.txnId(1, 3, 6)), "an earlier one of the slot");
        assertFalse(sequences.seenSince(TxnWords.txnId(1, 3, 8)), "a later one is new");
        assertFalse(sequences.laterSeen(seventh));
        sequences.saw(TxnWords.txnId(1, 3, 9));
        assertTrue(sequences.laterSeen(seventh), "its coordinator reused the slot");
        sequences.saw(TxnWords.txnId(1, 3, 8)); // arrives late: the highest stays
        assertFalse(sequences.seenSince(TxnWords.txnId(1, 3, 10)));
    }

    @Test
    void slotsAndCoordinatorsAreKeptApart() {
        sequences.saw(TxnWords.txnId(1, 3, 7));
        assertFalse(sequences.seenSince(TxnWords.txnId(1, 4, 1)), "another slot");
        assertFalse(sequences.seenSince(TxnWords.txnId(2, 3, 1)), "another coordinator's slot 3");
    }

    @Test
    void aRestartedCoordinatorsSequencesStartAgain() {
        sequences.saw(TxnWords.txnId(1, 3, 7));
        sequences.saw(TxnWords.txnId(2, 3, 7));
        sequences.restarted(1);
        assertFalse(sequences.seenSince(TxnWords.txnId(1, 3, 1)), "the new incarnation's first is new");
        assertTrue(sequences.seenSince(TxnWords.txnId(2, 3, 1)), "another coordinator's are kept");
    }
}
