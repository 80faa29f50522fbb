package net.openhft.chronicle.values;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.gtran.storage.ExternalIdMap;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * gtran-storage ships the class Chronicle Map compiles with javac at its first map in a JVM
 * ({@code net.openhft.chronicle.hash.VanillaGlobalMutableState$$Native}), so no node runs javac.
 * In Chronicle's package: its generator is package-private.
 */
class ChronicleNativeClassTest {
    private static final String STATE = "net.openhft.chronicle.hash.VanillaGlobalMutableState";
    private static final Path SHIPPED = Path.of("src/main/java/net/openhft/chronicle/hash/VanillaGlobalMutableState$$Native.java");

    /** The shipped source is what the Chronicle versions on the class path generate (after an upgrade: replace it with this). */
    @Test
    void theShippedStateClassIsWhatChronicleGenerates() throws Exception {
        String generated = Generators.generateNativeClass(ValueModel.acquire(Class.forName(STATE)), "VanillaGlobalMutableState$$Native");
        String shipped = Files.readString(SHIPPED, StandardCharsets.UTF_8);
        assertEquals(generated.strip(), shipped.substring(shipped.indexOf("package ")).strip(),
                "Chronicle generates another VanillaGlobalMutableState$$Native; copy its source (above) into " + SHIPPED);
    }

    /** Chronicle takes the shipped class, from gtran-storage's classes, instead of compiling one. */
    @Test
    void chronicleLoadsTheShippedClassInsteadOfCompilingOne() throws Exception {
        Class<?> loaded = Values.nativeClassFor(Class.forName(STATE));
        assertEquals(STATE + "$$Native", loaded.getName());
        java.security.CodeSource source = loaded.getProtectionDomain().getCodeSource();
        assertNotNull(source, "defined by javac in process, not loaded from gtran-storage");
        assertEquals(ExternalIdMap.class.getProtectionDomain().getCodeSource().getLocation(), source.getLocation(),
                "loaded from gtran-storage's classes");
    }
}
