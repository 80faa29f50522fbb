package io.gtran.check.fabric;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.gtran.rdma.Batch;
import io.gtran.rdma.DeliveryException;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.Mailbox;
import io.gtran.rdma.Message;
import io.gtran.rdma.Region;
import io.gtran.rdma.RegionAccessException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The harness of {@link FaultInjectionContractTest}: a subclass supplies {@link #startCluster}
 * (unwrapped fabrics of the transport under test), and each test gets nodes 0, 1 and 2 wrapped with
 * one {@link FaultPlan} seeded with {@link #SEED}. The cluster and the plan are always shut down;
 * their state is logged if a test fails. Also the assertions the fault tests share.
 *
 * <p>Timing is asserted only from below (an injected delay makes things take at least that long)
 * and, for "not affected", against delays long enough that a loaded machine does not matter.
 */
@Timeout(value = 60, unit = SECONDS)
public abstract class FaultInjectionHarness {
    /** Seed of the plan and every random choice in these tests; logged on failure for replay. */
    protected static final long SEED = 0x6661_756c_7473L;

    /** How long a test waits for anything that should happen. */
    protected static final long WAIT_SECONDS = 30;

    private static final Logger LOG = LoggerFactory.getLogger(FaultInjectionHarness.class);

    /** A running cluster of the implementation under test, its fabrics not wrapped. */
    protected interface TestCluster extends AutoCloseable {
        /** The fabric of node {@code id}. */
        Fabric node(int id);

        /** Shuts every node down; idempotent. {@code toString()} describes the nodes' state. */
        @Override
        void close();
    }

    /**
     * Starts a cluster of {@code nodes} nodes with ids {@code 0..nodes-1}. Some tests start a second,
     * independent cluster while the first runs (to replay a seed), so two must be able to coexist.
     */
    protected abstract TestCluster startCluster(int nodes) throws Exception;

    private TestCluster cluster;
    protected FaultPlan plan;
    protected ExecutorService pool;
    /** Nodes 0, 1, 2, wrapped with {@link #plan}. */
    protected FaultyFabric n0;
    protected FaultyFabric n1;
    protected FaultyFabric n2;

    @RegisterExtension
    final AfterTestExecutionCallback dumpOnFailure = context -> context.getExecutionException()
            .ifPresent(e -> LOG.error("{} failed (seed={}); plan: {}; cluster: {}", context.getDisplayName(), SEED, plan,
                    cluster));

    @BeforeEach
    void start() throws Exception {
        cluster = startCluster(3);
        plan = new FaultPlan(SEED);
        n0 = plan.wrap(cluster.node(0));
        n1 = plan.wrap(cluster.node(1));
        n2 = plan.wrap(cluster.node(2));
        pool = Executors.newFixedThreadPool(4);
    }

    @AfterEach
    void stop() throws Exception {
        pool.shutdownNow();
        try {
            if (plan != null) {
                plan.close();
            }
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
        assertTrue(pool.awaitTermination(WAIT_SECONDS, SECONDS), "test threads did not stop");
    }

    // ---- helpers ------------------------------------------------------------------------------

    /** The nodes by id. */
    protected FaultyFabric node(int id) {
        return List.of(n0, n1, n2).get(id);
    }

    /** Waits for {@code future}, which must succeed. */
    protected static <T> T get(CompletableFuture<T> future) throws Exception {
        return future.get(WAIT_SECONDS, SECONDS);
    }

    /** Asserts that {@code future} fails with a {@code type} and returns it. */
    protected static <T extends Throwable> T failure(Class<T> type, CompletableFuture<?> future) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> future.get(WAIT_SECONDS, SECONDS));
        return assertInstanceOf(type, e.getCause(), () -> "cause: " + e.getCause());
    }

    /** Asserts that {@code t}'s message contains every one of {@code parts}, and returns it. */
    protected static <T extends Throwable> T assertMessageHas(T t, String... parts) {
        for (String part : parts) {
            if (t.getMessage() == null || !t.getMessage().contains(part)) {
                fail("message lacks \"" + part + "\": " + t, t);
            }
        }
        return t;
    }

    /** Receives the next message, which must come within {@link #WAIT_SECONDS}. */
    protected static Message receive(Mailbox mailbox) throws InterruptedException {
        Message message = mailbox.receive(WAIT_SECONDS, SECONDS);
        assertNotNull(message, () -> "no message arrived at " + mailbox);
        return message;
    }

    /** The first payload bytes of the next {@code count} messages. */
    protected static List<Integer> receiveFirstBytes(Mailbox mailbox, int count) throws InterruptedException {
        List<Integer> firsts = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            firsts.add((int) receive(mailbox).payload()[0]);
        }
        return firsts;
    }

    /**
     * Sends a marker from {@code from} to {@code to}, receives it, and asserts that nothing came
     * before it: whatever was sent earlier on that pair of mailboxes was lost, not late.
     */
    protected static void assertNothingBefore(Mailbox from, Mailbox to) throws Exception {
        get(from.send(to.node(), to.name(), new byte[] {-1}));
        assertEquals(-1, receive(to).payload()[0], "a message that should have been lost arrived");
        assertNull(to.poll());
    }

    /** Nanoseconds {@code action} took to return. */
    protected static long nanosOf(ThrowingRunnable action) throws Exception {
        long start = System.nanoTime();
        action.run();
        return System.nanoTime() - start;
    }

    /** Asserts that {@code nanos} is at least {@code least}. */
    protected static void assertAtLeast(Duration least, long nanos, String what) {
        assertTrue(nanos >= least.toNanos(), () -> what + " took " + Duration.ofNanos(nanos) + ", less than " + least);
    }

    /**
     * Asserts that region operations from {@code from} on {@code region} (a handle of {@code from})
     * all fail with a {@link RegionAccessException} whose message has {@code parts}: every
     * synchronous form, every asynchronous form, and a batch.
     */
    protected static void assertRegionFails(Fabric from, Region region, String... parts) {
        List<Runnable> sync = List.of(() -> region.readLong(0), () -> region.writeLong(0, 1),
                () -> region.compareAndSwap(0, 0, 1), () -> region.fetchAdd(0, 1), () -> region.read(0, new byte[8], 0, 8),
                () -> region.write(0, new byte[8], 0, 8));
        for (Runnable operation : sync) {
            assertMessageHas(assertThrows(RegionAccessException.class, operation::run), parts);
        }
        List<Supplier<CompletableFuture<?>>> async = List.of(() -> region.readLongAsync(0),
                () -> region.writeLongAsync(0, 1), () -> region.compareAndSwapAsync(0, 0, 1),
                () -> region.fetchAddAsync(0, 1), () -> region.readAsync(0, 8), () -> region.writeAsync(0, new byte[8], 0, 8));
        for (Supplier<CompletableFuture<?>> operation : async) {
            assertMessageHas(failure(RegionAccessException.class, operation.get()), parts);
        }
        Batch batch = from.batch();
        CompletableFuture<Long> read = batch.readLong(region, 0);
        CompletableFuture<Void> write = batch.write(region, 0, new byte[8], 0, 8);
        failure(RegionAccessException.class, batch.flush());
        assertMessageHas(failure(RegionAccessException.class, read), parts);
        assertMessageHas(failure(RegionAccessException.class, write), parts);
    }

    /** Asserts that region operations from {@code from} on {@code region} work, sync, async and batched. */
    protected static void assertRegionWorks(Fabric from, Region region) throws Exception {
        long before = region.readLong(0);
        assertEquals(before, region.fetchAdd(0, 1));
        assertEquals(before + 1, get(region.fetchAddAsync(0, 1)));
        Batch batch = from.batch();
        CompletableFuture<Long> read = batch.readLong(region, 0);
        get(batch.flush());
        assertEquals(before + 2, get(read));
        region.writeLong(0, before); // leave it as found
    }

    /** Records {@code peerLost} calls as "lost=node". */
    protected static List<String> listen(Fabric fabric) {
        List<String> told = new CopyOnWriteArrayList<>();
        fabric.onPeerLost((peer, reason) -> told.add("lost=" + peer + (reason.contains("fault injection") ? "" : " " + reason)));
        return told;
    }

    /** Waits until {@code told} holds (in any order) exactly {@code expected}, then a little more for extras. */
    protected static void assertTold(List<String> expected, List<String> told) throws InterruptedException {
        long deadline = System.nanoTime() + SECONDS.toNanos(WAIT_SECONDS);
        while (told.size() < expected.size() && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(5);
        }
        List<String> sortedTold = new ArrayList<>(told);
        sortedTold.sort(null);
        List<String> sortedExpected = new ArrayList<>(expected);
        sortedExpected.sort(null);
        assertEquals(sortedExpected, sortedTold);
    }

    /** Asserts that a message from {@code from} to {@code to} arrives, with the payload it had. */
    protected static void assertDelivered(Mailbox from, Mailbox to) throws Exception {
        byte[] payload = {42, 43};
        get(from.send(to.node(), to.name(), payload));
        Message message = receive(to);
        assertEquals(from.node(), message.fromNode());
        assertArrayEquals(payload, message.payload());
    }

    /** Asserts that a message from {@code from} to {@code to} fails with a {@link DeliveryException} with {@code parts}. */
    protected static void assertNotDelivered(Mailbox from, Mailbox to, String... parts) {
        assertMessageHas(failure(DeliveryException.class, from.send(to.node(), to.name(), new byte[] {7})), parts);
    }

    /** Asserts that the list is a permutation of {@code 0..n-1} other than the identity. */
    protected static void assertShuffled(List<Integer> order) {
        List<Integer> identity = new ArrayList<>();
        for (int i = 0; i < order.size(); i++) {
            identity.add(i);
        }
        assertNotEquals(identity, order, "a reordering rule left messages in order");
        List<Integer> sorted = new ArrayList<>(order);
        sorted.sort(null);
        assertEquals(identity, sorted, "messages lost or duplicated: " + order);
    }

    /** Asserts {@code future} is not done yet (used only against delays of seconds). */
    protected static void assertPending(CompletableFuture<?> future, String what) {
        assertFalse(future.isDone(), what + " completed before its injected delay");
    }

    /** A runnable that may throw. */
    @FunctionalInterface
    protected interface ThrowingRunnable {
        void run() throws Exception;
    }
}
