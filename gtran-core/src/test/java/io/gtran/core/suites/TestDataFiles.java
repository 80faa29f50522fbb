package io.gtran.core.suites;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.apache.tinkerpop.gremlin.TestHelper;

/**
 * TinkerPop's data files copied out of its jar whole. TinkerPop's own copy writes the file in place,
 * so a test fork that finds it while another fork is still writing reads half a graph; here each
 * copy is written beside the file and renamed onto it, so a reader sees no file or all of it.
 */
final class TestDataFiles {
    private TestDataFiles() {
    }

    /** The file holding resource {@code name} of {@code access}, under the test data directory of {@code owner}. */
    static String of(Class<?> owner, Class<?> access, String name) throws IOException {
        Path directory = TestHelper.makeTestDataPath(owner, "whole-resources").toPath();
        Path file = directory.resolve(name);
        if (!Files.exists(file)) {
            Files.createDirectories(directory);
            Path part = Files.createTempFile(directory, name, ".part");
            try (InputStream in = access.getResourceAsStream(name)) {
                if (in == null) {
                    throw new IOException("no resource " + name + " beside " + access.getName());
                }
                Files.copy(in, part, StandardCopyOption.REPLACE_EXISTING);
                Files.move(part, file, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(part);
            }
        }
        return file.toAbsolutePath().toString().replace(File.separatorChar, '/');
    }
}
