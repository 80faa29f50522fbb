package io.gtran.txn.durable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PartitionLog}'s order guarantee under many threads: an append that returned (or whose
 * future completed) before another was called gets the smaller index; the index is given before
 * append returns; the replay follows the index order.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PartitionLogOrderTest {
    private static final int THREADS = 8;
    private static final int PER_THREAD = 1000;

    @TempDir
    Path dir;

    /** One append as its thread saw it; the tickets come from one counter, so they order events across threads. */
    private static final class Append {
        final int thread;
        final int seq;
        final long calledTicket;
        long returnedTicket;
        /** Ticket taken when the future completed (on Ratis' thread). */
        volatile long completedTicket = Long.MAX_VALUE;
        long lastIndexAtReturn;
        CompletableFuture<Long> future;
        /** Done once {@link #completedTicket} is taken. */
        CompletableFuture<Void> completion;
        long index;

        Append(int thread, int seq, long calledTicket) {
            this.thread = thread;
            this.seq = seq;
            this.calledTicket = calledTicket;
        }

        /** The earliest moment another thread could know this append had happened. */
        long knownTicket() {
            return Math.min(returnedTicket, completedTicket);
        }
    }

    @Test
    void anAppendThatReturnedBeforeAnotherWasCalledGetsTheSmallerIndexAndIsReplayedFirst() throws Exception {
        AtomicLong tickets = new AtomicLong();
        List<Append> appends = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try (PartitionLog log = PartitionLog.open(dir, PartitionLogTest.IDENTITY, PartitionLogTest::noRecordExpected)) {
            List<Future<List<Append>>> threads = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                threads.add(pool.submit(() -> appendInTurn(log, thread, tickets)));
            }
            for (Future<List<Append>> thread : threads) {
                appends.addAll(thread.get(60, TimeUnit.SECONDS));
            }
            for (Append a : appends) {
                a.index = a.future.get(30, TimeUnit.SECONDS);
                a.completion.get(30, TimeUnit.SECONDS);
                // The index was given before append returned: the log already reached it then.
                assertTrue(a.index <= a.lastIndexAtReturn, "index " + a.index + " > last index " + a.lastIndexAtReturn
                        + " when append returned");
            }
        } finally {
            pool.shutdownNow();
        }
        assertIndexesFollowWhatWasKnown(appends);

        appends.sort(Comparator.comparingLong(a -> a.index));
        List<long[]> replayed = new ArrayList<>();
        PartitionLog.open(dir, PartitionLogTest.IDENTITY, record -> replayed.add(decode(record))).close();
        assertEquals(appends.size(), replayed.size(), "records replayed");
        for (int i = 0; i < appends.size(); i++) {
            Append a = appends.get(i);
            assertEquals(a.thread + "/" + a.seq, replayed.get(i)[0] + "/" + replayed.get(i)[1], "replayed record " + i);
        }
    }

    /** One thread's appends, one after another; it waits for some futures, so some calls follow a completion. */
    private static List<Append> appendInTurn(PartitionLog log, int thread, AtomicLong tickets) throws Exception {
        Random random = new Random(PartitionLogTest.SEED + thread);
        List<Append> mine = new ArrayList<>();
        for (int seq = 0; seq < PER_THREAD; seq++) {
            Append a = new Append(thread, seq, tickets.incrementAndGet());
            a.future = log.append(encode(thread, seq, random.nextInt(400)));
            a.returnedTicket = tickets.incrementAndGet();
            a.lastIndexAtReturn = log.lastIndex();
            a.completion = a.future.thenRun(() -> a.completedTicket = tickets.incrementAndGet());
            if (random.nextInt(10) == 0) {
                a.future.get(30, TimeUnit.SECONDS);
            }
            mine.add(a);
        }
        return mine;
    }

    /**
     * For every pair: if a returned or completed before b was called, a's index is smaller. Checked
     * in one sweep: going down the indexes, the earliest moment any append with a higher index was
     * known must be after b was called.
     */
    private static void assertIndexesFollowWhatWasKnown(List<Append> appends) {
        List<Append> byIndex = new ArrayList<>(appends);
        byIndex.sort(Comparator.comparingLong(a -> a.index));
        for (int i = 1; i < byIndex.size(); i++) {
            assertTrue(byIndex.get(i).index > byIndex.get(i - 1).index, "two appends got index " + byIndex.get(i).index);
        }
        long earliestKnownAbove = Long.MAX_VALUE;
        Append earliestAbove = null;
        for (int i = byIndex.size() - 1; i >= 0; i--) {
            Append b = byIndex.get(i);
            if (earliestKnownAbove < b.calledTicket) {
                throw new AssertionError("append " + earliestAbove.thread + "/" + earliestAbove.seq + " (index "
                        + earliestAbove.index + ") was known at ticket " + earliestKnownAbove + ", before append " + b.thread
                        + "/" + b.seq + " was called at ticket " + b.calledTicket + ", yet got the larger index");
            }
            if (b.knownTicket() < earliestKnownAbove) {
                earliestKnownAbove = b.knownTicket();
                earliestAbove = b;
            }
        }
        // Each thread's appends, sequential, are in their order.
        for (int i = 1; i < appends.size(); i++) {
            Append before = appends.get(i - 1);
            Append after = appends.get(i);
            if (before.thread == after.thread) {
                assertTrue(before.index < after.index, "thread " + after.thread + ": append " + after.seq + " before "
                        + before.seq);
            }
        }
    }

    private static byte[] encode(int thread, int seq, int padding) {
        return ByteBuffer.allocate(8 + padding).putInt(thread).putInt(seq).array();
    }

    private static long[] decode(byte[] record) {
        ByteBuffer buffer = ByteBuffer.wrap(record);
        return new long[] {buffer.getInt(), buffer.getInt()};
    }
}
