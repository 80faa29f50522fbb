package io.gtran.txn.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.check.fabric.FaultPlan;
import io.gtran.rdma.Fabric;
import io.gtran.txn.common.TxnWords;
import io.gtran.txn.protocol.Outcome;
import io.gtran.txn.protocol.TestMailboxes;
import io.gtran.txn.protocol.Vote;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.LongFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The commit protocol over a real fabric, written once and run over each transport (in-JVM,
 * Netty on loopback): three nodes, each with a {@link
 * CommitMessenger}, through seeded fault injection (delays, drops, reordering) and a coordinator
 * that crashes. Every transaction ends with one outcome everywhere, applied once per node, and the
 * coordinator's answer is that outcome.
 */
abstract class CommitMessengerContract {
    private final List<AutoCloseable> closing = new ArrayList<>();

    /** A participant that votes as told and records what it applies. */
    private static class Recorder implements CommitMessenger.Participant {
        final LongFunction<Vote> votes;
        final Map<Long, Outcome> applied = new ConcurrentHashMap<>();
        final AtomicInteger duplicates = new AtomicInteger();

        Recorder(LongFunction<Vote> votes) {
            this.votes = votes;
        }

        @Override
        public Vote validate(long txn, long commitTime, int[] participants) {
            return votes.apply(txn);
        }

        @Override
        public void apply(long txn, Outcome outcome, long commitTime) {
            if (applied.putIfAbsent(txn, outcome) != null) {
                duplicates.incrementAndGet();
            }
        }
    }

    @AfterEach
    void close() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    /** Starts nodes 0..n-1 of a fresh cluster of this transport; each is closed after the test. */
    protected abstract Fabric[] startNodes(int n) throws Exception;

    /** The fabrics of a fresh three-node cluster, closed after the test. */
    private Fabric[] three() throws Exception {
        Fabric[] fabrics = startNodes(3);
        for (Fabric fabric : fabrics) {
            closeLater(fabric);
        }
        return fabrics;
    }

    /**
     * A messenger on {@code fabric}, closed after the test, told of each loss the fabric reports (as
     * its node's member view tells it).
     */
    CommitMessenger messenger(Fabric fabric, CommitMessenger.Participant participant, long voteTimeoutMillis, long tickMillis) {
        CommitMessenger messenger = closeLater(new CommitMessenger(TestMailboxes.started(fabric), participant, voteTimeoutMillis, tickMillis));
        fabric.onPeerLost((peer, reason) -> messenger.lossReported(peer));
        return messenger;
    }

    <T extends AutoCloseable> T closeLater(T resource) {
        closing.add(resource);
        return resource;
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting for: " + what);
            Thread.sleep(5);
        }
    }

    private static long txn(int coordinator, int sequence) {
        return TxnWords.txnId(coordinator, sequence % 1000, sequence);
    }

    @Test
    @Timeout(60)
    void everyTransactionEndsWithOneOutcomeAppliedOnceThroughDelaysDropsAndReordering() throws Exception {
        long seed = 20261125L;
        Fabric[] nodes = three();
        FaultPlan plan = closeLater(new FaultPlan(seed));
        Random random = new Random(seed);
        Map<Long, Vote> votesAt1 = new ConcurrentHashMap<>();
        Map<Long, Vote> votesAt2 = new ConcurrentHashMap<>();
        Recorder[] recorders = new Recorder[3];
        CommitMessenger[] messengers = new CommitMessenger[3];
        for (int n = 0; n < 3; n++) {
            Map<Long, Vote> votes = n == 1 ? votesAt1 : votesAt2;
            recorders[n] = new Recorder(t -> votes.getOrDefault(t, Vote.YES));
            Fabric fabric = plan.wrap(nodes[n]);
            // A vote timeout far above the resend tick: votes are late only on a loaded machine, and a late
            // vote is fenced NO (another test's subject), which would turn an expected COMMIT into ABORT.
            messengers[n] = messenger(fabric, recorders[n], 3_000, 10);
        }
        plan.links(java.util.Set.of(0, 1, 2), java.util.Set.of(0, 1, 2)).delay(Duration.ZERO, Duration.ofMillis(10))
                .dropWithProbability(0.2).reorder(4, Duration.ofMillis(5));
        Map<Long, CompletableFuture<Outcome>> answers = new HashMap<>();
        Map<Long, Outcome> expected = new HashMap<>();
        for (int i = 1; i <= 60; i++) {
            long t = txn(0, i);
            boolean no1 = random.nextInt(6) == 0;
            boolean no2 = random.nextInt(6) == 0;
            votesAt1.put(t, no1 ? Vote.NO : Vote.YES);
            votesAt2.put(t, no2 ? Vote.NO : Vote.YES);
            expected.put(t, no1 || no2 ? Outcome.ABORT : Outcome.COMMIT);
            answers.put(t, messengers[0].commit(t, 1000 + i, new int[] {1, 2}));
        }
        for (Map.Entry<Long, CompletableFuture<Outcome>> e : answers.entrySet()) {
            assertEquals(expected.get(e.getKey()), e.getValue().get(20, TimeUnit.SECONDS), "seed=" + seed + " txn " + e.getKey());
        }
        await(() -> recorders[1].applied.size() + recorders[2].applied.size() == 2 * expected.size()
                && messengers[0].pendingRounds() == 0, "every participant applied and acknowledged");
        for (Map.Entry<Long, Outcome> e : expected.entrySet()) {
            assertEquals(e.getValue(), recorders[1].applied.get(e.getKey()), "seed=" + seed + " node 1, txn " + e.getKey());
            assertEquals(e.getValue(), recorders[2].applied.get(e.getKey()), "seed=" + seed + " node 2, txn " + e.getKey());
        }
        assertEquals(0, recorders[1].duplicates.get() + recorders[2].duplicates.get(), "each outcome is applied once per node");
    }

    @Test
    @Timeout(60)
    void aCoordinatorThatCrashesRightAfterDecidingHasItsOutcomeRecovered() throws Exception {
        Recorder[] recorders = new Recorder[3];
        CommitMessenger[] messengers = new CommitMessenger[3];
        Fabric[] fabrics = three();
        for (int n = 0; n < 3; n++) {
            recorders[n] = new Recorder(t -> Vote.YES);
            messengers[n] = messenger(fabrics[n], recorders[n], 200, 10);
        }
        long t = txn(0, 1);
        CompletableFuture<Outcome> answer = messengers[0].commit(t, 5000, new int[] {1, 2});
        // The client hears COMMIT; the coordinator dies before any DECIDE leaves it.
        CompletableFuture<Outcome> told = answer.thenApply(outcome -> {
            messengers[0].close();
            fabrics[0].close();
            return outcome;
        });
        assertEquals(Outcome.COMMIT, told.get(20, TimeUnit.SECONDS));
        await(() -> recorders[1].applied.size() == 1 && recorders[2].applied.size() == 1, "both survivors decide");
        assertEquals(Outcome.COMMIT, recorders[1].applied.get(t), "recovered from every vote YES: what the client was told");
        assertEquals(Outcome.COMMIT, recorders[2].applied.get(t));
    }

    @Test
    @Timeout(60)
    void aParticipantThatNeverGotValidateIsFencedAndTheRecoveryAborts() throws Exception {
        FaultPlan plan = closeLater(new FaultPlan(7));
        Recorder[] recorders = new Recorder[3];
        CommitMessenger[] messengers = new CommitMessenger[3];
        Fabric[] fabrics = three();
        for (int n = 0; n < 3; n++) {
            recorders[n] = new Recorder(t -> Vote.YES);
            fabrics[n] = plan.wrap(fabrics[n]);
            messengers[n] = messenger(fabrics[n], recorders[n], 60_000, 10);
        }
        plan.links(0, 2).dropWithProbability(1.0); // node 2 never hears from the coordinator
        long t = txn(0, 2);
        CompletableFuture<Outcome> answer = messengers[0].commit(t, 6000, new int[] {1, 2});
        await(() -> messengers[1].decisionHere(t) == null && recorders[1].applied.isEmpty() && votedAt(messengers[1], t),
                "node 1 voted");
        messengers[0].close();
        fabrics[0].close(); // the coordinator is lost with node 2's vote missing
        await(() -> recorders[1].applied.size() == 1 && recorders[2].applied.size() == 1, "both survivors decide");
        assertEquals(Outcome.ABORT, recorders[1].applied.get(t), "node 2 was fenced before it voted: its vote is NO");
        assertEquals(Outcome.ABORT, recorders[2].applied.get(t));
        assertTrue(!answer.isDone() || answer.getNow(null) == Outcome.ABORT, "the coordinator never said COMMIT");
    }

    /** Whether node's part of {@code txn} has voted (its record exists and holds a vote). */
    private static boolean votedAt(CommitMessenger messenger, long txn) {
        return messenger.voteHere(txn) != null;
    }

    @Test
    @Timeout(60)
    void everyCommitWithTwoParticipantsCostsOneRoundTripForTheClientAndSixMessages() throws Exception {
        Fabric[] nodes = three();
        io.gtran.check.fabric.CountingFabric[] fabrics = new io.gtran.check.fabric.CountingFabric[3];
        Recorder[] recorders = new Recorder[3];
        CommitMessenger[] messengers = new CommitMessenger[3];
        for (int n = 0; n < 3; n++) {
            recorders[n] = new Recorder(t -> Vote.YES);
            fabrics[n] = new io.gtran.check.fabric.CountingFabric(nodes[n]);
            // No resend and no recovery within the test's minute, however slow the machine.
            messengers[n] = messenger(fabrics[n], recorders[n], 60_000, 60_000);
        }
        // Many commits, one after the other: a participant's apply that returns while its DECIDE's
        // thread still runs must not make both acknowledge (a race that a single commit rarely hits).
        int commits = 200;
        for (int i = 0; i < commits; i++) {
            long t = txn(0, 3 + i);
            assertEquals(Outcome.COMMIT, messengers[0].commit(t, 7000 + i, new int[] {1, 2}).get(20, TimeUnit.SECONDS));
            await(() -> messengers[0].pendingRounds() == 0, "both participants acknowledged");
        }
        // Coordinator: VALIDATE to each (the client's one round trip, with the votes), then DECIDE to each.
        assertEquals(4L * commits, fabrics[0].counts().messages(), "coordinator: " + fabrics[0].counts());
        assertEquals(2L * commits, fabrics[1].counts().messages(), "a participant: a vote and an acknowledgement");
        assertEquals(2L * commits, fabrics[2].counts().messages());
        assertEquals(0, fabrics[0].counts().roundTrips(), "no one-sided reads without dependencies");
    }

    @Test
    @Timeout(60)
    void aDecisionIsAcknowledgedOnlyOnceApplied() throws Exception {
        Fabric[] fabrics = three();
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        Recorder[] recorders = new Recorder[3];
        CommitMessenger[] messengers = new CommitMessenger[3];
        for (int n = 0; n < 3; n++) {
            boolean slow = n == 2;
            recorders[n] = new Recorder(t -> Vote.YES) {
                @Override
                public void apply(long txn, Outcome outcome, long commitTime) {
                    if (slow) {
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    super.apply(txn, outcome, commitTime);
                }
            };
            messengers[n] = messenger(fabrics[n], recorders[n], 10_000, 10);
        }
        long t = txn(0, 4);
        assertEquals(Outcome.COMMIT, messengers[0].commit(t, 7000, new int[] {1, 2}).get(20, TimeUnit.SECONDS));
        await(() -> recorders[1].applied.containsKey(t), "the fast participant applied");
        Thread.sleep(200); // DECIDE resent meanwhile: still no acknowledgement from the slow one
        assertEquals(1, messengers[0].pendingRounds(), "the status entry must outlive the words it names (I3)");
        assertTrue(!messengers[0].acknowledged(t).isDone());
        release.countDown();
        messengers[0].acknowledged(t).get(20, TimeUnit.SECONDS);
        assertEquals(0, messengers[0].pendingRounds());
    }

    @Test
    void badCallsAreRefusedNamingWhy() throws Exception {
        CommitMessenger messenger = messenger(three()[0], new Recorder(t -> Vote.YES), 100, 10);
        IllegalArgumentException notOurs = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> messenger.commit(txn(1, 1), 1, new int[] {1}));
        assertTrue(notOurs.getMessage().contains("does not coordinate"), notOurs.getMessage());
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> messenger.commit(txn(0, 1), 1, new int[] {0}));
        assertNull(messenger.decisionHere(txn(0, 1)));
    }
}
