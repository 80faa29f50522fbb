package io.gtran.txn.membership;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.txn.agent.Agent;
import io.gtran.txn.protocol.MemberMessage;
import io.gtran.txn.protocol.Wire;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The member view driven by hand: time is a field, the heartbeat a step, sends a list; no thread runs. */
class MemberViewTest {
    private static final long LEASE_MS = 500;
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private final HandTime time = new HandTime();
    private final List<int[]> sent = new ArrayList<>(); // {to, type}
    private final List<byte[]> payloads = new ArrayList<>();
    private final List<Runnable> work = new ArrayList<>();

    private MemberView view(int self, List<Integer> others) {
        return new MemberView(self, others, LEASE_MS, "members=test", time, (to, payload) -> {
            sent.add(new int[] {to, payload[0]});
            payloads.add(payload);
            return CompletableFuture.completedFuture(null);
        }, work::add, () -> 42);
    }

    @Test
    void theHeartbeatPingsEveryOtherMemberEachFifthOfALease() {
        MemberView view = view(0, List.of(1, 2));
        Agent heartbeat = view.heartbeat();
        long next = heartbeat.doWork(time.nanos);
        assertEquals(time.nanos + LEASE_MS / 5 * MS, next, "the next beat is a fifth of a lease later");
        assertEquals(2, sent.size());
        for (int[] message : sent) {
            assertEquals(MemberMessage.PING, message[1]);
        }
        assertTrue(work.isEmpty(), "no member is lost: nothing to ask");
    }

    @Test
    void aMajorityIsHeardWithinTheLeaseOnTheInjectedClock() {
        MemberView view = view(0, List.of(1, 2, 3, 4));
        assertTrue(view.hasMajority(), "a grace of one lease at start");
        assertEquals(Set.of(), view.inContact(), "nobody heard yet");
        time.nanos += LEASE_MS * MS; // the grace is over
        assertFalse(view.hasMajority());
        view.heard(1, time.nanos);
        assertFalse(view.hasMajority(), "two of five are not a majority");
        view.heard(2, time.nanos);
        assertTrue(view.hasMajority(), "three of five are");
        assertEquals(Set.of(1, 2), view.inContact());
        time.nanos += LEASE_MS * MS - 1;
        assertTrue(view.hasMajority(), "still within the lease");
        time.nanos += 1;
        assertFalse(view.hasMajority(), "a lease after the last message, no longer");
    }

    @Test
    void aLossIsToldToTheListenersAndALostMemberCountsForNoMajority() {
        MemberView view = view(0, List.of(1, 2));
        List<Integer> told = new ArrayList<>();
        view.onLoss((node, reason) -> told.add(node));
        view.heard(1, time.nanos);
        view.heard(2, time.nanos);
        view.peerLost(1, "test");
        assertEquals(List.of(1), told);
        assertTrue(view.isLost(1));
        assertEquals(Set.of(2), view.inContact());
        assertTrue(view.hasMajority(), "itself and node 2 are two of three");
        view.peerLost(2, "test");
        assertFalse(view.hasMajority());
        view.heartbeat().doWork(time.nanos);
        assertEquals(1, work.size(), "with members lost, the beat asks to rejoin off its thread");
    }

    @Test
    void aRestartedMemberIsCountedLostAndToldItStaysOut() {
        MemberView view = view(0, List.of(1, 2));
        view.onMessage(1, new MemberMessage.Ping(111), time.nanos);
        assertFalse(view.isLost(1));
        view.onMessage(1, new MemberMessage.Ping(222), time.nanos); // another incarnation
        assertTrue(view.isLost(1), "a new incarnation has a fresh store: it stays out");
        assertEquals(MemberMessage.EXCLUDED, sent.get(sent.size() - 1)[1]);
    }

    /**
     * A member restarted on its data (docs/durability.md, "A member restarted alone"): counted lost,
     * not excluded; its REJOIN waits until the commit layer acted on the old process's loss, then
     * re-admits the new process.
     */
    @Test
    void aMemberRestartedOnItsDataIsCountedLostThenTakenBackOnceItsLossIsActedOn() {
        MemberView view = view(0, List.of(1, 2));
        view.attach(settled());
        view.onMessage(1, new MemberMessage.Ping(111), time.nanos);
        view.onMessage(1, new MemberMessage.Ping(222, true), time.nanos); // a new process, on the old one's data
        assertTrue(view.isLost(1), "the old process is gone");
        assertTrue(view.isReplaced(1), "the group is asked to count it lost although it is heard");
        assertTrue(sent.stream().noneMatch(m -> m[1] == MemberMessage.EXCLUDED), "not kept out");
        view.onMessage(1, new MemberMessage.Rejoin(222, view.incarnation(), 50, -1, 0), time.nanos);
        work.remove(0).run();
        assertTrue(view.isLost(1), "not taken back before the old process's loss is acted on");
        view.actedOn(1);
        assertFalse(view.isReplaced(1));
        view.onMessage(1, new MemberMessage.Rejoin(222, view.incarnation(), 50, -1, 0), time.nanos);
        work.remove(0).run();
        assertFalse(view.isLost(1), "the new process is taken back");
        assertEquals(MemberMessage.REJOIN_ACK, sent.get(sent.size() - 1)[1]);
    }

    /** A process restarted on its data counts every other member lost until the handshake, and says so in its pings. */
    @Test
    void aProcessRestartedOnItsDataTakesTheOthersBackThroughTheHandshake() {
        MemberView view = view(0, List.of(1, 2));
        view.attach(settled());
        view.restartedOnData();
        assertTrue(view.isLost(1) && view.isLost(2));
        view.heartbeat().doWork(time.nanos);
        assertTrue(((MemberMessage.Ping) MemberMessage.decode(payloads.get(0))).restored());
        view.onMessage(1, new MemberMessage.Ping(111), time.nanos + 1); // its first incarnation: no restart of node 1
        view.heard(1, time.nanos + 1);
        view.onMessage(1, new MemberMessage.RejoinAck(111, view.incarnation(), 70, -1, 0), time.nanos + 1);
        work.removeIf(task -> {
            task.run();
            return true;
        });
        assertFalse(view.isLost(1), "taken back by the handshake");
        assertTrue(view.fenced(1, 70) != null, "node 1's transactions begun before it start no part here");
        assertTrue(view.isLost(2), "not heard yet");
    }

    @Test
    void aRejoinReadmitsTheMemberAndFencesItsOlderTransactions() {
        MemberView view = view(0, List.of(1, 2));
        List<Integer> rejoined = new ArrayList<>();
        view.onRejoin(rejoined::add);
        view.attach(settled());
        view.onMessage(1, new MemberMessage.Ping(111), time.nanos);
        view.peerLost(1, "test");
        assertNull(view.fenced(1, 10), "no fence before a rejoin");
        view.onMessage(1, new MemberMessage.Rejoin(111, view.incarnation(), 50, -1, 0), time.nanos);
        work.remove(0).run(); // the handshake's check runs off the receive path
        assertFalse(view.isLost(1));
        assertEquals(List.of(1), rejoined);
        assertTrue(view.fenced(1, 50) != null, "a transaction begun at or below the fence starts no part here");
        assertNull(view.fenced(1, 51));
        assertEquals(MemberMessage.REJOIN_ACK, sent.get(sent.size() - 1)[1]);
    }

    /**
     * The clocks of both members follow one master before either re-admits the other: a REJOIN
     * naming another master re-admits nobody and is answered with this node's master; once the
     * clock agrees, the member is re-admitted and the clock lifted above its fence first.
     */
    @Test
    void aRejoinWaitsUntilBothClocksFollowOneMaster() {
        MemberView view = view(0, List.of(1, 2));
        List<String> clockCalls = new ArrayList<>();
        boolean[] agrees = {false};
        view.attach(new MemberView.RejoinClock() {
            @Override
            public int master() {
                return 2;
            }

            @Override
            public long epoch() {
                return 7;
            }

            @Override
            public boolean agree(int member, int master, long epoch) {
                clockCalls.add("agree " + member + " " + master + " " + epoch);
                return agrees[0];
            }

            @Override
            public void readmitted(int member, long fence) {
                clockCalls.add("readmitted " + member + " " + fence + (view.isLost(member) ? " (still lost)" : ""));
            }
        });
        view.attach(settled());
        view.onMessage(1, new MemberMessage.Ping(111), time.nanos);
        view.peerLost(1, "test");

        view.onMessage(1, new MemberMessage.Rejoin(111, view.incarnation(), 50, 1, 3), time.nanos);
        work.remove(0).run();
        assertTrue(view.isLost(1), "its clock follows another master: not re-admitted");
        assertEquals(MemberMessage.REJOIN_ACK, sent.get(sent.size() - 1)[1]);
        byte[] answer = payloads.get(payloads.size() - 1);
        Wire.Reader header = new Wire.Reader(answer);
        MemberMessage.Handshake ack = (MemberMessage.Handshake) MemberMessage.decode(header.getByte(), header.getLong(), header);
        assertEquals(2, ack.master(), "the answer names this node's master");
        assertEquals(7, ack.epoch());

        agrees[0] = true;
        view.onMessage(1, new MemberMessage.Rejoin(111, view.incarnation(), 60, 2, 7), time.nanos);
        work.remove(0).run();
        assertFalse(view.isLost(1));
        assertEquals(List.of("agree 1 1 3", "agree 1 2 7", "readmitted 1 60 (still lost)"), clockCalls,
                "the clock is lifted before the member's operations are taken");
    }

    /** Commitments with nothing outstanding: every re-admission goes ahead. */
    private static MemberView.Commitments settled() {
        return new MemberView.Commitments() {
            @Override
            public void reported(int peer, Runnable counted) {
                counted.run();
            }

            @Override
            public void lossReported(int peer) {
            }

            @Override
            public boolean settledWith(int peer) {
                return true;
            }

            @Override
            public boolean readmit(int peer, long heardAtNanos, java.util.function.BooleanSupplier counted, Runnable admitted) {
                if (!counted.getAsBoolean()) {
                    return false;
                }
                admitted.run();
                return true;
            }

            @Override
            public void forget(int peer) {
            }
        };
    }
}
