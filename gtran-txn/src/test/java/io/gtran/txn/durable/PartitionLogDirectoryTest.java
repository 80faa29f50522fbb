package io.gtran.txn.durable;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@link PartitionLog#open} refuses: another identity's directory, a directory gtran did not
 * make, one in use in this or another process; and a replay that throws.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PartitionLogDirectoryTest {
    private static final String OTHER = "cluster=test node=1";

    @TempDir
    Path dir;

    @Test
    void aDirectoryOfAnotherIdentityIsRefusedNamingTheDirectoryAndBothIdentities() throws Exception {
        Files.writeString(dir.resolve(DataDirectory.IDENTITY_FILE), OTHER + "\n", UTF_8);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> PartitionLog.open(dir, PartitionLogTest.IDENTITY, PartitionLogTest::noRecordExpected));
        assertMentions(e, dir.toString(), OTHER, PartitionLogTest.IDENTITY);
        assertEquals(List.of(DataDirectory.IDENTITY_FILE), names(dir), "nothing else was written");
    }

    @Test
    void aDirectoryThatIsNotEmptyAndHasNoIdentityIsRefused() throws Exception {
        Files.writeString(dir.resolve("notes.txt"), "not gtran's", UTF_8);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> PartitionLog.open(dir, PartitionLogTest.IDENTITY, PartitionLogTest::noRecordExpected));
        assertMentions(e, dir.toString(), "not a gtran directory", "notes.txt");
        assertEquals(List.of("notes.txt"), names(dir), "nothing was written");
    }

    @Test
    void anIdentityThatIsBlankOrSpansLinesIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> PartitionLog.open(dir, " ", record -> { }));
        assertThrows(IllegalArgumentException.class, () -> PartitionLog.open(dir, "node=0\nnode=1", record -> { }));
    }

    @Test
    void aDirectoryOpenInThisProcessIsRefusedAsInUseUntilItsLogCloses() {
        PartitionLog log = PartitionLog.open(dir, PartitionLogTest.IDENTITY, PartitionLogTest::noRecordExpected);
        try {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> PartitionLog.open(dir, PartitionLogTest.IDENTITY, PartitionLogTest::noRecordExpected));
            assertMentions(e, dir.toString(), "in use");
            // The refused open did not disturb the open log.
            assertTrue(log.append(new byte[1]).join() > 0);
        } finally {
            log.close();
        }
    }

    @Test
    void aDirectoryOpenInAnotherProcessIsRefusedAsInUse() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process holder = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                PartitionLogHolder.class.getName(), dir.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), UTF_8));
            CompletableFuture<Void> open = CompletableFuture.runAsync(() -> awaitLine(out, PartitionLogHolder.OPEN));
            open.get(30, TimeUnit.SECONDS);

            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> PartitionLog.open(dir, PartitionLogTest.IDENTITY, PartitionLogTest::noRecordExpected));
            assertMentions(e, dir.toString(), "in use", "another process");

            holder.getOutputStream().close(); // the holder closes its log and exits
            assertTrue(holder.waitFor(30, TimeUnit.SECONDS), "the holder did not exit");
            assertEquals(0, holder.exitValue());
        } finally {
            holder.destroyForcibly();
        }
    }

    @Test
    void aReplayThatThrowsFailsTheOpenNamingTheLogIndexAndLeavesTheDirectoryUsable() throws Exception {
        long second;
        try (PartitionLog log = PartitionLog.open(dir, PartitionLogTest.IDENTITY, PartitionLogTest::noRecordExpected)) {
            log.append("first".getBytes(UTF_8)).get(10, TimeUnit.SECONDS);
            second = log.append("second".getBytes(UTF_8)).get(10, TimeUnit.SECONDS);
            log.append("third".getBytes(UTF_8)).get(10, TimeUnit.SECONDS);
        }
        RuntimeException broken = new IllegalArgumentException("record does not decode");
        List<String> replayed = new ArrayList<>();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> PartitionLog.open(dir,
                PartitionLogTest.IDENTITY, record -> {
                    String text = new String(record, UTF_8);
                    if (text.equals("second")) {
                        throw broken;
                    }
                    replayed.add(text);
                }));
        assertMentions(e, dir.toString(), "log index " + second, "record does not decode");
        assertSame(broken, e.getCause());
        assertEquals(List.of("first"), replayed, "no record after the failed one is replayed");

        List<String> again = new ArrayList<>();
        PartitionLog.open(dir, PartitionLogTest.IDENTITY, record -> again.add(new String(record, UTF_8))).close();
        assertEquals(List.of("first", "second", "third"), again);
    }

    private static void awaitLine(BufferedReader out, String expected) {
        try {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.equals(expected)) {
                    return;
                }
            }
            throw new AssertionError("the holder exited before it printed " + expected);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void assertMentions(Exception e, String... parts) {
        for (String part : parts) {
            assertTrue(e.getMessage().contains(part), "\"" + part + "\" not in: " + e.getMessage());
        }
    }

    private static List<String> names(Path directory) throws Exception {
        try (var entries = Files.list(directory)) {
            return entries.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
