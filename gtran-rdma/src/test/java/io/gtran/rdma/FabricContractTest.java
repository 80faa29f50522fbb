package io.gtran.rdma;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every {@link Fabric} implementation must do, written once and run per transport: a
 * subclass supplies {@link #startCluster}. Each test gets a fresh three-node cluster (nodes 0, 1,
 * 2) that is always shut down, and whose state is logged if the test fails.
 */
@Timeout(value = 60, unit = SECONDS)
public abstract class FabricContractTest {
    /** Seed of every random choice in these tests; printed so a failure can be replayed. */
    protected static final long SEED = 0x67_7472_616eL;

    private static final Logger LOG = LoggerFactory.getLogger(FabricContractTest.class);
    private static final long WAIT_SECONDS = 30;
    private static final int CHANNEL = 7;

    /** A running cluster of the implementation under test. */
    protected interface TestCluster extends AutoCloseable {
        /** The fabric of node {@code id}. */
        Fabric node(int id);

        /** Shuts every node down; idempotent. {@code toString()} describes the nodes' state. */
        @Override
        void close();
    }

    /** Starts a cluster of {@code nodes} nodes with ids {@code 0..nodes-1}. */
    protected abstract TestCluster startCluster(int nodes) throws Exception;

    private TestCluster cluster;

    @RegisterExtension
    final AfterTestExecutionCallback dumpOnFailure = context -> context.getExecutionException()
            .ifPresent(e -> LOG.error("{} failed (seed={}); cluster state: {}", context.getDisplayName(), SEED, cluster));

    private ExecutorService pool;
    protected Fabric n0;
    protected Fabric n1;
    protected Fabric n2;

    @BeforeEach
    void start() throws Exception {
        cluster = startCluster(3);
        n0 = cluster.node(0);
        n1 = cluster.node(1);
        n2 = cluster.node(2);
        pool = Executors.newFixedThreadPool(8);
    }

    @AfterEach
    void stop() throws Exception {
        pool.shutdownNow();
        if (cluster != null) {
            cluster.close();
        }
        assertTrue(pool.awaitTermination(WAIT_SECONDS, SECONDS), "test threads did not stop");
    }

    // ---- regions ----------------------------------------------------------------------------

    @Test
    void registeredRegionIsZeroFilledAndReachableFromEveryNode() {
        Region own = n0.register("table", 1024);
        assertEquals(0, n0.localNode());
        assertEquals(0, own.node());
        assertEquals("table", own.name());
        assertEquals(1024, own.size());
        for (Fabric fabric : List.of(n0, n1, n2)) {
            Region handle = fabric.connect(0, "table");
            assertEquals(0, handle.node());
            assertEquals("table", handle.name());
            assertEquals(1024, handle.size());
            for (long offset = 0; offset < 1024; offset += 8) {
                assertEquals(0, handle.readLong(offset), "offset=" + offset);
            }
            byte[] bytes = new byte[1024];
            Arrays.fill(bytes, (byte) 1);
            handle.read(0, bytes, 0, bytes.length);
            assertArrayEquals(new byte[1024], bytes);
        }
    }

    @Test
    void longWritesAreVisibleAcrossNodes() {
        Region own = n0.register("words", 64);
        Region from1 = n1.connect(0, "words");
        Region from2 = n2.connect(0, "words");
        from1.writeLong(8, 41);
        assertEquals(41, own.readLong(8));
        assertEquals(41, from2.readLong(8));
        own.writeLong(56, -1);
        assertEquals(-1, from1.readLong(56));
        from2.writeLong(8, Long.MIN_VALUE);
        assertEquals(Long.MIN_VALUE, from1.readLong(8));
    }

    @Test
    void compareAndSwapSucceedsOnlyOnTheExpectedValue() {
        n0.register("cas", 16);
        Region remote = n1.connect(0, "cas");
        assertTrue(remote.compareAndSwap(8, 0, 5));
        assertFalse(remote.compareAndSwap(8, 0, 7));
        assertEquals(5, remote.readLong(8));
        assertFalse(n2.connect(0, "cas").compareAndSwap(8, 4, 9));
        assertTrue(n2.connect(0, "cas").compareAndSwap(8, 5, 9));
        assertEquals(9, n0.connect(0, "cas").readLong(8));
        assertEquals(0, remote.readLong(0), "the neighbouring word is untouched");
    }

    @Test
    void fetchAddReturnsThePreviousValueAndWraps() {
        Region own = n0.register("counter", 8);
        Region remote = n1.connect(0, "counter");
        assertEquals(0, remote.fetchAdd(0, 10));
        assertEquals(10, remote.fetchAdd(0, -3));
        assertEquals(7, own.readLong(0));
        own.writeLong(0, Long.MAX_VALUE);
        assertEquals(Long.MAX_VALUE, remote.fetchAdd(0, 1));
        assertEquals(Long.MIN_VALUE, own.readLong(0));
    }

    @Test
    void fetchAddUnderContentionHandsOutDisjointIntervals() throws Exception {
        int threads = 8;
        int perThread = 10_000;
        n0.register("counter", 8);
        Fabric[] nodes = {n0, n1, n2};
        long[][] deltas = new long[threads][perThread];
        long expected = 0;
        Random random = new Random(SEED);
        for (long[] thread : deltas) {
            for (int i = 0; i < perThread; i++) {
                thread[i] = 1 + random.nextInt(100);
                expected += thread[i];
            }
        }
        List<Future<long[]>> results = new ArrayList<>();
        CountDownLatch go = new CountDownLatch(1);
        for (int t = 0; t < threads; t++) {
            Region counter = nodes[t % nodes.length].connect(0, "counter");
            long[] mine = deltas[t];
            results.add(pool.submit(() -> {
                go.await();
                long[] previous = new long[mine.length];
                for (int i = 0; i < mine.length; i++) {
                    previous[i] = counter.fetchAdd(0, mine[i]);
                }
                return previous;
            }));
        }
        go.countDown();
        long[][] intervals = new long[threads * perThread][];
        for (int t = 0; t < threads; t++) {
            long[] previous = results.get(t).get(WAIT_SECONDS, SECONDS);
            for (int i = 0; i < perThread; i++) {
                intervals[t * perThread + i] = new long[] {previous[i], deltas[t][i]};
            }
        }
        assertEquals(expected, n1.connect(0, "counter").readLong(0));
        // Atomic fetch-adds tile [0, expected) with the intervals [previous, previous + delta).
        Arrays.sort(intervals, (a, b) -> Long.compare(a[0], b[0]));
        long next = 0;
        for (long[] interval : intervals) {
            assertEquals(next, interval[0], "gap or overlap at " + next);
            next += interval[1];
        }
    }

    @Test
    void compareAndSwapIncrementsUnderContentionLoseNothing() throws Exception {
        int threads = 6;
        int perThread = 5_000;
        n1.register("cas-counter", 8);
        Fabric[] nodes = {n0, n1, n2};
        List<Future<Integer>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Region counter = nodes[t % nodes.length].connect(1, "cas-counter");
            results.add(pool.submit(() -> {
                int failedSwaps = 0;
                for (int i = 0; i < perThread; i++) {
                    long seen = counter.readLong(0);
                    while (!counter.compareAndSwap(0, seen, seen + 1)) {
                        failedSwaps++;
                        seen = counter.readLong(0);
                    }
                }
                return failedSwaps;
            }));
        }
        for (Future<Integer> result : results) {
            result.get(WAIT_SECONDS, SECONDS);
        }
        assertEquals((long) threads * perThread, n2.connect(1, "cas-counter").readLong(0));
    }

    @Test
    void bulkWritesAndReadsCopyExactlyTheRangeAcrossNodes() {
        n0.register("bulk", 64);
        byte[] src = new byte[20];
        new Random(SEED).nextBytes(src);
        n1.connect(0, "bulk").write(5, src, 3, 13);
        byte[] dst = new byte[17];
        n2.connect(0, "bulk").read(5, dst, 2, 13);
        assertArrayEquals(Arrays.copyOfRange(src, 3, 16), Arrays.copyOfRange(dst, 2, 15));
        assertArrayEquals(new byte[2], Arrays.copyOfRange(dst, 0, 2), "bytes before dstOffset untouched");
        byte[] whole = new byte[64];
        n0.connect(0, "bulk").read(0, whole, 0, 64);
        assertArrayEquals(new byte[5], Arrays.copyOfRange(whole, 0, 5), "bytes before the range untouched");
        assertArrayEquals(new byte[46], Arrays.copyOfRange(whole, 18, 64), "bytes after the range untouched");
        n0.connect(0, "bulk").read(64, new byte[0], 0, 0); // an empty range at the end is fine
    }

    @Test
    void longsAreStoredInNativeByteOrder() {
        Region region = n0.register("order", 16);
        n1.connect(0, "order").writeLong(8, 0x0102_0304_0506_0708L);
        byte[] bytes = new byte[8];
        n2.connect(0, "order").read(8, bytes, 0, 8);
        assertEquals(0x0102_0304_0506_0708L, ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder()).getLong());
        ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder()).putLong(0, 99);
        region.write(0, bytes, 0, 8);
        assertEquals(99, n1.connect(0, "order").readLong(0));
    }

    @Test
    void bulkWritePublishedThroughALongWordIsVisibleToWhoeverSeesTheWord() throws Exception {
        int rounds = 1_000;
        n0.register("mailbox", 64); // bytes 0..31 data, 32 published round, 40 consumed round
        Region writer = n1.connect(0, "mailbox");
        Region reader = n2.connect(0, "mailbox");
        Future<?> writes = pool.submit(() -> {
            for (int round = 1; round <= rounds; round++) {
                byte[] data = new byte[32];
                Arrays.fill(data, (byte) round);
                writer.write(0, data, 0, 32);
                writer.writeLong(32, round);
                while (writer.readLong(40) != round) {
                    Thread.yield(); // not onSpinWait: on a single CPU the other side must get to run
                }
            }
            return null;
        });
        Future<Integer> torn = pool.submit(() -> {
            int bad = 0;
            byte[] data = new byte[32];
            for (int round = 1; round <= rounds; round++) {
                while (reader.readLong(32) != round) {
                    Thread.yield(); // not onSpinWait: on a single CPU the other side must get to run
                }
                reader.read(0, data, 0, 32);
                for (byte b : data) {
                    bad += b == (byte) round ? 0 : 1;
                }
                reader.writeLong(40, round);
            }
            return bad;
        });
        writes.get(WAIT_SECONDS, SECONDS);
        assertEquals(0, torn.get(WAIT_SECONDS, SECONDS), "bytes read after the publishing word that were stale");
    }

    @Test
    void misalignedOrOutOfRangeOffsetsAreRejectedWithOffsetAndSize() {
        n0.register("bounds", 64);
        for (Region region : List.of(n0.connect(0, "bounds"), n1.connect(0, "bounds"))) {
            assertMessageHas(assertThrows(IllegalArgumentException.class, () -> region.readLong(3)),
                    "node=0", "region=bounds", "offset=3", "size=64");
            assertMessageHas(assertThrows(IllegalArgumentException.class, () -> region.readLong(64)), "offset=64", "size=64");
            assertMessageHas(assertThrows(IllegalArgumentException.class, () -> region.readLong(-8)), "offset=-8", "size=64");
            assertMessageHas(assertThrows(IllegalArgumentException.class, () -> region.writeLong(60, 1)), "offset=60");
            assertMessageHas(assertThrows(IllegalArgumentException.class, () -> region.compareAndSwap(4, 0, 1)), "offset=4");
            assertMessageHas(assertThrows(IllegalArgumentException.class, () -> region.fetchAdd(72, 1)), "offset=72");
            assertMessageHas(assertThrows(IllegalArgumentException.class, () -> region.fetchAdd(Long.MIN_VALUE, 1)),
                    "offset=" + Long.MIN_VALUE);
            region.writeLong(56, 1); // the last word is fine
            assertMessageHas(assertThrows(IllegalArgumentException.class, () -> region.read(60, new byte[8], 0, 8)),
                    "node=0", "region=bounds", "offset=60", "length=8", "size=64");
            assertMessageHas(assertThrows(IllegalArgumentException.class, () -> region.write(-1, new byte[8], 0, 1)),
                    "offset=-1", "size=64");
            assertMessageHas(assertThrows(IllegalArgumentException.class, () -> region.read(0, new byte[8], 0, -1)),
                    "length=-1");
            assertMessageHas(assertThrows(IllegalArgumentException.class,
                    () -> region.write(Long.MAX_VALUE, new byte[8], 0, 8)), "offset=" + Long.MAX_VALUE);
            assertThrows(IndexOutOfBoundsException.class, () -> region.read(0, new byte[4], 0, 8));
            assertThrows(IndexOutOfBoundsException.class, () -> region.write(0, new byte[4], 2, 3));
            assertEquals(0, region.readLong(0), "rejected operations wrote nothing");
        }
    }

    @Test
    void regionSizeMustBeAPositiveMultipleOfEight() {
        for (long bytes : new long[] {0, -8, 12, 1}) {
            assertMessageHas(assertThrows(IllegalArgumentException.class, () -> n0.register("bad", bytes)),
                    "bytes=" + bytes);
        }
        assertThrows(IllegalArgumentException.class, () -> n0.register("", 8));
        assertThrows(NullPointerException.class, () -> n0.register(null, 8));
        assertThrows(UnknownRegionException.class, () -> n1.connect(0, "bad"), "a rejected region is not registered");
    }

    @Test
    void duplicateRegistrationOnOneNodeIsRefusedByName() {
        Region first = n0.register("dup", 8);
        first.writeLong(0, 3);
        assertMessageHas(assertThrows(IllegalStateException.class, () -> n0.register("dup", 16)), "name=dup", "node=0");
        assertEquals(8, n1.connect(0, "dup").size(), "the first registration stands");
        assertEquals(3, n1.connect(0, "dup").readLong(0));
        assertEquals(16, n1.register("dup", 16).size(), "names are per node");
    }

    @Test
    void unknownNodeOrRegionIsNamed() {
        n0.register("known", 8);
        assertMessageHas(assertThrows(UnknownRegionException.class, () -> n1.connect(0, "nope")), "node=0", "name=nope");
        assertMessageHas(assertThrows(UnknownRegionException.class, () -> n1.connect(2, "known")), "node=2", "name=known");
        assertMessageHas(assertThrows(UnknownRegionException.class, () -> n1.connect(700, "known")),
                "node=700", "name=known");
        assertMessageHas(assertThrows(UnknownRegionException.class, () -> n1.connect(-1, "known")), "node=-1");
    }

    // ---- messages ---------------------------------------------------------------------------

    @Test
    void messagesFromEachSenderArriveInSendOrder() throws Exception {
        int count = 10_000;
        List<List<Integer>> seen = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        n0.onMessage(CHANNEL, (from, payload) -> seen.get(from).add(ByteBuffer.wrap(payload).getInt()));
        List<Future<List<CompletableFuture<Void>>>> senders = new ArrayList<>();
        for (Fabric sender : List.of(n1, n2)) {
            senders.add(pool.submit(() -> {
                List<CompletableFuture<Void>> acks = new ArrayList<>(count);
                byte[] payload = new byte[4]; // reused: send must copy it
                for (int i = 0; i < count; i++) {
                    ByteBuffer.wrap(payload).putInt(0, i);
                    acks.add(sender.send(0, CHANNEL, payload));
                }
                return acks;
            }));
        }
        for (Future<List<CompletableFuture<Void>>> sender : senders) {
            CompletableFuture.allOf(sender.get(WAIT_SECONDS, SECONDS).toArray(new CompletableFuture<?>[0]))
                    .get(WAIT_SECONDS, SECONDS);
        }
        assertInSequence(seen.get(1), count, "from node 1");
        assertInSequence(seen.get(2), count, "from node 2");
        assertTrue(seen.get(0).isEmpty());
    }

    private static void assertInSequence(List<Integer> seen, int count, String what) {
        for (int i = 0; i < Math.min(count, seen.size()); i++) {
            if (seen.get(i) != i) {
                fail(what + ": message " + seen.get(i) + " arrived in position " + i + "; around it: "
                        + seen.subList(Math.max(0, i - 3), Math.min(seen.size(), i + 4)));
            }
        }
        assertEquals(count, seen.size(), what + ": messages handled");
    }

    @Test
    void acknowledgementCompletesOnlyAfterTheHandlerRan() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean finished = new AtomicBoolean();
        n1.onMessage(CHANNEL, (from, payload) -> {
            entered.countDown();
            await(release);
            finished.set(true);
        });
        CompletableFuture<Void> ack = n0.send(1, CHANNEL, new byte[] {1});
        assertTrue(entered.await(WAIT_SECONDS, SECONDS));
        assertFalse(ack.isDone(), "acknowledged while the handler was still running");
        release.countDown();
        ack.get(WAIT_SECONDS, SECONDS);
        assertTrue(finished.get());
    }

    @Test
    void handlerReceivesSenderAndPayloadAndANodeMayMessageItself() throws Exception {
        List<String> seen = new ArrayList<>();
        n0.onMessage(CHANNEL, (from, payload) -> seen.add(from + ":" + new String(payload, UTF_8)));
        n0.send(0, CHANNEL, "self".getBytes(UTF_8)).get(WAIT_SECONDS, SECONDS);
        n2.send(0, CHANNEL, "two".getBytes(UTF_8)).get(WAIT_SECONDS, SECONDS);
        n1.send(0, CHANNEL, new byte[0]).get(WAIT_SECONDS, SECONDS);
        assertEquals(List.of("0:self", "2:two", "1:"), seen);
    }

    @Test
    void handlerExceptionFailsTheSendersFutureAndDeliveryGoesOn() throws Exception {
        IllegalArgumentException boom = new IllegalArgumentException("boom");
        n0.onMessage(3, (from, payload) -> {
            if (payload[0] == 0) {
                throw boom;
            }
        });
        DeliveryException failure = failure(DeliveryException.class, n1.send(0, 3, new byte[] {0}));
        assertMessageHas(failure, "node=0", "channel=3");
        assertSame(boom, failure.getCause());
        n1.send(0, 3, new byte[] {1}).get(WAIT_SECONDS, SECONDS);
    }

    @Test
    void sendWithoutAReceiverFails() throws Exception {
        assertMessageHas(failure(DeliveryException.class, n0.send(1, 9, new byte[1])), "node=1", "channel=9");
        assertMessageHas(failure(DeliveryException.class, n0.send(500, 9, new byte[1])), "node=500", "channel=9");
        assertMessageHas(failure(DeliveryException.class, n0.send(-1, 9, new byte[1])), "node=-1");
    }

    @Test
    void channelsAreCheckedAndHaveOneHandlerEach() {
        n0.onMessage(0, (from, payload) -> { });
        n0.onMessage(Fabric.MAX_CHANNEL, (from, payload) -> { });
        assertMessageHas(assertThrows(IllegalStateException.class, () -> n0.onMessage(0, (from, payload) -> { })),
                "channel=0");
        assertMessageHas(assertThrows(IllegalArgumentException.class, () -> n0.onMessage(256, (from, payload) -> { })),
                "channel=256");
        assertThrows(IllegalArgumentException.class, () -> n0.onMessage(-1, (from, payload) -> { }));
        assertMessageHas(assertThrows(IllegalArgumentException.class, () -> n1.send(0, 256, new byte[1])), "channel=256");
        assertThrows(NullPointerException.class, () -> n1.send(0, 0, null));
    }

    // ---- closing ----------------------------------------------------------------------------

    @Test
    void aClosedNodeLooksDeadToTheOthers() throws Exception {
        n1.register("r", 8);
        n1.onMessage(CHANNEL, (from, payload) -> { });
        Region handle = n0.connect(1, "r");
        n1.close();
        RegionAccessException dead = assertThrows(RegionAccessException.class, () -> handle.readLong(0));
        assertMessageHas(dead, "node=1", "region=r");
        assertInstanceOf(IllegalStateException.class, dead);
        assertThrows(RegionAccessException.class, () -> handle.writeLong(0, 1));
        assertThrows(RegionAccessException.class, () -> handle.compareAndSwap(0, 0, 1));
        assertThrows(RegionAccessException.class, () -> handle.fetchAdd(0, 1));
        assertThrows(RegionAccessException.class, () -> handle.read(0, new byte[8], 0, 8));
        assertThrows(RegionAccessException.class, () -> handle.write(0, new byte[8], 0, 8));
        assertMessageHas(assertThrows(RegionAccessException.class, () -> n2.connect(1, "r")), "node=1");
        assertMessageHas(failure(DeliveryException.class, n0.send(1, CHANNEL, new byte[1])), "node=1", "channel=" + CHANNEL);
        assertEquals(1, handle.node(), "a dead handle still says what it was");
    }

    @Test
    void aClosedFabricRefusesEveryOperation() {
        n0.register("peer", 8);
        Region own = n1.register("own", 8);
        Region peer = n1.connect(0, "peer");
        n1.close();
        String closed = "fabric is closed: node=1";
        assertEquals(closed, assertThrows(IllegalStateException.class, () -> n1.register("x", 8)).getMessage());
        assertEquals(closed, assertThrows(IllegalStateException.class, () -> n1.connect(0, "peer")).getMessage());
        assertEquals(closed, assertThrows(IllegalStateException.class, () -> n1.send(0, CHANNEL, new byte[1])).getMessage());
        assertEquals(closed, assertThrows(IllegalStateException.class, () -> n1.onMessage(CHANNEL, (f, p) -> { }))
                .getMessage());
        assertEquals(closed, assertThrows(IllegalStateException.class, () -> peer.readLong(0)).getMessage());
        assertEquals(closed, assertThrows(IllegalStateException.class, () -> peer.write(0, new byte[1], 0, 1)).getMessage());
        assertThrows(IllegalStateException.class, () -> own.fetchAdd(0, 1));
        assertEquals(1, n1.localNode());
        assertEquals(0, n2.connect(0, "peer").readLong(0), "the others go on");
    }

    @Test
    void messagesQueuedAtCloseFailAndTheRunningOneFinishes() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        n1.onMessage(CHANNEL, (from, payload) -> {
            entered.countDown();
            await(release);
        });
        n1.register("probe", 8);
        Region probe = n0.connect(1, "probe");
        CompletableFuture<Void> running = n0.send(1, CHANNEL, new byte[] {1});
        assertTrue(entered.await(WAIT_SECONDS, SECONDS));
        CompletableFuture<Void> queued = n0.send(1, CHANNEL, new byte[] {2});
        Future<?> closing = pool.submit(n1::close);
        long deadline = System.nanoTime() + SECONDS.toNanos(WAIT_SECONDS);
        while (!isDead(probe)) { // close has begun once the others see node 1 as dead
            assertTrue(System.nanoTime() < deadline, "node 1 never looked dead to node 0 while closing");
            Thread.sleep(1);
        }
        release.countDown();
        closing.get(WAIT_SECONDS, SECONDS);
        running.get(WAIT_SECONDS, SECONDS);
        assertMessageHas(failure(DeliveryException.class, queued), "node=1");
    }

    @Test
    void closingTwiceIsFine() {
        n0.close();
        n0.close();
        assertThrows(IllegalStateException.class, () -> n0.register("x", 8));
        cluster.close();
        cluster.close();
    }

    // ---- helpers ----------------------------------------------------------------------------

    /** The cause of {@code future}'s failure, which must be a {@code type}. */
    protected static <T extends Throwable> T failure(Class<T> type, CompletableFuture<?> future) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> future.get(WAIT_SECONDS, SECONDS));
        return assertInstanceOf(type, e.getCause());
    }

    /** Asserts that {@code t}'s message contains every one of {@code parts}. */
    protected static void assertMessageHas(Throwable t, String... parts) {
        for (String part : parts) {
            if (t.getMessage() == null || !t.getMessage().contains(part)) {
                fail("message lacks \"" + part + "\": " + t, t);
            }
        }
    }

    /** Waits for {@code latch} inside a handler; an interrupt or a timeout fails the message. */
    protected static void await(CountDownLatch latch) {
        try {
            if (!latch.await(WAIT_SECONDS, SECONDS)) {
                throw new IllegalStateException("latch not released within " + WAIT_SECONDS + "s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static boolean isDead(Region region) {
        try {
            region.readLong(0);
            return false;
        } catch (RegionAccessException e) {
            return true;
        }
    }
}
