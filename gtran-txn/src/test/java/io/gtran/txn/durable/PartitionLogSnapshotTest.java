package io.gtran.txn.durable;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PartitionLog#snapshot}: the closed segments behind a snapshot are purged; a later open
 * hands over the snapshot's records, its cut, then only the entries after it; a log with nothing
 * new takes none.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PartitionLogSnapshotTest {
    @TempDir
    Path dir;

    /** What a replay received, in order: records as text, the cut as "cut=N". */
    private static final class Seen implements LogReplay {
        final List<String> items = new ArrayList<>();

        @Override
        public void record(byte[] bytes) {
            items.add(bytes.length > 100 ? "big" : new String(bytes, UTF_8));
        }

        @Override
        public void snapshotRead(long cut) {
            items.add("cut=" + cut);
        }
    }

    @Test
    void theLogBehindASnapshotIsPurgedAndTheNextOpenReplaysOnlyWhatFollowsIt() throws Exception {
        long covered;
        try (PartitionLog log = PartitionLog.open(dir, "node=0", new Seen())) {
            List<CompletableFuture<Long>> appends = new ArrayList<>();
            for (int i = 0; i < 40; i++) { // 40 MiB: past two segments of 16 MiB
                appends.add(log.append(new byte[1 << 20]));
            }
            for (CompletableFuture<Long> append : appends) {
                append.get(30, TimeUnit.SECONDS);
            }
            assertTrue(closedSegments().size() >= 2, "segments: " + closedSegments());
            SnapshotTaker.Taken taken = log.snapshot(sink -> {
                sink.record("s1".getBytes(UTF_8));
                sink.record("s2".getBytes(UTF_8));
                return 77;
            }).orElseThrow();
            covered = taken.index();
            assertEquals(log.lastIndex(), covered);
            assertEquals(covered, log.snapshotIndex());
            assertEquals(77, log.snapshotCut());
            assertEquals(2, taken.records());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!closedSegments().isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(10); // Ratis purges on its own thread
            }
            assertEquals(List.of(), closedSegments(), "every closed segment is behind the snapshot");
            assertFalse(log.snapshot(sink -> 78).isPresent(), "nothing new since the snapshot");
            log.append("after".getBytes(UTF_8)).get(30, TimeUnit.SECONDS);
        }
        Seen seen = new Seen();
        try (PartitionLog log = PartitionLog.open(dir, "node=0", seen)) {
            assertEquals(covered, log.snapshotIndex());
        }
        assertEquals(List.of("s1", "s2", "cut=77", "after"), seen.items);
    }

    private List<String> closedSegments() throws Exception {
        try (Stream<Path> files = Files.walk(dir.resolve(PartitionLog.RATIS_DIR))) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.matches("log_\\d+-\\d+")).sorted().toList();
        }
    }
}
