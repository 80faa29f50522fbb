package io.gtran.txn.durable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.ratis.server.RaftServerConfigKeys.Log.CorruptionPolicy;
import org.apache.ratis.server.raftlog.segmented.LogSegment;
import org.apache.ratis.server.raftlog.segmented.LogSegmentPath;
import org.apache.ratis.util.SizeInBytes;

/**
 * Where the data in each of Ratis' log segment files ends, taken before Ratis reads them, so that
 * what Ratis cut from a torn or corrupt tail can be told afterwards ({@link #cutsSince}).
 *
 * <p>Ratis' segment files ({@code log_inprogress_<first>}, the open one, and
 * {@code log_<first>-<last>}) hold entries back to back, each ending in a 4-byte checksum, then
 * zeros where the file was preallocated. With the corruption policy WARN_AND_RETURN Ratis keeps
 * the whole entries before the first one that does not read (torn, failing its checksum, or
 * followed by bytes that are not zeros) and truncates the file after them. So a segment whose
 * length after Ratis opened it is below the end of its non-zero bytes before was cut there.
 * Zeros after the last entry are padding and are not counted as cut; a cut of bytes that were all
 * zeros cannot be told from padding, and loses nothing.
 *
 * <p>A closed segment is never torn: Ratis renames it only once it is whole. Yet Ratis applies the
 * same policy to it, cutting the file after a corrupt entry and only then failing to start (the
 * next segment no longer follows on). {@link #scan} therefore reads each closed segment first,
 * with Ratis' own reader and the policy EXCEPTION, and refuses a corrupt one, so that nothing is
 * cut from it.
 */
final class SegmentTails {
    /** {@code log_inprogress_<first>} or {@code log_<first>-<last>}: group 1 or 2 is the first index. */
    private static final Pattern SEGMENT = Pattern.compile("log_(?:inprogress_(\\d+)|(\\d+)-\\d+)");
    private static final Pattern CLOSED = Pattern.compile("log_(\\d+)-(\\d+)");
    private static final int CHUNK = 64 * 1024;
    /** A segment file begins with "RaftLog1" ({@code SegmentedRaftLogFormat}); a file of no more holds no entry. */
    private static final int HEADER_BYTES = 8;

    /** A segment as found before Ratis read it. */
    private record Tail(Path file, long length, long dataEnd) {
    }

    /** Per first index of a segment: the segment's file as found before Ratis read it. */
    private final Map<Long, Tail> tails;
    private final Path root;

    private SegmentTails(Path root, Map<Long, Tail> tails) {
        this.root = root;
        this.tails = tails;
    }

    /**
     * The segments under {@code root} (Ratis' storage directory; none if it does not exist).
     *
     * @param maxEntry the longest entry a segment may hold (Ratis' {@code maxOpSize})
     * @throws IllegalStateException naming the file and the cause if a closed segment does not read whole
     */
    static SegmentTails scan(Path root, SizeInBytes maxEntry) {
        Map<Long, Tail> tails = new TreeMap<>();
        for (Path file : segmentFiles(root)) {
            try {
                if (CLOSED.matcher(file.getFileName().toString()).matches()) {
                    verifyClosed(file, maxEntry);
                }
                tails.put(firstIndex(file), new Tail(file, Files.size(file), dataEnd(file)));
            } catch (IOException e) {
                throw new UncheckedIOException("partition log: cannot read the segment file " + file + ": " + e, e);
            }
        }
        return new SegmentTails(root, tails);
    }

    private static void verifyClosed(Path file, SizeInBytes maxEntry) throws IOException {
        Matcher closed = CLOSED.matcher(file.getFileName().toString());
        if (!closed.matches()) {
            throw new IllegalArgumentException("not a closed segment file: " + file);
        }
        long expected = Long.parseLong(closed.group(2)) - Long.parseLong(closed.group(1)) + 1;
        long read;
        try {
            read = LogSegment.readSegmentFile(file.toFile(), LogSegmentPath.matchLogSegment(file).getStartEnd(), maxEntry,
                    CorruptionPolicy.EXCEPTION, null, null);
        } catch (IOException | RuntimeException e) {
            throw corrupt(file, e.toString(), e);
        }
        if (read != expected) {
            throw corrupt(file, "it holds " + read + " whole entries of " + expected, null);
        }
    }

    private static IllegalStateException corrupt(Path file, String what, Throwable cause) {
        return new IllegalStateException("partition log: the closed segment file " + file + " is corrupt (" + what
                + "); a closed segment is never torn, so this is damage, not a crash; refusing to open rather than"
                + " cut the records after it (restore the directory from a copy)", cause);
    }

    /**
     * What Ratis cut since this scan: one line per segment whose non-zero bytes it shortened or
     * whose file it removed, naming the file, the bytes cut and the entries kept.
     */
    List<String> cutsSince() {
        Map<Long, Path> now = new TreeMap<>();
        for (Path file : segmentFiles(root)) {
            now.put(firstIndex(file), file);
        }
        List<String> cuts = new ArrayList<>();
        tails.forEach((first, before) -> {
            Path after = now.get(first);
            long length = after == null ? 0 : sizeOrZero(after);
            if (length >= before.dataEnd() || before.dataEnd() <= HEADER_BYTES) {
                return; // nothing but padding went, if anything; or the file had no entry to lose
            }
            long cut = before.dataEnd() - length;
            String kept = after == null
                    ? "the file was removed: no whole entry in it"
                    : "kept " + kept(after, first) + ", " + length + " bytes";
            cuts.add(before.file() + ": cut " + cut + " bytes of data after byte " + length + " of "
                    + before.length() + "; " + kept);
        });
        return cuts;
    }

    /** How many segment files there are under {@code root} and their bytes, for a status line. */
    static String describeFiles(Path root) {
        List<Path> files = segmentFiles(root);
        long bytes = 0;
        for (Path file : files) {
            bytes += sizeOrZero(file);
        }
        return files.size() + " segment files, " + bytes + " bytes";
    }

    private static String kept(Path file, long first) {
        Matcher closed = CLOSED.matcher(file.getFileName().toString());
        if (closed.matches()) {
            long last = Long.parseLong(closed.group(2));
            return (last - first + 1) + " entries (log index " + first + " to " + last + ")";
        }
        return "the entries from log index " + first;
    }

    private static long sizeOrZero(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }

    /** The position after the last byte of {@code file} that is not zero (0 if there is none). */
    private static long dataEnd(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.allocate(CHUNK);
            long end = channel.size();
            while (end > 0) {
                long start = Math.max(0, end - CHUNK);
                buffer.clear().limit((int) (end - start));
                while (buffer.hasRemaining() && channel.read(buffer, start + buffer.position()) >= 0) {
                    // read the chunk whole
                }
                for (int i = buffer.position() - 1; i >= 0; i--) {
                    if (buffer.get(i) != 0) {
                        return start + i + 1;
                    }
                }
                end = start;
            }
            return 0;
        }
    }

    private static List<Path> segmentFiles(Path root) {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(root, 3)) {
            return files.filter(f -> SEGMENT.matcher(f.getFileName().toString()).matches() && Files.isRegularFile(f))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("partition log: cannot list the segment files under " + root + ": " + e, e);
        }
    }

    private static long firstIndex(Path file) {
        Matcher m = SEGMENT.matcher(file.getFileName().toString());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a segment file: " + file);
        }
        return Long.parseLong(m.group(1) != null ? m.group(1) : m.group(2));
    }
}
