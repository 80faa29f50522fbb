package io.gtran.lbv.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.lbv.LbvResult;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmark as users run it, made short so that it cannot rot: {@code --compare} over two
 * systems on the grateful-dead graph, one workload, one second each, each system in its own child
 * JVM started from its module's class path (the reactor packaged them before this test). The two
 * are gtran (at SR and SI, as {@code --compare} runs it) and JanusGraph, whose child runs on another
 * module's class path with another TinkerPop version; every other system's module runs its own
 * {@code LbvContract} and system tests.
 */
@Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
class LbvDriverSmokeTest {
    private static final Pattern LBV_LINE = Pattern.compile("^LBV system=(\\S+) workload=MIX isolation=(\\S+) threads=2 "
            + "tps=([0-9.]+) abort_rate=([0-9.]+) p99_ms=([0-9.]+)$", Pattern.MULTILINE);

    @Test
    void compareRunsTheNamedSystemsAndWritesJsonAndCharts(@TempDir Path out) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int status;
        try (PrintStream print = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            status = LbvMain.run(LbvMain.Options.parse("--compare", "--system", "gtran,janusgraph", "--dataset", "grateful-dead", "--workload", "MIX",
                    "--threads", "2", "--seconds", "1", "--warmup", "0.5", "--heap", "2g", "--latency", "--out",
                    out.toString()), print);
        }
        String output = bytes.toString(StandardCharsets.UTF_8);
        System.out.println(output);
        assertEquals(0, status, "every system ran");

        Matcher lines = LBV_LINE.matcher(output);
        List<String> seen = new java.util.ArrayList<>();
        while (lines.find()) {
            seen.add(lines.group(1) + "@" + lines.group(2));
            assertTrue(Double.parseDouble(lines.group(3)) > 0, "committed something: " + lines.group());
        }
        assertEquals(List.of("gtran@SR", "gtran@SI", "janusgraph@none"), seen);
        assertTrue(output.contains("gtran@SR throughput / each system's"), "ratio table");

        String json = Files.readString(out.resolve("lbv-grateful-dead.json"));
        assertTrue(json.contains("\"kind\":\"lbv-compare\""));
        assertEquals(3, json.split("\"result\":", -1).length - 1, "three results in the JSON");
        String first = json.substring(json.indexOf("\"result\":") + "\"result\":".length());
        LbvResult parsed = LbvResult.fromJson(first.substring(0, matchingBrace(first) + 1));
        assertEquals("MIX", parsed.workload());
        assertEquals(8, parsed.latency().size(), "IS1-IS4 and four k-hops");
        for (String chart : List.of("lbv-grateful-dead-throughput.png", "lbv-grateful-dead-abort-rate.png")) {
            BufferedImage image = ImageIO.read(out.resolve(chart).toFile());
            assertEquals(1200, image.getWidth(), chart);
        }
        assertTrue(Files.list(out.resolve("logs")).count() >= 3, "a log per child");
    }

    /** The index of the brace closing the object {@code text} starts with. */
    private static int matchingBrace(String text) {
        int depth = 0;
        boolean inString = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return i;
            }
        }
        throw new IllegalArgumentException("unbalanced JSON");
    }
}
