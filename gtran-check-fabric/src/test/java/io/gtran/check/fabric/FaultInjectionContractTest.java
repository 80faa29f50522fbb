package io.gtran.check.fabric;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.Batch;
import io.gtran.rdma.DeliveryException;
import io.gtran.rdma.Mailbox;
import io.gtran.rdma.Region;
import io.gtran.rdma.RegionAccessException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * What every fault of a {@link FaultPlan} does through {@link FaultyFabric} decorators over a
 * transport, and that it does it only between the nodes it names. Written once; a subclass per
 * transport supplies {@link #startCluster} (see {@link FaultInjectionHarness}).
 */
public abstract class FaultInjectionContractTest extends FaultInjectionHarness {
    private static final String PARTITIONED = "partitioned by fault injection";

    /** Mailbox {@code name} opened on nodes 0, 1 and 2, by node id. */
    private Mailbox[] open(String name) {
        return new Mailbox[] {n0.openMailbox(name), n1.openMailbox(name), n2.openMailbox(name)};
    }

    /** Region "r" of 64 bytes registered on every node; {@code handles[from][to]} is from's handle to to's. */
    private Region[][] regions() {
        Region[][] handles = new Region[3][3];
        for (int owner = 0; owner < 3; owner++) {
            node(owner).register("r", 64);
        }
        for (int from = 0; from < 3; from++) {
            for (int to = 0; to < 3; to++) {
                handles[from][to] = node(from).connect(to, "r");
            }
        }
        return handles;
    }

    // ---- delay --------------------------------------------------------------------------------

    @Test
    void aDelayHoldsBackMessagesAndRegionOperationsOnThatPairOnly() throws Exception {
        Mailbox[] m = open("m");
        Region[][] r = regions();
        Duration delay = Duration.ofSeconds(3); // long enough that the unaffected work below always beats it
        plan.links(0, 1).delay(delay);
        long start = System.nanoTime();
        CompletableFuture<Void> late = m[0].send(1, "m", new byte[] {1});
        CompletableFuture<Long> lateRead = r[0][1].fetchAddAsync(0, 5);
        assertDelivered(m[0], m[2]);
        assertDelivered(m[1], m[0]);
        assertRegionWorks(n0, r[0][2]);
        assertRegionWorks(n1, r[1][0]);
        assertRegionWorks(n0, r[0][0]);
        assertPending(late, "the delayed send");
        assertPending(lateRead, "the delayed fetch-add");
        assertEquals(0, r[1][1].readLong(0), "a delayed operation is not applied before its delay");
        get(late);
        assertEquals(0, get(lateRead));
        assertAtLeast(delay, System.nanoTime() - start, "a delayed send and fetch-add");
        assertEquals(1, receive(m[1]).payload()[0]);
        assertEquals(5, r[1][1].readLong(0));

        Duration shorter = Duration.ofMillis(200);
        plan.links(0, 1).delay(shorter);
        assertAtLeast(shorter, nanosOf(() -> r[0][1].readLong(0)), "a delayed synchronous read");
        assertAtLeast(shorter, nanosOf(() -> r[0][1].write(8, new byte[8], 0, 8)), "a delayed synchronous write");
        assertAtLeast(shorter, nanosOf(() -> n0.connect(1, "r")), "a delayed connect");
        Batch batch = n0.batch();
        CompletableFuture<Long> batched = batch.fetchAdd(r[0][1], 0, 1);
        CompletableFuture<Long> undelayed = batch.readLong(r[0][2], 0);
        assertAtLeast(shorter, nanosOf(() -> get(batch.flush())), "a batch with a delayed operation");
        assertEquals(5, get(batched));
        assertEquals(0, get(undelayed));
    }

    @Test
    void randomDelaysKeepThePairsOrder() throws Exception {
        Mailbox[] m = open("m");
        Duration min = Duration.ofMillis(20);
        plan.links(0, 1).delay(min, Duration.ofMillis(120));
        long start = System.nanoTime();
        List<CompletableFuture<Void>> sends = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            sends.add(m[0].send(1, "m", new byte[] {(byte) i}));
        }
        get(CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)));
        assertAtLeast(min, System.nanoTime() - start, "randomly delayed sends");
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            expected.add(i);
        }
        assertEquals(expected, receiveFirstBytes(m[1], 20), "a delay must not reorder one pair's messages");
    }

    // ---- reorder ------------------------------------------------------------------------------

    @Test
    void reorderShufflesAWindowOfMessagesOnThatPairOnly() throws Exception {
        Mailbox[] m = open("m");
        plan.links(0, 1).reorder(8, Duration.ofSeconds(WAIT_SECONDS * 10)); // only a full window releases
        List<CompletableFuture<Void>> sends = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            if (i == 7) {
                sends.forEach(send -> assertFalse(send.isDone(), "a held message completed before its window"));
                assertNull(m[1].poll(), "a held message arrived before its window");
            }
            sends.add(m[0].send(1, "m", new byte[] {(byte) i}));
            get(m[0].send(2, "m", new byte[] {(byte) i}));
        }
        get(CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)));
        List<Integer> shuffled = receiveFirstBytes(m[1], 8);
        assertShuffled(shuffled);
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7), receiveFirstBytes(m[2], 8), "another pair kept its order");
        assertEquals(shuffled, reorderedWithAFreshPlanAndCluster(), "the same seed must shuffle the same way");

        plan.links(0, 1).stopReordering();
        for (int i = 0; i < 4; i++) {
            get(m[0].send(1, "m", new byte[] {(byte) i}));
        }
        assertEquals(List.of(0, 1, 2, 3), receiveFirstBytes(m[1], 4));
    }

    /** The order in which a window of 8 arrives under a new plan with {@link #SEED} over a new cluster. */
    private List<Integer> reorderedWithAFreshPlanAndCluster() throws Exception {
        try (TestCluster other = startCluster(2); FaultPlan again = new FaultPlan(SEED)) {
            Mailbox from = again.wrap(other.node(0)).openMailbox("m");
            Mailbox to = again.wrap(other.node(1)).openMailbox("m");
            again.links(0, 1).reorder(8, Duration.ofSeconds(WAIT_SECONDS * 10));
            List<CompletableFuture<Void>> sends = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                sends.add(from.send(1, "m", new byte[] {(byte) i}));
            }
            get(CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)));
            return receiveFirstBytes(to, 8);
        }
    }

    @Test
    void reorderReleasesAPartialWindowAfterItsHoldTime() throws Exception {
        Mailbox[] m = open("m");
        Duration hold = Duration.ofMillis(300);
        plan.links(0, 1).reorder(100, hold);
        long start = System.nanoTime();
        List<CompletableFuture<Void>> sends = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            sends.add(m[0].send(1, "m", new byte[] {(byte) i}));
        }
        get(CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)));
        assertAtLeast(hold, System.nanoTime() - start, "a held window");
        List<Integer> arrived = receiveFirstBytes(m[1], 5);
        arrived.sort(null);
        assertEquals(List.of(0, 1, 2, 3, 4), arrived);
    }

    // ---- drop ---------------------------------------------------------------------------------

    @Test
    void dropNextLosesExactlyThatManyMessagesOnThatPairOnly() throws Exception {
        Mailbox[] m = open("m");
        plan.links(0, 1).dropNext(2);
        assertNotDelivered(m[0], m[1], "dropped by fault injection", "node=1", "mailbox=m");
        assertDelivered(m[0], m[2]);
        assertDelivered(m[1], m[0]);
        assertNotDelivered(m[0], m[1], "dropped by fault injection");
        assertNothingBefore(m[0], m[1]);
        assertDelivered(m[0], m[1]);
        Region[][] r = regions();
        plan.links(0, 1).dropNext(3);
        assertRegionWorks(n0, r[0][1]); // drops are for messages only
    }

    @Test
    void dropWithProbabilityDropsAboutThatShareTheSameWayForTheSameSeed() throws Exception {
        int count = 1000;
        double probability = 0.25;
        plan.links(0, 1).dropWithProbability(probability);
        BitSet dropped = dropPattern(n0.openMailbox("m"), n1.openMailbox("m"), count);
        assertTrue(dropped.cardinality() > count * probability * 0.7 && dropped.cardinality() < count * probability * 1.3,
                () -> "dropped " + dropped.cardinality() + " of " + count + " at p=" + probability);
        try (TestCluster other = startCluster(2); FaultPlan again = new FaultPlan(SEED)) {
            Mailbox from = again.wrap(other.node(0)).openMailbox("m");
            Mailbox to = again.wrap(other.node(1)).openMailbox("m");
            again.links(0, 1).dropWithProbability(probability);
            assertEquals(dropped, dropPattern(from, to, count), "the same seed must drop the same messages");
        }
        Mailbox to2 = n2.openMailbox("m");
        Mailbox from0 = n0.openMailbox("to2");
        for (int i = 0; i < 50; i++) {
            get(from0.send(2, "m", new byte[] {1})); // another pair loses nothing
        }
        assertEquals(50, receiveFirstBytes(to2, 50).size());
    }

    /** Sends {@code count} numbered messages; which were dropped, checked against what arrived. */
    private static BitSet dropPattern(Mailbox from, Mailbox to, int count) throws Exception {
        BitSet dropped = new BitSet();
        for (int i = 0; i < count; i++) {
            CompletableFuture<Void> send = from.send(to.node(), to.name(), new byte[] {(byte) (i >> 8), (byte) i});
            try {
                get(send);
            } catch (java.util.concurrent.ExecutionException e) {
                assertInstanceOf(DeliveryException.class, e.getCause());
                dropped.set(i);
            }
        }
        for (int i = dropped.nextClearBit(0); i < count; i = dropped.nextClearBit(i + 1)) {
            byte[] payload = receive(to).payload();
            assertEquals(i, (payload[0] & 0xff) << 8 | (payload[1] & 0xff), "a dropped message arrived, or order broke");
        }
        assertNull(to.poll());
        return dropped;
    }

    // ---- region failure -----------------------------------------------------------------------

    @Test
    void failRegionAccessIsOneWayAndSparesMessages() throws Exception {
        Mailbox[] m = open("m");
        Region[][] r = regions();
        r[1][1].writeLong(0, 42);
        plan.links(0, 1).failRegionAccess();
        assertRegionFails(n0, r[0][1], "region access failed by fault injection", "node=1", "region=r");
        assertMessageHas(assertThrows(RegionAccessException.class, () -> n0.connect(1, "r")), "node=1", "region=r");
        assertDelivered(m[0], m[1]);
        assertRegionWorks(n1, r[1][0]);
        assertRegionWorks(n0, r[0][2]);
        assertRegionWorks(n2, r[2][1]);
        plan.links(0, 1).restoreRegionAccess();
        assertEquals(42, r[0][1].readLong(0), "failed operations must not touch the memory");
        assertRegionWorks(n0, n0.connect(1, "r"));
    }

    // ---- partition ----------------------------------------------------------------------------

    @Test
    void aPartitionFailsBothWaysAcrossTheCutAndTellsEachSideOnce() throws Exception {
        List<String> at0 = listen(n0);
        List<String> at1 = listen(n1);
        List<String> at2 = listen(n2);
        Mailbox[] m = open("m");
        Region[][] r = regions();
        plan.partition(Set.of(0, 1), Set.of(2));
        for (int[] pair : new int[][] {{0, 2}, {2, 0}, {1, 2}, {2, 1}}) {
            int from = pair[0];
            int to = pair[1];
            assertNotDelivered(m[from], m[to], PARTITIONED, "node=" + to, "mailbox=m");
            assertRegionFails(node(from), r[from][to], PARTITIONED, "node=" + to, "region=r");
            assertMessageHas(assertThrows(RegionAccessException.class, () -> node(from).connect(to, "r")), PARTITIONED,
                    "node=" + to);
        }
        assertDelivered(m[0], m[1]);
        assertDelivered(m[1], m[0]);
        assertDelivered(m[2], m[2]);
        assertRegionWorks(n0, r[0][1]);
        assertRegionWorks(n1, r[1][0]);
        assertRegionWorks(n2, r[2][2]);
        assertTold(List.of("lost=2"), at0);
        assertTold(List.of("lost=2"), at1);
        assertTold(List.of("lost=0", "lost=1"), at2);

        plan.partition(Set.of(0, 1), Set.of(2));
        plan.partition(Set.of(2), Set.of(1));
        assertNotDelivered(m[1], m[2], PARTITIONED);
        assertTold(List.of("lost=2"), at1); // no news: those peers were already lost

        plan.heal();
        for (int from = 0; from < 3; from++) {
            for (int to = 0; to < 3; to++) {
                assertDelivered(m[from], m[to]);
                assertRegionWorks(node(from), r[from][to]);
            }
        }
        plan.partition(Set.of(0), Set.of(1));
        assertTold(List.of("lost=2", "lost=1"), at0); // healed, so lost again
        assertTold(List.of("lost=2", "lost=0"), at1);
        assertTold(List.of("lost=0", "lost=1"), at2);
    }

    @Test
    void isolateCutsOneNodeFromEveryOther() throws Exception {
        List<String> at0 = listen(n0);
        List<String> at1 = listen(n1);
        List<String> at2 = listen(n2);
        Mailbox[] m = open("m");
        Region[][] r = regions();
        plan.isolate(1);
        for (int other : new int[] {0, 2}) {
            assertNotDelivered(m[1], m[other], PARTITIONED, "node=" + other);
            assertNotDelivered(m[other], m[1], PARTITIONED, "node=1");
            assertRegionFails(n1, r[1][other], PARTITIONED, "node=" + other);
            assertRegionFails(node(other), r[other][1], PARTITIONED, "node=1");
        }
        assertDelivered(m[0], m[2]);
        assertDelivered(m[2], m[0]);
        assertDelivered(m[1], m[1]);
        assertRegionWorks(n1, r[1][1]);
        assertRegionWorks(n0, r[0][2]);
        assertTold(List.of("lost=0", "lost=2"), at1);
        assertTold(List.of("lost=1"), at0);
        assertTold(List.of("lost=1"), at2);
        plan.heal();
        assertDelivered(m[1], m[0]);
        assertRegionWorks(n2, r[2][1]);
    }

    @Test
    void whatWasDelayedOrHeldWhenACutCameIsLostToIt() throws Exception {
        Mailbox[] m = open("m");
        Region[][] r = regions();
        plan.links(0, 1).delay(Duration.ofSeconds(3));
        CompletableFuture<Void> delayed = m[0].send(1, "m", new byte[] {1});
        CompletableFuture<Long> delayedAdd = r[0][1].fetchAddAsync(0, 1);
        plan.links(0, 2).reorder(10, Duration.ofSeconds(WAIT_SECONDS * 10));
        CompletableFuture<Void> held = m[0].send(2, "m", new byte[] {2});
        plan.isolate(0);
        plan.links(0, 2).stopReordering();
        assertMessageHas(failure(DeliveryException.class, delayed), PARTITIONED, "node=1");
        assertMessageHas(failure(RegionAccessException.class, delayedAdd), PARTITIONED, "node=1");
        assertMessageHas(failure(DeliveryException.class, held), PARTITIONED, "node=2");
        plan.heal();
        assertEquals(0, r[0][1].readLong(0), "an operation lost to a cut must not be applied");
        assertNothingBefore(m[0], m[1]);
        assertNothingBefore(m[0], m[2]);
    }

    // ---- scope and healing --------------------------------------------------------------------

    @Test
    void aNodesOperationsOnItselfAreFaultedOnlyByARuleNamingIt() throws Exception {
        Mailbox[] m = open("m");
        Region[][] r = regions();
        Set<Integer> all = Set.of(0, 1, 2);
        plan.links(all, all).dropNext(5).failRegionAccess();
        plan.isolate(0);
        assertDelivered(m[0], m[0]);
        assertRegionWorks(n0, r[0][0]);
        assertRegionWorks(n0, n0.register("own", 8));
        plan.links(0, 0).failRegionAccess().dropNext(1);
        assertRegionFails(n0, r[0][0], "region access failed by fault injection", "node=0");
        assertNotDelivered(m[0], m[0], "dropped by fault injection", "node=0");
        assertRegionWorks(n1, r[1][1]);
    }

    @Test
    void healReleasesHeldMessagesAndLiftsEveryRule() throws Exception {
        Mailbox[] m = open("m");
        Region[][] r = regions();
        plan.links(0, 1).reorder(10, Duration.ofSeconds(WAIT_SECONDS * 10));
        List<CompletableFuture<Void>> held = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            held.add(m[0].send(1, "m", new byte[] {(byte) i}));
        }
        plan.links(0, 2).dropNext(100).dropWithProbability(1);
        plan.links(1, 0).failRegionAccess();
        plan.links(2, 0).delay(Duration.ofMinutes(30));
        plan.partition(Set.of(1), Set.of(2));
        plan.heal();
        get(CompletableFuture.allOf(held.toArray(CompletableFuture[]::new)));
        List<Integer> arrived = receiveFirstBytes(m[1], 3);
        arrived.sort(null);
        assertEquals(List.of(0, 1, 2), arrived);
        assertDelivered(m[0], m[2]);
        assertDelivered(m[2], m[0]);
        assertDelivered(m[1], m[2]);
        assertRegionWorks(n1, r[1][0]);
        assertRegionWorks(n2, r[2][0]);
    }

    // ---- concurrency --------------------------------------------------------------------------

    @Test
    void underFaultsSwitchedConcurrentlyEverySendAndOperationEitherWorksOrFailsCleanly() throws Exception {
        Region counter = n0.register("counter", 8);
        Mailbox[] inbox = open("inbox");
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch go = new CountDownLatch(1);
        List<Future<long[]>> workers = new ArrayList<>();
        for (int id = 0; id < 3; id++) {
            FaultyFabric from = node(id);
            int to = (id + 1) % 3;
            Region handle = from.connect(0, "counter");
            Mailbox out = from.openMailbox("out");
            workers.add(pool.submit(() -> {
                go.await();
                long sent = 0;
                long added = 0;
                List<CompletableFuture<Void>> sends = new ArrayList<>();
                for (int i = 0; !stop.get() || i < 200; i++) {
                    sends.add(out.send(to, "inbox", new byte[] {1}));
                    CompletableFuture<Long> add = (i & 1) == 0 ? handle.fetchAddAsync(0, 1)
                            : CompletableFuture.supplyAsync(() -> handle.fetchAdd(0, 1), Runnable::run);
                    try {
                        add.join();
                        added++;
                    } catch (CompletionException e) {
                        assertInstanceOf(RegionAccessException.class, e.getCause());
                    }
                }
                for (CompletableFuture<Void> send : sends) {
                    try {
                        send.get(WAIT_SECONDS, SECONDS);
                        sent++;
                    } catch (java.util.concurrent.ExecutionException e) {
                        assertInstanceOf(DeliveryException.class, e.getCause());
                    }
                }
                return new long[] {sent, added};
            }));
        }
        go.countDown();
        Random random = new Random(SEED);
        for (int round = 0; round < 40; round++) {
            int a = random.nextInt(3);
            switch (random.nextInt(4)) {
                case 0 -> plan.isolate(a);
                case 1 -> plan.partition(Set.of(a), Set.of((a + 1) % 3));
                case 2 -> plan.links(a, (a + 1) % 3).dropWithProbability(0.5).delay(Duration.ZERO, Duration.ofMillis(2));
                default -> plan.heal();
            }
            Thread.sleep(2); // real time: each fault stands while the senders' threads run into it
        }
        plan.heal();
        stop.set(true);
        long sent = 0;
        long added = 0;
        for (Future<long[]> worker : workers) {
            long[] counts = worker.get(WAIT_SECONDS, SECONDS);
            sent += counts[0];
            added += counts[1];
        }
        assertEquals(added, counter.readLong(0), "a failed fetch-add was applied, or a successful one lost");
        long arrived = 0;
        for (Mailbox mailbox : inbox) {
            while (mailbox.poll() != null) {
                arrived++;
            }
        }
        assertEquals(sent, arrived, "a failed send was delivered, or a successful one lost");
    }
}
