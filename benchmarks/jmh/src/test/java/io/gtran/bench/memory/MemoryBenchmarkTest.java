package io.gtran.bench.memory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.bench.PowerLawGraph;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Keeps {@code bin/gtran bench memory} from rotting: a small run, its output format, and determinism. */
@Timeout(120)
class MemoryBenchmarkTest {
    private static final Pattern LINE = Pattern.compile(
            "^MEMORY system=([\\w-]+) vertices=(\\d+) edges=(\\d+) bytes_per_vertex=([0-9.]+) bytes_per_edge=([0-9.]+)$",
            Pattern.MULTILINE);

    @Test
    void smallRunPrintsOneWellFormedLinePerSystem() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        MemoryBenchmark.Result[] results = MemoryBenchmark.run(3_000, 30_000, 7, io.gtran.storage.StoreConfig.defaults(),
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);
        Matcher m = LINE.matcher(out);
        assertTrue(m.find(), out);
        assertEquals(MemoryBenchmark.GTRAN, m.group(1));
        assertEquals("3000", m.group(2));
        assertEquals("30000", m.group(3));
        assertTrue(m.find(), out);
        assertEquals(MemoryBenchmark.TINKERGRAPH, m.group(1));
        assertEquals(2, results.length);
        for (MemoryBenchmark.Result r : results) {
            assertTrue(r.bytesPerVertex() > 0 && r.bytesPerEdge() > 0, r.line());
        }
        assertTrue(out.contains("MEMORY ratio gtran/tinkergraph"), out);
    }

    /** {@code --compact}: a third line, gtran after compactAllEdges, and its ratio to TinkerGraph. */
    @Test
    void compactAddsALineForTheCompactedStore() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        MemoryBenchmark.Result[] results = MemoryBenchmark.run(3_000, 30_000, 7, io.gtran.storage.StoreConfig.defaults(), true,
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);
        Matcher m = LINE.matcher(out);
        for (String system : new String[] {MemoryBenchmark.GTRAN, MemoryBenchmark.GTRAN_COMPACTED, MemoryBenchmark.TINKERGRAPH}) {
            assertTrue(m.find(), out);
            assertEquals(system, m.group(1), out);
        }
        assertEquals(3, results.length);
        assertTrue(out.contains("MEMORY ratio gtran-compacted/tinkergraph"), out);
        assertTrue(out.contains("gtran pools after compactAllEdges"), out);
    }

    @Test
    void theGraphIsTheSameForTheSameSeed() {
        PowerLawGraph a = PowerLawGraph.generate(500, 5_000, 11);
        PowerLawGraph b = PowerLawGraph.generate(500, 5_000, 11);
        PowerLawGraph c = PowerLawGraph.generate(500, 5_000, 12);
        assertArrayEquals(a.edgeOut, b.edgeOut);
        assertArrayEquals(a.edgeIn, b.edgeIn);
        assertArrayEquals(a.weight, b.weight);
        assertTrue(!java.util.Arrays.equals(a.edgeOut, c.edgeOut));
        for (int e = 0; e < a.edges; e++) {
            assertTrue(a.edgeOut[e] != a.edgeIn[e], "self-loops are redrawn");
        }
    }

    @Test
    void degreesAreSkewed() {
        PowerLawGraph g = PowerLawGraph.generate(10_000, 100_000, 3);
        double average = 2.0 * g.edges / g.vertices;
        assertTrue(g.maxDegree() > 20 * average, "max degree " + g.maxDegree() + " vs average " + average);
    }
}
