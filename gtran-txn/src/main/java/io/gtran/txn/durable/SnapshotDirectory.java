package io.gtran.txn.durable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The snapshots of a data directory, {@code snapshots/snapshot-<index>.gts}, each covering the log
 * up to its index (docs/durability.md, "Snapshots"). One is written as a {@code .tmp} file, forced,
 * then renamed; a {@code .tmp} file found at open is what a crash left mid-write, and is deleted.
 */
final class SnapshotDirectory {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotDirectory.class);
    static final String NAME = "snapshots";
    private static final Pattern PUBLISHED = Pattern.compile("snapshot-(\\d+)\\.gts");
    private static final String TEMP_SUFFIX = ".tmp";

    private final Path directory;

    /** The snapshots under {@code dataDirectory}; the directory is created if absent. */
    SnapshotDirectory(Path dataDirectory) {
        this.directory = dataDirectory.resolve(NAME);
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + directory + ": " + e.getMessage(), e);
        }
    }

    Path path() {
        return directory;
    }

    /** Deletes what a crash left mid-write. Call only while this directory's log is held (the lock). */
    void deleteUnfinished() {
        for (Path file : list()) {
            if (file.getFileName().toString().endsWith(TEMP_SUFFIX)) {
                delete(file, "left by a snapshot a crash cut short");
            }
        }
    }

    /** The published snapshot covering the most of the log, if any. */
    Optional<Path> latest() {
        Path best = null;
        long bestIndex = Long.MIN_VALUE;
        for (Path file : list()) {
            long index = indexOf(file);
            if (index > bestIndex) {
                bestIndex = index;
                best = file;
            }
        }
        return Optional.ofNullable(best);
    }

    /** The file a snapshot covering the log up to {@code index} is written to before it is published. */
    Path temporary(long index) {
        return directory.resolve("snapshot-" + index + ".gts" + TEMP_SUFFIX);
    }

    /** Publishes a forced temporary file: the rename, then a force of the directory. */
    Path publish(Path temporary, long index) throws IOException {
        Path published = directory.resolve("snapshot-" + index + ".gts");
        Files.move(temporary, published, StandardCopyOption.ATOMIC_MOVE);
        DataDirectory.forceDirectory(directory);
        return published;
    }

    /** Deletes the published snapshots that cover less than {@code index}. */
    void deleteOlderThan(long index) {
        for (Path file : list()) {
            long covered = indexOf(file);
            if (covered >= 0 && covered < index) {
                delete(file, "older than the snapshot at log index " + index);
            }
        }
    }

    /** The index a published snapshot's name gives, or -1 for any other file. */
    static long indexOf(Path file) {
        Matcher m = PUBLISHED.matcher(file.getFileName().toString());
        return m.matches() ? Long.parseLong(m.group(1)) : -1;
    }

    private List<Path> list() {
        try (Stream<Path> files = Files.list(directory)) {
            return new ArrayList<>(files.toList());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + directory + ": " + e.getMessage(), e);
        }
    }

    private static void delete(Path file, String why) {
        try {
            Files.deleteIfExists(file);
            LOG.info("deleted {}: {}", file, why);
        } catch (IOException e) {
            LOG.warn("cannot delete {} ({}): {}", file, why, e.toString());
        }
    }
}
