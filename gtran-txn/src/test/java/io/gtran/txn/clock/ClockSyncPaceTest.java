package io.gtran.txn.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.rdma.Fabric;
import io.gtran.rdma.InJvmCluster;
import io.gtran.txn.agent.HandHost;
import io.gtran.txn.agent.TimeSource;
import io.gtran.txn.membership.HandTime;
import io.gtran.txn.protocol.TestMailboxes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node that takes few timestamps asks the clock master less often: the pause between two
 * requests doubles up to {@value ClockSync#IDLE_PAUSE_MAX_MS} ms below {@value
 * ClockSync#BUSY_TIMESTAMPS_PER_SECOND} timestamps a second, and goes back to the interval as soon
 * as timestamps are taken faster.
 */
class ClockSyncPaceTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private final HandTime time = new HandTime();
    private final InJvmCluster cluster = new InJvmCluster();
    private final List<AutoCloseable> open = new ArrayList<>();
    private final HandHost host = new HandHost(time);

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
        cluster.close();
    }

    @Test
    void fewTimestampsDoubleThePauseUpToTheCapAndManyBringBackTheInterval() {
        assertEquals(20 * MS, ClockSync.nextPause(10 * MS, 0, 10 * MS));
        assertEquals(160 * MS, ClockSync.nextPause(160 * MS, 3, 10 * MS), "3 in 160 ms is under 20 a second");
        assertEquals(10 * MS, ClockSync.nextPause(160 * MS, 4, 10 * MS), "4 in 160 ms is 25 a second");
        assertEquals(10 * MS, ClockSync.nextPause(10 * MS, 1, 10 * MS), "1 in 10 ms is 100 a second");
    }

    @Test
    void anIdleNodeBacksOffAndABusyOneAsksEveryInterval() {
        SyncedClock clock = node(0); // the master: its clock takes timestamps without a reply
        List<Long> pauses = new ArrayList<>();
        long now = time.nanos;
        for (int i = 0; i < 6; i++) {
            long next = host.agent().doWork(now);
            pauses.add((next - now) / MS);
            now = next;
            time.nanos = now;
        }
        assertEquals(List.of(20L, 40L, 80L, 160L, 160L, 160L), pauses);

        for (int i = 0; i < 10; i++) {
            assertNotNull(clock.reserve(), "the master takes a timestamp");
        }
        long next = host.agent().doWork(now);
        assertEquals(10, (next - now) / MS, "ten timestamps in 160 ms: back to the interval");
    }

    /**
     * A node whose timestamp is waited for (cut off from its master, its uncertainty growing) keeps
     * asking every interval however few it took, so it relays to the other members after three.
     */
    @Test
    void aTimestampWaitedForKeepsTheInterval() throws Exception {
        CountDownLatch inNext = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        TimeSource waitable = new TimeSource() {
            @Override
            public long nanos() {
                return time.nanos();
            }

            @Override
            public long wallMicros() {
                return time.wallMicros();
            }

            @Override
            public void pause(long nanos) {
                inNext.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                throw new IllegalStateException("released by the test");
            }
        };
        SyncedClock clock = node(1, waitable); // a follower with no reply yet: next() waits
        long now = time.nanos;
        for (int i = 0; i < 3; i++) {
            now = host.agent().doWork(now);
            time.nanos = now;
        }
        long idlePause = host.agent().doWork(now) - now;
        assertEquals(160 * MS, idlePause, "idle: the pause doubled to the cap");
        now += idlePause;
        time.nanos = now;

        Thread waiter = new Thread(() -> {
            try {
                clock.next();
            } catch (RuntimeException released) {
                // the test's time source ends the wait
            }
        });
        waiter.start();
        assertTrue(inNext.await(10, TimeUnit.SECONDS), "next() did not wait");
        assertEquals(10 * MS, host.agent().doWork(now) - now, "a timestamp is waited for: the interval");
        release.countDown();
        waiter.join(10_000);
    }

    private SyncedClock node(int self) {
        return node(self, time);
    }

    private SyncedClock node(int self, TimeSource clockTime) {
        Fabric fabric = cluster.join(self);
        open.add(fabric);
        SyncedClock clock = new SyncedClock(self, clockTime, SyncedClock.DEFAULT_DRIFT, TimeUnit.SECONDS.toNanos(1));
        ClockSync sync = new ClockSync(TestMailboxes.started(fabric, time), clock, host, Set.of(0, 1, 2), 10);
        open.add(sync);
        return clock;
    }
}
