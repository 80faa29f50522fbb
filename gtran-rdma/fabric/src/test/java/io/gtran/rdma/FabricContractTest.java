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
import java.util.function.Function;
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

    /**
     * A cluster of {@code nodes} members of a new {@link InJvmCluster}, each fabric wrapped by
     * {@code wrap} (a decorator under test); closing runs {@code beforeClose}, then closes the
     * cluster. {@code toString()} gives the cluster and {@code description} (its {@code toString()} then).
     */
    protected static TestCluster inJvmCluster(int nodes, java.util.function.UnaryOperator<Fabric> wrap, Runnable beforeClose,
                                              Object description) {
        return inJvmCluster(new InJvmCluster(), nodes, wrap, beforeClose, description);
    }

    /** As above, over {@code inJvm}, which the caller may also use; a null {@code description} adds nothing. */
    protected static TestCluster inJvmCluster(InJvmCluster inJvm, int nodes, java.util.function.UnaryOperator<Fabric> wrap,
                                              Runnable beforeClose, Object description) {
        java.util.List<Fabric> fabrics = new java.util.ArrayList<>();
        for (int node = 0; node < nodes; node++) {
            fabrics.add(wrap.apply(inJvm.join(node)));
        }
        return new TestCluster() {
            @Override
            public Fabric node(int id) {
                return fabrics.get(id);
            }

            @Override
            public void close() {
                beforeClose.run();
                inJvm.close();
            }

            @Override
            public String toString() {
                return description == null ? inJvm.toString() : inJvm + " " + description;
            }
        };
    }

    /** What an implementation promises for a synchronous operation called on one of its own threads. */
    protected enum OwnThreadCalls {
        /**
         * It has threads that deliver replies (I/O, completion-queue, frame threads) and runs dependent
         * stages and peer listeners on them; a synchronous remote operation there would wait for
         * itself or stall every connection, so it throws {@link IllegalStateException} naming the
         * region and the asynchronous form.
         */
        REFUSED,
        /**
         * It completes operations on the calling thread: dependent stages and peer listeners run on
         * the application's threads, where a synchronous operation is served like anywhere else.
         */
        SERVED
    }

    /** This implementation's promise; {@link OwnThreadCalls#REFUSED} unless it overrides it. */
    protected OwnThreadCalls ownThreadCalls() {
        return OwnThreadCalls.REFUSED;
    }

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
        if (pool != null) { // null when startCluster was skipped by an assumption
            pool.shutdownNow();
        }
        if (cluster != null) {
            cluster.close();
        }
        if (pool != null) {
            assertTrue(pool.awaitTermination(WAIT_SECONDS, SECONDS), "test threads did not stop");
        }
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

    // ---- asynchronous operations and batches ------------------------------------------------

    @Test
    void asynchronousOperationsDoWhatTheirSynchronousFormsDo() throws Exception {
        Region own = n0.register("async", 64);
        Region remote = n1.connect(0, "async");
        remote.writeLongAsync(8, 41).get(WAIT_SECONDS, SECONDS);
        assertEquals(41, remote.readLongAsync(8).get(WAIT_SECONDS, SECONDS));
        assertTrue(remote.compareAndSwapAsync(8, 41, 42).get(WAIT_SECONDS, SECONDS));
        assertFalse(remote.compareAndSwapAsync(8, 41, 43).get(WAIT_SECONDS, SECONDS));
        assertEquals(42, remote.fetchAddAsync(8, 8).get(WAIT_SECONDS, SECONDS));
        assertEquals(50, own.readLong(8));
        byte[] src = {9, 8, 7, 6, 5};
        CompletableFuture<Void> written = remote.writeAsync(17, src, 1, 3);
        src[1] = 0; // the bytes were taken at the call
        written.get(WAIT_SECONDS, SECONDS);
        assertArrayEquals(new byte[] {0, 8, 7, 6, 0}, remote.readAsync(16, 5).get(WAIT_SECONDS, SECONDS));
        assertArrayEquals(new byte[0], remote.readAsync(64, 0).get(WAIT_SECONDS, SECONDS));
        assertEquals(50, n2.connect(0, "async").readLongAsync(8).get(WAIT_SECONDS, SECONDS), "also seen from node 2");
    }

    @Test
    void asynchronousMisuseIsThrownAtTheCallNotPutInTheFuture() {
        n0.register("async-bounds", 64);
        Region region = n1.connect(0, "async-bounds");
        assertMessageHas(assertThrows(IllegalArgumentException.class, () -> region.readLongAsync(3)), "offset=3", "size=64");
        assertThrows(IllegalArgumentException.class, () -> region.writeLongAsync(64, 1));
        assertThrows(IllegalArgumentException.class, () -> region.compareAndSwapAsync(-8, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> region.fetchAddAsync(60, 1));
        assertMessageHas(assertThrows(IllegalArgumentException.class, () -> region.readAsync(60, 8)), "length=8", "size=64");
        assertThrows(IllegalArgumentException.class, () -> region.readAsync(0, -1));
        assertThrows(IndexOutOfBoundsException.class, () -> region.writeAsync(0, new byte[4], 2, 3));
        assertEquals(0, region.readLong(0), "rejected operations wrote nothing");
    }

    @Test
    void concurrentAsynchronousFetchAddsFromEveryNodeLoseNothing() throws Exception {
        int perNode = 20_000;
        n2.register("async-counter", 8);
        List<Future<Long>> sums = new ArrayList<>();
        for (Fabric fabric : List.of(n0, n1, n2)) {
            Region counter = fabric.connect(2, "async-counter");
            sums.add(pool.submit(() -> {
                List<CompletableFuture<Long>> previous = new ArrayList<>(perNode);
                for (int i = 0; i < perNode; i++) {
                    previous.add(counter.fetchAddAsync(0, 1));
                }
                long distinct = 0;
                for (CompletableFuture<Long> value : previous) {
                    distinct += value.get(WAIT_SECONDS, SECONDS);
                }
                return distinct;
            }));
        }
        long total = 0;
        for (Future<Long> sum : sums) {
            total += sum.get(WAIT_SECONDS, SECONDS);
        }
        long n = 3L * perNode;
        assertEquals(n, n0.connect(2, "async-counter").readLong(0));
        assertEquals(n * (n - 1) / 2, total, "previous values are 0..n-1, each handed out once");
    }

    @Test
    void aBatchIssuesNothingUntilFlushThenAppliesEachNodesOperationsInOrder() throws Exception {
        Region at1 = n1.register("batch", 64);
        n2.register("batch", 64);
        Batch batch = n0.batch();
        Region on1 = n0.connect(1, "batch");
        Region on2 = n0.connect(2, "batch");
        CompletableFuture<Void> write = batch.writeLong(on1, 0, 5);
        CompletableFuture<Long> read = batch.readLong(on1, 0);
        CompletableFuture<Boolean> swap = batch.compareAndSwap(on1, 0, 5, 6);
        CompletableFuture<Long> add = batch.fetchAdd(on1, 0, 10);
        byte[] src = {1, 2, 3};
        CompletableFuture<Void> bulk = batch.write(on2, 8, src, 0, 3);
        src[0] = 9; // the bytes were taken at the call
        CompletableFuture<byte[]> bulkRead = batch.read(on2, 8, 4);
        CompletableFuture<Long> other = batch.fetchAdd(on2, 0, 1);
        assertEquals(7, batch.size());
        assertEquals(0, at1.readLong(0), "nothing applied before flush");
        assertFalse(read.isDone());
        batch.flush().get(WAIT_SECONDS, SECONDS);
        assertEquals(0, batch.size(), "flush empties the batch");
        assertTrue(write.isDone());
        assertEquals(5, read.get());
        assertTrue(swap.get());
        assertEquals(6, add.get());
        assertEquals(16, at1.readLong(0));
        assertTrue(bulk.isDone());
        assertArrayEquals(new byte[] {1, 2, 3, 0}, bulkRead.get());
        assertEquals(0, other.get());
        CompletableFuture<Long> again = batch.readLong(on2, 0);
        batch.flush().get(WAIT_SECONDS, SECONDS);
        assertEquals(1, again.get(), "a flushed batch is reused");
        batch.flush().get(WAIT_SECONDS, SECONDS); // an empty flush is fine
    }

    @Test
    void aBatchChecksArgumentsWhenOperationsAreAdded() {
        n1.register("batch-bounds", 16);
        Region region = n0.connect(1, "batch-bounds");
        Batch batch = n0.batch();
        assertMessageHas(assertThrows(IllegalArgumentException.class, () -> batch.readLong(region, 4)), "offset=4");
        assertThrows(IllegalArgumentException.class, () -> batch.fetchAdd(region, 16, 1));
        assertThrows(IllegalArgumentException.class, () -> batch.read(region, 8, 9));
        assertThrows(IndexOutOfBoundsException.class, () -> batch.write(region, 0, new byte[2], 1, 2));
        assertMessageHas(assertThrows(IllegalArgumentException.class, () -> batch.readLong(n1.connect(1, "batch-bounds"), 0)),
                "another fabric");
        assertEquals(0, batch.size(), "rejected operations were not added");
    }

    @Test
    void manyBatchedOperationsOnSeveralNodesAllComplete() throws Exception {
        int words = 512;
        n1.register("wide", words * 8L);
        n2.register("wide", words * 8L);
        Region[] targets = {n0.connect(1, "wide"), n0.connect(2, "wide")};
        Batch batch = n0.batch();
        for (int round = 1; round <= 3; round++) {
            List<CompletableFuture<Long>> adds = new ArrayList<>();
            for (int word = 0; word < words; word++) {
                for (Region target : targets) {
                    adds.add(batch.fetchAdd(target, word * 8L, word));
                }
            }
            batch.flush().get(WAIT_SECONDS, SECONDS);
            for (int i = 0; i < adds.size(); i++) {
                assertEquals((long) (i / 2) * (round - 1), adds.get(i).get(), "round " + round + ", operation " + i);
            }
        }
    }

    @Test
    void aBatchAppliesReadsAtomicsAndWritesOfOneWordInTheOrderAdded() throws Exception {
        Region at1 = n1.register("one-word", 16);
        Region on1 = n0.connect(1, "one-word");
        Random random = new Random(SEED);
        for (int round = 0; round < 20; round++) {
            long a = random.nextLong();
            long b = random.nextLong();
            long c = random.nextLong();
            at1.writeLong(0, a);
            Batch batch = n0.batch();
            CompletableFuture<Long> readBeforeWrite = batch.readLong(on1, 0);
            batch.writeLong(on1, 0, b);
            CompletableFuture<Long> readAfterWrite = batch.readLong(on1, 0);
            CompletableFuture<Boolean> swapped = batch.compareAndSwap(on1, 0, b, c);
            batch.writeLong(on1, 0, a);
            CompletableFuture<Long> addedTo = batch.fetchAdd(on1, 0, 1);
            CompletableFuture<byte[]> bytesBeforeWrite = batch.read(on1, 0, 8);
            batch.write(on1, 0, nativeBytes(b), 0, 8);
            CompletableFuture<Long> swappedFrom = batch.fetchAdd(on1, 0, 0);
            batch.write(on1, 8, nativeBytes(c), 0, 8);
            CompletableFuture<byte[]> bytesAfterWrite = batch.read(on1, 8, 8);
            batch.flush().get(WAIT_SECONDS, SECONDS);
            String seed = "round=" + round + ", seed=" + SEED;
            assertEquals(a, readBeforeWrite.get(), "a read added before a write reads the old value: " + seed);
            assertEquals(b, readAfterWrite.get(), "a read added after a write reads the new value: " + seed);
            assertTrue(swapped.get(), "a swap added after a write sees it: " + seed);
            assertEquals(a, addedTo.get(), "a write added after a swap is not lost under it: " + seed);
            assertEquals(a + 1, ByteBuffer.wrap(bytesBeforeWrite.get()).order(ByteOrder.nativeOrder()).getLong(), seed);
            assertEquals(b, swappedFrom.get(), "a bulk write added after an atomic and a read lands after them: " + seed);
            assertEquals(c, ByteBuffer.wrap(bytesAfterWrite.get()).order(ByteOrder.nativeOrder()).getLong(), seed);
            assertEquals(b, at1.readLong(0), seed);
        }
    }

    @Test
    void aFencedBatchAppliesEachNodesOperationsInOrderAndStillGoesOutInOneFlush() throws Exception {
        Region at1 = n1.register("fenced", 16);
        Region on1 = n0.connect(1, "fenced");
        Region at2 = n2.register("fenced", 8);
        Region on2 = n0.connect(2, "fenced");
        Random random = new Random(SEED);
        for (int round = 0; round < 20; round++) {
            long a = random.nextLong();
            long b = random.nextLong();
            at1.writeLong(0, a);
            at1.writeLong(8, b);
            at2.writeLong(0, b);
            Batch batch = n0.batch();
            assertSame(batch, batch.fence(), "a fence with nothing before it is accepted and returns the batch");
            CompletableFuture<Long> idBefore = batch.readLong(on1, 0);
            CompletableFuture<Long> other = batch.readLong(on2, 0);
            CompletableFuture<Long> status = batch.fence().readLong(on1, 8);
            batch.fence().fence();
            CompletableFuture<Long> idAfter = batch.readLong(on1, 0);
            batch.writeLong(on1, 8, a);
            CompletableFuture<Long> added = batch.fence().fetchAdd(on1, 8, 1);
            CompletableFuture<Long> last = batch.fence().readLong(on1, 8);
            batch.fence();
            assertEquals(7, batch.size(), "fences are not operations");
            batch.flush().get(WAIT_SECONDS, SECONDS);
            assertEquals(0, batch.size());
            String seed = "round=" + round + ", seed=" + SEED;
            assertEquals(a, idBefore.get(), seed);
            assertEquals(b, other.get(), seed);
            assertEquals(b, status.get(), seed);
            assertEquals(a, idAfter.get(), seed);
            assertEquals(a, added.get(), "a write before a fence lands before what follows it: " + seed);
            assertEquals(a + 1, last.get(), seed);
            assertEquals(a + 1, at1.readLong(8), seed);
        }
    }

    @Test
    void aLongWriteComesBeforeTheSameThreadsLaterAsynchronousOperations() throws Exception {
        n1.register("ordered", 64);
        Region on1 = n0.connect(1, "ordered");
        Region other = n2.connect(1, "ordered");
        Random random = new Random(SEED);
        for (int round = 0; round < 200; round++) {
            long offset = 8L * random.nextInt(8);
            long value = random.nextLong();
            // the word holds something node 0 has not seen half of the time, never what node 0 writes
            (round % 2 == 0 ? other : on1).writeLong(offset, value ^ (1L << 62) ^ round);
            CompletableFuture<Void> written = on1.writeLongAsync(offset, value);
            CompletableFuture<Long> added = on1.fetchAddAsync(offset, 1);
            CompletableFuture<Void> again = on1.writeLongAsync(offset, value + 5);
            CompletableFuture<Boolean> swapped = on1.compareAndSwapAsync(offset, value + 5, value + 6);
            CompletableFuture<Long> read = on1.readLongAsync(offset);
            String seed = "round=" + round + ", seed=" + SEED;
            written.get(WAIT_SECONDS, SECONDS);
            assertEquals(value, added.get(WAIT_SECONDS, SECONDS), "the fetch-add comes after the write: " + seed);
            again.get(WAIT_SECONDS, SECONDS);
            assertTrue(swapped.get(WAIT_SECONDS, SECONDS), "the swap comes after the second write: " + seed);
            assertEquals(value + 6, read.get(WAIT_SECONDS, SECONDS), seed);
        }
    }

    @Test
    void aSynchronousOperationInADependentStageIsRefusedOrServedAsPromised() throws Exception {
        n1.register("r", 16);
        Region remote = n0.connect(1, "r");
        assertOwnThreadCall(batch -> batch.readLong(remote, 0), value -> remote.readLong(8), 0L, "node=1", "region=r");
        assertEquals(0, remote.readLongAsync(0).thenCompose(value -> remote.readLongAsync(8)).get(WAIT_SECONDS, SECONDS),
                "chaining the asynchronous form is fine everywhere");
    }

    @Test
    void waitingForABatchInADependentStageIsRefusedOrServedAsPromised() throws Exception {
        n1.register("r", 16);
        Region remote = n0.connect(1, "r");
        assertOwnThreadCall(batch -> batch.readLong(remote, 0), value -> {
            Batch inner = n0.batch();
            CompletableFuture<Long> read = inner.readLong(remote, 8);
            inner.flushAndWait();
            return read.join();
        }, 0L, "batch", "node=1");
        Batch plain = n0.batch();
        CompletableFuture<Long> read = plain.readLong(remote, 8);
        plain.flushAndWait();
        assertEquals(0, read.get(WAIT_SECONDS, SECONDS), "served on a thread of the caller's own");
    }

    @Test
    void aSynchronousOperationInAPeerListenerIsRefusedOrServedAsPromised() throws Exception {
        n1.register("lost", 8);
        n2.register("still-there", 8);
        Region on2 = n0.connect(2, "still-there");
        n0.connect(1, "lost").readLong(0); // node 0 is in contact with node 1
        CompletableFuture<Long> outcome = new CompletableFuture<>();
        n0.onPeerLost((node, reason) -> {
            try {
                outcome.complete(on2.readLong(0));
            } catch (RuntimeException e) {
                outcome.completeExceptionally(e);
            }
        });
        n1.close();
        assertOwnThreadCall(outcome, 0L, "node=2", "region=still-there");
        assertEquals(0, on2.readLongAsync(0).get(WAIT_SECONDS, SECONDS), "the node goes on");
    }

    // ---- large transfers ---------------------------------------------------------------------

    @Test
    void transfersUpToTheLimitArriveIntactAndLargerOnesAreRefused() throws Exception {
        int max = Fabric.MAX_TRANSFER_BYTES;
        n1.register("large", max + 8L);
        Region region = n0.connect(1, "large");
        byte[] data = new byte[max];
        new Random(SEED).nextBytes(data);
        region.write(8, data, 0, max);
        byte[] back = new byte[max];
        region.read(8, back, 0, max);
        assertArrayEquals(data, back);
        assertArrayEquals(data, n2.connect(1, "large").readAsync(8, max).get(WAIT_SECONDS, SECONDS));
        assertMessageHas(assertThrows(IllegalArgumentException.class, () -> region.read(0, new byte[max + 1], 0, max + 1)),
                "length=" + (max + 1), "max=" + max);
        assertThrows(IllegalArgumentException.class, () -> region.writeAsync(0, new byte[max + 1], 0, max + 1));

        Mailbox inbox = n1.openMailbox("large");
        Mailbox outbox = n0.openMailbox("sender");
        outbox.send(1, "large", data).get(WAIT_SECONDS, SECONDS);
        assertArrayEquals(data, inbox.receive(WAIT_SECONDS, SECONDS).payload());
        assertMessageHas(assertThrows(IllegalArgumentException.class, () -> outbox.send(1, "large", new byte[max + 1])),
                "bytes=" + (max + 1), "max=" + max);
    }

    // ---- mailboxes ---------------------------------------------------------------------------

    @Test
    void messagesFromEachSenderArriveInSendOrder() throws Exception {
        int count = 10_000;
        Mailbox inbox = n0.openMailbox("inbox");
        List<Future<List<CompletableFuture<Void>>>> senders = new ArrayList<>();
        for (Fabric sender : List.of(n1, n2)) {
            Mailbox outbox = sender.openMailbox("outbox");
            senders.add(pool.submit(() -> {
                List<CompletableFuture<Void>> acks = new ArrayList<>(count);
                byte[] payload = new byte[4]; // reused: send must copy it
                for (int i = 0; i < count; i++) {
                    ByteBuffer.wrap(payload).putInt(0, i);
                    acks.add(outbox.send(0, "inbox", payload));
                }
                return acks;
            }));
        }
        List<List<Integer>> seen = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (int i = 0; i < 2 * count; i++) {
            Message message = inbox.receive(WAIT_SECONDS, SECONDS);
            assertTrue(message != null, "message " + i + " never arrived");
            assertEquals("outbox", message.fromMailbox());
            seen.get(message.fromNode()).add(ByteBuffer.wrap(message.payload()).getInt());
        }
        for (Future<List<CompletableFuture<Void>>> sender : senders) {
            CompletableFuture.allOf(sender.get(WAIT_SECONDS, SECONDS).toArray(new CompletableFuture<?>[0]))
                    .get(WAIT_SECONDS, SECONDS);
        }
        assertInSequence(seen.get(1), count, "from node 1");
        assertInSequence(seen.get(2), count, "from node 2");
        assertTrue(seen.get(0).isEmpty());
        assertEquals(null, inbox.poll(), "nothing more");
    }

    private static void assertInSequence(List<Integer> seen, int count, String what) {
        for (int i = 0; i < Math.min(count, seen.size()); i++) {
            if (seen.get(i) != i) {
                fail(what + ": message " + seen.get(i) + " arrived in position " + i + "; around it: "
                        + seen.subList(Math.max(0, i - 3), Math.min(seen.size(), i + 4)));
            }
        }
        assertEquals(count, seen.size(), what + ": messages received");
    }

    /** Whether this implementation's mailboxes hand messages over on arrival ({@link Mailbox#handOnArrival}); true unless overridden. */
    protected boolean handsOnArrival() {
        return true;
    }

    @Test
    void messagesTakenOnArrivalSkipTheQueueAndTheRestArriveInSendOrder() throws Exception {
        int count = 1_000;
        Mailbox inbox = n0.openMailbox("arrivals");
        List<Integer> taken = java.util.Collections.synchronizedList(new ArrayList<>());
        boolean hands = inbox.handOnArrival(message -> {
            int i = ByteBuffer.wrap(message.payload()).getInt();
            if (i % 100 == 50) {
                throw new IllegalStateException("a handler that fails drops its message: " + i);
            }
            return i % 2 == 1 && taken.add(i);
        });
        assertEquals(handsOnArrival(), hands, "whether " + n0 + "'s mailboxes hand messages over on arrival");
        Mailbox outbox = n1.openMailbox("outbox");
        byte[] payload = new byte[4];
        for (int i = 0; i < count; i++) {
            ByteBuffer.wrap(payload).putInt(0, i);
            outbox.send(0, "arrivals", payload).get(WAIT_SECONDS, SECONDS);
            if (hands && i % 2 == 1) {
                assertTrue(taken.contains(i), "message " + i + " was taken by the time its send completed");
            }
        }
        List<Integer> received = new ArrayList<>();
        for (Message m = inbox.receive(hands ? 100 : WAIT_SECONDS * 1000L, java.util.concurrent.TimeUnit.MILLISECONDS); m != null;
             m = inbox.receive(100, java.util.concurrent.TimeUnit.MILLISECONDS)) {
            received.add(ByteBuffer.wrap(m.payload()).getInt());
        }
        List<Integer> expectTaken = new ArrayList<>();
        List<Integer> expectReceived = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            if (!hands) {
                expectReceived.add(i);
            } else if (i % 2 == 1 && i % 100 != 50) {
                expectTaken.add(i);
            } else if (i % 2 == 0 && i % 100 != 50) {
                expectReceived.add(i);
            }
        }
        assertEquals(expectTaken, taken);
        assertEquals(expectReceived, received);
    }

    @Test
    void aMessageNamesItsSenderSoTheReceiverCanAnswer() throws Exception {
        Mailbox server = n1.openMailbox("server");
        Mailbox client = n2.openMailbox("client-7");
        client.send(1, "server", "ping".getBytes(UTF_8)).get(WAIT_SECONDS, SECONDS);
        Message request = server.receive(WAIT_SECONDS, SECONDS);
        assertEquals(2, request.fromNode());
        assertEquals("client-7", request.fromMailbox());
        assertEquals("ping", new String(request.payload(), UTF_8));
        server.send(request.fromNode(), request.fromMailbox(), "pong".getBytes(UTF_8)).get(WAIT_SECONDS, SECONDS);
        Message reply = client.receive(WAIT_SECONDS, SECONDS);
        assertEquals(1, reply.fromNode());
        assertEquals("server", reply.fromMailbox());
        assertEquals("pong", new String(reply.payload(), UTF_8));
        assertEquals(1, server.node());
        assertEquals("server", server.name());
    }

    @Test
    void aNodeMayMessageItselfAndEmptyPayloadsArrive() throws Exception {
        Mailbox self = n0.openMailbox("self");
        self.send(0, "self", new byte[0]).get(WAIT_SECONDS, SECONDS);
        Message message = self.poll();
        assertEquals(0, message.fromNode());
        assertEquals(0, message.payload().length);
    }

    @Test
    void receiveWaitsForAMessageOrTimesOutWithNull() throws Exception {
        Mailbox inbox = n0.openMailbox("waiting");
        Mailbox outbox = n1.openMailbox("later");
        assertEquals(null, inbox.receive(10, java.util.concurrent.TimeUnit.MILLISECONDS));
        assertEquals(null, inbox.poll());
        Future<Message> waiting = pool.submit(() -> inbox.receive(WAIT_SECONDS, SECONDS));
        Thread.sleep(50); // real time: the receiver is (most likely) parked in receive when the message comes
        outbox.send(0, "waiting", new byte[] {5}).get(WAIT_SECONDS, SECONDS);
        assertArrayEquals(new byte[] {5}, waiting.get(WAIT_SECONDS, SECONDS).payload());
    }

    @Test
    void sendingWhereNoMailboxListensFailsNamingNodeAndMailbox() throws Exception {
        Mailbox outbox = n0.openMailbox("outbox");
        n1.openMailbox("elsewhere");
        assertMessageHas(failure(DeliveryException.class, outbox.send(1, "nobody", new byte[1])),
                "no such mailbox", "node=1", "mailbox=nobody");
        assertMessageHas(failure(DeliveryException.class, outbox.send(500, "nobody", new byte[1])), "node=500",
                "mailbox=nobody");
        assertMessageHas(failure(DeliveryException.class, outbox.send(-1, "nobody", new byte[1])), "node=-1");
        outbox.send(1, "elsewhere", new byte[1]).get(WAIT_SECONDS, SECONDS); // the connection still works
    }

    @Test
    void mailboxNamesAreCheckedAndUniquePerNode() {
        Mailbox first = n0.openMailbox("worker");
        assertMessageHas(assertThrows(IllegalStateException.class, () -> n0.openMailbox("worker")), "node=0",
                "mailbox=worker");
        assertEquals("worker", n1.openMailbox("worker").name(), "names are per node");
        assertThrows(IllegalArgumentException.class, () -> n0.openMailbox(""));
        String tooLong = "m".repeat(Fabric.MAX_MAILBOX_NAME_BYTES + 1);
        assertMessageHas(assertThrows(IllegalArgumentException.class, () -> n0.openMailbox(tooLong)), "bytes=256");
        assertEquals(Fabric.MAX_MAILBOX_NAME_BYTES, n0.openMailbox("m".repeat(255)).name().length());
        assertThrows(NullPointerException.class, () -> n0.openMailbox(null));
        assertMessageHas(assertThrows(IllegalArgumentException.class, () -> n0.openMailbox("tiny", 0)), "capacity=0");
        assertThrows(IllegalArgumentException.class, () -> first.send(1, tooLong, new byte[1]));
        assertThrows(IllegalArgumentException.class, () -> first.send(1, "", new byte[1]));
        assertThrows(NullPointerException.class, () -> first.send(1, "worker", null));
    }

    @Test
    void aFullMailboxRefusesMessagesUntilSomeAreReceived() throws Exception {
        Mailbox small = n1.openMailbox("small", 2);
        Mailbox outbox = n0.openMailbox("outbox");
        outbox.send(1, "small", new byte[] {1}).get(WAIT_SECONDS, SECONDS);
        outbox.send(1, "small", new byte[] {2}).get(WAIT_SECONDS, SECONDS);
        assertMessageHas(failure(DeliveryException.class, outbox.send(1, "small", new byte[] {3})), "full",
                "node=1", "mailbox=small", "capacity=2");
        assertArrayEquals(new byte[] {1}, small.poll().payload());
        outbox.send(1, "small", new byte[] {4}).get(WAIT_SECONDS, SECONDS);
        assertArrayEquals(new byte[] {2}, small.poll().payload());
        assertArrayEquals(new byte[] {4}, small.poll().payload());
    }

    @Test
    void aMessageLeftOnArrivalThatAFullMailboxRefusesIsReportedNotQueued() throws Exception {
        Mailbox small = n1.openMailbox("small", 1);
        List<Integer> left = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Integer> notQueued = java.util.Collections.synchronizedList(new ArrayList<>());
        boolean hands = small.handOnArrival(new Mailbox.Arrival() {
            @Override
            public boolean take(Message message) {
                left.add((int) message.payload()[0]);
                return false;
            }

            @Override
            public void notQueued(Message message) {
                notQueued.add((int) message.payload()[0]);
            }
        });
        Mailbox outbox = n0.openMailbox("outbox");
        outbox.send(1, "small", new byte[] {1}).get(WAIT_SECONDS, SECONDS);
        assertMessageHas(failure(DeliveryException.class, outbox.send(1, "small", new byte[] {2})), "full", "capacity=1");
        assertEquals(hands ? List.of(1, 2) : List.of(), left, "offered on arrival");
        assertEquals(hands ? List.of(2) : List.of(), notQueued, "left, then refused by the full mailbox");
        assertArrayEquals(new byte[] {1}, small.poll().payload());
    }

    @Test
    void aClosedMailboxDropsWhatItHeldAndItsNameMayBeReopened() throws Exception {
        Mailbox inbox = n1.openMailbox("closing");
        Mailbox outbox = n0.openMailbox("outbox");
        outbox.send(1, "closing", new byte[] {1}).get(WAIT_SECONDS, SECONDS);
        inbox.close();
        inbox.close();
        assertMessageHas(assertThrows(IllegalStateException.class, inbox::poll), "mailbox is closed", "mailbox=closing");
        assertThrows(IllegalStateException.class, () -> inbox.receive(1, SECONDS));
        assertThrows(IllegalStateException.class, () -> inbox.send(0, "outbox", new byte[1]));
        assertMessageHas(failure(DeliveryException.class, outbox.send(1, "closing", new byte[] {2})), "node=1",
                "mailbox=closing");
        Mailbox reopened = n1.openMailbox("closing");
        outbox.send(1, "closing", new byte[] {3}).get(WAIT_SECONDS, SECONDS);
        assertArrayEquals(new byte[] {3}, reopened.receive(WAIT_SECONDS, SECONDS).payload(), "the old message is gone");
    }

    // ---- peers and closing -------------------------------------------------------------------

    @Test
    void aClosedNodeLooksDeadToTheOthers() throws Exception {
        n1.register("r", 8);
        n1.openMailbox("inbox");
        Mailbox outbox = n0.openMailbox("outbox");
        Region handle = n0.connect(1, "r");
        outbox.send(1, "inbox", new byte[1]).get(WAIT_SECONDS, SECONDS);
        n1.close();
        RegionAccessException dead = assertThrows(RegionAccessException.class, () -> handle.readLong(0));
        assertMessageHas(dead, "node=1", "region=r");
        assertInstanceOf(IllegalStateException.class, dead);
        assertThrows(RegionAccessException.class, () -> handle.writeLong(0, 1));
        assertThrows(RegionAccessException.class, () -> handle.compareAndSwap(0, 0, 1));
        assertThrows(RegionAccessException.class, () -> handle.fetchAdd(0, 1));
        assertThrows(RegionAccessException.class, () -> handle.read(0, new byte[8], 0, 8));
        assertThrows(RegionAccessException.class, () -> handle.write(0, new byte[8], 0, 8));
        assertMessageHas(failure(RegionAccessException.class, handle.readLongAsync(0)), "node=1", "region=r");
        assertMessageHas(failure(RegionAccessException.class, handle.fetchAddAsync(0, 1)), "node=1");
        Batch batch = n0.batch();
        CompletableFuture<Long> batched = batch.readLong(handle, 0);
        assertThrows(ExecutionException.class, () -> batch.flush().get(WAIT_SECONDS, SECONDS));
        assertMessageHas(failure(RegionAccessException.class, batched), "node=1");
        assertMessageHas(assertThrows(RegionAccessException.class, () -> n2.connect(1, "r")), "node=1");
        assertMessageHas(failure(DeliveryException.class, outbox.send(1, "inbox", new byte[1])), "node=1", "mailbox=inbox");
        assertEquals(1, handle.node(), "a dead handle still says what it was");
    }

    @Test
    void peersInContactAreToldOnceWhenANodeCloses() throws Exception {
        n1.register("r", 8);
        List<PeerLoss> heardBy0 = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<PeerLoss> heardBy2 = new java.util.concurrent.CopyOnWriteArrayList<>();
        n0.onPeerLost((node, reason) -> heardBy0.add(new PeerLoss(node, reason)));
        n2.onPeerLost((node, reason) -> {
            throw new IllegalStateException("a failing listener must not stop the others");
        });
        n2.onPeerLost((node, reason) -> heardBy2.add(new PeerLoss(node, reason)));
        assertEquals(0, n0.connect(1, "r").readLong(0)); // both are in contact with node 1
        assertEquals(0, n2.connect(1, "r").readLong(0));
        n1.close();
        awaitTrue(() -> !heardBy0.isEmpty() && !heardBy2.isEmpty(), "nodes 0 and 2 hear that node 1 is lost");
        Thread.sleep(200); // time for a duplicate to show up
        assertEquals(1, heardBy0.size(), "told once: " + heardBy0);
        assertEquals(1, heardBy2.size(), "told once: " + heardBy2);
        assertEquals(1, heardBy0.get(0).node());
        assertTrue(!heardBy0.get(0).reason().isEmpty());
        assertThrows(NullPointerException.class, () -> n0.onPeerLost(null));
    }

    /** One call of a {@link PeerListener}. */
    protected record PeerLoss(int node, String reason) {
    }

    @Test
    void aClosedFabricRefusesEveryOperation() throws Exception {
        n0.register("peer", 8);
        Region own = n1.register("own", 8);
        Region peer = n1.connect(0, "peer");
        Mailbox mailbox = n1.openMailbox("mine");
        Batch batch = n1.batch();
        n1.close();
        String closed = "fabric is closed: node=1";
        assertEquals(closed, assertThrows(IllegalStateException.class, () -> n1.register("x", 8)).getMessage());
        assertEquals(closed, assertThrows(IllegalStateException.class, () -> n1.connect(0, "peer")).getMessage());
        assertEquals(closed, assertThrows(IllegalStateException.class, () -> n1.batch()).getMessage());
        assertEquals(closed, assertThrows(IllegalStateException.class, () -> n1.openMailbox("other")).getMessage());
        assertEquals(closed, assertThrows(IllegalStateException.class, () -> n1.onPeerLost((n, r) -> { })).getMessage());
        assertEquals(closed, assertThrows(IllegalStateException.class, () -> mailbox.send(0, "x", new byte[1])).getMessage());
        assertEquals(closed, assertThrows(IllegalStateException.class, mailbox::poll).getMessage());
        assertEquals(closed, assertThrows(IllegalStateException.class, () -> peer.readLong(0)).getMessage());
        assertEquals(closed, assertThrows(IllegalStateException.class, () -> peer.readLongAsync(0)).getMessage());
        assertEquals(closed, assertThrows(IllegalStateException.class, () -> peer.write(0, new byte[1], 0, 1)).getMessage());
        assertEquals(closed, assertThrows(IllegalStateException.class, () -> batch.readLong(peer, 0)).getMessage());
        assertEquals(closed, assertThrows(IllegalStateException.class, batch::flush).getMessage());
        assertThrows(IllegalStateException.class, () -> own.fetchAdd(0, 1));
        assertEquals(1, n1.localNode());
        assertEquals(0, n2.connect(0, "peer").readLong(0), "the others go on");
    }

    @Test
    void closingWakesAReceiverThatIsWaiting() throws Exception {
        Mailbox inbox = n1.openMailbox("blocked");
        CountDownLatch waiting = new CountDownLatch(1);
        Future<Message> receiver = pool.submit(() -> {
            waiting.countDown();
            return inbox.receive(WAIT_SECONDS, SECONDS);
        });
        assertTrue(waiting.await(WAIT_SECONDS, SECONDS));
        Thread.sleep(50); // real time: the receiver is (most likely) parked in receive when the fabric closes
        n1.close();
        ExecutionException woken = assertThrows(ExecutionException.class, () -> receiver.get(WAIT_SECONDS, SECONDS));
        assertEquals("fabric is closed: node=1", assertInstanceOf(IllegalStateException.class, woken.getCause()).getMessage());
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

    /**
     * A synchronous call made in a stage that depends on an operation of a batch of node 0: refused
     * or served, as {@link #ownThreadCalls} promises, where the reply completes the operation.
     * The stage is attached before the flush, so it runs where the reply arrives, unless the reply
     * comes so fast that this thread, building the flush's joint future, runs it (CompletableFuture
     * lets any thread that touches a completed future run its dependents). There it must be served,
     * and the scenario is tried again until the stage runs on another thread.
     */
    private void assertOwnThreadCall(Function<Batch, CompletableFuture<Long>> operation,
            Function<Long, Long> stage, long served, String... named) throws Exception {
        Thread caller = Thread.currentThread();
        for (int attempt = 1; ; attempt++) {
            Thread[] ranOn = new Thread[1];
            Batch batch = n0.batch();
            CompletableFuture<Long> outcome = operation.apply(batch).thenApply(value -> {
                ranOn[0] = Thread.currentThread();
                return stage.apply(value);
            });
            batch.flush();
            outcome.handle((value, failure) -> null).get(WAIT_SECONDS, SECONDS);
            if (ranOn[0] != caller || ownThreadCalls() == OwnThreadCalls.SERVED) {
                assertOwnThreadCall(outcome, served, named);
                return;
            }
            assertEquals(served, outcome.get(), "a stage run on the flushing thread may wait for a reply");
            assertTrue(attempt < 50, "the dependent stage ran on the flushing thread " + attempt + " times");
        }
    }

    /** A synchronous call made on a thread the fabric chose: refused or served, as {@link #ownThreadCalls} promises. */
    private void assertOwnThreadCall(CompletableFuture<Long> outcome, long served, String... named) throws Exception {
        if (ownThreadCalls() == OwnThreadCalls.REFUSED) {
            IllegalStateException refused = failure(IllegalStateException.class, outcome);
            assertMessageHas(refused, "synchronous", "would block", "asynchronous form");
            assertMessageHas(refused, named);
        } else {
            assertEquals(served, outcome.get(WAIT_SECONDS, SECONDS));
        }
    }

    private static byte[] nativeBytes(long value) {
        return ByteBuffer.allocate(Long.BYTES).order(ByteOrder.nativeOrder()).putLong(0, value).array();
    }

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

    /** Polls {@code condition} until it holds, failing with {@code what} after the wait limit. */
    protected static void awaitTrue(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + SECONDS.toNanos(WAIT_SECONDS);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting: " + what);
            Thread.sleep(5);
        }
    }
}
