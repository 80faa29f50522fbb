package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The packages of gtran-txn import only downward (README, "Architecture of the transaction
 * layer"): a package may use those on a lower layer, never one on its own layer or above. The
 * root package {@code io.gtran.txn} is the top: it wires the rest.
 */
class PackageLayersTest {
    private static final Map<String, Integer> LAYERS = Map.of(
            "common", 0, "agent", 0,
            "protocol", 1,
            "clock", 2, "membership", 2,
            "local", 3, "query", 3,
            "commit", 4, "durable", 4);
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?io\\.gtran\\.txn\\.(\\w+)\\.", Pattern.MULTILINE);

    @Test
    void subpackagesImportOnlyDownward() throws IOException {
        Path main = Path.of("src/main/java/io/gtran/txn");
        assertTrue(Files.isDirectory(main), "run from gtran-txn: " + main.toAbsolutePath());
        List<String> upward = new ArrayList<>();
        int checked = 0;
        try (Stream<Path> files = Files.walk(main)) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".java"))::iterator) {
                Path relative = main.relativize(file);
                if (relative.getNameCount() < 2) {
                    continue; // the root package: the top layer
                }
                String pkg = relative.getName(0).toString();
                Integer layer = LAYERS.get(pkg);
                assertTrue(layer != null, "a package of gtran-txn with no layer: " + pkg + " (add it to LAYERS)");
                String source = Files.readString(file);
                if (Pattern.compile("^import (?:static )?io\\.gtran\\.txn\\.[A-Z]", Pattern.MULTILINE).matcher(source).find()) {
                    upward.add(relative + " imports from the root package io.gtran.txn");
                }
                Matcher m = IMPORT.matcher(source);
                while (m.find()) {
                    String used = m.group(1);
                    Integer usedLayer = LAYERS.get(used);
                    if (!used.equals(pkg) && (usedLayer == null || usedLayer >= layer)) {
                        upward.add(relative + " (" + pkg + ", layer " + layer + ") imports " + used + " (layer " + usedLayer + ")");
                    }
                }
                checked++;
            }
        }
        assertTrue(checked > 10, "files checked: " + checked);
        assertEquals(List.of(), upward);
    }
}
