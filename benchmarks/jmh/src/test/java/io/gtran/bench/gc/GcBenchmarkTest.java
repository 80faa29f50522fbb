package io.gtran.bench.gc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.bench.gc.GcBenchmark.ModeResult;
import io.gtran.bench.gc.GcBenchmark.Options;
import io.gtran.bench.gc.GcBenchmark.Sample;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keeps {@code bin/gtran bench gc} from rotting: a 3-second run of both modes, its output format,
 * what it shows (GC bounds the live versions, no GC lets them grow), and the plot. Also pins down
 * the {@code levelled_off} rule on made-up series.
 */
@Timeout(180)
class GcBenchmarkTest {
    private static final Pattern SAMPLE = Pattern.compile(
            "^GC mode=(on|off) t=[0-9.]+ commits=\\d+ live_versions=\\d+ live_slots=\\d+ reserved_bytes=\\d+$", Pattern.MULTILINE);
    private static final Pattern SUMMARY = Pattern.compile("^GC_SUMMARY mode=(on|off) seconds=([0-9.]+) commits=(\\d+)"
            + " commits_per_s=([0-9.]+) live_versions_start=(\\d+) live_versions_end=(\\d+) reserved_bytes_end=(\\d+)"
            + " levelled_off=(true|false)$", Pattern.MULTILINE);
    private static final Pattern PLOT = Pattern.compile("^GC_PLOT file=(.+)$", Pattern.MULTILINE);

    @TempDir
    Path dir;

    /**
     * Three seconds per mode on the default graph: both summaries are printed, GC on ends with
     * less than half the live versions of GC off, GC on levels off and GC off does not, and the
     * PNG is a readable image. One load thread (the benchmark's default is two) and a sample every
     * 20 ms: with thirds of one second, GC on only levels off if its threads get the CPU to finish
     * a pass within each second, and two unthrottled load threads on a small, busy build machine
     * can starve them for that long.
     */
    @Test
    void shortRunShowsGcBoundingTheVersionsAndDrawsThePlot() throws IOException {
        Path plot = dir.resolve("plots").resolve("gc.png"); // the parent does not exist yet
        Options options = new Options(3, 1, 20, 10_000, 30_000, 42, plot, Map.of());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        List<ModeResult> results = GcBenchmark.run(options, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);
        System.out.print(gcLines(out)); // kept in the surefire report

        Map<String, Integer> samples = new LinkedHashMap<>();
        for (Matcher m = SAMPLE.matcher(out); m.find(); ) {
            samples.merge(m.group(1), 1, Integer::sum);
        }
        assertTrue(samples.getOrDefault("on", 0) >= 20 && samples.getOrDefault("off", 0) >= 20, "samples per mode " + samples + "\n" + out);

        Map<String, List<String>> summaries = new LinkedHashMap<>(); // mode -> groups 1..8
        for (Matcher m = SUMMARY.matcher(out); m.find(); ) {
            List<String> groups = new ArrayList<>();
            for (int g = 0; g <= m.groupCount(); g++) {
                groups.add(m.group(g));
            }
            summaries.put(m.group(1), groups);
        }
        assertEquals(List.of("on", "off"), new ArrayList<>(summaries.keySet()), out);
        List<String> on = summaries.get("on");
        List<String> off = summaries.get("off");
        long onCommits = Long.parseLong(on.get(3));
        long offCommits = Long.parseLong(off.get(3));
        assertTrue(onCommits > 0 && offCommits > 0, out);
        long onEnd = Long.parseLong(on.get(6));
        long offEnd = Long.parseLong(off.get(6));
        assertTrue(onEnd * 2 < offEnd, "GC on should end with under half the live versions of GC off: on=" + onEnd + " off=" + offEnd
                + "\n" + gcLines(out));
        // Three seconds are too short to judge a level on a busy two-core machine (JIT warm-up
        // fills the first one), so this test asks for a bound; bin/gtran bench gc, which CI runs
        // for ten seconds a mode, judges levelled_off.
        long start = results.get(0).first().liveVersions();
        long onPeak = Math.max(results.get(0).peak(1), results.get(0).peak(2));
        assertTrue(onPeak < 3 * start, "GC on should keep live versions bounded: peak=" + onPeak + " start=" + start + "\n" + gcLines(out));
        assertEquals("false", off.get(8), "GC off should keep growing\n" + gcLines(out));
        assertEquals(2, results.size());
        assertEquals(onEnd, results.get(0).last().liveVersions());

        Matcher p = PLOT.matcher(out);
        assertTrue(p.find(), out);
        Path written = Path.of(p.group(1));
        assertEquals(plot.toAbsolutePath().normalize(), written);
        assertTrue(Files.size(written) > 0, written.toString());
        BufferedImage image = ImageIO.read(written.toFile());
        assertNotNull(image, "not a readable image: " + written);
        assertTrue(image.getWidth() > 0 && image.getHeight() > 0);
    }

    /**
     * The rule: the last third's floor against the middle third's. A sawtooth that keeps coming
     * back to the same floor has levelled off however high its teeth; a line has not, nor has a
     * sawtooth whose floor keeps rising.
     */
    @Test
    void levelledOffComparesTheFloorsOfTheLastTwoThirds() {
        List<Sample> sawtooth = new ArrayList<>();
        List<Sample> line = new ArrayList<>();
        List<Sample> risingSawtooth = new ArrayList<>();
        for (int i = 0; i <= 90; i++) {
            double t = i * 0.1;
            long tooth = (i % 10) * 20_000L; // back to 0 every second, peaks 6x the floor
            sawtooth.add(sample(t, 30_000 + tooth));
            line.add(sample(t, 30_000 + i * 3_000L));
            risingSawtooth.add(sample(t, 30_000 + i * 300L + tooth));
        }
        assertTrue(result(sawtooth).levelledOff());
        assertFalse(result(line).levelledOff());
        assertFalse(result(risingSawtooth).levelledOff());
        assertEquals(30_000 + 30 * 3_000, result(line).floor(1));
        assertEquals(30_000 + 60 * 3_000, result(line).floor(2));
        assertEquals(30_000 + 180_000, result(sawtooth).peak(2));
    }

    /** Tick values for the plot: steps of 1, 2 or 5 times a power of ten, ending at or above the maximum. */
    @Test
    void ticksAreRoundAndCoverTheRange() {
        assertArrayEquals(new double[] {0, 5, 10, 15, 20}, GcPlot.ticks(20, 0));
        assertArrayEquals(new double[] {0, 5, 10, 15, 20}, GcPlot.ticks(20.004, 0.02), "a run a hair over 20 s");
        assertArrayEquals(new double[] {0, 5, 10, 15, 20, 25}, GcPlot.ticks(20.004, 0), "data never above the top tick");
        assertArrayEquals(new double[] {0, 500_000, 1_000_000, 1_500_000, 2_000_000}, GcPlot.ticks(1_503_805, 0));
        assertArrayEquals(new double[] {0, 1}, GcPlot.ticks(0, 0));
        assertEquals("1.5M", GcPlot.format(1_500_000));
        assertEquals("40k", GcPlot.format(40_000));
        assertEquals("2.5", GcPlot.format(2.5));
    }

    private static Sample sample(double t, long liveVersions) {
        return new Sample(t, 0, liveVersions, 0, 0);
    }

    private static ModeResult result(List<Sample> samples) {
        return new ModeResult("test", samples.get(samples.size() - 1).seconds(), 0, samples, Map.of(), Map.of());
    }

    private static String gcLines(String out) {
        StringBuilder b = new StringBuilder();
        for (String line : out.split("\n")) {
            if (line.startsWith("GC_") || line.startsWith("GC mode=on")) {
                b.append(line).append('\n');
            }
        }
        return b.toString();
    }
}
