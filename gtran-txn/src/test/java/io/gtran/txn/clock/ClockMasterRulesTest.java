package io.gtran.txn.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.InJvmCluster;
import io.gtran.txn.agent.TimeSource;
import io.gtran.txn.protocol.TestMailboxes;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The rules by which a node's {@link ClockSync} picks its clock master (docs/cluster-transactions.md,
 * "Time"), on node 1 of three, its messages unanswered: the master changes only on the loss of the
 * master, to the smallest live member, in a new epoch; a re-admission changes no master and lifts
 * the clock above the member's fence; at a handshake the newer epoch wins, a tie goes to the
 * smaller master, an older one is refused.
 */
class ClockMasterRulesTest {
    private final InJvmCluster cluster = new InJvmCluster();
    private final Fabric fabric = cluster.join(1);
    private final SyncedClock clock = new SyncedClock(1, TimeSource.SYSTEM, SyncedClock.DEFAULT_DRIFT, 1_000_000_000L);
    private final ClockSync sync = new ClockSync(TestMailboxes.started(fabric), clock, TimeSource.SYSTEM, Set.of(0, 1, 2), 1_000);

    @AfterEach
    void close() {
        sync.close();
        fabric.close();
    }

    @Test
    void theSmallestMemberIsTheFirstMaster() {
        assertEquals(0, sync.master());
        assertEquals(0, sync.epoch());
        assertEquals(0, clock.masterNode());
    }

    @Test
    void losingAnotherMemberChangesNoMaster() {
        sync.lost(2);
        assertEquals(0, sync.master());
        assertEquals(0, sync.epoch());
    }

    @Test
    void losingTheMasterHandsTheRoleToTheSmallestLiveMemberInANewEpoch() {
        sync.lost(0);
        assertEquals(1, sync.master());
        assertEquals(1, sync.epoch());
        assertTrue(clock.isMaster(), "node 1 is the smallest live member: it takes over");
        sync.lost(0);
        assertEquals(1, sync.epoch(), "a repeated loss changes nothing");
    }

    @Test
    void theLastLiveMemberKeepsItsMaster() {
        sync.lost(2);
        sync.lost(0);
        assertEquals(1, sync.master(), "node 1 took over from 0 with 2 already gone");
        ClockSync alone = sync;
        alone.lost(1); // itself: never removed, the role stays
        assertEquals(1, alone.master());
    }

    @Test
    void aReadmittedMemberDoesNotTakeTheRoleBackAndLiftsTheClock() {
        sync.lost(0);
        long fence = (clock.fence() >>> SyncedClock.NODE_BITS) + 5_000_000L; // 5 s above this clock's time
        sync.readmitted(0, fence << SyncedClock.NODE_BITS);
        assertEquals(1, sync.master(), "re-admitted, node 0 does not take the role back");
        assertTrue(SyncedClock.micros(clock.next()) > fence, "the clock gives timestamps above the member's fence");
    }

    @Test
    void aHandshakeFollowsTheNewerEpochAndTheSmallerMasterOnATie() {
        assertFalse(sync.agree(2, 2, 0), "same epoch, a larger master: this node keeps its own");
        assertEquals(0, sync.master());
        assertTrue(sync.agree(2, 2, 3), "a newer epoch is followed");
        assertEquals(2, sync.master());
        assertEquals(3, sync.epoch());
        assertEquals(2, clock.masterNode());
        assertFalse(sync.agree(0, 0, 1), "an older epoch is not");
        assertEquals(2, sync.master());
        assertTrue(sync.agree(0, 0, 3), "the same epoch with a smaller master is");
        assertEquals(0, sync.master());
        assertTrue(sync.agree(0, 0, 3), "agreeing again changes nothing");
    }

    @Test
    void aMemberLostAndFollowedAfterAHandshakeIsLiveAgain() {
        sync.lost(2);
        assertTrue(sync.agree(2, 2, 1));
        sync.lost(2); // the master it follows is lost: the smallest live member, node 0, takes over
        assertEquals(0, sync.master());
        assertEquals(2, sync.epoch());
    }
}
