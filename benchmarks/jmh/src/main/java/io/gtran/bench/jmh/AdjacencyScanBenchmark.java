package io.gtran.bench.jmh;

import io.gtran.storage.EdgeCursor;
import io.gtran.storage.EdgeDirection;
import io.gtran.storage.ElementIds;
import io.gtran.storage.GraphStore;
import io.gtran.storage.StoreConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * Full out-adjacency scan of one graph, stored twice: as a plain int[] CSR (offsets + targets) and
 * in a gtran {@link GraphStore} (vertex headers, row-lists of two-word edge cells).
 *
 * <p>Every benchmark visits every vertex in id order and sums the ids of its out-neighbours, so
 * all of them do the same logical work; {@link #setup()} checks that the CSR and gtran scans
 * produce the same checksums and throws {@link IllegalStateException} otherwise.
 *
 * <p><b>Units.</b> Mode is {@link Mode#Throughput} in seconds. The primary score is full-graph
 * scans per second ({@code ops/s}). The secondary result {@code ·edges} (an {@link AuxCounters}
 * counter, normalised by time like the primary score) is <em>out-edges per second</em>: each scan
 * adds {@code edges} to it, for the label-filtered variants too (they still consider every
 * out-edge; the filter just drops about {@code (labels-1)/labels} of them). A counter is used
 * instead of {@code @OperationsPerInvocation(edges)} because that annotation needs a compile-time
 * constant and {@code edges} is a {@code @Param}.
 *
 * <p>What gtran does that the CSR does not: its row-lists hold OUT <em>and</em> IN cells of each
 * vertex (a vertex's OUT cells first, then its IN cells), so the rows an OUT scan sweeps hold
 * about twice as many cells as there are out-edges; a neighbour-only read takes word 0 of each
 * cell, 8 bytes (word 1 lives in the row's side part) against the CSR's 4; rows are linked, not
 * contiguous; every vertex id is checked; and every list read is validated against the list's
 * seqlock stripe.
 *
 * <p>Parameters {@code edgeRowCells} (gtran.storage.edge-row.cells), {@code edgeRowChunkBytes}
 * (gtran.storage.edge-row.chunk-bytes), {@code compact} (run
 * {@link GraphStore#compactAllEdges} after loading: every list dense and in consecutive rows,
 * lists in vertex order) and {@code layout} exist to explain the gtran number, not to flatter it: the default run
 * uses the store's defaults (8 cells, no compaction) and {@code layout=local}. The other layouts
 * are what-if experiments built with the public API only:
 * <ul>
 *   <li>{@code local} (default): both endpoints live in the store; edges inserted in generation
 *       order, so each vertex's row-list holds its OUT and IN cells and its rows are allocated
 *       wherever the pool is at the time (scattered).</li>
 *   <li>{@code outOnly}: targets are given ids on another node (node 1, same slot), so the store
 *       keeps only the OUT cells — what separate OUT and IN row-lists would give an OUT scan.</li>
 *   <li>{@code outOnlySorted}: as {@code outOnly}, inserted in (source, target) order, so each
 *       vertex's rows are appended full and allocated consecutively — what a bulk load or a
 *       relocating compaction would give.</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class AdjacencyScanBenchmark extends GtranForkSettings {
    @Param("100000")
    public int vertices;

    @Param("1000000")
    public int edges;

    /** Distinct edge labels, uniform over edges; the filtered scans select label index 0. */
    @Param("4")
    public int labels;

    /** gtran.storage.edge-row.cells (store default 8). */
    @Param("8")
    public int edgeRowCells;

    /** gtran.storage.edge-row.chunk-bytes: bytes of each direct-buffer chunk of the edge-row pool (store default 1 MiB). */
    @Param("1048576")
    public int edgeRowChunkBytes;

    /** Whether to run {@link GraphStore#compactAllEdges} after loading. */
    @Param("false")
    public boolean compact;

    /** local | outOnly | outOnlySorted; see the class comment. */
    @Param("local")
    public String layout;

    private JmhGraphs.Csr csr;
    private int[] offsets;
    private int[] targets;
    private int[] targetLabels;

    private GraphStore store;
    private long[] vertexIds;
    private int filterLabel;
    private EdgeCursor cursor;
    private long[] neighbourBuffer = new long[64];

    /** Out-edges per second: each full scan adds {@code edges}. Reset every iteration. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class EdgeCounter {
        public long edges;

        @Setup(Level.Iteration)
        public void reset() {
            edges = 0;
        }
    }

    /**
     * Timings of {@link #interleaved}: the CSR scan and the gtran bulk scan timed one after the
     * other in every invocation, so both see the same machine. After each iteration it prints
     * {@code [interleaved] measured|warm-up slowdown=<gtran time / CSR time> csr=<edges/s>
     * gtran=<edges/s>} for that iteration, and at the end of the fork the median, lowest and highest
     * slowdown of its measured iterations.
     */
    @State(Scope.Thread)
    public static class Interleaved {
        double slowdown;
        double csrEdgesPerSecond;
        double gtranEdgesPerSecond;
        private long csrNanos;
        private long gtranNanos;
        private long scans;
        private final List<Double> slowdowns = new ArrayList<>();

        @Setup(Level.Iteration)
        public void reset() {
            csrNanos = 0;
            gtranNanos = 0;
            scans = 0;
        }

        void add(long csr, long gtran, long edges) {
            csrNanos += csr;
            gtranNanos += gtran;
            scans++;
            slowdown = (double) gtranNanos / csrNanos;
            csrEdgesPerSecond = scans * edges * 1e9 / csrNanos;
            gtranEdgesPerSecond = scans * edges * 1e9 / gtranNanos;
        }

        @TearDown(Level.Iteration)
        public void printIteration(IterationParams iteration) {
            if (scans > 0) {
                boolean measured = iteration.getType() == IterationType.MEASUREMENT;
                if (measured) {
                    slowdowns.add(slowdown);
                }
                System.out.printf("%n[interleaved] %s slowdown=%.2f csr=%.1fM gtran=%.1fM edges/s over %d scans%n",
                        measured ? "measured" : "warm-up", slowdown, csrEdgesPerSecond / 1e6, gtranEdgesPerSecond / 1e6, scans);
            }
        }

        @TearDown(Level.Trial)
        public void printFork() {
            if (!slowdowns.isEmpty()) {
                List<Double> sorted = slowdowns.stream().sorted().toList();
                System.out.printf("%n[interleaved] fork: slowdown median=%.2f min=%.2f max=%.2f over %d measured iterations%n",
                        sorted.get(sorted.size() / 2), sorted.get(0), sorted.get(sorted.size() - 1), sorted.size());
            }
        }
    }

    @Setup(Level.Trial)
    public void setup() {
        JmhGraphs.EdgeList list = JmhGraphs.powerLaw(vertices, edges, labels, JmhGraphs.SEED);
        csr = new JmhGraphs.Csr(list);
        offsets = csr.offsets;
        targets = csr.targets;
        targetLabels = csr.labels;

        store = GraphStore.open(StoreConfig.from(Map.of(StoreConfig.EDGE_ROW_CELLS, edgeRowCells, StoreConfig.EDGE_ROW_CHUNK_BYTES, edgeRowChunkBytes)));
        int vertexLabel = store.labels().intern("vertex");
        int[] labelIds = new int[labels];
        for (int l = 0; l < labels; l++) {
            labelIds[l] = store.labels().intern("label" + l);
        }
        filterLabel = labelIds[0];
        vertexIds = JmhGraphs.addVertices(store, vertices, vertexLabel);
        boolean outOnly = !layout.equals("local");
        if (!layout.equals("local") && !layout.equals("outOnly") && !layout.equals("outOnlySorted")) {
            throw new IllegalArgumentException("layout must be local, outOnly or outOnlySorted: " + layout);
        }
        int[] order = layout.equals("outOnlySorted") ? sortedBySourceThenTarget(list) : null;
        long start = System.nanoTime();
        for (int j = 0; j < list.size(); j++) {
            int i = order == null ? j : order[j];
            int t = list.target()[i];
            long in = outOnly ? ElementIds.vertexId(1, 0, t + 1) : vertexIds[t]; // slot t + 1, as vertexIds[t]'s
            store.addEdge(vertexIds[list.source()[i]], in, labelIds[list.label()[i]], 1L, Long.MAX_VALUE);
        }
        long loadNanos = System.nanoTime() - start;
        if (compact) {
            store.compactAllEdges();
        }
        cursor = store.newEdgeCursor();

        long csrAll = csrScan(new EdgeCounter());
        long gtranAll = gtranScan(new EdgeCounter());
        long csrFiltered = csrScanLabelFiltered(new EdgeCounter());
        long gtranFiltered = gtranScanLabelFiltered(new EdgeCounter());
        long bulkAll = gtranNeighbours(new EdgeCounter());
        long bulkFiltered = gtranNeighboursLabelFiltered(new EdgeCounter());
        if (csrAll != gtranAll || csrFiltered != gtranFiltered || csrAll != bulkAll || csrFiltered != bulkFiltered) {
            throw new IllegalStateException("scan checksums differ: csr=" + csrAll + " gtran=" + gtranAll + " bulk=" + bulkAll
                    + " csrFiltered=" + csrFiltered + " gtranFiltered=" + gtranFiltered + " bulkFiltered=" + bulkFiltered);
        }
        long rows = store.liveSlots().get("edge-row");
        System.out.printf("%n[setup] %,d vertices, %,d edges loaded into gtran in %,d ms (%,.0f edges/s); "
                        + "layout=%s, edge rows=%,d of %d cells, fill=%.1f%% (%d cells per edge); edge-row bytes=%,d; checksum=%d%n",
                vertices, edges, loadNanos / 1_000_000, edges * 1e9 / loadNanos, layout, rows, edgeRowCells,
                100.0 * (outOnly ? 1 : 2) * edges / ((double) rows * edgeRowCells), outOnly ? 1 : 2,
                store.reservedBytes().get("edge-row"), csrAll);
    }

    /** Edge indexes ordered by (source, target), for the outOnlySorted layout. */
    private static int[] sortedBySourceThenTarget(JmhGraphs.EdgeList list) {
        long[] keys = new long[list.size()];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = ((long) list.source()[i] << 32) | list.target()[i];
        }
        Integer[] idx = new Integer[keys.length];
        for (int i = 0; i < idx.length; i++) {
            idx[i] = i;
        }
        Arrays.sort(idx, (a, b) -> Long.compare(keys[a], keys[b]));
        int[] out = new int[idx.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = idx[i];
        }
        return out;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        store.close();
    }

    /** Sum of out-neighbour ids over the int[] CSR. */
    @Benchmark
    public long csrScan(EdgeCounter counter) {
        counter.edges += edges;
        return csr.sumOfOutNeighbours();
    }

    /** As {@link #csrScan} over out-edges whose label is the filter label (a parallel int[] of labels). */
    @Benchmark
    public long csrScanLabelFiltered(EdgeCounter counter) {
        int[] off = offsets;
        int[] tgt = targets;
        int[] lab = targetLabels;
        long sum = 0;
        for (int v = 0, n = off.length - 1; v < n; v++) {
            for (int i = off[v], end = off[v + 1]; i < end; i++) {
                if (lab[i] == 0) {
                    sum += tgt[i];
                }
            }
        }
        counter.edges += edges;
        return sum;
    }

    /**
     * Sum of out-neighbour ids through one reused {@link EdgeCursor} per vertex, direction OUT, any
     * label. A neighbour id's header slot, in this freshly loaded store, is one past the CSR's vertex
     * index (slot 0 is never used), so the sums of {@link #index} are comparable.
     */
    @Benchmark
    public long gtranScan(EdgeCounter counter) {
        return sumWithCursor(EdgeCursor.ANY_LABEL, counter);
    }

    /** As {@link #gtranScan} with the label filter pushed into the cursor. */
    @Benchmark
    public long gtranScanLabelFiltered(EdgeCounter counter) {
        return sumWithCursor(filterLabel, counter);
    }

    private long sumWithCursor(int label, EdgeCounter counter) {
        EdgeCursor c = cursor;
        long sum = 0;
        for (long v : vertexIds) {
            c.open(v, EdgeDirection.OUT, label);
            while (c.next()) {
                sum += index(c.neighbour());
            }
        }
        counter.edges += edges;
        return sum;
    }

    /**
     * Sum of out-neighbour ids through {@link GraphStore#neighbours}, the bulk read a traversal
     * uses when it needs only neighbour ids: one validated snapshot per vertex into a reused array.
     */
    @Benchmark
    public long gtranNeighbours(EdgeCounter counter) {
        return sumNeighbours(EdgeCursor.ANY_LABEL, counter);
    }

    /** As {@link #gtranNeighbours} with the label filter. */
    @Benchmark
    public long gtranNeighboursLabelFiltered(EdgeCounter counter) {
        return sumNeighbours(filterLabel, counter);
    }

    /**
     * {@link #csrScan} then {@link #gtranNeighbours}, each timed: the machine's noise (other
     * tenants, frequency) changes over seconds, so two benchmarks run apart can see different
     * machines, while two scans a few milliseconds apart see the same one. Read the
     * {@code [interleaved]} lines (see {@link Interleaved}); the ops/s score counts pairs of scans.
     */
    @Benchmark
    public long interleaved(Interleaved times) {
        long t0 = System.nanoTime();
        long csrSum = csr.sumOfOutNeighbours();
        long t1 = System.nanoTime();
        long gtranSum = sumNeighbours(EdgeCursor.ANY_LABEL, new EdgeCounter());
        long t2 = System.nanoTime();
        times.add(t1 - t0, t2 - t1, edges);
        return csrSum ^ gtranSum;
    }

    private long sumNeighbours(int label, EdgeCounter counter) {
        GraphStore s = store;
        long[] buffer = neighbourBuffer;
        long sum = 0;
        for (long v : vertexIds) {
            int n = s.neighbours(v, EdgeDirection.OUT, label, buffer);
            if (n > buffer.length) {
                buffer = new long[Integer.highestOneBit(n) * 2];
                neighbourBuffer = buffer;
                n = s.neighbours(v, EdgeDirection.OUT, label, buffer);
            }
            for (int i = 0; i < n; i++) {
                sum += index(buffer[i]);
            }
        }
        counter.edges += edges;
        return sum;
    }

    /** The CSR index of a vertex of this freshly loaded store: its slot less the reserved slot 0. */
    private static int index(long vertexId) {
        return (int) (vertexId >>> ElementIds.SLOT_SHIFT) - 1;
    }
}
