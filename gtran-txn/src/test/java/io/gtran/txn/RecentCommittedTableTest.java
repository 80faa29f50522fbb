package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.txn.clock.Clock;
import io.gtran.txn.clock.LocalClock;
import io.gtran.txn.common.ConflictKey;
import io.gtran.txn.common.TxnWords;
import io.gtran.txn.local.RecentCommittedTable;
import io.gtran.txn.local.TxnStatus;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The RCT's answers that validation and GC decide by, on the table alone: which entries lie in a
 * window, which a prune may drop, what a wait for an outcome or for registrations returns.
 */
@Timeout(60)
class RecentCommittedTableTest {
    private final RecentCommittedTable rct = new RecentCommittedTable();
    private final Clock clock = new LocalClock();

    private RecentCommittedTable.Entry register(int txn) {
        return rct.register(TxnWords.txnId(0, txn, 1), Set.of(ConflictKey.element(txn)), clock);
    }

    /** between(from, to) holds the commit times strictly inside the window, oldest first. */
    @Test
    void windowHoldsTheCommitTimesStrictlyBetweenItsEnds() {
        RecentCommittedTable.Entry a = register(1);
        RecentCommittedTable.Entry b = register(2);
        RecentCommittedTable.Entry c = register(3);
        assertEquals(List.of(b), List.copyOf(rct.between(a.commitTime, c.commitTime)));
        assertEquals(List.of(a, b, c), List.copyOf(rct.between(a.commitTime - 1, c.commitTime + 1)));
        assertEquals(List.of(), List.copyOf(rct.between(b.commitTime, b.commitTime + 1)));
        assertEquals(List.of(), List.copyOf(rct.between(c.commitTime, a.commitTime)));
    }

    /** A prune drops decided entries below the watermark, keeps a validating one there, and everything above. */
    @Test
    void pruneDropsOnlyDecidedEntriesBelowTheWatermark() {
        RecentCommittedTable.Entry committed = register(1);
        RecentCommittedTable.Entry aborted = register(2);
        RecentCommittedTable.Entry validating = register(3);
        long watermark = clock.next();
        RecentCommittedTable.Entry above = register(4);
        rct.decide(committed, TxnStatus.COMMITTED);
        rct.decide(aborted, TxnStatus.ABORTED);
        rct.decide(above, TxnStatus.COMMITTED);
        assertEquals(2, rct.pruneBelow(watermark));
        assertNull(rct.find(committed.txnId));
        assertNull(rct.find(aborted.txnId));
        assertSame(validating, rct.find(validating.txnId));
        assertSame(above, rct.find(above.txnId));
        assertEquals(2, rct.size());
        assertEquals(List.of(validating, above), List.copyOf(rct.between(0, Long.MAX_VALUE)));
    }

    /** An outcome is COMMITTED or ABORTED; a wait returns it, or VALIDATING once the deadline passed. */
    @Test
    void outcomesAndBoundedWaitsForThem() throws InterruptedException {
        RecentCommittedTable.Entry e = register(1);
        assertThrows(IllegalArgumentException.class, () -> rct.decide(e, TxnStatus.VALIDATING));
        assertThrows(IllegalArgumentException.class, () -> rct.decide(e, TxnStatus.EXECUTING));
        assertEquals(TxnStatus.VALIDATING, rct.awaitOutcome(e, System.nanoTime() + 20_000_000L));
        assertEquals(TxnStatus.VALIDATING, rct.awaitOutcome(e, System.nanoTime() - 1));
        rct.decide(e, TxnStatus.ABORTED);
        assertEquals(TxnStatus.ABORTED, rct.awaitOutcome(e, System.nanoTime() - 1));
        assertEquals(TxnStatus.ABORTED, e.outcome());
    }

    /**
     * A reserved commit time holds back queries strictly above it only; publishing it enters it
     * in the window; a commit time that was not reserved cannot be published.
     */
    @Test
    void reservedCommitTimeHoldsBackOnlyQueriesAboveIt() throws InterruptedException {
        long reserved = rct.reserve(clock);
        assertTrue(rct.awaitRegisteredBelow(reserved, 0), "nothing below the reserved time is missing");
        assertFalse(rct.awaitRegisteredBelow(reserved + 1, 0));
        long txn = TxnWords.txnId(1, 7, 1);
        assertThrows(IllegalStateException.class, () -> rct.publish(reserved + 1, txn, Set.of()));
        RecentCommittedTable.Entry e = rct.publish(reserved, txn, Set.of());
        assertTrue(rct.awaitRegisteredBelow(reserved + 1, 0));
        assertSame(e, rct.find(txn));
        assertEquals(TxnStatus.VALIDATING, e.outcome());
        assertThrows(IllegalStateException.class, () -> rct.publish(reserved, txn, Set.of()), "published twice");
    }
}
