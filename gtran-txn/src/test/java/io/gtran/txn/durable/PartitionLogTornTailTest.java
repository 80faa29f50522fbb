package io.gtran.txn.durable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A torn or corrupt last entry, as a process killed mid-write leaves it: {@link PartitionLog#open}
 * keeps the whole entries before it, reports the cut, and appends go on; while damage to a closed
 * segment, which no crash leaves, is refused and left as it is. One log is written once; each
 * test damages a copy of it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PartitionLogTornTailTest {
    private static final int RECORDS = 50;
    private static final int RECORD_BYTES = 100;
    /** Ratis ends each entry with a 4-byte checksum. */
    private static final int CHECKSUM_BYTES = 4;

    @TempDir
    static Path written;
    private static final List<byte[]> APPENDED = new ArrayList<>();
    private static final byte[] AFTER = "appended after the cut".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    @BeforeAll
    static void writeLog() throws Exception {
        Random random = new Random(PartitionLogTest.SEED);
        try (PartitionLog log = PartitionLog.open(written, PartitionLogTest.IDENTITY, PartitionLogTest::noRecordExpected)) {
            for (int i = 0; i < RECORDS; i++) {
                byte[] record = new byte[RECORD_BYTES];
                for (int b = 0; b < record.length; b++) {
                    record[b] = (byte) (1 + random.nextInt(255)); // no zero byte: the data's end is its last byte
                }
                APPENDED.add(record);
                log.append(record).get(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void garbageAfterTheLastEntryIsCutAndAppendsGoOn() throws Exception {
        copyWritten();
        Path segment = openSegment();
        byte[] garbage = new byte[37];
        Random random = new Random(PartitionLogTest.SEED);
        for (int i = 0; i < garbage.length; i++) {
            garbage[i] = (byte) (1 + random.nextInt(255)); // not zeros, which would read as padding
        }
        Files.write(segment, garbage, StandardOpenOption.APPEND);

        List<String> cuts = reopenExpecting(APPENDED, segment);
        assertTrue(cuts.get(0).contains("cut 37 bytes"), cuts.toString());

        List<byte[]> replayed = new ArrayList<>();
        PartitionLog.open(dir, PartitionLogTest.IDENTITY, replayed::add).close();
        List<byte[]> expected = new ArrayList<>(APPENDED);
        expected.add(AFTER);
        PartitionLogTest.assertRecords(expected, replayed);
    }

    @Test
    void anEntryTornInTheMiddleIsCutAndTheEntriesBeforeItAreReplayed() throws Exception {
        copyWritten();
        Path segment = openSegment();
        try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.WRITE)) {
            channel.truncate(channel.size() - CHECKSUM_BYTES - RECORD_BYTES / 2);
        }
        reopenExpecting(APPENDED.subList(0, RECORDS - 1), segment);
    }

    @Test
    void anEntryWithAFlippedByteFailsItsChecksumAndIsCut() throws Exception {
        copyWritten();
        Path segment = openSegment();
        flipByte(segment, Files.size(segment) - CHECKSUM_BYTES - RECORD_BYTES / 2);
        reopenExpecting(APPENDED.subList(0, RECORDS - 1), segment);
    }

    @Test
    void aCorruptClosedSegmentIsRefusedAndLeftAsItWas() throws Exception {
        copyWritten();
        PartitionLog.open(dir, PartitionLogTest.IDENTITY, record -> { }).close(); // a new term: the segment is closed
        Path closed;
        try (Stream<Path> files = Files.walk(dir)) {
            closed = files.filter(f -> f.getFileName().toString().matches("log_\\d+-\\d+")).findFirst().orElseThrow();
        }
        flipByte(closed, Files.size(closed) / 2);
        byte[] damaged = Files.readAllBytes(closed);

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> PartitionLog.open(dir, PartitionLogTest.IDENTITY, record -> { }));
        assertTrue(e.getMessage().contains(closed.toString()) && e.getMessage().contains("corrupt"), e.getMessage());
        assertArrayEquals(damaged, Files.readAllBytes(closed), "the closed segment was changed");
    }

    private static void flipByte(Path file, long position) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, position);
            one.put(0, (byte) (one.get(0) ^ 0x10)).rewind();
            channel.write(one, position);
        }
    }

    /**
     * Opens the damaged copy: the replay must be {@code expected}, the cut reported for
     * {@code segment}, and an append must complete. Returns the cuts reported.
     */
    private List<String> reopenExpecting(List<byte[]> expected, Path segment) throws Exception {
        SegmentTails before = SegmentTails.scan(dir.resolve(PartitionLog.RATIS_DIR), PartitionLog.ENTRY_LIMIT);
        List<byte[]> replayed = new ArrayList<>();
        List<String> cuts;
        try (PartitionLog log = PartitionLog.open(dir, PartitionLogTest.IDENTITY, replayed::add)) {
            cuts = before.cutsSince();
            assertTrue(log.append(AFTER).get(10, TimeUnit.SECONDS) > RECORDS - 1);
        }
        PartitionLogTest.assertRecords(expected, replayed);
        assertEquals(1, cuts.size(), cuts.toString());
        assertTrue(cuts.get(0).startsWith(segment.toString()) && cuts.get(0).contains("kept " + (expected.size() + 1)
                + " entries"), cuts.toString()); // Ratis' configuration entry at index 0, then the records
        return cuts;
    }

    /** The open segment file of the copy: the one the last entries were written to. */
    private Path openSegment() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            List<Path> open = files.filter(f -> f.getFileName().toString().startsWith("log_inprogress_")).toList();
            assertEquals(1, open.size(), "open segments: " + open);
            return open.get(0);
        }
    }

    private void copyWritten() throws IOException {
        try (Stream<Path> files = Files.walk(written)) {
            for (Path from : files.toList()) {
                Path to = dir.resolve(written.relativize(from).toString());
                if (Files.isDirectory(from)) {
                    Files.createDirectories(to);
                } else if (!from.getFileName().toString().equals("in_use.lock")) {
                    Files.copy(from, to);
                }
            }
        }
    }
}
