package io.gtran.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Keeps the adjacency benchmarks from rotting on a small graph: each setup checks its scans'
 * checksums against the CSR's and throws if they differ, and the scans are called again here.
 */
@Timeout(120)
class AdjacencyBenchmarksTest {
    @ParameterizedTest
    @CsvSource({"cells16,8", "words8,8", "words8Bulk,8", "outOnlyBulk,8", "cells16,3", "words8Bulk,3", "outOnlyBulk,16"})
    void everyRowLayoutSumsTheSameNeighboursAsTheCsr(String layout, int cellsPerRow) {
        AdjacencyLayoutBenchmark bench = new AdjacencyLayoutBenchmark();
        bench.vertices = 2_000;
        bench.edges = 20_000;
        bench.labels = 4;
        bench.cellsPerRow = cellsPerRow;
        bench.layout = layout;
        bench.setup();
        AdjacencyScanBenchmark.EdgeCounter counter = new AdjacencyScanBenchmark.EdgeCounter();
        assertEquals(bench.csrScan(counter), bench.rowScan(counter));
        assertEquals(2 * 20_000, counter.edges);
    }

    @ParameterizedTest
    @ValueSource(strings = {"local", "outOnly", "outOnlySorted"})
    void storeScansSumTheSameNeighboursAsTheCsr(String layout) {
        AdjacencyScanBenchmark bench = new AdjacencyScanBenchmark();
        bench.vertices = 2_000;
        bench.edges = 20_000;
        bench.labels = 4;
        bench.edgeRowCells = 8;
        bench.edgeRowChunkBytes = 4096;
        bench.compact = true;
        bench.layout = layout;
        bench.setup();
        try {
            AdjacencyScanBenchmark.EdgeCounter counter = new AdjacencyScanBenchmark.EdgeCounter();
            long csr = bench.csrScan(counter);
            assertEquals(csr, bench.gtranNeighbours(counter));
            assertEquals(csr, bench.gtranScan(counter));
            assertEquals(bench.csrScanLabelFiltered(counter), bench.gtranNeighboursLabelFiltered(counter));
            AdjacencyScanBenchmark.Interleaved times = new AdjacencyScanBenchmark.Interleaved();
            assertEquals(0, bench.interleaved(times), "the two scans' sums, xor-ed");
            assertTrue(times.slowdown > 0 && times.csrEdgesPerSecond > 0 && times.gtranEdgesPerSecond > 0, "timed both scans");
        } finally {
            bench.tearDown();
        }
    }
}
