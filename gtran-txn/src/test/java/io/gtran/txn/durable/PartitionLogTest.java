package io.gtran.txn.durable;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PartitionLog}: append, close, reopen and replay; the record limit; appends after close,
 * pending at close and after a failed write. (Each close takes about a second: Ratis' log worker
 * polls its queue once a second; so the tests open few logs.)
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PartitionLogTest {
    static final String IDENTITY = "cluster=test node=0";
    static final long SEED = 20260730L;

    @TempDir
    Path dir;

    @Test
    void recordsAppendedBeforeCloseAreReplayedInLogOrderAtEveryLaterOpen() throws Exception {
        Path fresh = dir.resolve("a/b");
        Random random = new Random(SEED);
        List<byte[]> appended = new ArrayList<>();
        long last;
        try (PartitionLog log = PartitionLog.open(fresh, IDENTITY, PartitionLogTest::noRecordExpected)) {
            last = log.lastIndex();
            for (int i = 0; i < 200; i++) {
                // The empty record, the largest one, and records of random length between.
                int length = i == 0 ? 0 : i == 100 ? PartitionLog.MAX_RECORD_BYTES : random.nextInt(3000);
                byte[] record = new byte[length];
                random.nextBytes(record);
                appended.add(record);
                long index = log.append(record).get(30, TimeUnit.SECONDS);
                assertTrue(index > last, "index " + index + " after " + last);
                assertTrue(log.durableIndex() >= index, "durable index " + log.durableIndex() + " < " + index);
                last = index;
            }
            assertEquals(last, log.lastIndex());
            assertTrue(log.describe().contains(fresh + ": open, last index " + last), log.describe());
        }
        assertEquals(IDENTITY, Files.readString(fresh.resolve(DataDirectory.IDENTITY_FILE), UTF_8).strip());

        List<byte[]> replayed = new ArrayList<>();
        PartitionLog reopened = PartitionLog.open(fresh, IDENTITY, replayed::add);
        assertRecords(appended, replayed);
        byte[] more = "after the reopen".getBytes(UTF_8);
        assertTrue(reopened.append(more).get(10, TimeUnit.SECONDS) > last);
        appended.add(more);
        reopened.close();

        List<byte[]> again = new ArrayList<>();
        PartitionLog.open(fresh, IDENTITY, again::add).close();
        assertRecords(appended, again);
    }

    @Test
    void aRecordAboveTheMaximumIsRefusedAndAnAppendAfterCloseFailsNamingTheDirectory() {
        PartitionLog log = PartitionLog.open(dir, IDENTITY, PartitionLogTest::noRecordExpected);
        IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class,
                () -> log.append(new byte[PartitionLog.MAX_RECORD_BYTES + 1]));
        assertTrue(tooLong.getMessage().contains(dir.toString())
                && tooLong.getMessage().contains("record length=" + (PartitionLog.MAX_RECORD_BYTES + 1)), tooLong.getMessage());
        log.close();
        log.close(); // idempotent
        ExecutionException closed = assertThrows(ExecutionException.class,
                () -> log.append(new byte[1]).get(10, TimeUnit.SECONDS));
        assertTrue(closed.getCause().getMessage().contains(dir.toString())
                && closed.getCause().getMessage().contains("closed"), closed.getCause().getMessage());
        assertTrue(log.describe().contains("closed"), log.describe());
    }

    @Test
    void aBurstOfAppendsBeyondEveryLimitInFlightIsTakenWhole() throws Exception {
        int threads = 4;
        int perThread = 3 * PartitionLog.IN_FLIGHT_UNITS / threads; // above our room and Ratis' default limit (4096)
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<List<CompletableFuture<Long>>>> bursts = new ArrayList<>();
        try (PartitionLog log = PartitionLog.open(dir, IDENTITY, PartitionLogTest::noRecordExpected)) {
            for (int t = 0; t < threads; t++) {
                bursts.add(pool.submit(() -> {
                    List<CompletableFuture<Long>> appends = new ArrayList<>();
                    for (int i = 0; i < perThread; i++) {
                        appends.add(log.append(new byte[100])); // not waited for: a burst
                    }
                    return appends;
                }));
            }
            int taken = 0;
            for (Future<List<CompletableFuture<Long>>> burst : bursts) {
                for (CompletableFuture<Long> append : burst.get(60, TimeUnit.SECONDS)) {
                    assertTrue(append.get(60, TimeUnit.SECONDS) > 0);
                    taken++;
                }
            }
            assertEquals(threads * perThread, taken);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void closeCompletesEveryPendingAppend() throws Exception {
        PartitionLog log = PartitionLog.open(dir, IDENTITY, PartitionLogTest::noRecordExpected);
        List<CompletableFuture<Long>> appends = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            appends.add(log.append(new byte[100]));
        }
        log.close();
        for (CompletableFuture<Long> append : appends) {
            // Each completes: with its index if it was durable before the close, else with an error.
            append.handle((index, error) -> null).get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void afterRatisReportsAFailedWriteEveryAppendFailsNamingTheDirectoryAndCause() throws Exception {
        try (PartitionLog log = PartitionLog.open(dir, IDENTITY, PartitionLogTest::noRecordExpected)) {
            assertTrue(log.append(new byte[10]).get(10, TimeUnit.SECONDS) > 0);
            log.stateMachine().notifyLogFailed(new IOException("No space left on device"), null);
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> log.append(new byte[10]).get(10, TimeUnit.SECONDS));
            assertInstanceOf(IOException.class, e.getCause());
            assertTrue(e.getCause().getMessage().contains(dir.toString())
                    && e.getCause().getMessage().contains("No space left on device"), e.getCause().getMessage());
            assertTrue(log.describe().contains("failed"), log.describe());
        }
    }

    static void assertRecords(List<byte[]> expected, List<byte[]> actual) {
        assertEquals(expected.size(), actual.size(), "records replayed");
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), actual.get(i), "record " + i);
        }
    }

    static void noRecordExpected(byte[] record) {
        throw new AssertionError("no record expected, got one of " + record.length + " bytes");
    }
}
