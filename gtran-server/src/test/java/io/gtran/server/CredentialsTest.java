package io.gtran.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/gtran credentials} (Credentials.main) leaves the credentials file whole when it fails:
 * as it was, or absent, never empty. The failure is the one the launcher met when its JVM flags
 * lacked {@code --add-opens=java.base/java.util.concurrent.atomic} (Gryo cannot save an AtomicLong).
 */
class CredentialsTest {
    private static final String ATOMIC = "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED";

    @TempDir
    Path dir;

    /** Runs Credentials.main in a JVM with this JVM's module flags but the atomic one; returns its output. */
    private static String addUserWithoutAtomicOpens(Path file, String user) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        for (String flag : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if ((flag.startsWith("--add-opens") || flag.startsWith("--add-exports")) && !flag.equals(ATOMIC)) {
                command.add(flag);
            }
        }
        command.addAll(List.of("-Xmx256m", "-cp", System.getProperty("java.class.path"), Credentials.class.getName(),
                "--file", file.toString(), "--user", user, "--password", "s3cret"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), output);
        assertNotEquals(0, process.exitValue(), output);
        return output;
    }

    @Test
    @Timeout(90)
    void aFailedFirstWriteLeavesNoFile() throws Exception {
        Path file = dir.resolve("credentials.kryo");
        String output = addUserWithoutAtomicOpens(file, "alice");
        assertFalse(Files.exists(file), "a failed write left " + file);
        try (Stream<Path> left = Files.list(dir)) {
            assertTrue(left.findAny().isEmpty(), "a failed write left a temporary file");
        }
        assertTrue(output.startsWith("gtran credentials: could not write credentials"), output);
    }

    @Test
    @Timeout(90)
    void aFailedUpdateLeavesTheFileAsItWas() throws Exception {
        Path file = dir.resolve("credentials.kryo");
        Credentials.addUser(file, "alice", "s3cret"); // this JVM has the flags
        byte[] before = Files.readAllBytes(file);
        assertTrue(before.length > 0);
        addUserWithoutAtomicOpens(file, "bob");
        assertArrayEquals(before, Files.readAllBytes(file));
    }
}
