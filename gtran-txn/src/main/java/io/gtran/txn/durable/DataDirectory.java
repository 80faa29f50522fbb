package io.gtran.txn.durable;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A node's data directory and the identity written into it ({@link #IDENTITY_FILE}), so that a
 * directory of another node or cluster, or one that gtran did not create, is refused before
 * anything in it is read or written.
 */
final class DataDirectory {
    /** The file holding the identity of the node the directory belongs to: one line, UTF-8. */
    static final String IDENTITY_FILE = "gtran-identity";
    /** The membership group's log of a cluster member, kept in its data directory (docs/durability.md). */
    public static final String MEMBERSHIP = "membership";
    /** Where the identity is written first, then renamed to {@link #IDENTITY_FILE} in one step. */
    private static final String IDENTITY_TEMP = IDENTITY_FILE + ".tmp";

    private DataDirectory() {
    }

    /**
     * Creates {@code directory} if absent and returns its real path (links resolved).
     *
     * @throws IllegalStateException naming the directory and the cause if it cannot be created
     */
    static Path create(Path directory) {
        try {
            return Files.createDirectories(directory).toRealPath();
        } catch (IOException e) {
            throw new IllegalStateException("partition log directory " + directory + " cannot be used: " + e, e);
        }
    }

    /**
     * Makes {@code directory} (which exists: {@link #create}) this identity's: writes the identity
     * into it if it is empty; checks it against the one it has otherwise.
     *
     * @throws IllegalArgumentException if {@code identity} is blank or spans lines
     * @throws IllegalStateException naming the directory, the identity found and the one given if
     *     the directory belongs to another identity, or is not empty and has no identity file (not
     *     a gtran directory); naming the directory and the cause if it cannot be read or written
     */
    static void claim(Path directory, String identity) {
        if (identity.isBlank() || identity.indexOf('\n') >= 0 || identity.indexOf('\r') >= 0) {
            throw new IllegalArgumentException("partition log " + directory + ": identity=\"" + identity
                    + "\" must be one non-blank line");
        }
        try {
            Path file = directory.resolve(IDENTITY_FILE);
            if (Files.exists(file)) {
                String found = Files.readString(file, UTF_8).strip();
                if (!found.equals(identity)) {
                    throw new IllegalStateException("partition log directory " + directory + " belongs to \"" + found
                            + "\", not to \"" + identity + "\" (" + IDENTITY_FILE + "): a directory of another node or"
                            + " cluster is refused; give this node a directory of its own");
                }
                return;
            }
            List<String> present = entriesBesidesTemp(directory);
            if (!present.isEmpty()) {
                throw new IllegalStateException("partition log directory " + directory + " is not a gtran directory: it"
                        + " holds " + present + " but no " + IDENTITY_FILE + " file, so it is refused for \"" + identity
                        + "\"; give an empty or new directory");
            }
            write(directory, identity);
        } catch (AccessDeniedException e) {
            throw new IllegalStateException("partition log directory " + directory + " cannot be used: access denied to "
                    + e.getFile(), e);
        } catch (IOException e) {
            throw new IllegalStateException("partition log directory " + directory + " cannot be used: " + e, e);
        }
    }

    /** The names in {@code directory}, but for a temporary identity file left by a crash. */
    private static List<String> entriesBesidesTemp(Path directory) throws IOException {
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.map(p -> p.getFileName().toString())
                    .filter(name -> !name.equals(IDENTITY_TEMP) && !name.equals(MEMBERSHIP))
                    .sorted()
                    .limit(5)
                    .collect(Collectors.toList());
        }
    }

    /** Writes the identity durably: a temporary file, fsync, rename, fsync of the directory. */
    private static void write(Path directory, String identity) throws IOException {
        Path temp = directory.resolve(IDENTITY_TEMP);
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            channel.write(UTF_8.encode(identity + "\n"));
            channel.force(true);
        }
        Files.move(temp, directory.resolve(IDENTITY_FILE), StandardCopyOption.ATOMIC_MOVE);
        forceDirectory(directory);
    }

    /** Makes a rename in {@code directory} durable (on Linux, an fsync of the directory). */
    static void forceDirectory(Path directory) throws IOException {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }
}
