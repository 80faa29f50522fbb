package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.Batch;
import io.gtran.rdma.Fabric;
import io.gtran.rdma.ForwardingFabric;
import io.gtran.rdma.ForwardingRegion;
import io.gtran.rdma.InJvmCluster;
import io.gtran.rdma.Region;
import io.gtran.txn.common.TxnWords;
import io.gtran.txn.local.StatusTable;
import io.gtran.txn.local.StatusTableDescriptor;
import io.gtran.txn.local.TxnStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Reading another node's status table: one round trip (one batch) per status, and the entry's id
 * read on both sides of the status word still tells a reused entry from the one asked about.
 */
@Timeout(30)
class StatusTableTest {
    private final InJvmCluster cluster = new InJvmCluster();
    private CountingFabric node0;
    private StatusTable reader;
    private StatusTable owner;

    @BeforeEach
    void start() {
        node0 = new CountingFabric(cluster.join(0));
        owner = new StatusTable(cluster.join(1), 4);
        reader = new StatusTable(node0, 4);
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    @Test
    void aRemoteStatusIsReadInOneBatchOfThreeReads() {
        long txnId = owner.allocate(0);
        reader.read(txnId); // connects to node 1's table
        node0.reset();
        assertEquals(StatusTableDescriptor.statusWord(TxnStatus.EXECUTING, 0), reader.read(txnId));
        assertEquals(1, node0.flushes, "one batch: one round trip");
        assertEquals(3, node0.batched, "the id, the status, the id again");
        assertEquals(List.of("op", "fence", "op", "fence", "op"), node0.added, "each read samples memory after the one before");
        assertEquals(0, node0.unbatched, "no synchronous reads besides");

        owner.move(txnId, TxnStatus.EXECUTING, 0, TxnStatus.VALIDATING, StatusTableDescriptor.PENDING_COMMIT_TIME);
        assertEquals(StatusTableDescriptor.statusWord(TxnStatus.VALIDATING, StatusTableDescriptor.PENDING_COMMIT_TIME), reader.read(txnId));
        owner.release(txnId);
        assertEquals(StatusTable.GONE, reader.read(txnId), "a released entry");
        assertEquals(3, node0.flushes);
        assertEquals(0, node0.unbatched);
    }

    @Test
    void aFinalStatusIsReadOnceAndAnsweredFromMemoryAfter() {
        long validating = owner.allocate(0);
        owner.move(validating, TxnStatus.EXECUTING, 0, TxnStatus.VALIDATING, 5);
        long committed = owner.allocate(0);
        owner.move(committed, TxnStatus.EXECUTING, 0, TxnStatus.VALIDATING, 7);
        owner.move(committed, TxnStatus.VALIDATING, 7, TxnStatus.COMMITTED, 7);
        long aborted = owner.allocate(0);
        owner.move(aborted, TxnStatus.EXECUTING, 0, TxnStatus.ABORTED, 0);
        reader.read(validating); // connects to node 1's table
        node0.reset();
        for (int i = 0; i < 2; i++) {
            assertEquals(StatusTableDescriptor.statusWord(TxnStatus.VALIDATING, 5), reader.read(validating));
            assertEquals(StatusTableDescriptor.statusWord(TxnStatus.COMMITTED, 7), reader.read(committed));
            assertEquals(StatusTableDescriptor.statusWord(TxnStatus.ABORTED, 0), reader.read(aborted));
        }
        assertEquals(4, node0.flushes, "a live status each time, a final one once");
        owner.release(committed);
        assertEquals(StatusTableDescriptor.statusWord(TxnStatus.COMMITTED, 7), reader.read(committed),
                "still its outcome once released (its words then hold its commit time)");
        assertEquals(4, node0.flushes);
    }

    @Test
    void aCommitToldByItsCoordinatorIsAnsweredWithoutARead() {
        long remote = owner.allocate(0);
        reader.read(remote); // connects to node 1's table
        node0.reset();
        reader.learnCommitted(remote, 9);
        assertEquals(StatusTableDescriptor.statusWord(TxnStatus.COMMITTED, 9), reader.read(remote));
        assertEquals(0, node0.flushes);

        long own = reader.allocate(0);
        reader.learnCommitted(own, 9);
        assertEquals(StatusTableDescriptor.statusWord(TxnStatus.EXECUTING, 0), reader.read(own), "its own table is the truth");
        long other = owner.allocate(0);
        reader.learnCommitted(other, StatusTableDescriptor.PENDING_COMMIT_TIME);
        reader.learnCommitted(other, -1);
        assertEquals(StatusTableDescriptor.statusWord(TxnStatus.EXECUTING, 0), reader.read(other), "no commit takes those times");
        assertEquals(1, node0.flushes);
    }

    @Test
    void anEntryReusedWhileItIsReadIsGone() {
        long txnId = owner.allocate(0);
        for (int other = 1; other < 4; other++) {
            owner.allocate(0); // the other entries in use: the next transaction takes this one
        }
        reader.read(txnId);
        // between the batch's first read (the id, still this transaction's) and the status word,
        // the owner finishes the transaction and gives the entry to a new one
        long[] next = new long[1];
        node0.afterFirstOperation = () -> {
            owner.move(txnId, TxnStatus.EXECUTING, 0, TxnStatus.ABORTED, 0);
            owner.release(txnId);
            next[0] = owner.allocate(0);
        };
        assertEquals(StatusTable.GONE, reader.read(txnId), "the status read was the new transaction's");
        assertEquals(TxnWords.slot(txnId), TxnWords.slot(next[0]), "the same entry, reused");
        assertEquals(StatusTableDescriptor.statusWord(TxnStatus.EXECUTING, 0), reader.read(next[0]));
    }

    @Test
    void transactionsTakeTheEntriesInTurnSoEverySlotsSequenceGrowsAlike() {
        List<Integer> slots = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            long txnId = owner.allocate(0);
            slots.add(TxnWords.slot(txnId));
            owner.move(txnId, TxnStatus.EXECUTING, 0, TxnStatus.ABORTED, 0);
            owner.release(txnId);
        }
        assertEquals(List.of(0, 1, 2, 3, 0, 1, 2, 3), slots);
    }

    @Test
    void aSlotWhoseSequencesAreUsedUpIsRetiredAndNoIdIsGivenTwice() {
        owner.startSequencesAbove(TxnWords.SEQUENCE_MASK - 2);
        List<Long> sequences = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            long txnId = owner.allocate(0);
            sequences.add(TxnWords.sequence(txnId));
            owner.release(txnId);
        }
        long last = TxnWords.SEQUENCE_MASK;
        assertEquals(List.of(last - 1, last - 1, last - 1, last - 1, last, last, last, last), sequences);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> owner.allocate(0));
        assertTrue(e.getMessage().contains("used up its transaction ids"), e.getMessage());
        assertEquals(0, owner.inUse());
    }

    @Test
    void anEntryTakingItsBeginTimeHoldsTheWatermarkAtItsFloorAndGivesNoFoldCuts() {
        long synced = 1_795_000_000_000_000L << 10; // a synchronised clock's timestamp: above 2^60
        long txnId = owner.allocate(synced);
        assertEquals(synced, reader.minActiveBeginTime(1, Long.MAX_VALUE), "the floor, read remotely, not 0");
        assertEquals(synced, owner.minActiveBeginTime(1, Long.MAX_VALUE), "and by its owner");
        assertEquals(synced - 5, owner.minActiveBeginTime(1, synced - 5), "a bound below the floor");
        assertNull(owner.activeBeginTimes(1, Long.MAX_VALUE), "its begin time may fall anywhere above the floor");
        owner.publishBeginTime(txnId, synced + 9);
        assertEquals(synced + 9, reader.minActiveBeginTime(1, Long.MAX_VALUE));
        assertArrayEquals(new long[] {synced + 9}, owner.activeBeginTimes(1, TxnWords.INFINITY));
        assertThrows(IllegalArgumentException.class, () -> owner.allocate(-1));
    }

    @Test
    void thisNodesOwnStatusIsReadWithoutABatch() {
        long txnId = reader.allocate(0);
        node0.reset();
        assertEquals(StatusTableDescriptor.statusWord(TxnStatus.EXECUTING, 0), reader.read(txnId));
        assertEquals(0, node0.flushes, "its own memory: nothing to save");
    }

    @Test
    void everyTimestampAWordHoldsFitsTheStatusWordAndNoneIsGone() {
        long synced = (1_795_000_000_000_000L << 10) | 1023; // a synchronised clock's timestamp in 2026: above 2^60
        long txnId = owner.allocate(0);
        owner.move(txnId, TxnStatus.EXECUTING, 0, TxnStatus.VALIDATING, StatusTableDescriptor.PENDING_COMMIT_TIME);
        owner.move(txnId, TxnStatus.VALIDATING, StatusTableDescriptor.PENDING_COMMIT_TIME, TxnStatus.VALIDATING, synced);
        long word = reader.read(txnId);
        assertEquals(TxnStatus.VALIDATING, StatusTableDescriptor.status(word));
        assertEquals(synced, StatusTableDescriptor.commitTime(word));
        owner.move(txnId, TxnStatus.VALIDATING, synced, TxnStatus.ABORTED, synced);
        assertEquals(TxnStatus.ABORTED, StatusTableDescriptor.status(reader.read(txnId)));
        long largest = TxnWords.INFINITY - 1; // the largest commit time a version word can carry
        for (TxnStatus status : TxnStatus.values()) {
            assertEquals(largest, StatusTableDescriptor.commitTime(StatusTableDescriptor.statusWord(status, largest)));
            assertEquals(status, StatusTableDescriptor.status(StatusTableDescriptor.statusWord(status, largest)));
            if (status != TxnStatus.VALIDATING) {
                TxnStatus s = status;
                assertThrows(IllegalArgumentException.class,
                        () -> StatusTableDescriptor.statusWord(s, StatusTableDescriptor.PENDING_COMMIT_TIME),
                        "pending belongs to VALIDATING, so no status word is GONE (-1)");
            }
        }
        assertNotEquals(StatusTable.GONE, StatusTableDescriptor.statusWord(TxnStatus.VALIDATING,
                StatusTableDescriptor.PENDING_COMMIT_TIME));
    }

    /**
     * Node 0's fabric, counting the region operations of handles it connected (one count per
     * synchronous or asynchronous call) apart from those issued through its batches, and the flushes.
     * Its batches apply their operations in the order added, and may run a hook after the first.
     */
    private static final class CountingFabric extends ForwardingFabric {
        int flushes;
        int batched;
        int unbatched;
        List<String> added = new ArrayList<>(); // the last flushed batch: "op" or "fence", in order
        Runnable afterFirstOperation;

        CountingFabric(Fabric delegate) {
            super(delegate);
        }

        void reset() {
            flushes = 0;
            batched = 0;
            unbatched = 0;
        }

        @Override
        public Region connect(int node, String name) {
            return new CountingRegion(super.connect(node, name));
        }

        private final class CountingRegion extends ForwardingRegion {
            private final Region inner;

            CountingRegion(Region inner) {
                super(inner);
                this.inner = inner;
            }

            @Override
            protected Region target() {
                unbatched++;
                return inner;
            }
        }

        @Override
        public Batch batch() {
            return new OrderedBatch();
        }

        /** Operations issued one after the other at flush, on the wrapped handles. */
        private final class OrderedBatch implements Batch {
            private final List<Runnable> ops = new ArrayList<>();
            private final List<String> order = new ArrayList<>();

            private <T> CompletableFuture<T> add(Region region, Function<Region, CompletableFuture<T>> op) {
                Region target = ((CountingRegion) region).inner;
                CompletableFuture<T> result = new CompletableFuture<>();
                order.add("op");
                ops.add(() -> op.apply(target).whenComplete((value, failure) -> {
                    if (failure == null) {
                        result.complete(value);
                    } else {
                        result.completeExceptionally(failure);
                    }
                }).join());
                return result;
            }

            @Override
            public CompletableFuture<Long> readLong(Region region, long offset) {
                return add(region, r -> r.readLongAsync(offset));
            }

            @Override
            public CompletableFuture<Void> writeLong(Region region, long offset, long value) {
                return add(region, r -> r.writeLongAsync(offset, value));
            }

            @Override
            public CompletableFuture<Boolean> compareAndSwap(Region region, long offset, long expected, long value) {
                return add(region, r -> r.compareAndSwapAsync(offset, expected, value));
            }

            @Override
            public CompletableFuture<Long> fetchAdd(Region region, long offset, long delta) {
                return add(region, r -> r.fetchAddAsync(offset, delta));
            }

            @Override
            public CompletableFuture<byte[]> read(Region region, long offset, int length) {
                return add(region, r -> r.readAsync(offset, length));
            }

            @Override
            public CompletableFuture<Void> write(Region region, long offset, byte[] src, int srcOffset, int length) {
                byte[] copy = java.util.Arrays.copyOfRange(src, srcOffset, srcOffset + length);
                return add(region, r -> r.writeAsync(offset, copy, 0, length));
            }

            @Override
            public Batch fence() {
                order.add("fence"); // its operations run one after the other: already in order
                return this;
            }

            @Override
            public int size() {
                return ops.size();
            }

            @Override
            public CompletableFuture<Void> flush() {
                flushes++;
                batched += ops.size();
                added = List.copyOf(order);
                order.clear();
                for (int i = 0; i < ops.size(); i++) {
                    ops.get(i).run();
                    if (i == 0 && afterFirstOperation != null) {
                        Runnable hook = afterFirstOperation;
                        afterFirstOperation = null;
                        hook.run();
                    }
                }
                ops.clear();
                return CompletableFuture.completedFuture(null);
            }
        }
    }
}
