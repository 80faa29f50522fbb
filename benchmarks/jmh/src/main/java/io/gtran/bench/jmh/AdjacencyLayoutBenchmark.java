package io.gtran.bench.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Ceilings of row-list layouts for the adjacency scan: how fast could a scan of rows go if it had
 * none of the store's costs? The graph of {@link AdjacencyScanBenchmark} (same generator, seed and
 * sizes) is laid out as idealised row-lists in one heap {@code long[]}, compacted (every list in
 * consecutive rows, all full but its last, lists in vertex order), and scanned with no sequence
 * lock, no id check, no chunk look-up and no bounds check beyond Java's own. Each scan copies a
 * vertex's out-neighbour ids into an array and sums them, as {@code gtranNeighbours} does; the
 * {@code int[]} CSR scan runs beside it, in the same fork.
 *
 * <p>A row is one header word ({@code next << 32 | count}) followed by its cells. Layouts:
 * <ul>
 *   <li>{@code cells16}: the store's format. A cell is two words, neighbour word then edge word
 *       (label, edge index), and a vertex's list holds its OUT cells and then its IN cells (IN bit
 *       set); the scan stops at the first IN cell.</li>
 *   <li>{@code words8}: the rows hold only the neighbour words (the edge words kept elsewhere and
 *       never read), OUT then IN; the scan reads cell by cell.</li>
 *   <li>{@code words8Bulk}: as {@code words8}, but a row whose last word is an OUT one is copied
 *       whole ({@link System#arraycopy}).</li>
 *   <li>{@code outOnlyBulk}: as {@code words8Bulk} with the IN words in lists of their own (not
 *       built here), so an OUT list holds OUT words only.</li>
 * </ul>
 * Setup checks every layout's checksum against the CSR's. Units as in {@link AdjacencyScanBenchmark}:
 * the {@code :edges} counter is out-edges per second.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 4, time = 1)
public class AdjacencyLayoutBenchmark extends GtranForkSettings {
    private static final long IN_BIT = Long.MIN_VALUE;

    @Param("100000")
    public int vertices;

    @Param("1000000")
    public int edges;

    @Param("4")
    public int labels;

    @Param("8")
    public int cellsPerRow;

    @Param({"cells16", "words8", "words8Bulk", "outOnlyBulk"})
    public String layout;

    private JmhGraphs.Csr csr;
    private long[] rows;
    private int[] heads;
    private int rowWords;
    private long[] out;

    @Setup(Level.Trial)
    public void setup() {
        if (!layout.equals("cells16") && !layout.equals("words8") && !layout.equals("words8Bulk") && !layout.equals("outOnlyBulk")) {
            throw new IllegalArgumentException("layout must be cells16, words8, words8Bulk or outOnlyBulk: " + layout);
        }
        JmhGraphs.EdgeList list = JmhGraphs.powerLaw(vertices, edges, labels, JmhGraphs.SEED);
        csr = new JmhGraphs.Csr(list);
        build(list, csr);
        long expected = csrScan(new AdjacencyScanBenchmark.EdgeCounter());
        long actual = rowScan(new AdjacencyScanBenchmark.EdgeCounter());
        if (expected != actual) {
            throw new IllegalStateException("layout " + layout + " checksum " + actual + " differs from the CSR's " + expected);
        }
        System.out.printf("%n[setup] layout=%s cellsPerRow=%d rows=%,d bytes=%,d (CSR %,d)%n", layout, cellsPerRow,
                rows.length / rowWords, rows.length * 8L, (csr.offsets.length + csr.targets.length) * 4L);
    }

    /** Lays every vertex's list out in consecutive rows, lists in vertex order. */
    private void build(JmhGraphs.EdgeList list, JmhGraphs.Csr csr) {
        boolean withIn = !layout.equals("outOnlyBulk");
        int cellWords = layout.equals("cells16") ? 2 : 1;
        rowWords = 1 + cellsPerRow * cellWords;
        // IN cells of each vertex: the sources of its in-edges, with the edge's index and label.
        int n = list.vertices();
        int[] inOffsets = new int[n + 1];
        for (int t : list.target()) {
            inOffsets[t + 1]++;
        }
        for (int v = 0; v < n; v++) {
            inOffsets[v + 1] += inOffsets[v];
        }
        int[] inSources = new int[list.size()];
        int[] inLabels = new int[list.size()];
        int[] fill = java.util.Arrays.copyOf(inOffsets, n);
        for (int i = 0; i < list.size(); i++) {
            int at = fill[list.target()[i]]++;
            inSources[at] = list.source()[i];
            inLabels[at] = list.label()[i];
        }
        long totalRows = 0;
        int longest = 1;
        for (int v = 0; v < n; v++) {
            int cells = csr.offsets[v + 1] - csr.offsets[v] + (withIn ? inOffsets[v + 1] - inOffsets[v] : 0);
            totalRows += (cells + cellsPerRow - 1) / cellsPerRow;
            longest = Math.max(longest, cells);
        }
        if (totalRows * rowWords > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("graph too large for one long[]: rows=" + totalRows);
        }
        rows = new long[(int) totalRows * rowWords];
        heads = new int[n];
        out = new long[longest];
        int nextRow = 0;
        for (int v = 0; v < n; v++) {
            int outCount = csr.offsets[v + 1] - csr.offsets[v];
            int inCount = withIn ? inOffsets[v + 1] - inOffsets[v] : 0;
            int cells = outCount + inCount;
            if (cells == 0) {
                heads[v] = -1;
                continue;
            }
            heads[v] = nextRow;
            int listRows = (cells + cellsPerRow - 1) / cellsPerRow;
            for (int r = 0; r < listRows; r++) {
                int row = nextRow++;
                int first = r * cellsPerRow;
                int count = Math.min(cellsPerRow, cells - first);
                long next = r == listRows - 1 ? -1 : row + 1;
                int base = row * rowWords;
                rows[base] = (next << 32) | count;
                for (int c = 0; c < count; c++) {
                    int k = first + c;
                    long neighbourWord;
                    long edgeWord;
                    if (k < outCount) {
                        neighbourWord = csr.targets[csr.offsets[v] + k];
                        edgeWord = ((long) csr.labels[csr.offsets[v] + k] << 32) | (csr.offsets[v] + k);
                    } else {
                        int at = inOffsets[v] + (k - outCount);
                        neighbourWord = inSources[at] | IN_BIT;
                        edgeWord = ((long) inLabels[at] << 32) | at;
                    }
                    rows[base + 1 + c * cellWords] = neighbourWord;
                    if (cellWords == 2) {
                        rows[base + 2 + c * 2] = edgeWord;
                    }
                }
            }
        }
    }

    /** Sum of out-neighbour ids over the int[] CSR (as in {@link AdjacencyScanBenchmark#csrScan}). */
    @Benchmark
    public long csrScan(AdjacencyScanBenchmark.EdgeCounter counter) {
        counter.edges += edges;
        return csr.sumOfOutNeighbours();
    }

    /** Sum of out-neighbour ids over the rows of {@link #layout}. */
    @Benchmark
    public long rowScan(AdjacencyScanBenchmark.EdgeCounter counter) {
        long sum;
        if (layout.equals("cells16")) {
            sum = scan(2);
        } else if (layout.equals("words8")) {
            sum = scan(1);
        } else {
            sum = scanBulk();
        }
        counter.edges += edges;
        return sum;
    }

    /** Cell by cell; {@code cellWords} words a cell, the neighbour word first. */
    private long scan(int cellWords) {
        long[] r = rows;
        long[] o = out;
        int stride = rowWords;
        long sum = 0;
        for (int head : heads) {
            int n = 0;
            int row = head;
            walk:
            while (row != -1) {
                int base = row * stride;
                long header = r[base];
                int count = (int) header;
                for (int c = 0; c < count; c++) {
                    long w = r[base + 1 + c * cellWords];
                    if (w < 0) {
                        break walk; // the first IN cell: no OUT cell follows
                    }
                    o[n++] = w;
                }
                row = (int) (header >> 32);
            }
            sum += sumOf(o, n);
        }
        return sum;
    }

    /** The sum of the first n neighbour ids, as {@code gtranNeighbours} sums its array. */
    private static long sumOf(long[] ids, int n) {
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += (int) ids[i];
        }
        return sum;
    }

    /** Rows of OUT words copied whole; the row holding the first IN word read up to it. */
    private long scanBulk() {
        long[] r = rows;
        long[] o = out;
        int stride = rowWords;
        long sum = 0;
        for (int head : heads) {
            int n = 0;
            int row = head;
            while (row != -1) {
                int base = row * stride;
                long header = r[base];
                int count = (int) header;
                if (r[base + count] >= 0) {
                    System.arraycopy(r, base + 1, o, n, count);
                    n += count;
                } else {
                    for (int c = 0; c < count && r[base + 1 + c] >= 0; c++) {
                        o[n++] = r[base + 1 + c];
                    }
                    break;
                }
                row = (int) (header >> 32);
            }
            sum += sumOf(o, n);
        }
        return sum;
    }
}
